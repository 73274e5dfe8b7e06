//! A row of the registry: an action's spec joined to its handler and its
//! renderer, behind one object-safe trait so the table can hold every
//! action whatever its result type.

use std::marker::PhantomData;

use serde_json::Value as Json;

use crate::actions::{Output, Request, help, invoke};
use crate::contract::ActionSpec;
use crate::error::ToolResult;
use crate::render::{Headline, Line, Render};
use crate::results::from_json;
use crate::text::json_text;

/// What the registry knows of one action.
pub trait Row: Sync {
    /// The action's spec.
    fn spec(&self) -> &'static ActionSpec;
    /// Runs a call of the action: its summary and the JSON of its result.
    fn call(&self, req: Request) -> ToolResult<Output>;
    /// Renders result `data` (JSON of the action's result); `None` when it
    /// does not have the result's shape.
    fn render(&self, data: &Json) -> Option<Vec<Line>>;
    /// What the collapsed form of a reply with result `data` keeps.
    fn headline(&self, data: &Json) -> Headline;
}

/// The row of action `A` ([`Render`] implies [`crate::actions::Action`]):
/// its handler's result is its renderer's input, by type.
pub struct Entry<A>(PhantomData<fn() -> A>);

impl<A: Render> Entry<A> {
    /// The row. An action runs with validated params in a transaction, so
    /// its tool must take params (checked when the table is compiled).
    pub const ROW: Self = {
        assert!(
            A::SPEC.tool.takes_params,
            "an Action of a tool without params"
        );
        Entry(PhantomData)
    };
}

impl<A: Render> Row for Entry<A> {
    fn spec(&self) -> &'static ActionSpec {
        A::SPEC
    }

    fn call(&self, req: Request) -> ToolResult<Output> {
        invoke::<A>(req).map(|done| Output {
            summary: done.summary,
            data: json_text(&done.result),
        })
    }

    fn render(&self, data: &Json) -> Option<Vec<Line>> {
        A::render(from_json(data)?)
    }

    fn headline(&self, data: &Json) -> Headline {
        from_json(data).map_or(Headline::Lines(1), |result| A::headline(&result))
    }
}

/// The row of a `task_help` action: no params, no store; it answers from
/// the registry's own listing.
pub struct Help(&'static ActionSpec);

impl Help {
    /// The row of help action `spec`, whose tool takes no params (checked
    /// when the table is compiled).
    pub const fn new(spec: &'static ActionSpec) -> Self {
        assert!(
            !spec.tool.takes_params,
            "a help action of a tool with params"
        );
        Help(spec)
    }
}

impl Row for Help {
    fn spec(&self) -> &'static ActionSpec {
        self.0
    }

    fn call(&self, req: Request) -> ToolResult<Output> {
        help::run(self.0.name, req.params, &super::listing()).map(|done| Output {
            summary: done.summary,
            data: json_text(&done.result),
        })
    }

    fn render(&self, data: &Json) -> Option<Vec<Line>> {
        crate::render::help::help(from_json(data)?)
    }

    fn headline(&self, _data: &Json) -> Headline {
        Headline::Lines(1)
    }
}

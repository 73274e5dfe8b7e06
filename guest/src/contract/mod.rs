//! The tool catalogue: the single definition of every tool, action and
//! parameter, and of the handler and renderer of each action. The validator,
//! the JSON Schemas of the catalogue, `task_help`, the dispatch of
//! [`crate::actions::call_tool`] and of [`crate::render::render_result`] are
//! all driven by these tables, so they cannot drift apart.

mod defs;
mod json_schema;
mod request;
mod suggest;
mod validate;

pub use defs::{
    BATCH_ITEM, DEFAULT_LEASE_MS, DEFAULT_PAGE, DEFAULT_TASK_PAGE, MAX_BATCH, MAX_TASK_PAGE, TOOLS,
    find_tool,
};
pub use json_schema::{action_schema, tool_input_schema};
pub use request::{parse_arguments, shown_name, unknown_tool};
pub use suggest::closest as closest_name;
pub use validate::{Params, validate};

use crate::actions::{Call, Output};
use crate::error::ToolResult;
use crate::glue::ToolAnnotations;
use crate::ids::IdKind;
use crate::render::Line;

/// The shape and limits of one parameter.
#[derive(Debug, Clone, Copy)]
pub enum Ty {
    /// A string of `min..=max` characters.
    Str {
        /// Fewest characters.
        min: usize,
        /// Most characters.
        max: usize,
    },
    /// An agent id (1–200 characters); `nullable` also allows `null`.
    Agent {
        /// Whether `null` is accepted too.
        nullable: bool,
    },
    /// `true` or `false`.
    Bool,
    /// An integer in `min..=max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of the given strings.
    Enum(&'static [&'static str]),
    /// One of the given strings, or a non-empty array of them.
    EnumOrList(&'static [&'static str]),
    /// An id of the given kind.
    Id(IdKind),
    /// A non-empty array of ids of the given kind (at most `max`).
    Ids(IdKind, usize),
    /// An array of task ids or, inside add_many, batch-local refs.
    Deps {
        /// Whether batch-local refs are accepted (inside add_many).
        refs: bool,
    },
    /// An RFC 3339 time.
    Time,
    /// An opaque pagination cursor from a previous result.
    Cursor,
    /// The add_many `tasks` array: 1–`max` objects shaped by [`defs::BATCH_ITEM`].
    Items {
        /// Most items per call.
        max: usize,
    },
}

/// One parameter of an action.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The key in `params`.
    pub name: &'static str,
    /// Its type and limits.
    pub ty: Ty,
    /// Whether it must be present.
    pub required: bool,
    /// One short sentence for the schema and help.
    pub doc: &'static str,
}

/// How an action reaches a list, which decides whether the private-list
/// bypass parameters apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// No list involved (help, list creation, find).
    None,
    /// Addresses a list or task: private lists need ownership or a bypass.
    List,
}

/// One action of a tool.
#[derive(Debug, Clone, Copy)]
pub struct ActionSpec {
    /// Action name, e.g. `claim_next`.
    pub name: &'static str,
    /// One line for the catalogue and help.
    pub summary: &'static str,
    /// Action-specific parameters (the common ones are added by [`ActionSpec::params`]).
    pub own_params: &'static [Param],
    /// Whether private-list bypass parameters apply.
    pub access: Access,
    /// Whether the action changes state (and so runs in a write transaction).
    pub writes: bool,
    /// A worked example of `params`, as JSON; checked against this spec by tests.
    pub example: &'static str,
    /// What runs the action.
    pub handler: Handler,
    /// What renders its result for a person: `None` when the data lacks the
    /// shape it needs (the generic view is shown instead).
    pub render: Renderer,
}

/// Runs one action of a tool that takes params, inside the call's
/// transaction.
pub type CallHandler = fn(&mut Call) -> ToolResult<Output>;

/// Renders the result data of one action; `None` when the data does not
/// have the action's result shape.
pub type Renderer = fn(&serde_json::Value) -> Option<Vec<Line>>;

/// How an action runs.
#[derive(Debug, Clone, Copy)]
pub enum Handler {
    /// An action of a tool with params: validated params, identity and one
    /// transaction ([`Call`]).
    Call(CallHandler),
    /// A `task_help` action: no params, no store; gets the action name.
    Help(fn(&str) -> ToolResult<Output>),
}

/// One tool of the contract.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    /// Tool name, e.g. `task_items`.
    pub name: &'static str,
    /// Short human title.
    pub title: &'static str,
    /// What the tool is for (the catalogue adds the action list).
    pub purpose: &'static str,
    /// The actions.
    pub actions: &'static [ActionSpec],
    /// Whether calls carry a `params` object (`task_help` takes only its
    /// action).
    pub takes_params: bool,
    /// MCP annotations, as the catalogue publishes them.
    pub annotations: ToolAnnotations,
    /// One line for the system prompt's list of tools (Pi's `promptSnippet`).
    pub snippet: &'static str,
    /// Guideline bullets for the system prompt, each naming its tool.
    pub guidelines: &'static [&'static str],
}

impl ToolSpec {
    /// The action named `name`, if the tool has it.
    pub fn action(&self, name: &str) -> Option<&'static ActionSpec> {
        self.actions.iter().find(|a| a.name == name)
    }

    /// The action names, for messages.
    pub fn action_names(&self) -> Vec<&'static str> {
        self.actions.iter().map(|a| a.name).collect()
    }
}

impl ActionSpec {
    /// Every accepted parameter: the action's own, then `agent_id`, then the
    /// bypass pair for actions that reach a list.
    pub fn params(&self) -> impl Iterator<Item = &'static Param> + '_ {
        let bypass: &'static [Param] = if self.access == Access::List {
            &defs::BYPASS
        } else {
            &[]
        };
        self.own_params
            .iter()
            .chain(defs::AGENT.iter())
            .chain(bypass.iter())
    }
}

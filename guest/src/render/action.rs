//! A renderer is tied to its action by type: [`Render`] is implemented for
//! an [`Action`] and reads exactly that action's `Result`, so a renderer and
//! a handler cannot disagree on the shape of the data.

use super::{Line, generic};
use crate::actions::Action;
use crate::results::to_json;

/// The human view of one action's result.
pub trait Render: Action {
    /// The result as lines; `None` (or no lines) when it lacks what the view
    /// needs: the generic key/value view is shown instead.
    fn render(result: Self::Result) -> Option<Vec<Line>>;

    /// What the collapsed form of a reply keeps ([`Headline`]): by default
    /// the expanded form's first line.
    fn headline(_result: &Self::Result) -> Headline {
        Headline::Lines(1)
    }
}

/// What the collapsed form of a reply shows of its expanded form.
#[derive(Debug, Clone, PartialEq)]
pub enum Headline {
    /// Its first lines (a list's name and its counters make two).
    Lines(usize),
    /// A line of its own, the expanded form being a bare table (its size).
    Own(Line),
}

/// `result` of action `A` as lines: its renderer's, else the generic view.
pub fn render_as<A: Render>(result: A::Result) -> Vec<Line> {
    let data = to_json(&result);
    match A::render(result) {
        Some(lines) if !lines.is_empty() => lines,
        _ => generic::render(&data),
    }
}

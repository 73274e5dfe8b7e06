//! What a person sees of the lists outside tool calls: the widget above
//! Pi's editor (and `tasklists watch`), the slash commands' output, their
//! argument completions, and the working memory put back in front of the
//! model after a compaction. Every host shows these lines as they are.
//!
//! One concern a file: `visible.rs` decides which lists a viewer sees (the
//! widget, the commands and the completions all ask it), `read.rs` how a
//! view reads the store, `board.rs` / `widget.rs` / `rows.rs` / `frame.rs`
//! the widget (`unreachable.rs`: its one line while the host cannot read
//! the store), `commands/` the slash commands, `complete.rs` their
//! completions, `memory.rs` the compaction memory.

mod board;
pub(crate) mod commands;
mod complete;
mod frame;
pub mod inbox;
pub(crate) mod layout;
mod memory;
pub mod notices;
pub(crate) mod read;
mod rows;
#[cfg(test)]
mod tests;
mod unreachable;
pub(crate) mod visible;
mod widget;

use crate::bindings::{
    CallContext, CommandEffect, CommandInfo, Completion, Line, StoreDown, WidgetView,
};
use crate::clock::Clock;
use crate::render::{Style, line};
use crate::store::Store;

/// Narrowest layout: a frame around a few characters. Narrower hosts are
/// laid out for this (no real terminal is narrower).
const MIN_WIDTH: usize = 10;
/// Widest layout: a bound for hosts that pass a huge or unknown width.
const MAX_WIDTH: usize = 400;
/// The layout width when the host does not know its own (0).
const DEFAULT_WIDTH: usize = 80;

/// The columns to lay out for, from the host's `width`.
pub(crate) fn columns(width: u32) -> usize {
    match usize::try_from(width).unwrap_or(MAX_WIDTH) {
        0 => DEFAULT_WIDTH,
        w => w.clamp(MIN_WIDTH, MAX_WIDTH),
    }
}

/// The widget's lines for `view` (none when no list is visible): at most
/// ten lines in a frame, or one error line when the store failed.
pub fn widget(
    ctx: &CallContext,
    view: &WidgetView,
    store: &dyn Store,
    clock: &dyn Clock,
) -> Vec<Line> {
    let width = columns(view.width);
    match board::load(ctx, view, store, clock) {
        Ok(Some(board)) => widget::lines(&board, view.mode, width),
        Ok(None) => Vec::new(),
        Err(e) => {
            // One line, whatever the error says: the widget never grows.
            let first = crate::render::render_error(&e).into_iter().next();
            let l = first.unwrap_or_else(|| line("✗ tasks unavailable", Style::Error));
            vec![frame::fit(&l, width)]
        }
    }
}

/// The widget's one line while the host cannot read the store (`why`),
/// laid out for `width`; the store is not touched.
pub fn widget_unreachable(why: &StoreDown, width: u32) -> Vec<Line> {
    vec![unreachable::line(why, columns(width))]
}

/// The slash commands, in menu order.
pub fn commands() -> Vec<CommandInfo> {
    commands::infos()
}

pub use commands::PersonAct;

/// Runs the slash command `name` with its argument text, laid out for
/// `width` columns; `confirmed` once the user said yes to its question.
/// `act` carries out a person's action (`task-approve`, `task-reject`).
#[allow(
    clippy::too_many_arguments,
    reason = "the WIT call's arguments, plus the person's entry point"
)]
pub fn run_command(
    name: &str,
    args: &str,
    ctx: &CallContext,
    width: u32,
    confirmed: bool,
    store: &dyn Store,
    clock: &dyn Clock,
    act: PersonAct,
) -> CommandEffect {
    let run = commands::runner(ctx, width, confirmed, store, clock, act);
    commands::run(name, args, &run)
}

/// Suggestions for the arguments of `name` given what was typed so far.
pub fn complete(
    name: &str,
    prefix: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> Vec<Completion> {
    commands::complete(name, prefix, ctx, store, clock)
}

/// The agent's current claims as compact text for the model (empty
/// without an identity or a claim).
pub fn compaction_memory(ctx: &CallContext, store: &dyn Store, clock: &dyn Clock) -> String {
    memory::text(ctx, store, clock)
}

//! What a person sees of the lists outside tool calls: the widget above
//! Pi's editor (and `tasklists watch`), the slash commands' output, their
//! argument completions, and the working memory put back in front of the
//! model after a compaction. Every host shows these lines as they are.

use crate::clock::Clock;
use crate::glue::{CallContext, CommandEffect, CommandInfo, Completion, Line, WidgetView};
use crate::store::Store;

/// The widget's lines for `view` (none when no list is visible).
pub fn widget(
    _ctx: &CallContext,
    _view: &WidgetView,
    _store: &dyn Store,
    _clock: &dyn Clock,
) -> Vec<Line> {
    Vec::new()
}

/// The slash commands, in menu order.
pub fn commands() -> Vec<CommandInfo> {
    Vec::new()
}

/// Runs the slash command `name` with its argument text.
pub fn run_command(
    _name: &str,
    _args: &str,
    _ctx: &CallContext,
    _width: u32,
    _confirmed: bool,
    _store: &dyn Store,
    _clock: &dyn Clock,
) -> CommandEffect {
    CommandEffect::Show(crate::glue::CommandOutput {
        lines: Vec::new(),
        failed: true,
    })
}

/// Suggestions for the arguments of `name` given what was typed so far.
pub fn complete(
    _name: &str,
    _prefix: &str,
    _ctx: &CallContext,
    _store: &dyn Store,
    _clock: &dyn Clock,
) -> Vec<Completion> {
    Vec::new()
}

/// The agent's current claims as compact text for the model.
pub fn compaction_memory(_ctx: &CallContext, _store: &dyn Store, _clock: &dyn Clock) -> String {
    String::new()
}

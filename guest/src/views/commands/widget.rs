//! `task-widget on|off|compact|full|refresh`: a setting only the host
//! keeps; the component names the change and words the confirmation.

use super::{Run, usage_error};
use crate::bindings::{CommandEffect, WidgetAction, WidgetChange};
use crate::render::{Style, line};

/// The widget actions, their words and what each confirmation says.
const ACTIONS: &[(&str, WidgetAction, &str)] = &[
    ("on", WidgetAction::On, "show the task widget"),
    (
        "off",
        WidgetAction::Off,
        "hide the task widget until task-widget on",
    ),
    ("compact", WidgetAction::Compact, "lists and your own tasks"),
    (
        "full",
        WidgetAction::Full,
        "lists, your tasks, then every open task that fits",
    ),
    (
        "refresh",
        WidgetAction::Refresh,
        "draw the widget again now",
    ),
];

/// The actions' words and what each does, for the completions.
pub(crate) const WORDS: &[(&str, &str)] = &words();

/// [`ACTIONS`] without the actions.
const fn words() -> [(&'static str, &'static str); ACTIONS.len()] {
    let mut out = [("", ""); ACTIONS.len()];
    let mut i = 0;
    while i < ACTIONS.len() {
        out[i] = (ACTIONS[i].0, ACTIONS[i].2);
        i += 1;
    }
    out
}

/// Runs `task-widget` with its words.
pub(crate) fn run(words: &[&str], run: &Run) -> CommandEffect {
    let found = match words {
        [word] => ACTIONS.iter().find(|(w, ..)| w == word),
        _ => None,
    };
    let Some((_, action, _)) = found else {
        let given = if words.is_empty() {
            "task-widget needs an action".to_string()
        } else {
            format!(
                "task-widget does not know {}",
                crate::text::quote(&words.join(" "))
            )
        };
        return run.fail(&usage_error("task-widget", given));
    };
    let (text, style) = match action {
        WidgetAction::On => ("✓ task widget on", Style::Success),
        WidgetAction::Off => (
            "task widget off · task-widget on shows it again",
            Style::Muted,
        ),
        WidgetAction::Compact => (
            "✓ task widget: compact (lists and your tasks)",
            Style::Success,
        ),
        WidgetAction::Full => (
            "✓ task widget: full (every open task that fits)",
            Style::Success,
        ),
        WidgetAction::Refresh => ("↻ task widget refreshed", Style::Muted),
    };
    CommandEffect::SetWidget(WidgetChange {
        action: *action,
        lines: super::super::layout::fit_all(vec![line(text, style)], run.width),
    })
}

//! A person's refusals in the words of the surface they act on: a shell's
//! flags and verbs, the dashboard's keys, the board's buttons, Pi's slash
//! commands. The rules are the tools' own; only how a field, a way out or
//! a time is named differs, so a person at a shell is never told about a
//! tool's parameters and a person in Pi never about a shell's verbs.

use super::keys::KEYS;
use super::verbs::Verb;
use crate::bindings::PersonSurface;
use crate::clock::format_ms;
use crate::error::{ErrorCode, ToolError};
use crate::render::fmt;

/// What the person does on `surface` to run `verb` on the task (or list)
/// `target`: a shell's command line, the dashboard's key, the board's
/// button, Pi's way to it.
pub(crate) fn how(surface: PersonSurface, verb: &Verb, target: &str) -> String {
    let key = KEYS.iter().find(|k| k.action == verb.name);
    match (surface, key) {
        (PersonSurface::Shell, _) => format!("`tasklists {} {target}`", verb.name),
        (PersonSurface::Dashboard, Some(key)) => format!("the key {} ({})", key.shown(), key.label),
        (PersonSurface::Board, Some(key)) => format!("its {} button", key.label),
        (PersonSurface::Command, Some(key)) => {
            format!("/tasks, then the key {} ({})", key.shown(), key.label)
        }
        (_, None) => format!("`tasklists {} {target}` at a shell", verb.name),
    }
}

/// Where `surface` shows the ids a target is named by.
pub(crate) fn where_ids_are(surface: PersonSurface) -> &'static str {
    match surface {
        PersonSurface::Shell => {
            "`tasklists task-lists` and `tasklists tasks LIST` show the ids; give more of one"
        }
        PersonSurface::Command => "/task-lists and /tasks show the ids; give more of one",
        PersonSurface::Dashboard | PersonSurface::Board => {
            "the ids are on the screen; give more of one"
        }
    }
}

/// A moment as the person's surfaces show it (the time of day, a date
/// when another day), and how far it is from `now`: `05:12 (in 4 min)`.
pub(crate) fn when(ms: i64, now: i64) -> String {
    let at = fmt::compact_date(&format_ms(ms), Some(&format_ms(now)));
    let secs = (ms - now) / 1000;
    if secs > 0 {
        format!("{at} (in {})", fmt::duration(secs))
    } else {
        format!("{at} ({} ago)", fmt::duration(-secs))
    }
}

/// A refusal for want of a person, its hint naming the way `surface`
/// names one (a shell: its flag and variable; elsewhere every host's).
pub(crate) fn no_person(mut e: ToolError, surface: PersonSurface) -> ToolError {
    if surface == PersonSurface::Shell && e.code == ErrorCode::AgentRequired {
        e.hint =
            "name yourself: --person NAME or TASKLISTS_PERSON=NAME; the name audits your actions"
                .into();
    }
    e
}

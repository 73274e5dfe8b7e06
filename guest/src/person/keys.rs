//! The dashboard's key map: what `key-map` publishes (what hosts bind and
//! what the footer shows) and the dashboard's input handling reads. The
//! dashboard's own moves are the tables below; the keys that run a verb
//! are the verbs' own (`verbs.rs`), between them in the footer.

use std::sync::LazyLock;

use super::verbs::{self, Verb};
use crate::bindings::{KeyBinding, KeyInput};

/// What a key does: one of the dashboard's own moves, or a person's verb.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Does {
    /// Select the row above.
    SelectPrevious,
    /// Select the row below.
    SelectNext,
    /// Open the selection (a list's tasks, a task's details).
    Open,
    /// Back to where the selection was opened from.
    Back,
    /// Close the dashboard.
    Close,
    /// Show or hide done and canceled tasks.
    HideFinished,
    /// Focus the board page's search box (the web board's own: the
    /// terminal dashboard has no search, and neither shows nor does it).
    Find,
    /// Run a verb, as its key says.
    Verb(&'static Verb, &'static verbs::Key),
}

/// One key of the map.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Key {
    /// The key as hosts name it.
    pub key: &'static str,
    /// What it does.
    pub does: Does,
    /// The action's name hosts see (a person's verb, or the dashboard's
    /// own move).
    pub action: &'static str,
    /// The footer's label.
    pub label: &'static str,
    /// What it asks before it runs.
    pub input: KeyInput,
}

/// One of the dashboard's own moves.
const fn own(key: &'static str, does: Does, action: &'static str, label: &'static str) -> Key {
    Key {
        key,
        does,
        action,
        label,
        input: KeyInput::None,
    }
}

/// The moves the footer shows before the verbs' keys.
static SELECT: &[Key] = &[
    own("up", Does::SelectPrevious, "select-previous", "select"),
    own("k", Does::SelectPrevious, "select-previous", "select"),
    own("down", Does::SelectNext, "select-next", "select"),
    own("j", Does::SelectNext, "select-next", "select"),
    own("enter", Does::Open, "open", "open"),
    own("backspace", Does::Back, "back", "back"),
    own("left", Does::Back, "back", "back"),
];

/// The moves the footer shows after the verbs' keys.
static VIEW: &[Key] = &[
    own("f", Does::HideFinished, "hide-finished", "hide finished"),
    // The page also takes Ctrl/⌘K (find.js): a chord is no key of the map.
    own("/", Does::Find, "find", "search (also ctrl/⌘ K)"),
    own("escape", Does::Close, "close", "close"),
    own("q", Does::Close, "close", "close"),
];

/// The keys, in footer order (keys of one action side by side: the footer
/// shows them as one entry).
pub(crate) static KEYS: LazyLock<Vec<Key>> = LazyLock::new(|| {
    let verbs = verbs::VERBS.iter().flat_map(|verb| {
        verb.keys.iter().map(move |k| Key {
            key: k.key,
            does: Does::Verb(verb, k),
            action: verb.name,
            label: k.label,
            input: k.input(verb),
        })
    });
    SELECT
        .iter()
        .copied()
        .chain(verbs)
        .chain(VIEW.iter().copied())
        .collect()
});

impl Key {
    /// Whether the terminal dashboard does it (and its footer shows it):
    /// not the web board's own keys.
    pub(crate) fn on_terminal(&self) -> bool {
        !matches!(self.does, Does::Find)
    }

    /// Whether it changes the store (hidden on a read-only dashboard).
    pub(crate) fn writes(&self) -> bool {
        matches!(self.does, Does::Verb(verb, _) if verb.writes)
    }

    /// The key as the WIT's binding.
    pub(crate) fn binding(&self) -> KeyBinding {
        KeyBinding {
            key: self.key.into(),
            action: self.action.into(),
            label: self.label.into(),
            input: self.input,
            writes: self.writes(),
        }
    }

    /// How the footer names the key (arrows as arrows).
    pub(crate) fn shown(&self) -> &'static str {
        match self.key {
            "up" => "↑",
            "down" => "↓",
            "left" => "←",
            "right" => "→",
            "escape" => "esc",
            "backspace" => "⌫",
            other => other,
        }
    }
}

/// The binding of `key` (hosts name keys as the map does).
pub(crate) fn find(key: &str) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.key == key)
}

/// The key that runs `verb` with `preset` among its fields, or runs it
/// instead of its own verb (block's key for unblock): what the board's
/// form of it shows.
pub(crate) fn of(verb: &Verb, preset: &[(&str, &str)]) -> Option<&'static Key> {
    KEYS.iter().find(|k| match k.does {
        Does::Verb(v, key) => {
            let runs = v == verb || key.instead.is_some_and(|(_, other)| other == verb);
            runs && key.preset.iter().all(|p| preset.contains(p))
        }
        _ => false,
    })
}

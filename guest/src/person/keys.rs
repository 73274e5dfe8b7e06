//! The dashboard's key map: the one table both `key-map` (what hosts bind
//! and what the footer shows) and the dashboard's input handling read.

use crate::bindings::{KeyBinding, KeyInput};

/// What a key does: one of the dashboard's own moves, or a person's action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    /// Approve the selected list (or task awaiting approval).
    Approve,
    /// Reject the list, with a reason.
    Reject,
    /// Add a task (after the selected one).
    Add,
    /// Retitle the task.
    Edit,
    /// Cycle the task's priority.
    Priority,
    /// Block the task, or unblock it.
    Block,
    /// Cancel the task (asking the outcome), or restore a closed one.
    Cancel,
    /// Assign the task (empty: unassign).
    Assign,
    /// Move the task one up.
    MoveUp,
    /// Move the task one down.
    MoveDown,
    /// Move the task first.
    MoveFirst,
    /// Close the task as done (outcome, then the verification result
    /// when it has a verification).
    Done,
    /// Take back a task an agent is running (after a confirmation).
    Release,
    /// Delete the task (or list), after a confirmation.
    Delete,
}

/// One key of the map.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Key {
    /// The key as hosts name it.
    pub key: &'static str,
    /// What it does.
    pub does: Does,
    /// The action's name hosts see (a person's action, or the dashboard's
    /// own move).
    pub action: &'static str,
    /// The footer's label.
    pub label: &'static str,
    /// What it asks before it runs.
    pub input: KeyInput,
}

const fn key(
    key: &'static str,
    does: Does,
    action: &'static str,
    label: &'static str,
    input: KeyInput,
) -> Key {
    Key {
        key,
        does,
        action,
        label,
        input,
    }
}

use KeyInput::{Confirm, None as Now, Text};

/// The keys, in footer order (keys of one action side by side: the footer
/// shows them as one entry).
pub(crate) static KEYS: &[Key] = &[
    key("up", Does::SelectPrevious, "select-previous", "select", Now),
    key("k", Does::SelectPrevious, "select-previous", "select", Now),
    key("down", Does::SelectNext, "select-next", "select", Now),
    key("j", Does::SelectNext, "select-next", "select", Now),
    key("enter", Does::Open, "open", "open", Now),
    key("backspace", Does::Back, "back", "back", Now),
    key("left", Does::Back, "back", "back", Now),
    key("A", Does::Approve, "approve", "approve", Confirm),
    key("R", Does::Reject, "reject", "reject", Text),
    key("a", Does::Add, "add", "add", Text),
    key("e", Does::Edit, "edit", "edit", Text),
    key("p", Does::Priority, "priority", "priority", Now),
    key("b", Does::Block, "block", "block/unblock", Now),
    key("c", Does::Cancel, "cancel", "cancel/restore", Text),
    key("s", Does::Assign, "assign", "assign", Text),
    key("K", Does::MoveUp, "move", "move up", Now),
    key("J", Does::MoveDown, "move", "move down", Now),
    key("T", Does::MoveFirst, "move", "move first", Now),
    key("x", Does::Done, "done", "done", Text),
    key("r", Does::Release, "release", "release", Confirm),
    key("d", Does::Delete, "delete", "delete", Confirm),
    key(
        "f",
        Does::HideFinished,
        "hide-finished",
        "hide finished",
        Now,
    ),
    key("escape", Does::Close, "close", "close", Now),
    key("q", Does::Close, "close", "close", Now),
];

impl Key {
    /// Whether it changes the store (hidden on a read-only dashboard).
    pub(crate) const fn writes(&self) -> bool {
        !matches!(
            self.does,
            Does::SelectPrevious
                | Does::SelectNext
                | Does::Open
                | Does::Back
                | Does::Close
                | Does::HideFinished
        )
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

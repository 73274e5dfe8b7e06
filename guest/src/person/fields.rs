//! A person's request read: the action's name ([`Verb`]) and its fields,
//! a JSON object whose keys each action lists; anything else is refused
//! naming what the action takes.

use serde_json::{Map, Value};

use crate::bindings::PersonSurface;
use crate::error::{ToolError, ToolResult};
use crate::text::quote;

/// A person's action, by the name the key map and the verbs use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verb {
    /// Approve a list, or a task awaiting approval.
    Approve,
    /// Reject a list, with a reason.
    Reject,
    /// Add a task to a list (after a task).
    Add,
    /// Change a task's texts.
    Edit,
    /// Set or cycle a task's priority.
    Priority,
    /// Pause a task.
    Block,
    /// Resume a paused task.
    Unblock,
    /// Close a task as canceled, with an outcome.
    Cancel,
    /// Reopen a closed task.
    Restore,
    /// Reserve a task for an agent.
    Assign,
    /// Release a task's reservation.
    Unassign,
    /// Move a task in its list.
    Move,
    /// Close a task as done, with an outcome (and a verification result).
    Done,
    /// Take back a task an agent is running (to todo, or reserved for
    /// another agent).
    Release,
    /// Soft-delete a task or a list (asks first).
    Delete,
    /// What `claim_next` would hand out, without claiming.
    Next,
}

/// What an action may be aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Aim {
    /// A list only.
    List,
    /// A task only.
    Task,
    /// A list or a task.
    Either,
}

impl Verb {
    /// Every action, in the order the WIT lists them.
    pub(crate) const ALL: [Verb; 16] = [
        Verb::Approve,
        Verb::Reject,
        Verb::Add,
        Verb::Edit,
        Verb::Priority,
        Verb::Block,
        Verb::Unblock,
        Verb::Cancel,
        Verb::Restore,
        Verb::Assign,
        Verb::Unassign,
        Verb::Move,
        Verb::Done,
        Verb::Release,
        Verb::Delete,
        Verb::Next,
    ];

    /// Its name.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            Verb::Approve => "approve",
            Verb::Reject => "reject",
            Verb::Add => "add",
            Verb::Edit => "edit",
            Verb::Priority => "priority",
            Verb::Block => "block",
            Verb::Unblock => "unblock",
            Verb::Cancel => "cancel",
            Verb::Restore => "restore",
            Verb::Assign => "assign",
            Verb::Unassign => "unassign",
            Verb::Move => "move",
            Verb::Done => "done",
            Verb::Release => "release",
            Verb::Delete => "delete",
            Verb::Next => "next",
        }
    }

    /// The action named `name`, or `invalid_params` naming them all.
    pub(crate) fn parse(name: &str) -> ToolResult<Verb> {
        let name = name.trim();
        Verb::ALL
            .into_iter()
            .find(|v| v.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Verb::ALL.iter().map(|v| v.name()).collect();
                let mut message = format!(
                    "unknown action {}; a person's actions are {}",
                    quote(name),
                    names.join(", ")
                );
                if let Some(near) = crate::contract::closest_name(name, names.iter().copied()) {
                    message.push_str(&format!(" (did you mean {near}?)"));
                }
                ToolError::invalid(message, "")
            })
    }

    /// What it may be aimed at.
    pub(crate) const fn aim(self) -> Aim {
        match self {
            Verb::Approve | Verb::Add | Verb::Delete => Aim::Either,
            Verb::Reject | Verb::Next => Aim::List,
            _ => Aim::Task,
        }
    }

    /// The fields it takes; the required ones marked.
    pub(crate) const fn fields(self) -> &'static [(&'static str, bool)] {
        match self {
            Verb::Approve => &[("note", false)],
            Verb::Reject => &[("reason", true)],
            Verb::Add => &[
                ("title", true),
                ("priority", false),
                ("after", false),
                ("description", false),
                ("verification", false),
            ],
            Verb::Edit => &[
                ("title", false),
                ("description", false),
                ("verification", false),
                ("notes", false),
            ],
            Verb::Priority => &[("priority", true)],
            Verb::Cancel => &[("outcome", true)],
            Verb::Assign => &[("agent", true)],
            Verb::Move => &[("to", true)],
            Verb::Done => &[("outcome", true), ("verification_result", false)],
            Verb::Release => &[("agent", false)],
            _ => &[],
        }
    }

    /// How its field `field` is named on `surface`: at a shell, the
    /// verb's flag or argument; elsewhere the field in plain words.
    pub(crate) fn named(self, surface: PersonSurface, field: &str) -> String {
        if surface != PersonSurface::Shell {
            return field.replace('_', " ");
        }
        let named = match (self, field) {
            (Verb::Done, "verification_result") => "--verified",
            (Verb::Release, "agent") => "--to",
            (Verb::Assign, "agent") => "<agent>",
            (Verb::Priority, "priority") => "<high|medium|low>",
            (Verb::Move, "to") => "<up|down|first|last|N>",
            (Verb::Add | Verb::Edit, "title") => "<title…>",
            (_, other) => return format!("--{}", other.replace('_', "-")),
        };
        named.to_string()
    }

    /// Whether it changes the store (all but `next`): only a person may.
    pub(crate) const fn writes(self) -> bool {
        !matches!(self, Verb::Next)
    }
}

/// The fields of a request, checked against its action.
#[derive(Debug, Clone, Default)]
pub(crate) struct Fields(Map<String, Value>);

impl Fields {
    /// Reads `text` (a JSON object, or `""` for none) for `verb`: unknown
    /// keys and missing required ones are refused, named as `surface`
    /// names them (a shell's flags).
    pub(crate) fn parse(verb: Verb, text: &str, surface: PersonSurface) -> ToolResult<Fields> {
        let map = match text.trim() {
            "" => Map::new(),
            raw => match serde_json::from_str::<Value>(raw) {
                Ok(Value::Object(m)) => m,
                Ok(Value::Null) => Map::new(),
                Ok(_) => return Err(ToolError::invalid("fields must be a JSON object", "")),
                Err(e) => {
                    return Err(ToolError::invalid(
                        format!("fields is not valid JSON: {e}"),
                        "pass the fields as a JSON object, e.g. {\"title\": \"…\"}",
                    ));
                }
            },
        };
        let takes = verb.fields();
        let names = || {
            if takes.is_empty() {
                "nothing more".to_string()
            } else {
                takes
                    .iter()
                    .map(|(n, _)| verb.named(surface, n))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        if let Some(key) = map.keys().find(|k| !takes.iter().any(|(n, _)| n == k)) {
            return Err(ToolError::invalid(
                format!("{} takes no {}", verb.name(), verb.named(surface, key)),
                format!("{} takes {}", verb.name(), names()),
            ));
        }
        let fields = Fields(map);
        for (name, required) in takes {
            let blank = match fields.raw(name) {
                None => true,
                Some(Value::String(s)) => s.trim().is_empty(),
                Some(_) => false,
            };
            if *required && blank {
                return Err(ToolError::invalid(
                    format!("{} needs {}", verb.name(), verb.named(surface, name)),
                    format!("{} takes {}", verb.name(), names()),
                ));
            }
        }
        Ok(fields)
    }

    /// Field `name` as text (a number is taken as its digits), if given.
    pub(crate) fn text(&self, name: &str) -> ToolResult<Option<&str>> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(ToolError::invalid(format!("field {name} must be text"), "")),
        }
    }

    /// Field `name` as it was given (text or a number).
    pub(crate) fn raw(&self, name: &str) -> Option<&Value> {
        self.0.get(name).filter(|v| !v.is_null())
    }

    /// Whether no field was given.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.values().all(Value::is_null)
    }
}

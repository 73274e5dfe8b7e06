//! The one table of a person's verbs: each row says what the verb is
//! called, what it is aimed at, the fields it takes (and how a shell names
//! each), whether it asks first and whether it writes, and the words of
//! its help. `ui.verbs` publishes it (the CLI builds its subcommands from
//! it), requests are checked against it (`fields.rs`), refusals name its
//! fields as the surface does (`words.rs`). What a verb does is its
//! handler in `act.rs`, one arm per row (a test checks every row has one).

use crate::bindings::{self, PersonSurface};
use crate::error::{ToolError, ToolResult};
use crate::model::{Status, TaskRow};
use crate::text::quote;

/// What a verb may be aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Aim {
    /// A list only.
    List,
    /// A task only.
    Task,
    /// A list or a task.
    Either,
}

/// How a shell takes a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shell {
    /// `--FLAG VALUE`: the flag without its dashes, the value's name.
    Flag(&'static str, &'static str),
    /// One word after the target: its name in the usage, and how a
    /// refusal names it (`<agent>`).
    Word(&'static str, &'static str),
    /// The rest of the line, its words joined by spaces: its name in the
    /// usage, and how a refusal names it (`<title…>`).
    Words(&'static str, &'static str),
}

/// What a field's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Text.
    Text,
    /// A position (digits: a number), or a word such as `up`.
    Position,
}

/// One field of a verb.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    /// Its key in `person-request.fields`.
    pub name: &'static str,
    /// Whether the verb is refused without it.
    pub required: bool,
    /// What its value is.
    pub kind: Kind,
    /// How a shell takes it.
    pub shell: Shell,
    /// One line of a shell's help.
    pub help: &'static str,
    /// What a board's empty input says (empty: the field's name in
    /// words).
    pub placeholder: &'static str,
    /// Its few values, the first chosen (a board's menu); empty: any.
    pub choices: &'static [&'static str],
}

/// Whether a task is so (blocked, closed, with a verification).
pub(crate) type When = fn(&TaskRow) -> bool;

/// What a verb's key asks on the dashboard before the verb runs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Ask {
    /// Nothing: it runs at once (a verb that confirms asks its own
    /// question then).
    Nothing,
    /// The dashboard's own yes/no first: the question on a task, on a
    /// list (`{}`: the target's name).
    YesNo(&'static str, &'static str),
    /// A line of text for a field.
    Text(Prompt),
}

/// A line of text a key asks for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prompt {
    /// The field it fills.
    pub field: &'static str,
    /// What the prompt says on a task, on a list (`{}`: the target's
    /// name).
    pub on_task: &'static str,
    /// See `on_task`.
    pub on_list: &'static str,
    /// What the text starts as (the title being edited).
    pub prefill: Option<fn(&TaskRow) -> Option<String>>,
    /// The verb an empty answer runs (assign: unassign); none: an answer
    /// is needed.
    pub empty: Option<&'static Verb>,
    /// A field asked next when the task needs it: the field, its prompt,
    /// and when (done's verification result, for a task with a
    /// verification).
    pub then: Option<(&'static str, &'static str, When)>,
}

/// A dashboard key (and the board's) that runs a verb.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Key {
    /// The key as hosts name it.
    pub key: &'static str,
    /// The footer's label.
    pub label: &'static str,
    /// Fields it sets without asking (`move`'s `to`).
    pub preset: &'static [(&'static str, &'static str)],
    /// What it asks first.
    pub ask: Ask,
    /// For a verb aimed at either: whether it takes the selected task
    /// (else its list).
    pub takes_task: When,
    /// The verb it runs instead on a task so (block on a blocked task:
    /// unblock; cancel on a closed one: restore).
    pub instead: Option<(When, &'static Verb)>,
}

/// A key with nothing more to it.
const fn key(key: &'static str, label: &'static str, ask: Ask) -> Key {
    Key {
        key,
        label,
        preset: &[],
        ask,
        takes_task: |_| true,
        instead: None,
    }
}

/// A prompt for `field`, its words on a task and on a list.
const fn prompt(field: &'static str, on_task: &'static str, on_list: &'static str) -> Prompt {
    Prompt {
        field,
        on_task,
        on_list,
        prefill: None,
        empty: None,
        then: None,
    }
}

/// A person's verb.
#[derive(Debug)]
pub(crate) struct Verb {
    /// Its name (`person-request.action`, the shell's subcommand).
    pub name: &'static str,
    /// One line of a shell's help: what it does and how it reads.
    pub about: &'static str,
    /// What it may be aimed at.
    pub aim: Aim,
    /// The target's name in a shell's usage.
    pub target: &'static str,
    /// One line of a shell's help about the target.
    pub target_help: &'static str,
    /// The fields it takes.
    pub fields: &'static [Field],
    /// Whether it may ask the person first (`person-reply.confirm`).
    pub confirms: bool,
    /// Whether it changes the store (only a person may).
    pub writes: bool,
    /// Its keys on the dashboard, in footer order.
    pub keys: &'static [Key],
}

impl PartialEq for Verb {
    fn eq(&self, other: &Verb) -> bool {
        self.name == other.name
    }
}

const fn flag(
    name: &'static str,
    required: bool,
    flag: &'static str,
    value: &'static str,
    help: &'static str,
) -> Field {
    Field {
        name,
        required,
        kind: Kind::Text,
        shell: Shell::Flag(flag, value),
        help,
        placeholder: "",
        choices: &[],
    }
}

const fn word(
    name: &'static str,
    value: &'static str,
    shown: &'static str,
    help: &'static str,
) -> Field {
    Field {
        name,
        required: true,
        kind: Kind::Text,
        shell: Shell::Word(value, shown),
        help,
        placeholder: "",
        choices: &[],
    }
}

const fn title(required: bool, help: &'static str) -> Field {
    Field {
        name: "title",
        required,
        kind: Kind::Text,
        shell: Shell::Words("TITLE", "<title…>"),
        help,
        placeholder: "",
        choices: &[],
    }
}

/// A verb on a task that takes nothing more.
const fn on_task(name: &'static str, about: &'static str, confirms: bool) -> Verb {
    Verb {
        name,
        about,
        aim: Aim::Task,
        target: "TASK",
        target_help: "The task",
        fields: &[],
        confirms,
        writes: true,
        keys: &[],
    }
}

/// Approve a list, or a task awaiting approval.
pub(crate) static APPROVE: Verb = Verb {
    name: "approve",
    about: "Approve a list's plan (or a task awaiting approval): approve <list|task> [--note …]",
    aim: Aim::Either,
    target: "TARGET",
    target_help: "The list or task",
    fields: &[flag("note", false, "note", "TEXT", "A note")],
    confirms: false,
    writes: true,
    keys: &[Key {
        // A task only while it awaits approval; else its plan.
        takes_task: |t| t.awaits_approval,
        ..key(
            "A",
            "approve",
            Ask::YesNo("Approve task {}?", "Approve list {}?"),
        )
    }],
};
/// Reject a list, with a reason.
pub(crate) static REJECT: Verb = Verb {
    name: "reject",
    about: "Reject a list's plan: reject <list> --reason …",
    aim: Aim::List,
    target: "LIST",
    target_help: "The list",
    fields: &[flag("reason", true, "reason", "TEXT", "Why")],
    confirms: false,
    writes: true,
    keys: &[key(
        "R",
        "reject",
        Ask::Text(prompt("reason", "", "Reject {}, reason")),
    )],
};
/// Add a task to a list (after a task).
pub(crate) static ADD: Verb = Verb {
    name: "add",
    about: "Add a task to a list (or after a task): add <list|task> <title…> [--description …] [--depends-on …]",
    aim: Aim::Either,
    target: "TARGET",
    target_help: "The list (or the task to add after)",
    fields: &[
        Field {
            placeholder: "Add a task",
            ..title(true, "The title")
        },
        Field {
            choices: &["medium", "high", "low"],
            ..flag("priority", false, "priority", "P", "high, medium or low")
        },
        flag("after", false, "after", "ID", "The task to add it after"),
        flag(
            "description",
            false,
            "description",
            "TEXT",
            "The description",
        ),
        flag(
            "verification",
            false,
            "verification",
            "TEXT",
            "How to check it is done",
        ),
        flag(
            "labels",
            false,
            "labels",
            "LABELS",
            "Its labels, separated by commas or spaces",
        ),
        flag(
            "depends_on",
            false,
            "depends-on",
            "TASKS",
            "The tasks it waits for (ids, or their first or last characters), separated by commas or spaces",
        ),
        flag(
            "assignee",
            false,
            "assignee",
            "AGENT",
            "Reserve it for this agent",
        ),
    ],
    confirms: false,
    writes: true,
    keys: &[key(
        "a",
        "add",
        Ask::Text(prompt("title", "New task after {}", "New task in {}")),
    )],
};
/// Change a task's texts.
pub(crate) static EDIT: Verb = Verb {
    fields: &[
        title(false, "The new title"),
        flag(
            "description",
            false,
            "description",
            "TEXT",
            "The new description",
        ),
        flag(
            "verification",
            false,
            "verification",
            "TEXT",
            "The new verification",
        ),
        flag("notes", false, "notes", "TEXT", "The new notes"),
        flag("priority", false, "priority", "P", "high, medium or low"),
        flag(
            "labels",
            false,
            "labels",
            "LABELS",
            "Its whole set of labels, separated by commas or spaces (empty: none)",
        ),
        flag(
            "depends_on",
            false,
            "depends-on",
            "TASKS",
            "The whole list of tasks it waits for, separated by commas or spaces (empty: none)",
        ),
        flag(
            "assignee",
            false,
            "assignee",
            "AGENT",
            "Reserve it for this agent (empty: nobody)",
        ),
    ],
    keys: &[key(
        "e",
        "edit",
        Ask::Text(Prompt {
            prefill: Some(|t| Some(t.title.clone())),
            ..prompt("title", "Title", "")
        }),
    )],
    ..on_task(
        "edit",
        "Edit a task's fields: edit <task> [title…] [--description …] [--priority …] [--depends-on …]",
        false,
    )
};
/// Set or cycle a task's priority.
pub(crate) static PRIORITY: Verb = Verb {
    fields: &[word(
        "priority",
        "LEVEL",
        "<high|medium|low>",
        "high, medium or low",
    )],
    keys: &[Key {
        preset: &[("priority", "cycle")],
        ..key("p", "priority", Ask::Nothing)
    }],
    ..on_task(
        "priority",
        "Set a task's priority: priority <task> <high|medium|low>",
        false,
    )
};
/// Pause a task.
pub(crate) static BLOCK: Verb = Verb {
    keys: &[Key {
        instead: Some((|t| t.status == Status::Blocked, &UNBLOCK)),
        ..key("b", "block/unblock", Ask::Nothing)
    }],
    ..on_task("block", "Block a task: block <task>", false)
};
/// Resume a paused task.
pub(crate) static UNBLOCK: Verb = on_task("unblock", "Unblock a task: unblock <task>", false);
/// Close a task as canceled, with an outcome.
pub(crate) static CANCEL: Verb = Verb {
    fields: &[Field {
        placeholder: "why cancel",
        ..flag("outcome", true, "outcome", "TEXT", "Why")
    }],
    keys: &[Key {
        instead: Some((TaskRow::is_closed, &RESTORE)),
        ..key(
            "c",
            "cancel/restore",
            Ask::Text(prompt("outcome", "Cancel {}, outcome", "")),
        )
    }],
    ..on_task("cancel", "Cancel a task: cancel <task> --outcome …", false)
};
/// Reopen a closed task (asks first).
pub(crate) static RESTORE: Verb = on_task(
    "restore",
    "Reopen a done or canceled task as todo: restore <task> (asks first)",
    true,
);
/// Reserve a task for an agent.
pub(crate) static ASSIGN: Verb = Verb {
    fields: &[Field {
        placeholder: "agent id",
        ..word("agent", "AGENT", "<agent>", "The agent")
    }],
    keys: &[key(
        "s",
        "assign",
        Ask::Text(Prompt {
            prefill: Some(|t| t.assigned_to_agent_id.clone()),
            empty: Some(&UNASSIGN),
            ..prompt("agent", "Assign {} to (empty: nobody)", "")
        }),
    )],
    ..on_task(
        "assign",
        "Assign a task to an agent: assign <task> <agent>",
        false,
    )
};
/// Release a task's reservation.
pub(crate) static UNASSIGN: Verb = on_task("unassign", "Unassign a task: unassign <task>", false);
/// Move a task in its list.
pub(crate) static MOVE: Verb = Verb {
    fields: &[Field {
        kind: Kind::Position,
        ..word(
            "to",
            "TO",
            "<up|down|first|last|N>",
            "up, down, first, last, or a position number",
        )
    }],
    keys: &[
        Key {
            preset: &[("to", "up")],
            ..key("K", "move up", Ask::Nothing)
        },
        Key {
            preset: &[("to", "down")],
            ..key("J", "move down", Ask::Nothing)
        },
        Key {
            preset: &[("to", "first")],
            ..key("T", "move first", Ask::Nothing)
        },
    ],
    ..on_task(
        "move",
        "Move a task: move <task> <up|down|first|last|N>",
        false,
    )
};
/// Close a task as done, with an outcome (and a verification result).
pub(crate) static DONE: Verb = Verb {
    fields: &[
        flag("outcome", true, "outcome", "TEXT", "What came of it"),
        flag(
            "verification_result",
            false,
            "verified",
            "TEXT",
            "What its verification showed",
        ),
    ],
    keys: &[key(
        "x",
        "done",
        Ask::Text(Prompt {
            then: Some(
                ("verification_result", "What the verification showed", |t| {
                    t.verification.is_some()
                }),
            ),
            ..prompt("outcome", "Done {}, outcome", "")
        }),
    )],
    ..on_task(
        "done",
        "Close a task as done: done <task> --outcome …",
        false,
    )
};
/// Take back a task an agent is running (to todo, or reserved for
/// another agent), after a confirmation.
pub(crate) static RELEASE: Verb = Verb {
    fields: &[flag(
        "agent",
        false,
        "to",
        "AGENT",
        "Reserve it for this agent (else it is todo for anyone)",
    )],
    keys: &[key("r", "release", Ask::Nothing)],
    ..on_task(
        "release",
        "Take back a task an agent is running: release <task> [--to AGENT] (asks first)",
        true,
    )
};
/// Answer the question a task waits on: it goes back to the agent that
/// asked, first in its next claim.
pub(crate) static ANSWER: Verb = Verb {
    fields: &[Field {
        name: "answer",
        required: true,
        kind: Kind::Text,
        shell: Shell::Words("ANSWER", "<answer…>"),
        help: "The answer the agent reads",
        placeholder: "your answer",
        choices: &[],
    }],
    keys: &[key(
        "n",
        "answer",
        Ask::Text(prompt("answer", "Answer {}", "")),
    )],
    ..on_task(
        "answer",
        "Answer the question a task waits on: answer <task> <answer…>",
        false,
    )
};
/// Accept a task in review: it is done.
pub(crate) static ACCEPT: Verb = Verb {
    keys: &[key("y", "accept", Ask::YesNo("Accept {} as done?", ""))],
    ..on_task(
        "accept",
        "Accept a task waiting for review: it is done: accept <task>",
        false,
    )
};
/// Return a task in review to its agent, with a reason.
pub(crate) static RETURN: Verb = Verb {
    fields: &[Field {
        placeholder: "what to change",
        ..flag(
            "reason",
            true,
            "reason",
            "TEXT",
            "What the agent should change",
        )
    }],
    keys: &[key(
        "u",
        "return",
        Ask::Text(prompt("reason", "Return {} to its agent, reason", "")),
    )],
    ..on_task(
        "return",
        "Return a task waiting for review to its agent: return <task> --reason …",
        false,
    )
};
/// Soft-delete a task or a list (asks first).
pub(crate) static DELETE: Verb = Verb {
    name: "delete",
    about: "Delete a task or a list, after a confirmation: delete <task|list>",
    aim: Aim::Either,
    target: "TARGET",
    target_help: "The task or list",
    fields: &[],
    confirms: true,
    writes: true,
    keys: &[key("d", "delete", Ask::Nothing)],
};
/// What `claim_next` would hand out, without claiming.
pub(crate) static NEXT: Verb = Verb {
    name: "next",
    about: "What claim_next would hand out, without claiming: next <list>",
    aim: Aim::List,
    target: "LIST",
    target_help: "The list",
    fields: &[],
    confirms: false,
    writes: false,
    keys: &[],
};

/// Every verb, in the order `ui.verbs` publishes them (a shell's help
/// lists them so) and the footer shows their keys.
pub(crate) static VERBS: &[&Verb] = &[
    &APPROVE, &REJECT, &ANSWER, &ACCEPT, &RETURN, &ADD, &EDIT, &PRIORITY, &BLOCK, &UNBLOCK,
    &CANCEL, &RESTORE, &ASSIGN, &UNASSIGN, &MOVE, &DONE, &RELEASE, &DELETE, &NEXT,
];

/// The verb named `name`, or `invalid_params` naming them all.
pub(crate) fn find(name: &str) -> ToolResult<&'static Verb> {
    let name = name.trim();
    VERBS
        .iter()
        .copied()
        .find(|v| v.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = VERBS.iter().map(|v| v.name).collect();
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

impl Verb {
    /// Its field `name`, if it takes one.
    pub(crate) fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// How its field `field` is named on `surface`: at a shell, the
    /// verb's flag or argument; elsewhere the field in plain words.
    pub(crate) fn named(&self, surface: PersonSurface, field: &str) -> String {
        if surface != PersonSurface::Shell {
            return field.replace('_', " ");
        }
        match self.field(field).map(|f| f.shell) {
            Some(Shell::Flag(flag, _)) => format!("--{flag}"),
            Some(Shell::Word(_, shown) | Shell::Words(_, shown)) => shown.to_string(),
            None => format!("--{}", field.replace('_', "-")),
        }
    }

    /// The row as the WIT publishes it.
    pub(crate) fn info(&self) -> bindings::VerbInfo {
        bindings::VerbInfo {
            name: self.name.into(),
            about: self.about.into(),
            aim: match self.aim {
                Aim::List => bindings::VerbAim::List,
                Aim::Task => bindings::VerbAim::Task,
                Aim::Either => bindings::VerbAim::Either,
            },
            target: self.target.into(),
            target_help: self.target_help.into(),
            fields: self.fields.iter().map(Field::info).collect(),
            confirms: self.confirms,
            writes: self.writes,
        }
    }
}

impl Key {
    /// What it asks, as the key map says it.
    pub(crate) fn input(&self, verb: &Verb) -> crate::bindings::KeyInput {
        use crate::bindings::KeyInput;
        match self.ask {
            Ask::Nothing if verb.confirms => KeyInput::Confirm,
            Ask::Nothing => KeyInput::None,
            Ask::YesNo(..) => KeyInput::Confirm,
            Ask::Text(_) => KeyInput::Text,
        }
    }
}

impl Field {
    /// What a board's empty input of it says.
    pub(crate) fn placeholder(&self) -> String {
        if self.placeholder.is_empty() {
            self.name.replace('_', " ")
        } else {
            self.placeholder.to_string()
        }
    }

    fn info(&self) -> bindings::VerbField {
        use bindings::ShellArg;
        bindings::VerbField {
            name: self.name.into(),
            required: self.required,
            kind: match self.kind {
                Kind::Text => bindings::FieldKind::Text,
                Kind::Position => bindings::FieldKind::Position,
            },
            shell: match self.shell {
                Shell::Flag(flag, value) => ShellArg::Flag(bindings::ShellFlag {
                    flag: flag.into(),
                    value: value.into(),
                }),
                Shell::Word(value, _) => ShellArg::Word(value.into()),
                Shell::Words(value, _) => ShellArg::Words(value.into()),
            },
            help: self.help.into(),
        }
    }
}

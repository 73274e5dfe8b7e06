//! The person's verbs at a shell (`tasklists add`, `done`, `approve`, …):
//! each is one request to the component's `person-act`, which resolves the
//! id the person typed, applies the rules and words the answer. The host
//! only carries the words in and the lines (or `--json` data) out, and asks
//! the question the component asks.

use super::output::{Stream, print_lines, print_text};
use super::views::{ask_yes_no, terminal_width};
use super::{Failure, Globals};
use clap::{Args, Subcommand};
use serde_json::{Map, Value};
use tasklists_host::{PersonReply, PersonRequest, PersonSurface};

/// What every verb takes besides its own words.
#[derive(Debug, Args)]
pub(crate) struct VerbOutput {
    /// Print the result's data as JSON instead of its rendering
    #[arg(long)]
    json: bool,
    /// Answer yes to the question the action asks, if it asks one (needed when stdin is not a terminal)
    #[arg(long)]
    yes: bool,
}

/// The person's actions on a list or a task (ids: the full id, or a unique prefix or tail).
#[derive(Debug, Subcommand)]
pub(crate) enum Verb {
    /// Add a task to a list (or after a task): add <list|task> <title…>
    Add {
        /// The list (or the task to add after)
        target: String,
        /// The title
        title: Vec<String>,
        /// high, medium or low
        #[arg(long, value_name = "P")]
        priority: Option<String>,
        /// The task to add it after
        #[arg(long, value_name = "ID")]
        after: Option<String>,
        /// The description
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// How to check it is done
        #[arg(long, value_name = "TEXT")]
        verification: Option<String>,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Close a task as done: done <task> --outcome …
    Done {
        /// The task
        task: String,
        /// What came of it
        #[arg(long, value_name = "TEXT")]
        outcome: Option<String>,
        /// What its verification showed
        #[arg(long, value_name = "TEXT")]
        verified: Option<String>,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Take back a task an agent is running: release <task> [--to AGENT] (asks first)
    Release {
        /// The task
        task: String,
        /// Reserve it for this agent (else it is todo for anyone)
        #[arg(long, value_name = "AGENT")]
        to: Option<String>,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Block a task: block <task>
    Block {
        /// The task
        task: String,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Unblock a task: unblock <task>
    Unblock {
        /// The task
        task: String,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Cancel a task: cancel <task> --outcome …
    Cancel {
        /// The task
        task: String,
        /// Why
        #[arg(long, value_name = "TEXT")]
        outcome: Option<String>,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Reopen a done or canceled task as todo: restore <task> (asks first)
    Restore {
        /// The task
        task: String,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Assign a task to an agent: assign <task> <agent>
    Assign {
        /// The task
        task: String,
        /// The agent
        agent: String,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Unassign a task: unassign <task>
    Unassign {
        /// The task
        task: String,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Set a task's priority: priority <task> <high|medium|low>
    Priority {
        /// The task
        task: String,
        /// high, medium or low
        level: String,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Move a task: move <task> <up|down|first|last|N>
    Move {
        /// The task
        task: String,
        /// up, down, first, last, or a position number
        to: String,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Edit a task: edit <task> [title…]
    Edit {
        /// The task
        task: String,
        /// The new title
        title: Vec<String>,
        /// The new description
        #[arg(long, value_name = "TEXT")]
        description: Option<String>,
        /// The new verification
        #[arg(long, value_name = "TEXT")]
        verification: Option<String>,
        /// The new notes
        #[arg(long, value_name = "TEXT")]
        notes: Option<String>,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Delete a task or a list, after a confirmation: delete <task|list>
    Delete {
        /// The task or list
        target: String,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Approve a list's plan (or a task awaiting approval): approve <list|task> [--note …]
    Approve {
        /// The list or task
        target: String,
        /// A note
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// Reject a list's plan: reject <list> --reason …
    Reject {
        /// The list
        list: String,
        /// Why
        #[arg(long, value_name = "TEXT")]
        reason: Option<String>,
        #[command(flatten)]
        out: VerbOutput,
    },
    /// What claim_next would hand out, without claiming: next <list>
    Next {
        /// The list
        list: String,
        #[command(flatten)]
        out: VerbOutput,
    },
}

/// A verb as the component's request: action, target, fields.
struct Request<'a> {
    action: &'static str,
    target: String,
    fields: Map<String, Value>,
    out: &'a VerbOutput,
}

impl Verb {
    /// The request this verb stands for, its words carried as typed.
    fn request(&self) -> Request<'_> {
        let mut fields = Map::new();
        let (action, target, out) = match self {
            Verb::Add {
                target,
                title,
                priority,
                after,
                description,
                verification,
                out,
            } => {
                put_words(&mut fields, "title", title);
                put(&mut fields, "priority", priority);
                put(&mut fields, "after", after);
                put(&mut fields, "description", description);
                put(&mut fields, "verification", verification);
                ("add", target, out)
            }
            Verb::Done {
                task,
                outcome,
                verified,
                out,
            } => {
                put(&mut fields, "outcome", outcome);
                put(&mut fields, "verification_result", verified);
                ("done", task, out)
            }
            Verb::Release { task, to, out } => {
                put(&mut fields, "agent", to);
                ("release", task, out)
            }
            Verb::Block { task, out } => ("block", task, out),
            Verb::Unblock { task, out } => ("unblock", task, out),
            Verb::Cancel { task, outcome, out } => {
                put(&mut fields, "outcome", outcome);
                ("cancel", task, out)
            }
            Verb::Restore { task, out } => ("restore", task, out),
            Verb::Assign { task, agent, out } => {
                fields.insert("agent".into(), Value::from(agent.as_str()));
                ("assign", task, out)
            }
            Verb::Unassign { task, out } => ("unassign", task, out),
            Verb::Priority { task, level, out } => {
                fields.insert("priority".into(), Value::from(level.as_str()));
                ("priority", task, out)
            }
            Verb::Move { task, to, out } => {
                // A position is a number in the request; anything else
                // (up, down, first, last, or a typo) goes as the word.
                let to = to
                    .parse::<u64>()
                    .map_or_else(|_| Value::from(to.as_str()), Value::from);
                fields.insert("to".into(), to);
                ("move", task, out)
            }
            Verb::Edit {
                task,
                title,
                description,
                verification,
                notes,
                out,
            } => {
                put_words(&mut fields, "title", title);
                put(&mut fields, "description", description);
                put(&mut fields, "verification", verification);
                put(&mut fields, "notes", notes);
                ("edit", task, out)
            }
            Verb::Delete { target, out } => ("delete", target, out),
            Verb::Approve { target, note, out } => {
                put(&mut fields, "note", note);
                ("approve", target, out)
            }
            Verb::Reject { list, reason, out } => {
                put(&mut fields, "reason", reason);
                ("reject", list, out)
            }
            Verb::Next { list, out } => ("next", list, out),
        };
        Request {
            action,
            target: target.clone(),
            fields,
            out,
        }
    }
}

/// Sets `key` when the flag was given.
fn put(fields: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(value) = value {
        fields.insert(key.into(), Value::from(value.as_str()));
    }
}

/// Sets `key` to the words joined by spaces, when there are any.
fn put_words(fields: &mut Map<String, Value>, key: &str, words: &[String]) {
    if !words.is_empty() {
        fields.insert(key.into(), Value::from(words.join(" ")));
    }
}

/// Runs the verb: prints what the component answered (the data with
/// `--json`); a refusal goes to stderr and exits 1.
pub(crate) fn run(globals: &Globals, verb: &Verb) -> Result<(), Failure> {
    let Request {
        action,
        target,
        fields,
        out,
    } = verb.request();
    let mut request = PersonRequest {
        action: action.to_string(),
        target,
        fields: if fields.is_empty() {
            String::new()
        } else {
            Value::Object(fields).to_string()
        },
        confirmed: false,
        surface: PersonSurface::Shell,
    };
    let mut host = globals.open_host()?;
    let width = terminal_width();
    // An action asks at most one question before it acts; the bound keeps
    // a misbehaving answer from looping.
    for _ in 0..2 {
        match host.person_act(&request, &globals.ctx, width)? {
            PersonReply::Done(done) => {
                if out.json {
                    print_text(&done.data);
                } else {
                    print_lines(&done.lines, globals.color, Stream::Stdout);
                }
                return Ok(());
            }
            PersonReply::Refused(refused) => {
                print_lines(&refused.lines, globals.color, Stream::Stderr);
                return Err(Failure::Tool);
            }
            PersonReply::Confirm(question) => {
                if !out.yes && !ask_yes_no(&question.title, &question.message)? {
                    return Ok(());
                }
                request.confirmed = true;
            }
        }
    }
    Err(Failure::Usage(format!(
        "the {action} action kept asking; giving up"
    )))
}

//! The slash commands: one row each ([`COMMANDS`]: menu entry, usage, the
//! function that runs it and what its arguments complete to), and what
//! each one asks its host to do. Commands act through the tools themselves
//! (`call_tool`), so access, private-list and identity rules and their
//! error texts are the tools' own; failures render as tool errors do.

mod approval;
mod audit;
mod delete;
pub(crate) mod detail;
mod inbox;
mod lists;
mod tasks;
pub(crate) mod widget;

use serde_json::Value;

use super::columns;
use super::complete::{self, Args, Lists};
use super::layout::fit_all;
use crate::actions::Output;
use crate::bindings::{
    CommandEffect, CommandInfo, CommandOutput, Completion, PersonReply, PersonRequest,
};
use crate::clock::Clock;
use crate::context::CallContext;
use crate::error::{ToolError, ToolResult};
use crate::registry::call_tool;
use crate::render::{Line, Style, line, render_error};
use crate::store::Store;

/// A command: its menu entry, how it runs and how its arguments complete.
pub(crate) struct Spec {
    /// Its name, without the slash.
    pub name: &'static str,
    /// One line for the menu.
    pub description: &'static str,
    /// How its arguments read.
    pub usage: &'static str,
    /// Runs it with its argument words.
    pub run: fn(&[&str], &Run) -> CommandEffect,
    /// What its arguments complete to.
    pub args: Args,
}

/// The commands in menu order.
pub(crate) const COMMANDS: &[Spec] = &[
    Spec {
        name: "task-lists",
        description: "The task lists visible here: name and id (full: their JSON metadata)",
        usage: "[full]",
        run: lists::run,
        args: Args {
            words: &[("full", "the lists' JSON metadata")],
            list_then: None,
            lists: Lists::All,
        },
    },
    Spec {
        name: "tasks",
        description: "One list and its tasks: status, agent, dates, description, notes, outcome",
        usage: "<list_id> [full]",
        run: tasks::run,
        args: Args {
            words: &[],
            list_then: Some(&[("full", "the JSON of task_lists get")]),
            lists: Lists::All,
        },
    },
    Spec {
        name: "task-audit",
        description: "Private-list bypasses you may see, or one list's audit log",
        usage: "[list_id] [full] [bypass <reason…>]",
        run: audit::run,
        args: Args {
            words: &[("full", "the events' JSON")],
            list_then: Some(&[("full", "the events' JSON")]),
            lists: Lists::All,
        },
    },
    Spec {
        name: "task-list-delete",
        description: "Soft-delete a list and its active tasks (asks first)",
        usage: "<list_id>",
        run: delete::run,
        args: Args {
            words: &[],
            list_then: Some(&[]),
            lists: Lists::All,
        },
    },
    Spec {
        name: "task-approve",
        description: "Approve a plan awaiting approval (as the person at the keyboard), with an optional note",
        usage: "<list_id> [note…]",
        run: approval::approve,
        args: Args {
            words: &[],
            list_then: Some(&[]),
            lists: Lists::AwaitingApproval,
        },
    },
    Spec {
        name: "task-reject",
        description: "Reject a plan awaiting approval (as the person at the keyboard), with the reason its agents read",
        usage: "<list_id> <reason…>",
        run: approval::reject,
        args: Args {
            words: &[],
            list_then: Some(&[]),
            lists: Lists::AwaitingApproval,
        },
    },
    Spec {
        name: "task-inbox",
        description: "What needs you (plans, questions, reviews, stalled work, failed checks); answer, accept or return from here",
        usage: "[answer <task> <answer…> | accept <task> | return <task> <reason…>]",
        run: inbox::run,
        args: Args {
            words: inbox::WORDS,
            list_then: None,
            lists: Lists::All,
        },
    },
    Spec {
        name: "task-widget",
        description: "Show, hide, switch or redraw the task widget",
        usage: "on|off|compact|full|refresh",
        run: widget::run,
        args: Args {
            words: widget::WORDS,
            list_then: None,
            lists: Lists::All,
        },
    },
];

/// The command named `name` (a leading slash and spaces ignored).
fn find(name: &str) -> Option<&'static Spec> {
    let name = name.trim().trim_start_matches('/');
    COMMANDS.iter().find(|c| c.name == name)
}

/// The menu entries.
pub(crate) fn infos() -> Vec<CommandInfo> {
    COMMANDS
        .iter()
        .map(|c| CommandInfo {
            name: c.name.into(),
            description: c.description.into(),
            usage: c.usage.into(),
        })
        .collect()
}

/// A person's action (`crate::person::act`, handed down by the exports:
/// the person's side sits above the views, which may not name it).
pub type PersonAct = fn(&PersonRequest, &CallContext, u32, &dyn Store, &dyn Clock) -> PersonReply;

/// What a command runs with.
pub(crate) struct Run<'a> {
    /// The host's context (identity, workspace, thread).
    pub ctx: &'a CallContext,
    /// Columns to lay out for.
    pub width: usize,
    /// The user said yes to this command's question.
    pub confirmed: bool,
    /// The store.
    pub store: &'a dyn Store,
    /// The clock.
    pub clock: &'a dyn Clock,
    /// Runs a person's action.
    pub act: PersonAct,
}

impl Run<'_> {
    /// Calls a tool action with `params`, as the host's agent.
    pub(crate) fn tool(&self, tool: &str, action: &str, params: &Value) -> ToolResult<Output> {
        call_tool(
            tool,
            action,
            &params.to_string(),
            self.ctx,
            self.store,
            self.clock,
        )
    }

    /// Shows `lines`, cut to the width.
    pub(crate) fn show(&self, lines: Vec<Line>) -> CommandEffect {
        CommandEffect::Show(CommandOutput {
            lines: fit_all(lines, self.width),
            failed: false,
        })
    }

    /// Shows `error` as a failure (code and message, then the hint).
    pub(crate) fn fail(&self, error: &ToolError) -> CommandEffect {
        CommandEffect::Show(CommandOutput {
            lines: super::layout::wrap_lines(render_error(error), self.width),
            failed: true,
        })
    }
}

/// `invalid_params` for arguments `spec` does not take, with its usage.
pub(crate) fn usage_error(spec: &str, message: impl Into<String>) -> ToolError {
    let usage = COMMANDS
        .iter()
        .find(|c| c.name == spec)
        .map_or(String::new(), |c| format!("usage: {} {}", c.name, c.usage));
    ToolError::invalid(message, usage)
}

/// Runs `name` with its argument text.
pub(crate) fn run(name: &str, args: &str, run: &Run) -> CommandEffect {
    let words: Vec<&str> = args.split_whitespace().collect();
    match find(name) {
        Some(command) => (command.run)(&words, run),
        None => run.fail(&unknown(name.trim().trim_start_matches('/'))),
    }
}

/// Suggestions for `name`'s arguments given the text typed so far; none
/// for an unknown command, or when the store cannot be read.
pub(crate) fn complete(
    name: &str,
    prefix: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> Vec<Completion> {
    find(name).map_or_else(Vec::new, |command| {
        complete::args(&command.args, prefix, ctx, store, clock)
    })
}

/// The error for a command that does not exist, naming the real ones.
fn unknown(name: &str) -> ToolError {
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    let mut message = format!(
        "unknown command {}; the commands are {}",
        crate::text::quote(name),
        names.join(", ")
    );
    if let Some(near) = crate::contract::closest_name(name, names.iter().copied()) {
        message.push_str(&format!(" (did you mean {near}?)"));
    }
    ToolError::invalid(
        message,
        "task-lists shows the lists visible here and their ids",
    )
}

/// The builder of `run`: the host's width made a layout width.
pub(crate) fn runner<'a>(
    ctx: &'a CallContext,
    width: u32,
    confirmed: bool,
    store: &'a dyn Store,
    clock: &'a dyn Clock,
    act: PersonAct,
) -> Run<'a> {
    Run {
        ctx,
        width: columns(width),
        confirmed,
        store,
        clock,
        act,
    }
}

/// A muted one-line note (what a command says when there is nothing).
pub(crate) fn note(text: impl AsRef<str>) -> Line {
    line(text, Style::Muted)
}

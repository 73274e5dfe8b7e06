//! `task-approve <list_id> [note…]` and `task-reject <list_id> <reason…>`:
//! a person's decision on a plan, carried out by the person's entry point
//! as the person at the keyboard (`ctx.person`; none: refused, with how to
//! give one), so the rules, texts and audit are the person's actions' own.

use serde_json::json;

use super::{Run, usage_error};
use crate::bindings::{
    CommandEffect, CommandOutput, Confirmation, PersonReply, PersonRequest, PersonSurface,
};

/// Runs `task-approve` with its words.
pub(crate) fn approve(words: &[&str], run: &Run) -> CommandEffect {
    let Some((list_id, note)) = words.split_first() else {
        return run.fail(&usage_error("task-approve", "task-approve takes a list id"));
    };
    let fields = if note.is_empty() {
        json!({})
    } else {
        json!({"note": note.join(" ")})
    };
    decide(run, "approve", list_id, fields)
}

/// Runs `task-reject` with its words.
pub(crate) fn reject(words: &[&str], run: &Run) -> CommandEffect {
    let Some((list_id, reason)) = words.split_first().filter(|(_, r)| !r.is_empty()) else {
        return run.fail(&usage_error(
            "task-reject",
            "task-reject takes a list id and the reason its agents will read",
        ));
    };
    decide(run, "reject", list_id, json!({"reason": reason.join(" ")}))
}

/// The person's `action` on `list_id`, as the command's output.
pub(super) fn decide(
    run: &Run,
    action: &str,
    list_id: &str,
    fields: serde_json::Value,
) -> CommandEffect {
    let request = PersonRequest {
        action: action.into(),
        target: list_id.into(),
        fields: fields.to_string(),
        confirmed: run.confirmed,
        surface: PersonSurface::Command,
    };
    let width = u32::try_from(run.width).unwrap_or(u32::MAX);
    match (run.act)(&request, run.ctx, width, run.store, run.clock) {
        PersonReply::Done(done) => run.show(done.lines),
        PersonReply::Refused(refused) => CommandEffect::Show(CommandOutput {
            lines: refused.lines,
            failed: true,
        }),
        PersonReply::Confirm(Confirmation { title, message }) => {
            CommandEffect::Confirm(Confirmation { title, message })
        }
    }
}

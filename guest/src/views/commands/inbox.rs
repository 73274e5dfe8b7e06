//! `task-inbox [answer <task> <answer…> | accept <task> | return <task>
//! <reason…>]`: what needs the person, and the person's answer, acceptance
//! or return carried out as the person at the keyboard (the person's
//! actions' own rules, texts and audit).

use serde_json::json;

use super::approval::decide;
use super::{Run, usage_error};
use crate::bindings::CommandEffect;
use crate::views::inbox;

/// The words after `task-inbox` that act, with what each reads.
pub(crate) const WORDS: &[(&str, &str)] = &[
    (
        "answer",
        "answer <task> <answer…>: answer the question a task waits on",
    ),
    (
        "accept",
        "accept <task>: accept a task waiting for review as done",
    ),
    (
        "return",
        "return <task> <reason…>: return a task in review to its agent",
    ),
];

/// Runs `task-inbox` with its words.
pub(crate) fn run(words: &[&str], run: &Run) -> CommandEffect {
    match words {
        [] => match inbox::load(run.ctx, run.store, run.clock) {
            Ok(read) => run.show(inbox::lines(&read, run.width)),
            Err(e) => run.fail(&e),
        },
        ["answer", task, answer @ ..] if !answer.is_empty() => {
            decide(run, "answer", task, json!({"answer": answer.join(" ")}))
        }
        ["accept", task] => decide(run, "accept", task, json!({})),
        ["return", task, reason @ ..] if !reason.is_empty() => {
            decide(run, "return", task, json!({"reason": reason.join(" ")}))
        }
        _ => run.fail(&usage_error(
            "task-inbox",
            format!(
                "task-inbox does not take {}",
                crate::text::quote(&words.join(" "))
            ),
        )),
    }
}

//! The person is called, the person's side: a person answers the question
//! a task waits on, or accepts or returns a task in review. Only the
//! person's entry point calls these (no tool reaches them, and without
//! `call.person` they refuse). An answered or returned task goes back to
//! todo for its agent, whose next `claim_next` in the list hands it out
//! first (`resume_for`). The agent's side is `ask.rs`.

use serde_json::json;

use super::access;
use super::action::Done;
use super::call::Call;
use super::items::TaskResult;
use super::items_update::write_sql;
use super::summary::quoted;
use crate::clock::format_ms;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::model::{Status, TaskForm, TaskRow};
use crate::results::TaskJson;
use crate::text::quote;
use crate::waits::{MAX_SAID, ReviewState, WaitsOn};

/// The person a step is taken by, or why there is none: a tool call never
/// carries one, so no tool answers, accepts or returns.
fn person<'c>(call: &'c Call, what: &str) -> ToolResult<&'c str> {
    call.person.as_deref().ok_or_else(|| {
        ToolError::new(
            ErrorCode::Forbidden,
            format!("only a person {what}"),
            "a person acts with tasklists answer, accept or return, the board or Pi's /task-inbox",
        )
    })
}

/// A person's text (an answer, a reason): trimmed, required, bounded.
fn said(what: &str, text: Option<&str>, hint: &str) -> ToolResult<String> {
    let text = text.map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Err(ToolError::invalid(format!("{what} is empty"), hint));
    }
    let n = text.chars().count();
    if n > MAX_SAID {
        return Err(ToolError::invalid(
            format!("the {what} is {n} characters long; at most {MAX_SAID}"),
            format!("shorten the {what}"),
        ));
    }
    Ok(text.to_string())
}

/// The task a step is about, visible to the context, waiting on `waits`.
fn waiting(call: &mut Call, task_id: &str, waits: WaitsOn) -> ToolResult<(TaskRow, Vec<String>)> {
    let access::Loaded { task, deps, .. } = access::task_for_update(call, task_id)?;
    if task.waits_on != Some(waits) {
        let now = match task.waits_on {
            Some(other) => other.phrase().to_string(),
            None => format!("is {}", task.status),
        };
        return Err(ToolError::conflict(
            format!(
                "task {} does not wait for a person's {waits}: it {now}",
                task.id
            ),
            "tasklists inbox lists what waits on you",
        ));
    }
    Ok((task, deps))
}

/// Writes `task` as changed by a step, with its audit event.
fn write(call: &Call, task: &TaskRow, kind: &str, data: serde_json::Value) -> ToolResult<()> {
    let (sql, params) = write_sql(task);
    call.exec_with_event_last(
        sql,
        &params,
        kind,
        Some(&task.list_id),
        Some(&task.id),
        data,
    )?;
    Ok(())
}

/// The task as a step's result.
fn result(task: &TaskRow, deps: &[String], summary: String) -> Done<TaskResult> {
    Done {
        summary,
        result: TaskResult {
            task: TaskJson::new(task, deps, TaskForm::Whole),
        },
    }
}

/// A person answers the question a task waits on: recorded with who and
/// when, the task back to todo for the agent that asked, handed to it
/// first on its next claim.
pub fn answer(call: &mut Call, task_id: &str, text: Option<&str>) -> ToolResult<Done<TaskResult>> {
    let by = person(call, "answers an agent's question")?.to_string();
    let text = said("answer", text, "write what the agent should do")?;
    let (mut task, deps) = waiting(call, task_id, WaitsOn::Answer)?;
    let ask = task.ask.get_or_insert_default();
    ask.answer = Some(text.clone());
    ask.answered_by = Some(by.clone());
    ask.answered_at = Some(format_ms(call.now()));
    let asker = ask.by.clone();
    task.status = Status::Todo;
    task.waits_on = None;
    task.resume_for = Some(asker.clone());
    task.updated_at = call.now();
    write(call, &task, "answered", json!({"answer": text}))?;
    let summary = format!(
        "{by} answered task {} {}: {}; it goes back to {asker} first",
        task.id,
        quoted(&task.title),
        quote(&text)
    );
    Ok(result(&task, &deps, summary))
}

/// A person accepts a task in review: it is done (its dependents may
/// start).
pub fn accept(call: &mut Call, task_id: &str) -> ToolResult<Done<TaskResult>> {
    let by = person(call, "accepts work in review")?.to_string();
    let (mut task, deps) = waiting(call, task_id, WaitsOn::Review)?;
    let review = task.review.get_or_insert_default();
    review.state = ReviewState::Accepted;
    review.by = Some(by.clone());
    review.at = Some(format_ms(call.now()));
    task.status = Status::Done;
    task.waits_on = None;
    task.completed_at = Some(call.now());
    task.updated_at = call.now();
    write(call, &task, "accepted", json!({}))?;
    let summary = format!(
        "{by} accepted task {} {}: done",
        task.id,
        quoted(&task.title)
    );
    Ok(result(&task, &deps, summary))
}

/// A person returns a task in review with a reason: back to todo for the
/// agent that finished it, handed to it first on its next claim, the
/// reason in its review and what it had been closed with at the end of
/// its notes (its outcome no longer stands).
pub fn return_task(
    call: &mut Call,
    task_id: &str,
    reason: Option<&str>,
) -> ToolResult<Done<TaskResult>> {
    let by = person(call, "returns work in review")?.to_string();
    let reason = said(
        "reason",
        reason,
        "say what the agent should change: it reads it",
    )?;
    let (mut task, deps) = waiting(call, task_id, WaitsOn::Review)?;
    let review = task.review.get_or_insert_default();
    review.state = ReviewState::Returned;
    review.by = Some(by.clone());
    review.at = Some(format_ms(call.now()));
    review.reason = Some(reason.clone());
    let agent = review.submitted_by.clone();
    let was = format!(
        "Returned by {by} at {}: {reason}; it had been finished as: {}",
        format_ms(call.now()),
        task.outcome.as_deref().unwrap_or_default().trim()
    );
    task.notes = Some(match task.notes.as_deref().map(str::trim_end) {
        Some(notes) if !notes.is_empty() => format!("{notes}\n{was}"),
        _ => was,
    });
    let data = json!({
        "reason": reason,
        "was": {"outcome": task.outcome, "verification_result": task.verification_result},
    });
    task.outcome = None;
    task.verification_result = None;
    task.status = Status::Todo;
    task.waits_on = None;
    task.resume_for = Some(agent.clone());
    task.updated_at = call.now();
    write(call, &task, "returned", data)?;
    let summary = format!(
        "{by} returned task {} {}: {}; it goes back to {agent} first",
        task.id,
        quoted(&task.title),
        quote(&reason)
    );
    Ok(result(&task, &deps, summary))
}

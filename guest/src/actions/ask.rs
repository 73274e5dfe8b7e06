//! The person is called: an agent asks its person a question on the task
//! it holds, or closes a task that requires review; the task then waits
//! on a person (`waits_on`, status blocked) with its lease ended, kept for
//! the same agent. A person answers, accepts or returns it (the steps at
//! the end, which only the person's entry point calls: no tool reaches
//! them, and without `call.person` they refuse). An answered or returned
//! task goes back to todo for its agent, whose next `claim_next` in the
//! list hands it out first (`resume_for`).

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
use crate::waits::{Ask, MAX_SAID, Review, ReviewState, WaitsOn};

/// `update`'s `question`: the task held by the caller waits for its
/// person's answer. Returns the question as stored.
pub(super) fn ask(
    call: &Call,
    old: &TaskRow,
    new: &mut TaskRow,
    question: &str,
    holds_claim: bool,
) -> ToolResult<String> {
    if call.person.is_some() || !holds_claim {
        return Err(ToolError::conflict(
            format!(
                "only the agent holding task {} asks a question on it (it is {})",
                old.id, old.status
            ),
            "claim it with task_claims claim_next, then update it with question",
        ));
    }
    if call.params.has("status") {
        return Err(ToolError::invalid(
            "question and status in one update: a question sets the task waiting for the answer",
            "send the question without status (notes may go with it)",
        ));
    }
    let question = question.trim().to_string();
    if question.is_empty() {
        return Err(ToolError::invalid(
            "question is empty",
            "ask what you need the person to decide, in a sentence",
        ));
    }
    let agent = call.agent()?.to_string();
    new.status = Status::Blocked;
    new.end_claim();
    new.assigned_to_agent_id = Some(agent.clone());
    new.waits_on = Some(WaitsOn::Answer);
    new.resume_for = None;
    new.ask = Some(Ask {
        question: question.clone(),
        by: agent,
        at: format_ms(call.now()),
        ..Ask::default()
    });
    Ok(question)
}

/// Refuses an agent's status change on a task that waits on a person:
/// only the person's answer, acceptance or return moves it.
pub(super) fn not_while_waiting(call: &Call, old: &TaskRow) -> ToolResult<()> {
    let Some(waits) = old.waits_on.filter(|_| call.person.is_none()) else {
        return Ok(());
    };
    let hint = match waits {
        WaitsOn::Answer => format!(
            "a person answers (tasklists answer {}, or the board); claim_next then hands it back to you first",
            old.id
        ),
        WaitsOn::Review => format!(
            "a person accepts it (tasklists accept {}) or returns it with a reason, which claim_next then hands back to you",
            old.id
        ),
    };
    Err(ToolError::conflict(
        format!(
            "task {} {}: its status is the person's to change",
            old.id,
            waits.phrase()
        ),
        hint,
    ))
}

/// An agent closing as done a task that requires review sends it to
/// review instead: blocked, waiting on a person, its outcome and
/// verification result kept, its dependents still waiting. Says whether
/// it did.
pub(super) fn to_review(call: &Call, old: &TaskRow, new: &mut TaskRow) -> bool {
    if call.person.is_some()
        || !new.requires_review
        || new.status != Status::Done
        || old.status == Status::Done
    {
        return false;
    }
    let agent = call.agent().unwrap_or_default().to_string();
    new.status = Status::Blocked;
    new.completed_at = None;
    new.assigned_to_agent_id = Some(agent.clone());
    new.waits_on = Some(WaitsOn::Review);
    new.resume_for = None;
    new.review = Some(Review {
        state: ReviewState::Pending,
        submitted_by: agent,
        submitted_at: format_ms(call.now()),
        ..Review::default()
    });
    true
}

/// What a person's own change to a task does to its wait: a status the
/// person sets ends it (closing as done a task in review accepts it), a
/// person reassigning a task that waits for an answer hands it to the
/// other agent as todo; a task reassigned or closed is no longer handed
/// back first.
pub(super) fn settle(call: &Call, old: &TaskRow, new: &mut TaskRow) {
    if let (Some(person), Some(_)) = (call.person.as_deref(), old.waits_on) {
        if old.waits_on == Some(WaitsOn::Answer)
            && new.assigned_to_agent_id != old.assigned_to_agent_id
            && !call.params.has("status")
        {
            new.status = Status::Todo;
        }
        if new.status != Status::Blocked {
            new.waits_on = None;
        }
        if new.status == Status::Done
            && let Some(review) = new.review.as_mut()
        {
            review.state = ReviewState::Accepted;
            review.by = Some(person.to_string());
            review.at = Some(format_ms(call.now()));
        }
    }
    if new.assigned_to_agent_id != old.assigned_to_agent_id || new.is_closed() {
        new.resume_for = None;
    }
}

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

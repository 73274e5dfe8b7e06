//! The person is called, the agent's side (within `task_items update`):
//! an agent asks its person a question on the task it holds, or closes a
//! task that requires review; the task then waits on a person
//! (`waits_on`, status blocked) with its lease ended, kept for the same
//! agent. The person's side, which settles the wait, is `settle.rs`.

use super::call::Call;
use crate::clock::format_ms;
use crate::error::{ToolError, ToolResult};
use crate::model::{Status, TaskRow};
use crate::waits::{Ask, Review, ReviewState, WaitsOn};

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

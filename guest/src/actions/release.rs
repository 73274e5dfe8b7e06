//! A person takes a claim back: the task an agent is running returns to
//! todo (or is reserved for another agent), at once, without waiting out
//! the lease. No tool reaches this: only the person's entry point
//! (`crate::person`) calls it, with `call.person` set. The agent that held
//! the claim learns it on its next call on the task: its claim token is
//! refused, saying who released it and when ([`released_claim`]).

use serde_json::json;

use super::access;
use super::action::Done;
use super::call::Call;
use super::items::TaskResult;
use super::summary::quoted;
use crate::clock::format_ms;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::ids::{AGENT_ID_RULE, is_agent_id};
use crate::model::{Status, TaskForm, TaskRow};
use crate::results::TaskJson;
use crate::text::quote;

/// The audit event of a release.
pub const RELEASED: &str = "released";

/// Ends the claim on `task_id`: the task is todo again, reserved for `to`
/// when given, else for nobody (a reservation of the agent that held it
/// ends with its claim: it was taken back from that agent).
pub fn release(call: &mut Call, task_id: &str, to: Option<&str>) -> ToolResult<Done<TaskResult>> {
    if call.person.is_none() {
        return Err(ToolError::new(
            ErrorCode::Forbidden,
            "only a person takes a claim back",
            "an agent ends its own claim by closing the task or updating its status",
        ));
    }
    if let Some(agent) = to
        && !is_agent_id(agent)
    {
        return Err(ToolError::invalid(
            format!("{} is not an agent id ({AGENT_ID_RULE})", quote(agent)),
            "name the agent to reserve the task for, or leave it out",
        ));
    }
    let access::Loaded {
        task: old,
        list,
        deps,
    } = access::task_for_update(call, task_id)?;
    let Some(holder) = old
        .claimed_by_agent_id
        .clone()
        .filter(|_| old.status == Status::InProgress)
    else {
        return Err(ToolError::conflict(
            format!("task {} is {}: no agent holds it", old.id, old.status),
            "release takes back a task an agent is running",
        ));
    };
    let mut new = old.clone();
    new.status = Status::Todo;
    new.end_claim();
    new.assigned_to_agent_id = match to {
        Some(agent) => Some(agent.to_string()),
        None if old.assigned_to_agent_id.as_deref() == Some(holder.as_str()) => None,
        None => old.assigned_to_agent_id.clone(),
    };
    new.updated_at = call.now();
    let data = json!({"from": holder, "to": new.assigned_to_agent_id});
    call.exec_with_event_last(
        "UPDATE tasks SET status = ?, claimed_by_agent_id = NULL, claim_token = NULL, \
         claim_expires_at = NULL, assigned_to_agent_id = ?, updated_at = ? WHERE id = ?",
        crate::params![
            new.status.as_str(),
            new.assigned_to_agent_id.clone(),
            new.updated_at,
            new.id.as_str()
        ],
        RELEASED,
        Some(&list.id),
        Some(&new.id),
        data,
    )?;
    let to_whom = match &new.assigned_to_agent_id {
        Some(agent) => format!(", reserved for {agent}"),
        None => String::new(),
    };
    Ok(Done {
        summary: format!(
            "task {} {} released from {holder}: todo{to_whom}",
            new.id,
            quoted(&new.title)
        ),
        result: TaskResult {
            task: TaskJson::new(&new, &deps, TaskForm::Whole),
        },
    })
}

/// The `conflict` for a caller whose claim on `task` a person released
/// (the task's last release took it from the caller), saying who and when;
/// `None` when that is not what happened.
pub fn released_claim(call: &Call, task: &TaskRow) -> ToolResult<Option<ToolError>> {
    let Some(me) = call.agent.as_deref() else {
        return Ok(None);
    };
    if task.status == Status::InProgress && task.claimed_by_agent_id.as_deref() == Some(me) {
        // Claimed again since: a stale token of its own, no release.
        return Ok(None);
    }
    let rows = call.rows(
        "SELECT agent_id, at, data FROM events WHERE task_id = ? AND kind = ? \
         ORDER BY seq DESC LIMIT 1",
        crate::params![task.id.as_str(), RELEASED],
    )?;
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let data: serde_json::Value =
        serde_json::from_str(row[2].as_str().unwrap_or("{}")).unwrap_or_default();
    if data["from"].as_str() != Some(me) || data["by"].as_str() != Some("person") {
        return Ok(None);
    }
    let by = row[0].as_str().unwrap_or("a person");
    let at = row[1].as_i64().map(format_ms).unwrap_or_default();
    Ok(Some(ToolError::conflict(
        format!(
            "your claim on task {} is lost: {by} (a person) released it at {at}; it is {} now",
            task.id, task.status
        ),
        "stop working on it and keep nothing of it as done; call task_claims claim_next for your next task",
    )))
}

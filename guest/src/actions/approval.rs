//! A person's decisions on a plan: approve a list (or one task added since
//! the list was approved), reject a list with a reason, and what changed
//! since the last approval. No tool reaches these: only the person's entry
//! point (`crate::person`) calls them, with `call.person` set; without a
//! person they refuse.
//!
//! Approving records, on every live task, the title the person approved
//! (`approved_title`) and clears `awaits_approval`: what changed since is
//! read back from those two columns (added: still awaiting; retitled: the
//! title differs; removed: deleted after the approval with one).

use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};

use super::access;
use super::action::Done;
use super::call::Call;
use super::summary::quoted;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::model::{Approval, ListRow};
use crate::results::{ApprovalJson, ChangeCounts, ListJson};
use crate::store::Value;
use crate::text::plural;

/// Longest note or rejection reason, in characters: the reason reaches the
/// agents in every `get`, `find` and `claim_next` of the list.
pub const MAX_REASON_CHARS: usize = 2_000;

/// What a person's approval or rejection came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decided {
    /// The list, as it stands after the decision.
    pub list: crate::results::ListJson,
    /// The tasks the decision approved (ids), if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approved_tasks: Vec<String>,
}

/// The person a decision is made by, or why there is none: a tool call
/// never carries one, so no tool can approve.
fn person<'c>(call: &'c Call) -> ToolResult<&'c str> {
    call.person.as_deref().ok_or_else(|| {
        ToolError::new(
            ErrorCode::Forbidden,
            "only a person approves or rejects a plan",
            "a person approves with /task-approve in Pi or tasklists approve at a shell",
        )
    })
}

/// The list a decision is about: visible to the context's agent, not
/// deleted, created with `requires_approval`.
fn gated_list(call: &Call, list_id: &str) -> ToolResult<ListRow> {
    let list = access::list_without_bypass(call.tx, list_id, call.viewer.as_deref())?;
    if list.approval.is_none() {
        return Err(ToolError::conflict(
            format!(
                "list {} needs no approval (it was not created with requires_approval)",
                list.id
            ),
            "",
        ));
    }
    Ok(list)
}

/// A note or reason as stored: trimmed, None when empty; refused when too
/// long.
fn text(what: &str, value: Option<&str>) -> ToolResult<Option<String>> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let n = value.chars().count();
    if n > MAX_REASON_CHARS {
        return Err(ToolError::invalid(
            format!("the {what} is {n} characters long; at most {MAX_REASON_CHARS}"),
            format!("shorten the {what}"),
        ));
    }
    Ok(Some(value.to_string()))
}

/// Sets the list's decision (state, note or reason, the person, now) in
/// the store and in `list`.
fn decide(
    call: &Call,
    list: &mut ListRow,
    state: Approval,
    note: Option<String>,
    by: &str,
) -> ToolResult<()> {
    call.exec(
        "UPDATE lists SET approval = ?, approval_note = ?, approval_by = ?, approval_at = ?, updated_at = ? \
         WHERE id = ?",
        crate::params![state.as_str(), note.clone(), by, call.now(), call.now(), list.id.as_str()],
    )?;
    list.approval = Some(state);
    list.approval_note = note;
    list.approval_by = Some(by.to_string());
    list.approval_at = Some(call.now());
    list.updated_at = call.now();
    Ok(())
}

/// Approves `list_id` (all its tasks, those added since included), or only
/// `task_id` of it, as `call.person`, with an optional note.
pub fn approve(
    call: &Call,
    list_id: &str,
    task_id: Option<&str>,
    note: Option<&str>,
) -> ToolResult<Done<Decided>> {
    let by = person(call)?.to_string();
    let note = text("note", note)?;
    let mut list = gated_list(call, list_id)?;
    if let Some(task_id) = task_id {
        return approve_task(call, list, task_id, note);
    }
    // The tasks added since the last approval, for their own events.
    let added: Vec<(String, Json)> = call
        .rows(
            "SELECT id, title FROM tasks WHERE list_id = ? AND deleted_at IS NULL AND awaits_approval = 1 \
             ORDER BY position, id",
            crate::params![list.id.as_str()],
        )?
        .iter()
        .map(|r| {
            let id = r[0].as_str().unwrap_or_default().to_string();
            (id, json!({"title": r[1].as_str().unwrap_or_default()}))
        })
        .collect();
    decide(call, &mut list, Approval::Approved, note.clone(), &by)?;
    let tasks = call.exec(
        "UPDATE tasks SET approved_title = title, awaits_approval = 0, \
         updated_at = CASE WHEN awaits_approval = 1 THEN ? ELSE updated_at END \
         WHERE list_id = ? AND deleted_at IS NULL",
        crate::params![call.now(), list.id.as_str()],
    )?;
    let mut data = json!({"tasks": tasks});
    if let Some(note) = &note {
        data["note"] = json!(note);
    }
    call.event("approved", Some(&list.id), None, data)?;
    call.task_events("approved", &list.id, &added)?;
    let summary = format!(
        "{by} approved the plan of list {} {} ({}{})",
        list.id,
        quoted(&list.name),
        plural(tasks as usize, "task"),
        if added.is_empty() {
            String::new()
        } else {
            format!(", {} added since the last approval", added.len())
        }
    );
    Ok(Done {
        summary,
        result: Decided {
            list: ListJson::from(&list),
            approved_tasks: added.into_iter().map(|(id, _)| id).collect(),
        },
    })
}

/// Approves one task of `list` that awaits approval.
fn approve_task(
    call: &Call,
    list: ListRow,
    task_id: &str,
    note: Option<String>,
) -> ToolResult<Done<Decided>> {
    let task = access::task_row(call, task_id)?;
    if task.list_id != list.id || task.deleted_at.is_some() {
        return Err(ToolError::not_found("task", task_id));
    }
    if !task.awaits_approval {
        return Err(ToolError::conflict(
            format!("task {} does not await approval", task.id),
            "only a task added to a list after its approval awaits its own",
        ));
    }
    call.exec(
        "UPDATE tasks SET approved_title = title, awaits_approval = 0, updated_at = ? WHERE id = ?",
        crate::params![call.now(), task.id.as_str()],
    )?;
    let mut data = json!({"title": task.title});
    if let Some(note) = &note {
        data["note"] = json!(note);
    }
    call.event("approved", Some(&list.id), Some(&task.id), data)?;
    let by = call.person.as_deref().unwrap_or_default();
    let summary = format!(
        "{by} approved task {} {} of list {}",
        task.id,
        quoted(&task.title),
        list.id
    );
    Ok(Done {
        summary,
        result: Decided {
            list: ListJson::from(&list),
            approved_tasks: vec![task.id],
        },
    })
}

/// Rejects `list_id` as `call.person`, with the reason the agents read.
pub fn reject(call: &Call, list_id: &str, reason: &str) -> ToolResult<Done<Decided>> {
    let by = person(call)?.to_string();
    let Some(reason) = text("reason", Some(reason))? else {
        return Err(ToolError::invalid(
            "a rejection needs a reason",
            "say what the agents should change: they read it",
        ));
    };
    let mut list = gated_list(call, list_id)?;
    decide(
        call,
        &mut list,
        Approval::Rejected,
        Some(reason.clone()),
        &by,
    )?;
    call.event("rejected", Some(&list.id), None, json!({"reason": reason}))?;
    let summary = format!(
        "{by} rejected the plan of list {} {}: {}",
        list.id,
        quoted(&list.name),
        quoted(&reason)
    );
    Ok(Done {
        summary,
        result: Decided {
            list: ListJson::from(&list),
            approved_tasks: Vec::new(),
        },
    })
}

/// Which tasks of an approved list changed since its approval (params:
/// the list, its approval time): kind 0 added, 1 removed, 2 retitled.
const CHANGED: &str =
    "CASE WHEN deleted_at IS NOT NULL THEN 1 WHEN awaits_approval = 1 THEN 0 ELSE 2 END";
const CHANGED_WHERE: &str = "list_id = ? AND ((deleted_at IS NULL AND (awaits_approval = 1 OR approved_title <> title)) \
     OR (deleted_at IS NOT NULL AND approved_title IS NOT NULL AND deleted_at > ?))";

/// How many tasks of `list` were added, removed and retitled since its
/// approval, in one aggregate query (what `task_lists get` shows); None
/// when it is not approved or nothing changed.
pub fn count_changes(call: &Call, list: &ListRow) -> ToolResult<Option<ChangeCounts>> {
    let Some(at) = list
        .approval_at
        .filter(|_| list.approval == Some(Approval::Approved))
    else {
        return Ok(None);
    };
    let rows = call.rows(
        &format!(
            "SELECT COALESCE(SUM(CASE WHEN {CHANGED} = 0 THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN {CHANGED} = 1 THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN {CHANGED} = 2 THEN 1 ELSE 0 END), 0) \
             FROM tasks WHERE {CHANGED_WHERE}"
        ),
        crate::params![list.id.as_str(), at],
    )?;
    let n = |i: usize| {
        rows.first()
            .and_then(|r| r.get(i))
            .and_then(Value::as_i64)
            .unwrap_or(0)
    };
    let counts = ChangeCounts {
        added: n(0),
        removed: n(1),
        retitled: n(2),
    };
    Ok((counts != ChangeCounts::default()).then_some(counts))
}

/// Where a plan stands, in a few words for a summary: None once approved
/// with nothing changed since.
pub fn phrase(approval: &ApprovalJson) -> Option<String> {
    match approval.state {
        Approval::Pending => Some(crate::results::PLAN_AWAITS.into()),
        Approval::Rejected => Some(format!(
            "plan rejected by {}: {}",
            approval.by.as_deref().unwrap_or("a person"),
            quoted(approval.reason.as_deref().unwrap_or_default())
        )),
        Approval::Approved => approval
            .changes
            .and_then(|c| c.said("added (awaiting approval)"))
            .map(|since| format!("since approval: {since}")),
    }
}

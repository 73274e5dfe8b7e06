//! `task_items update`: fields, notes, status transitions, assignment and
//! dependencies, with the claim rules of the contract.

use super::action::{Action, Done};
use crate::contract::{
    ASSIGNED, Access, ActionSpec, DESCRIPTION, LABELS, MAX_TEXT, NOTES, PRIORITY, REFS, STATUSES,
    TASK_ID, TASK_ITEMS, Ty, VERIFICATION, param,
};
use crate::ids::IdKind;
use serde_json::json;

use super::access;
use super::call::Call;
use super::deps;
use super::items::TaskResult;
use super::summary::quoted;
use crate::clock::format_ms;
use crate::contract::{DEFAULT_LEASE_MS, Params};
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::model::{Approval, ListRow, Priority, Status, TaskForm, TaskRow};
use crate::results::TaskJson;
use crate::store::Value;
use crate::text::quote;
use crate::text_budget;

/// `task_items update`, as one type: its spec, its result, its handler.
pub struct UpdateTask;

impl Action for UpdateTask {
    type Result = TaskResult;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_ITEMS,
        name: "update",
        summary: "change fields or status (todo, blocked, done, canceled); done/canceled need an outcome",
        own_params: &[
            TASK_ID,
            param("title", Ty::Str { min: 1, max: 500 }, false, "short title"),
            DESCRIPTION,
            NOTES,
            PRIORITY,
            VERIFICATION,
            param(
                "status",
                Ty::Enum(STATUSES),
                false,
                "todo, blocked, done or canceled (in_progress comes from claim_next)",
            ),
            param(
                "outcome",
                Ty::Str {
                    min: 0,
                    max: MAX_TEXT,
                },
                false,
                "decisions, actions, result; required for done/canceled",
            ),
            param(
                "verification_result",
                Ty::Str {
                    min: 0,
                    max: MAX_TEXT,
                },
                false,
                "what the check showed; required for done if verification is set",
            ),
            ASSIGNED,
            REFS,
            LABELS,
            param(
                "depends_on",
                Ty::Deps { refs: false },
                false,
                "replaces the dependencies",
            ),
            param(
                "question",
                Ty::Str {
                    min: 1,
                    max: crate::waits::MAX_SAID,
                },
                false,
                "ask your person; the task waits for the answer",
            ),
            param(
                "claim_token",
                Ty::Id(IdKind::Claim),
                false,
                "token from claim_next; refused if stale",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"task_id":"task_01JDQ50000000000000000000A","status":"done","outcome":"Migration 0002 adds the index","verification_result":"cargo test -p store: 48 passed"}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<TaskResult>> {
        update(call)
    }
}

/// `update`: see the rules in CONTRACT.md and `task_help workflow`.
fn update(call: &mut Call) -> ToolResult<Done<TaskResult>> {
    let agent = call.agent()?.to_string();
    let task_id = call.params.str("task_id").unwrap_or_default().to_string();
    // A close by the claim holder is written by one statement with its
    // COMMIT where the store can; the rules below then decide the same
    // change from the task as it was, and write nothing more.
    let (loaded, written) = match super::items_update_close::close(call, &task_id)? {
        Some(loaded) => (loaded, true),
        None => (access::task_for_update(call, &task_id)?, false),
    };
    let access::Loaded {
        task: old,
        list,
        deps: old_deps,
    } = loaded;
    if old.held_by_other(call.claim_holder(), call.now()) {
        return Err(access::claimed_conflict(call, &old));
    }
    if let Err(e) = access::check_token(call.params.str("claim_token"), &old) {
        return Err(super::release::released_claim(call, &old)?.unwrap_or(e));
    }

    let holds_claim = old.status == Status::InProgress
        && call.claim_holder().is_some()
        && old.claimed_by_agent_id.as_deref() == call.claim_holder();
    let p = &call.params;
    let mut new = old.clone();
    let mut changed: Vec<&str> = Vec::new();
    if let Some(v) = p.str("title") {
        new.title = v.to_string();
    }
    for (key, field) in [
        ("description", &mut new.description),
        ("notes", &mut new.notes),
        ("outcome", &mut new.outcome),
        ("verification_result", &mut new.verification_result),
    ] {
        if let Some(v) = p.str(key) {
            *field = Some(v.to_string());
        }
    }
    if let Some(v) = p.str("verification") {
        // An empty verification removes it: the task then closes without one.
        new.verification = (!v.trim().is_empty()).then(|| v.to_string());
    }
    if let Some(priority) = p.str("priority").and_then(Priority::parse) {
        new.priority = priority;
    }
    if let Some(assigned) = p.nullable_str("assigned_to_agent_id") {
        new.assigned_to_agent_id = assigned.map(str::to_string);
    }
    if let Some(refs) = p.strs("refs") {
        // The whole set, as given: [] removes every ref.
        new.refs = refs.into_iter().map(str::to_string).collect();
    }
    if let Some(labels) = p.strs("labels") {
        // The whole set, as given (each label once): [] removes them all.
        new.labels = crate::contract::labels::label_set(&labels);
    }

    let mut asked = None;
    if let Some(question) = p.str("question") {
        asked = Some(super::ask::ask(
            call,
            &old,
            &mut new,
            question,
            holds_claim,
        )?);
    }
    if let Some(status) = p.str("status").and_then(Status::parse) {
        super::ask::not_while_waiting(call, &old)?;
        apply_status(call, &old, &mut new, status, &agent)?;
        if status == Status::Done && old.status != Status::Done && call.person.is_none() {
            not_before_approval(&list, &old)?;
        }
    }
    let submitted = super::ask::to_review(call, &old, &mut new);
    super::ask::settle(call, &old, &mut new);
    let reopened = old.is_closed() && !new.is_closed();
    if reopened {
        reopen(call, &old, &mut new);
    }
    if holds_claim && new.status == Status::InProgress {
        // An update by the claim holder renews its lease.
        new.claim_expires_at = Some(call.now() + old.lease_ms.unwrap_or(DEFAULT_LEASE_MS));
    }

    text_budget::check("", texts(&new), text_budget::size(texts(&old)))?;

    if new.is_closed() && new.outcome.as_deref().is_none_or(|o| o.trim().is_empty()) {
        // A closed task keeps a real outcome: it cannot be blanked later.
        return Err(outcome_required(&old.id, new.status));
    }
    if new.status == Status::Done && needs_verification_result(&old, &new, p) {
        return Err(verification_required(
            &new.id,
            new.verification.as_deref().or(old.verification.as_deref()),
        ));
    }

    let new_deps = match call.params.strs("depends_on") {
        Some(wanted) => {
            let checked = deps::check_existing(call, &list.id, Some(&old.id), &wanted)?;
            deps::check_no_cycle(call, &old.id, &checked, call.redacts(&list.id))?;
            Some(checked)
        }
        None => None,
    };

    for (name, differs) in [
        ("title", new.title != old.title),
        ("description", new.description != old.description),
        ("notes", new.notes != old.notes),
        ("outcome", new.outcome != old.outcome),
        ("priority", new.priority != old.priority),
        ("verification", new.verification != old.verification),
        (
            "verification_result",
            new.verification_result != old.verification_result,
        ),
        (
            "assigned_to_agent_id",
            new.assigned_to_agent_id != old.assigned_to_agent_id,
        ),
        (
            "depends_on",
            new_deps.as_ref().is_some_and(|d| !same_set(d, &old_deps)),
        ),
        ("refs", new.refs != old.refs),
        ("labels", new.labels != old.labels),
    ] {
        if differs {
            changed.push(name);
        }
    }
    let status_changed = new.status != old.status;
    if changed.is_empty()
        && !status_changed
        && asked.is_none()
        && new.claim_expires_at == old.claim_expires_at
    {
        let summary = format!("task {} {} unchanged", old.id, quoted(&old.title));
        return Ok(Done {
            summary,
            result: TaskResult {
                task: TaskJson::new(&old, &old_deps, TaskForm::Whole),
            },
        });
    }

    new.updated_at = call.now();
    // One audit event per change: a status change names the fields that
    // changed with it (a close's outcome), so it is one row, not two.
    let lease_only = !status_changed && changed.is_empty();
    let (kind, data) = if let Some(question) = &asked {
        let mut data = json!({"question": question});
        if !changed.is_empty() {
            data["fields"] = json!(changed);
        }
        ("asked", data)
    } else if submitted {
        let mut data = json!({"outcome": new.outcome});
        if new.verification_result.is_some() {
            data["verification_result"] = json!(new.verification_result);
        }
        ("submitted", data)
    } else if lease_only {
        let data = json!({"lease_seconds": old.lease_ms.unwrap_or(DEFAULT_LEASE_MS) / 1000});
        ("refreshed", data)
    } else if status_changed {
        let mut data = super::items_update_close::status_data(old.status, new.status, &changed);
        if reopened {
            // What the task had been closed with, in its history.
            data["was"] = json!({
                "outcome": old.outcome,
                "verification_result": old.verification_result,
            });
        }
        ("status_changed", data)
    } else {
        ("updated", json!({"fields": changed}))
    };
    match &new_deps {
        // The one statement of the close wrote it all, and committed.
        _ if written => {}
        Some(d) => {
            write(call, &new)?;
            deps::write(call, &new.id, d, true)?;
            call.event(kind, Some(&list.id), Some(&new.id), data)?;
        }
        // The change and its audit row: one statement where the store
        // can, sent with the commit (the read above found the task as it
        // is under the lock: the change applies).
        None => {
            let (update, params) = write_sql(&new);
            call.exec_with_event_last(update, &params, kind, Some(&list.id), Some(&new.id), data)?;
        }
    }
    if new.refs != old.refs || new.labels != old.labels {
        // Their own statement: refs and labels change rarely, and the hot
        // update above stays as it is.
        call.exec(
            "UPDATE tasks SET refs = ?, labels = ? WHERE id = ?",
            crate::params![
                crate::model::refs_column(&new.refs),
                crate::model::labels_column(&new.labels),
                new.id.as_str()
            ],
        )?;
    }
    // `new` is exactly what was written: no need to read it back.
    let task = new;
    let deps_now = new_deps.unwrap_or(old_deps);
    let what = if let Some(waits) = task.waits_on.filter(|_| status_changed) {
        waits.phrase().to_string()
    } else if status_changed {
        format!("→ {}", task.status)
    } else if lease_only {
        format!(
            "lease renewed until {}",
            task.claim_expires_at.map(format_ms).unwrap_or_default()
        )
    } else {
        format!("updated {}", changed.join(", "))
    };
    let summary = format!("task {} {} {what}", task.id, quoted(&task.title));
    Ok(Done {
        summary,
        result: TaskResult {
            task: TaskJson::new(&task, &deps_now, TaskForm::Whole),
        },
    })
}

/// A closed task reopened: its outcome and verification result were about
/// the close that no longer stands, so they leave the task's current
/// fields (never shown as if they were its result) for its history: the
/// audit event keeps them, and a line at the end of its notes says what it
/// had been closed with, for whoever works it next.
fn reopen(call: &Call, old: &TaskRow, new: &mut TaskRow) {
    let who = call.actor().unwrap_or_default();
    let mut was = format!(
        "Reopened by {who} at {}; it had been {}: {}",
        format_ms(call.now()),
        old.status,
        old.outcome.as_deref().unwrap_or_default().trim()
    );
    if let Some(result) = old
        .verification_result
        .as_deref()
        .filter(|r| !r.trim().is_empty())
    {
        was.push_str(&format!(" (verification: {})", result.trim()));
    }
    new.notes = Some(match new.notes.as_deref().map(str::trim_end) {
        Some(notes) if !notes.is_empty() => format!("{notes}\n{was}"),
        _ => was,
    });
    new.outcome = None;
    new.verification_result = None;
}

/// Applies a status change to `new`, or refuses it.
fn apply_status(
    call: &Call,
    old: &TaskRow,
    new: &mut TaskRow,
    status: Status,
    agent: &str,
) -> ToolResult<()> {
    if status == Status::InProgress {
        return Err(ToolError::conflict(
            format!("task {} cannot be set to in_progress by update", old.id),
            "claim it with task_claims claim_next: it is the only way to start a task",
        ));
    }
    if old.is_closed() && status != old.status && status != Status::Todo {
        return Err(ToolError::conflict(
            format!(
                "task {} is {}; it can only be reopened as todo",
                old.id, old.status
            ),
            "update with status todo to reopen it, or create a new task",
        ));
    }
    if status.is_closed()
        && call
            .params
            .str("outcome")
            .is_none_or(|o| o.trim().is_empty())
    {
        return Err(outcome_required(&old.id, status));
    }
    new.status = status;
    if status == Status::Blocked
        && old.status != Status::Blocked
        && call.person.is_none()
        && !call.params.has("assigned_to_agent_id")
    {
        // A paused task stays with whoever paused it unless released (null)
        // or transferred explicitly in the same call; pausing it again does
        // not take it from them. Paused by a person, it stays with whom it
        // is reserved for now (read in this call's transaction).
        new.assigned_to_agent_id = Some(agent.to_string());
    }
    // `in_progress` was refused above: every status set here ends the claim.
    new.end_claim();
    if status.is_closed() {
        if !old.is_closed() || old.status != status {
            new.completed_at = Some(call.now());
        }
    } else {
        new.completed_at = None;
    }
    Ok(())
}

fn write(call: &Call, t: &TaskRow) -> ToolResult<()> {
    let (sql, params) = write_sql(t);
    call.exec(sql, &params)?;
    Ok(())
}

/// The statement that writes `t`'s changeable columns, and its params.
pub(super) fn write_sql(t: &TaskRow) -> (&'static str, Vec<Value>) {
    (
        "UPDATE tasks SET title = ?, description = ?, notes = ?, status = ?, assigned_to_agent_id = ?, \
         claimed_by_agent_id = ?, claim_token = ?, claim_expires_at = ?, lease_ms = ?, outcome = ?, \
         updated_at = ?, completed_at = ?, priority = ?, verification = ?, verification_result = ?, \
         waits_on = ?, ask = ?, review = ?, resume_for = ? WHERE id = ?",
        crate::params![
            t.title.as_str(),
            t.description.clone(),
            t.notes.clone(),
            t.status.as_str(),
            t.assigned_to_agent_id.clone(),
            t.claimed_by_agent_id.clone(),
            t.claim_token.clone(),
            t.claim_expires_at,
            t.lease_ms,
            t.outcome.clone(),
            t.updated_at,
            t.completed_at,
            t.priority.rank(),
            t.verification.clone(),
            t.verification_result.clone(),
            t.waits_on.map(|w| w.as_str()),
            crate::waits::column(t.ask.as_ref()),
            crate::waits::column(t.review.as_ref()),
            t.resume_for.clone(),
            t.id.as_str()
        ]
        .to_vec(),
    )
}

/// The long texts of a task, as [`text_budget`] counts them.
fn texts(t: &TaskRow) -> [Option<&str>; text_budget::LONG_TEXTS] {
    [
        t.description.as_deref(),
        t.notes.as_deref(),
        t.outcome.as_deref(),
        t.verification.as_deref(),
        t.verification_result.as_deref(),
    ]
}

/// Whether `new`, done, lacks the verification result it needs: a task
/// with a verification is closed as done only with a non-empty
/// `verification_result` in the same call (as its outcome: a result kept
/// from an earlier close does not count), and a done task's result is
/// never blanked, nor missing after a verification is added to it. A
/// verification removed in the closing call itself still counts: an agent
/// cannot skip its check by clearing it as it closes.
fn needs_verification_result(old: &TaskRow, new: &TaskRow, p: &Params) -> bool {
    let blank = |v: Option<&str>| v.is_none_or(|v| v.trim().is_empty());
    if p.str("status") == Some(Status::Done.as_str()) {
        let checked = new.verification.is_some() || old.verification.is_some();
        return checked && blank(p.str("verification_result"));
    }
    if new.verification.is_none() {
        return false;
    }
    blank(new.verification_result.as_deref())
}

/// Whether two id lists hold the same ids, whatever their order.
fn same_set(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.contains(x))
}

/// The `verification_required` error for closing `task` as done without
/// the result of its verification.
fn verification_required(task_id: &str, check: Option<&str>) -> ToolError {
    let check = check.unwrap_or_default();
    ToolError::new(
        ErrorCode::VerificationRequired,
        format!(
            "task {} has a verification ({}): closing it as done needs a non-empty verification_result",
            task_id,
            quote(check)
        ),
        "run the check and pass verification_result: what it showed (verification: \"\" removes the check)",
    )
}

/// An agent closes as done only what it may work on: a task of a plan a
/// person approved, not awaiting its own approval (claim_next's gate, for
/// an agent that would close a task without claiming it).
fn not_before_approval(list: &ListRow, task: &TaskRow) -> ToolResult<()> {
    let gated = match list.approval {
        Some(Approval::Approved) => task.awaits_approval,
        Some(_) => true,
        None => false,
    };
    if !gated {
        return Ok(());
    }
    let why = match list.approval {
        Some(Approval::Approved) => "it was added after the plan's approval".to_string(),
        Some(state) => format!("its plan {} is {state}", list.id),
        None => String::new(),
    };
    Err(ToolError::new(
        ErrorCode::Conflict,
        format!(
            "task {} cannot be closed as done before a person approves it: {why}",
            task.id
        ),
        super::claims::approve_hint(&list.id),
    ))
}

/// The `outcome_required` error for closing `task_id` as `status`.
fn outcome_required(task_id: &str, status: Status) -> ToolError {
    ToolError::new(
        ErrorCode::OutcomeRequired,
        format!("task {task_id} closed as {status} needs a non-empty outcome"),
        "pass outcome: the decisions taken, actions done and the result",
    )
}

//! Loading lists and tasks with the visibility rules applied: a private list
//! belongs to its owner; anyone else needs an explicit, audited bypass. The
//! views check a list with the same functions ([`read_list`], [`visible`],
//! [`live`]), without a bypass, so they refuse what the tools refuse in the
//! tools' words.

use std::sync::LazyLock;

use super::bypass;
use super::call::Call;
use crate::clock::format_ms;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::model::{
    DEPS_OF_T, LIST_COLS, ListRow, Status, TASK_COLS, TASK_WIDTH, TaskRow, aliased, deps_column,
};
use crate::store::Tx;

/// Loads a list (refusing soft-deleted ones unless asked) and checks access.
pub fn list(call: &mut Call, list_id: &str, include_deleted: bool) -> ToolResult<ListRow> {
    let list = read_list(call.tx, list_id)?;
    usable(call, list, include_deleted)
}

/// A list by id, deleted or not, without any access check.
pub fn read_list(tx: &dyn Tx, list_id: &str) -> ToolResult<ListRow> {
    let rows = tx.query(
        &format!("SELECT {LIST_COLS} FROM lists WHERE id = ?"),
        crate::params![list_id],
    )?;
    rows.rows
        .first()
        .map(|r| ListRow::from_row(r))
        .ok_or_else(|| ToolError::not_found("list", list_id))
}

/// A list a view shows: loaded and checked as [`list`] checks it, except
/// that a view never bypasses (nor records a bypass).
pub fn list_without_bypass(tx: &dyn Tx, list_id: &str, agent: Option<&str>) -> ToolResult<ListRow> {
    let list = read_list(tx, list_id)?;
    visible(&list, agent)?;
    live(list, false)
}

/// A loaded list, unless the caller may not use it or it is soft-deleted
/// (and not asked for). Access comes first: that another agent's private
/// list was deleted is not told to whoever may not see it.
pub fn usable(call: &mut Call, list: ListRow, include_deleted: bool) -> ToolResult<ListRow> {
    check(call, &list)?;
    live(list, include_deleted)
}

/// The list, unless it is soft-deleted and not asked for.
pub fn live(list: ListRow, include_deleted: bool) -> ToolResult<ListRow> {
    if list.deleted_at.is_some() && !include_deleted {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!("list {} was deleted", list.id),
            "pass include_deleted: true to task_lists get to read it",
        ));
    }
    Ok(list)
}

/// [`list`] for the call's `list_id` param.
pub fn list_param(call: &mut Call, include_deleted: bool) -> ToolResult<ListRow> {
    let list_id = call.params.str("list_id").unwrap_or_default().to_string();
    list(call, &list_id, include_deleted)
}

/// Loads a task row by id, soft-deleted or not, without any access check.
pub fn task_row(call: &Call, task_id: &str) -> ToolResult<TaskRow> {
    let rows = call.rows(
        &format!("SELECT {TASK_COLS} FROM tasks WHERE id = ?"),
        crate::params![task_id],
    )?;
    rows.first()
        .map(|r| TaskRow::from_row(r))
        .ok_or_else(|| ToolError::not_found("task", task_id))
}

/// A task as loaded for a change: the row, its list and its live
/// dependencies, read in one statement.
pub struct Loaded {
    /// The task row.
    pub task: TaskRow,
    /// Its list (access checked).
    pub list: ListRow,
    /// Its live dependencies, in their position order.
    pub deps: Vec<String>,
}

/// Loads a non-deleted task of a non-deleted list, with its list and
/// dependencies in the same statement, and checks access to its list.
pub fn task(call: &mut Call, task_id: &str) -> ToolResult<Loaded> {
    task_by(call, &TASK_QUERY, task_id)
}

/// [`task`], the task's row locked until the call ends where the store
/// has row locks (`FOR UPDATE`, PostgreSQL): a change of the task's own
/// fields under the list's lock shared ([`crate::schema::dialect::WriteScope::TaskRow`])
/// then waits for a claim taking it (and reads it as that claim left it),
/// and a claim passes over it (`SKIP LOCKED`) until the change commits.
pub fn task_for_update(call: &mut Call, task_id: &str) -> ToolResult<Loaded> {
    if call.tx.dialect().row_locks() {
        task_by(call, &LOCKED_TASK_QUERY, task_id)
    } else {
        task_by(call, &TASK_QUERY, task_id)
    }
}

/// [`task`] by `query` ([`task_query`]'s columns).
fn task_by(call: &mut Call, query: &str, task_id: &str) -> ToolResult<Loaded> {
    let rows = call.rows(query, crate::params![task_id])?;
    let row = rows
        .first()
        .ok_or_else(|| ToolError::not_found("task", task_id))?;
    let task = TaskRow::from_row(row);
    let width = TASK_WIDTH;
    let list_cols = &row[width + 1..];
    // A task whose list is gone or deleted is not found, as the task.
    if list_cols.first().is_none_or(|id| id.as_str().is_none()) {
        return Err(ToolError::not_found("task", task_id));
    }
    let list = usable(call, ListRow::from_row(list_cols), false).map_err(|e| {
        if e.code == ErrorCode::NotFound {
            ToolError::not_found("task", task_id)
        } else {
            e
        }
    })?;
    // After the access check, as for a list.
    if task.deleted_at.is_some() {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!("task {task_id} was deleted"),
            "",
        ));
    }
    let deps = deps_column(row.get(width));
    Ok(Loaded { task, list, deps })
}

/// [`task_query`], built once.
static TASK_QUERY: LazyLock<String> = LazyLock::new(task_query);

/// [`task_query`] taking the task's row lock, built once.
static LOCKED_TASK_QUERY: LazyLock<String> =
    LazyLock::new(|| format!("{} FOR UPDATE OF t", task_query()));

/// The query of [`task`] (param: the task id): the task's columns, its
/// dependencies, then its list's columns (NULL if the list is gone).
pub(crate) fn task_query() -> String {
    format!(
        "SELECT {}, {DEPS_OF_T}, {} FROM tasks t LEFT JOIN lists l ON l.id = t.list_id WHERE t.id = ?",
        aliased(TASK_COLS, "t"),
        aliased(LIST_COLS, "l")
    )
}

/// Allows the owner of a private list, or anyone with `bypass_private` and a
/// reason (recording a `private_bypass` event); refuses everyone else.
pub fn check(call: &mut Call, list: &ListRow) -> ToolResult<()> {
    let Err(refused) = visible(list, call.viewer.as_deref()) else {
        return Ok(());
    };
    if call.redacts(&list.id) {
        return Ok(());
    }
    if call.params.bool("bypass_private") != Some(true) {
        return Err(refused);
    }
    bypass::record(call, list)
}

/// The access rule without a bypass ([`ListRow::visible_to`]): `agent`
/// may use `list`, or the `forbidden` error that says why not.
pub fn visible(list: &ListRow, agent: Option<&str>) -> ToolResult<()> {
    if list.visible_to(agent) {
        return Ok(());
    }
    Err(ToolError::new(
        ErrorCode::Forbidden,
        format!("list {} is private to another agent", list.id),
        "if you really must, repeat the call with bypass_private: true and a bypass_reason (it is audited)",
    ))
}

/// Refuses a `claim_token` that is not the task's current one.
pub fn check_token(token: Option<&str>, task: &TaskRow) -> ToolResult<()> {
    let Some(token) = token else { return Ok(()) };
    if task.status == Status::InProgress && task.claim_token.as_deref() == Some(token) {
        return Ok(());
    }
    Err(ToolError::conflict(
        format!(
            "claim token {token} is not the current claim on task {}",
            task.id
        ),
        "your claim ended or was taken over; call task_claims claim_next to get your current task",
    ))
}

/// The `conflict` for a task another agent holds: who and until when,
/// unless the call reached the task's list through a bypass.
pub fn claimed_conflict(call: &Call, task: &TaskRow) -> ToolError {
    let hint = if call.person.is_some() {
        // A person is not changing work an agent is doing under it.
        "an agent is working on it: wait until it closes the task or its lease runs out"
    } else {
        "call task_claims claim_next to get another task"
    };
    if call.redacts(&task.list_id) {
        return ToolError::conflict(
            format!("task {} is claimed by another agent", task.id),
            hint,
        );
    }
    ToolError::conflict(
        format!(
            "task {} is claimed by {} until {}",
            task.id,
            task.claimed_by_agent_id
                .as_deref()
                .unwrap_or("another agent"),
            task.claim_expires_at.map(format_ms).unwrap_or_default()
        ),
        hint,
    )
}

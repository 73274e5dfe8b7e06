//! Which lists a person sees outside tool calls — the one definition the
//! widget, the commands and the completions share — and the few indexed
//! queries that read them: counts, the viewer's own tasks, a list's active
//! tasks.
//!
//! A list is visible when the viewer may use it without a bypass (never
//! another agent's private list: [`ListRow::visible_to`]), it is not
//! deleted, and it belongs to the viewer's context (its workspace, thread,
//! agent, or global), or the viewer created it, or holds an unexpired claim
//! or an open assignment in it.

use super::read::{self, Viewer, marks, select_lists, select_tasks};
use crate::error::ToolResult;
use crate::model::{Approval, ListRow, TaskRow, VISIBLE_TO};
use crate::store::{Tx, Value};

/// Most lists a view considers (most recently updated first): the widget
/// shows at most a handful, completions and `task-lists` stay short.
pub(crate) const MAX_LISTS: usize = 50;

/// Most own tasks read at once: far more than any view shows, enough to
/// count them.
const MAX_OWN: usize = 500;

/// The visible lists, most recently updated first.
#[derive(Debug, Default)]
pub(crate) struct Visible {
    /// At most [`MAX_LISTS`] lists.
    pub lists: Vec<ListRow>,
    /// More lists matched than [`MAX_LISTS`].
    pub more: bool,
}

/// The query of the visible lists of `viewer`: one query whose every branch reads an
/// index (`lists_by_scope`, `lists_by_creator`, `tasks_by_claimer`,
/// `tasks_by_assignee`).
fn lists_query(viewer: &Viewer) -> (String, Vec<Value>) {
    let sql = format!(
        "{} WHERE deleted_at IS NULL AND {VISIBLE_TO} AND id IN ( \
         SELECT id FROM lists WHERE scope_type = 'global' \
         UNION ALL SELECT id FROM lists WHERE scope_type = 'workspace' AND scope_key = ? \
         UNION ALL SELECT id FROM lists WHERE scope_type = 'thread' AND scope_key = ? \
         UNION ALL SELECT id FROM lists WHERE scope_type = 'agent' AND scope_key = ? \
         UNION ALL SELECT id FROM lists WHERE created_by_agent_id = ? \
         UNION ALL SELECT list_id FROM tasks WHERE claimed_by_agent_id = ? AND status = 'in_progress' \
             AND claim_expires_at > ? AND deleted_at IS NULL \
         UNION ALL SELECT list_id FROM tasks WHERE assigned_to_agent_id = ? AND deleted_at IS NULL \
             AND status IN ('todo', 'in_progress', 'blocked')) \
         ORDER BY updated_at DESC, id DESC LIMIT ?",
        select_lists()
    );
    let me = viewer.agent_value();
    let args = vec![
        me.clone(),
        Value::from(viewer.ctx.workspace.clone()),
        Value::from(viewer.ctx.thread.clone()),
        me.clone(),
        me.clone(),
        me.clone(),
        Value::Integer(viewer.now),
        me,
        Value::Integer(MAX_LISTS as i64 + 1),
    ];
    (sql, args)
}

/// The visible lists of `viewer` (see [`lists_query`]).
pub(crate) fn lists(tx: &dyn Tx, viewer: &Viewer) -> ToolResult<Visible> {
    let (sql, args) = lists_query(viewer);
    let mut lists = read::lists(tx, &sql, &args)?;
    // The SQL filter is the access rule spelled for an index; the model's
    // own rule is checked again so the two can never disagree on screen.
    lists.retain(|l| l.visible_to(viewer.agent.as_deref()));
    let more = lists.len() > MAX_LISTS;
    lists.truncate(MAX_LISTS);
    Ok(Visible { lists, more })
}

/// Every list `viewer` may see, whatever its scope (the web board's
/// overview: a board is shared by people who did not start it in the
/// agents' workspace, so no scope hides a list from it), those awaiting a
/// decision first (as [`awaits_approval`] says: a pending or rejected plan,
/// or an approved one with tasks added since), then the most recently
/// updated; never another agent's private list. The order is the SQL's, so
/// a list awaiting a decision is never the one cut by the limit.
pub(crate) fn all_lists(tx: &dyn Tx, viewer: &Viewer) -> ToolResult<Visible> {
    let sql = format!(
        "{} WHERE deleted_at IS NULL AND {VISIBLE_TO} \
         ORDER BY CASE WHEN approval IN ('pending', 'rejected') THEN 0 \
         WHEN approval = 'approved' AND EXISTS (SELECT 1 FROM tasks t \
         WHERE t.list_id = lists.id AND t.deleted_at IS NULL AND t.awaits_approval <> ?) \
         THEN 0 ELSE 1 END, updated_at DESC, id DESC LIMIT ?",
        select_lists()
    );
    let args = vec![
        viewer.agent_value(),
        Value::Integer(0),
        Value::Integer(MAX_LISTS as i64 + 1),
    ];
    let mut lists = read::lists(tx, &sql, &args)?;
    lists.retain(|l| l.visible_to(viewer.agent.as_deref()));
    let more = lists.len() > MAX_LISTS;
    lists.truncate(MAX_LISTS);
    Ok(Visible { lists, more })
}

/// The query of [`own_tasks`].
fn own_query(viewer: &Viewer, ids: &[&str]) -> (String, Vec<Value>) {
    let sql = format!(
        "{} WHERE deleted_at IS NULL AND status IN ('todo', 'in_progress', 'blocked') \
         AND (claimed_by_agent_id = ? OR assigned_to_agent_id = ?) AND list_id IN ({}) \
         ORDER BY list_id, position LIMIT ?",
        select_tasks(),
        marks(ids.len())
    );
    let mut args = vec![viewer.agent_value(), viewer.agent_value()];
    args.extend(ids.iter().map(|id| Value::from(*id)));
    args.push(Value::Integer(MAX_OWN as i64));
    (sql, args)
}

/// The viewer's own active tasks in `ids` (claimed by it, or assigned to
/// it and held by nobody else), by list then position.
pub(crate) fn own_tasks(tx: &dyn Tx, viewer: &Viewer, ids: &[&str]) -> ToolResult<Vec<TaskRow>> {
    if viewer.agent.is_none() || ids.is_empty() {
        return Ok(Vec::new());
    }
    let (sql, args) = own_query(viewer, ids);
    let mut tasks = read::tasks(tx, &sql, &args)?;
    tasks.retain(|t| viewer.owns(t));
    Ok(tasks)
}

/// The first `limit` active tasks of a list (todo, in progress, paused) by
/// position, read through the partial index of active tasks.
pub(crate) fn active_tasks(tx: &dyn Tx, list_id: &str, limit: usize) -> ToolResult<Vec<TaskRow>> {
    let (sql, args) = active_query(list_id, limit);
    read::tasks(tx, &sql, &args)
}

/// The query of [`active_tasks`].
fn active_query(list_id: &str, limit: usize) -> (String, Vec<Value>) {
    let sql = format!(
        "{} WHERE list_id = ? AND deleted_at IS NULL AND status IN ('todo', 'in_progress', 'blocked') \
         ORDER BY position LIMIT ?",
        select_tasks()
    );
    (
        sql,
        vec![Value::from(list_id), Value::Integer(limit as i64)],
    )
}

/// How many live tasks of each of `lists` await a person's approval
/// (added after their list was approved); lists without one are left out.
pub(crate) fn awaiting_approval(tx: &dyn Tx, lists: &[&str]) -> ToolResult<Vec<(String, i64)>> {
    if lists.is_empty() {
        return Ok(Vec::new());
    }
    let mut args: Vec<Value> = lists.iter().map(|id| Value::from(*id)).collect();
    args.push(Value::Integer(0));
    let rows = tx.query(
        &format!(
            "SELECT list_id, COUNT(*) FROM tasks WHERE list_id IN ({}) AND deleted_at IS NULL \
             AND awaits_approval <> ? GROUP BY list_id",
            marks(lists.len())
        ),
        &args,
    )?;
    Ok(rows
        .rows
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap_or_default().to_string(),
                r[1].as_i64().unwrap_or(0),
            )
        })
        .collect())
}

/// Whether `list` awaits a person's decision: its plan is pending (or was
/// rejected, to be approved once revised), or it was approved and
/// `awaiting` of its tasks were added since.
pub(crate) fn awaits_approval(list: &ListRow, awaiting: i64) -> bool {
    match list.approval {
        Some(Approval::Pending | Approval::Rejected) => true,
        Some(Approval::Approved) => awaiting > 0,
        None => false,
    }
}

/// An agent's current claims.
#[derive(Debug, Default)]
pub(crate) struct Claims {
    /// The first claims with their lists, most recently started first.
    pub held: Vec<(TaskRow, ListRow)>,
    /// How many claims it holds in all.
    pub total: usize,
}

/// The viewer's unexpired claims on lists it may see, most recently
/// started first, at most `limit`, and how many there are in all.
pub(crate) fn claims(tx: &dyn Tx, viewer: &Viewer, limit: usize) -> ToolResult<Claims> {
    let Some(me) = viewer.agent.as_deref() else {
        return Ok(Claims::default());
    };
    let filter = format!(
        "FROM tasks t JOIN lists l ON l.id = t.list_id WHERE t.claimed_by_agent_id = ? \
         AND t.status = 'in_progress' AND t.claim_expires_at > ? AND t.deleted_at IS NULL \
         AND l.deleted_at IS NULL AND {VISIBLE_TO}"
    );
    let total = tx
        .query(
            &format!("SELECT COUNT(*) {filter}"),
            crate::params![me, viewer.now, me],
        )?
        .rows
        .first()
        .and_then(|r| r.first())
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let task_cols = crate::model::TASK_COLS
        .split(", ")
        .map(|c| format!("t.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ");
    let list_cols = crate::model::LIST_COLS
        .split(", ")
        .map(|c| format!("l.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ");
    let rows = tx
        .query(
            &format!(
                "SELECT {task_cols}, {list_cols} {filter} \
                 ORDER BY t.started_at DESC, t.id DESC LIMIT ?"
            ),
            crate::params![me, viewer.now, me, limit as i64],
        )?
        .rows;
    let ntask = task_cols.split(", ").count();
    let held = rows
        .iter()
        .map(|r| {
            let (t, l) = r.split_at(ntask.min(r.len()));
            (TaskRow::from_row(t), ListRow::from_row(l))
        })
        .filter(|(_, l)| l.visible_to(Some(me)))
        .collect();
    Ok(Claims {
        held,
        total: usize::try_from(total).unwrap_or(0),
    })
}

/// Every query of the views with sample arguments, for the query-plan test.
#[cfg(test)]
pub(crate) fn queries(viewer: &Viewer, list_id: &str) -> Vec<(String, Vec<Value>)> {
    vec![
        lists_query(viewer),
        own_query(viewer, &[list_id]),
        active_query(list_id, 8),
    ]
}

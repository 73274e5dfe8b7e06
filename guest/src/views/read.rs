//! How a view reads the store: one read-only transaction on an up-to-date
//! schema, as the viewing agent, at one clock reading.

use crate::clock::Clock;
use crate::context::{CallContext, effective_agent};
use crate::error::ToolResult;
use crate::model::{LIST_COLS, ListRow, TASK_COLS, TaskRow};
use crate::schema;
use crate::store::{Store, Tx, Value};

/// Who looks, from where, and when.
pub(crate) struct Viewer<'a> {
    /// The host's identity, checked as a tool call checks it (None:
    /// anonymous, who owns nothing and holds nothing).
    pub agent: Option<String>,
    /// The host's context (workspace, thread).
    pub ctx: &'a CallContext,
    /// The clock, read once per view.
    pub now: i64,
}

impl<'a> Viewer<'a> {
    /// The viewer of `ctx`; a host identity the contract refuses fails here
    /// as it would fail a tool call.
    pub(crate) fn new(ctx: &'a CallContext, clock: &dyn Clock) -> ToolResult<Self> {
        Ok(Viewer {
            agent: effective_agent(ctx, None)?,
            ctx,
            now: clock.now_ms(),
        })
    }

    /// The identity as a SQL parameter (NULL matches nothing).
    pub(crate) fn agent_value(&self) -> Value {
        Value::from(self.agent.clone())
    }

    /// Whether `task` is the viewer's own: claimed by it, or assigned to it
    /// and not held by someone else.
    pub(crate) fn owns(&self, task: &TaskRow) -> bool {
        let Some(me) = self.agent.as_deref() else {
            return false;
        };
        match task.claimed_by_agent_id.as_deref() {
            Some(holder) => holder == me,
            None => task.assigned_to_agent_id.as_deref() == Some(me),
        }
    }
}

/// Runs `read` in one read-only transaction. The schema is brought up to
/// date first, as a tool call does, so a view of a new database works (and
/// shows nothing) instead of failing on missing tables.
pub(crate) fn read<T>(
    store: &dyn Store,
    read: impl FnOnce(&dyn Tx) -> ToolResult<T>,
) -> ToolResult<T> {
    let mut tx = store.begin(false)?;
    if schema::read_version(&*tx)? != schema::LATEST {
        drop(tx);
        schema::ensure(store)?;
        tx = store.begin(false)?;
    }
    let out = read(&*tx)?;
    tx.commit()?;
    Ok(out)
}

/// Rows of `sql` as lists.
pub(crate) fn lists(tx: &dyn Tx, sql: &str, args: &[Value]) -> ToolResult<Vec<ListRow>> {
    Ok(tx
        .query(sql, args)?
        .rows
        .iter()
        .map(|r| ListRow::from_row(r))
        .collect())
}

/// Rows of `sql` as tasks.
pub(crate) fn tasks(tx: &dyn Tx, sql: &str, args: &[Value]) -> ToolResult<Vec<TaskRow>> {
    Ok(tx
        .query(sql, args)?
        .rows
        .iter()
        .map(|r| TaskRow::from_row(r))
        .collect())
}

/// `SELECT <list columns> FROM lists`, for the queries of the views.
pub(crate) fn select_lists() -> String {
    format!("SELECT {LIST_COLS} FROM lists")
}

/// `SELECT <task columns> FROM tasks`, for the queries of the views.
pub(crate) fn select_tasks() -> String {
    format!("SELECT {TASK_COLS} FROM tasks")
}

/// `?, ?, ?` for `n` parameters.
pub(crate) fn marks(n: usize) -> String {
    vec!["?"; n].join(", ")
}

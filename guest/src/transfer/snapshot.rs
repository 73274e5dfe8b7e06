//! The whole of one list, read in the export's one transaction: the list,
//! its live tasks in position order with their dependencies, and its
//! audit log (oldest first, up to [`MAX_EVENTS`]).

use crate::actions::Call;
use crate::actions::audit::AuditEvent;
use crate::actions::deps::{self, Graph};
use crate::error::ToolResult;
use crate::model::{ListRow, TASK_COLS, TaskRow};

/// Most audit events an export carries (the newest ones); the JSON says
/// when older ones were left out.
pub const MAX_EVENTS: i64 = 20_000;

/// A list as exported.
pub struct Snapshot {
    /// The list.
    pub list: ListRow,
    /// Its live tasks, in position order.
    pub tasks: Vec<TaskRow>,
    /// Their dependencies.
    pub deps: Graph,
    /// Its audit events, oldest first.
    pub events: Vec<AuditEvent>,
    /// Whether `events` is the whole log.
    pub events_complete: bool,
}

/// Reads `list` whole.
pub fn read(call: &Call, list: ListRow) -> ToolResult<Snapshot> {
    let tasks: Vec<TaskRow> = call
        .rows(
            &format!(
                "SELECT {TASK_COLS} FROM tasks WHERE list_id = ? AND deleted_at IS NULL ORDER BY position, id"
            ),
            crate::params![list.id.as_str()],
        )?
        .iter()
        .map(|r| TaskRow::from_row(r))
        .collect();
    let mut graph = Graph::new();
    for chunk in tasks.chunks(500) {
        let ids: Vec<&str> = chunk.iter().map(|t| t.id.as_str()).collect();
        graph.extend(deps::of_tasks(call, &ids)?);
    }
    let rows = call.packed_rows(
        "SELECT id, at, agent_id, kind, list_id, task_id, data FROM events WHERE list_id = ? \
         ORDER BY seq DESC LIMIT ?",
        crate::params![list.id.as_str(), MAX_EVENTS + 1],
    )?;
    let events_complete = rows.len() as i64 <= MAX_EVENTS;
    let mut events: Vec<AuditEvent> = rows
        .rows()
        .take(MAX_EVENTS as usize)
        .map(|r| AuditEvent::from_row(&r, 0))
        .collect();
    events.reverse();
    Ok(Snapshot {
        list,
        tasks,
        deps: graph,
        events,
        events_complete,
    })
}

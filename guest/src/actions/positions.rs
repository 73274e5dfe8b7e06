//! Positions: a dense 1-based rank among a list's non-deleted tasks, kept
//! dense by every insert, delete and reorder (the execution order).

use super::call::Call;
use crate::error::{ToolError, ToolResult};
use crate::model::ListRow;

/// Where `n` new tasks go in `list`: `requested` (1-based, at most one
/// past the end) or the end; shifts the tasks at and after that rank down
/// by `n`. The list's length is its live-task counters, read with it.
pub fn make_room(call: &Call, list: &ListRow, requested: Option<i64>, n: i64) -> ToolResult<i64> {
    let (list_id, len) = (list.id.as_str(), list.counts.total());
    let at = match requested {
        None => return Ok(len + 1),
        // Through a bypass, the list's length is not told.
        Some(p) if p > len + 1 && call.redacts(list_id) => {
            return Err(ToolError::invalid(
                format!("position {p} is past the end of the list"),
                "omit position to append",
            ));
        }
        Some(p) if p > len + 1 => {
            return Err(ToolError::invalid(
                format!("position {p} is past the end of the list ({len} tasks)"),
                format!("use a position from 1 to {}, or omit it to append", len + 1),
            ));
        }
        Some(p) => p,
    };
    // With the inserts that follow, in their round trip (the store's
    // `pipeline`): nothing waits for its count.
    call.tx.pipeline(
        "UPDATE tasks SET position = position + ? WHERE list_id = ? AND deleted_at IS NULL AND position >= ?",
        crate::params![n, list_id, at],
    )?;
    Ok(at)
}

/// Renumbers the list's non-deleted tasks 1..n in their current order, in
/// one statement (after deletes).
pub fn compact(call: &Call, list_id: &str) -> ToolResult<()> {
    call.exec(
        "WITH ranked AS (SELECT id, ROW_NUMBER() OVER (ORDER BY position, id) AS rn FROM tasks \
         WHERE list_id = ? AND deleted_at IS NULL) \
         UPDATE tasks SET position = ranked.rn FROM ranked WHERE tasks.id = ranked.id AND tasks.position <> ranked.rn",
        crate::params![list_id],
    )?;
    Ok(())
}

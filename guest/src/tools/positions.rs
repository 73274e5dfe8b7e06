//! Positions: a dense 1-based rank among a list's non-deleted tasks, kept
//! dense by every insert, delete and reorder (the execution order).

use super::call::Call;
use crate::error::{ToolError, ToolResult};
use crate::store::Value;

/// How many non-deleted tasks the list has.
pub fn count(call: &Call, list_id: &str) -> ToolResult<i64> {
    let rows = call.rows(
        "SELECT COUNT(*) FROM tasks WHERE list_id = ? AND deleted_at IS NULL",
        crate::params![list_id],
    )?;
    Ok(rows
        .first()
        .and_then(|r| r.first())
        .and_then(Value::as_i64)
        .unwrap_or(0))
}

/// Where `n` new tasks go: `requested` (1-based, at most one past the end) or
/// the end; shifts the tasks at and after that rank down by `n`.
pub fn make_room(call: &Call, list_id: &str, requested: Option<i64>, n: i64) -> ToolResult<i64> {
    let len = count(call, list_id)?;
    let at = match requested {
        None => return Ok(len + 1),
        Some(p) if p > len + 1 => {
            return Err(ToolError::invalid(
                format!("position {p} is past the end of the list ({len} tasks)"),
                format!("use a position from 1 to {}, or omit it to append", len + 1),
            ));
        }
        Some(p) => p,
    };
    call.exec(
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

/// The list's non-deleted task ids in position order.
pub fn order(call: &Call, list_id: &str) -> ToolResult<Vec<String>> {
    let rows = call.rows(
        "SELECT id FROM tasks WHERE list_id = ? AND deleted_at IS NULL ORDER BY position, id",
        crate::params![list_id],
    )?;
    Ok(rows
        .into_iter()
        .filter_map(|r| r.into_iter().next())
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect())
}

/// Writes `order` as positions 1..n, touching only rows whose rank changed,
/// in chunks of one statement each.
pub fn write_order(
    call: &Call,
    list_id: &str,
    order: &[String],
    before: &[String],
) -> ToolResult<()> {
    let changed: Vec<(i64, &String)> = order
        .iter()
        .enumerate()
        .filter(|(i, id)| before.get(*i) != Some(*id))
        .map(|(i, id)| (i as i64 + 1, id))
        .collect();
    for chunk in changed.chunks(400) {
        let values = vec!["(?, ?)"; chunk.len()].join(", ");
        let mut args: Vec<Value> = Vec::with_capacity(chunk.len() * 2 + 1);
        for (pos, id) in chunk {
            args.push(Value::from(id.as_str()));
            args.push(Value::Integer(*pos));
        }
        args.push(list_id.into());
        call.exec(
            &format!(
                "WITH moved(id, pos) AS (VALUES {values}) UPDATE tasks SET position = moved.pos FROM moved \
                 WHERE tasks.id = moved.id AND tasks.list_id = ?"
            ),
            &args,
        )?;
    }
    Ok(())
}

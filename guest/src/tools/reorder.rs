//! `task_items reorder`: moves tasks to a rank or next to an anchor task,
//! keeping every other task's relative order.

use serde_json::{Value as Json, json};

use super::access;
use super::call::{Call, Output};
use super::positions;
use super::summary::plural;
use crate::error::{ToolError, ToolResult};

/// `reorder`: moves `task_ids` (in that order) to `position`, or before/after
/// an anchor task; the other tasks keep their relative order.
pub fn reorder(call: &mut Call) -> ToolResult<Output> {
    call.agent()?;
    let list = access::list_param(call, false)?;
    let moved: Vec<String> = call
        .params
        .strs("task_ids")
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect();
    let anchors = ["position", "before_task_id", "after_task_id"]
        .into_iter()
        .filter(|k| call.params.has(k))
        .count();
    if anchors > 1 {
        return Err(ToolError::invalid(
            "pass at most one of position, before_task_id, after_task_id",
            "position is the rank of the first moved task; the anchors name a task that stays put",
        ));
    }
    let before = positions::order(call, &list.id)?;
    for (i, id) in moved.iter().enumerate() {
        if moved[..i].contains(id) {
            return Err(ToolError::invalid(
                format!("task_ids lists {id} twice"),
                "name each task once",
            ));
        }
        if !before.contains(id) {
            return Err(ToolError::invalid(
                format!(
                    "task_ids[{i}]: task {id} is not an active task of list {}",
                    list.id
                ),
                "task_lists get shows the list's tasks",
            ));
        }
    }
    let rest: Vec<String> = before
        .iter()
        .filter(|id| !moved.contains(id))
        .cloned()
        .collect();
    let anchor_index = |key: &str| -> ToolResult<Option<usize>> {
        let Some(anchor) = call.params.str(key) else {
            return Ok(None);
        };
        if moved.iter().any(|m| m == anchor) {
            return Err(ToolError::invalid(
                format!("{key} {anchor} is one of the tasks being moved"),
                "anchor on a task that is not moved",
            ));
        }
        rest.iter()
            .position(|id| id == anchor)
            .map(Some)
            .ok_or_else(|| {
                ToolError::invalid(
                    format!(
                        "{key}: task {anchor} is not an active task of list {}",
                        list.id
                    ),
                    "task_lists get shows the list's tasks",
                )
            })
    };
    let index = if let Some(i) = anchor_index("before_task_id")? {
        i
    } else if let Some(i) = anchor_index("after_task_id")? {
        i + 1
    } else {
        let p = call.params.int("position").unwrap_or(1);
        let max = rest.len() as i64 + 1;
        if p > max {
            return Err(ToolError::invalid(
                format!("position {p} is past the end: the moved tasks can start at 1 to {max}"),
                "omit position to move them to the top",
            ));
        }
        (p - 1) as usize
    };
    let mut order = rest;
    order.splice(index..index, moved.iter().cloned());
    let moved_any = order != before;
    if moved_any {
        positions::write_order(call, &list.id, &order, &before)?;
        call.event(
            "reordered",
            Some(&list.id),
            None,
            json!({"task_ids": moved, "position": index + 1}),
        )?;
        call.touch_list(&list.id)?;
    }
    let data: Vec<Json> = order
        .iter()
        .enumerate()
        .map(|(i, id)| json!({"id": id, "position": i + 1}))
        .collect();
    let summary = if moved_any {
        format!(
            "moved {} to #{} in {}",
            plural(moved.len(), "task"),
            index + 1,
            list.id
        )
    } else {
        format!(
            "order of {} unchanged: the tasks were already there",
            list.id
        )
    };
    Ok(Output {
        summary,
        data: json!({"tasks": data}),
    })
}

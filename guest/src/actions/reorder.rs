//! `task_items reorder`: moves tasks to a rank or next to an anchor task,
//! keeping every other task's relative order.
//!
//! The new order is computed by the store in one statement (the other
//! tasks renumbered around the moved ones), so the component holds only
//! the moved ids, whatever the length of the list.

use super::action::{Action, Done};
use crate::contract::{Access, ActionSpec, LIST_ID, TASK_ITEMS, Ty, param};
use crate::ids::IdKind;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

use serde_json::json;

use super::access;
use super::call::{Call, IN_LIST_MAX};
use crate::error::{ToolError, ToolResult};

use crate::store::Value;
use crate::text::plural;

/// A task moved by `reorder`, at its new position.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Moved {
    /// Task id.
    pub id: String,
    /// Its new position (always set by the tool).
    pub position: Option<i64>,
}

/// `task_items reorder` → `{tasks, shifted}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reordered {
    /// The moved tasks, in the order given.
    pub tasks: Vec<Moved>,
    /// How many other tasks moved to make room (always set by the tool).
    #[serde(default)]
    pub shifted: Option<u64>,
}

/// Moved ids an audit event lists (the count is always there).
const EVENT_IDS: usize = 100;

/// `task_items reorder`, as one type: its spec, its result, its handler.
pub struct ReorderTasks;

impl Action for ReorderTasks {
    type Result = Reordered;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_ITEMS,
        name: "reorder",
        summary: "move tasks (in the given order) to a position, or before/after a task",
        own_params: &[
            LIST_ID,
            param(
                "task_ids",
                Ty::Ids(IdKind::Task, 10_000),
                true,
                "tasks to move, in the wanted order",
            ),
            param(
                "position",
                Ty::Int {
                    min: 1,
                    max: 1_000_000,
                },
                false,
                "rank of the first moved task, default 1",
            ),
            param(
                "before_task_id",
                Ty::Id(IdKind::Task),
                false,
                "anchor: move before this task",
            ),
            param(
                "after_task_id",
                Ty::Id(IdKind::Task),
                false,
                "anchor: move after this task",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","task_ids":["task_01JDQ50000000000000000000A"],"position":1}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<Reordered>> {
        reorder(call)
    }
}

/// `reorder`: moves `task_ids` (in that order) to `position`, or before/after
/// an anchor task; the other tasks keep their relative order. Returns the
/// moved tasks with their new positions and how many others shifted.
fn reorder(call: &mut Call) -> ToolResult<Done<Reordered>> {
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
    let mut seen = HashSet::new();
    if let Some(twice) = moved.iter().find(|id| !seen.insert(id.as_str())) {
        return Err(ToolError::invalid(
            format!("task_ids lists {twice} twice"),
            "name each task once",
        ));
    }
    let old = live_positions(call, &list.id, &moved)?;
    if let Some((i, id)) = moved
        .iter()
        .enumerate()
        .find(|(_, id)| !old.contains_key(*id))
    {
        return Err(ToolError::invalid(
            format!(
                "task_ids[{i}]: task {id} is not an active task of list {}",
                list.id
            ),
            "task_lists get shows the list's tasks",
        ));
    }
    let rest_len = list.counts.total() - moved.len() as i64;
    // Where the moved tasks go, as the number of other tasks before them.
    let index = if let Some(i) = anchor_index(call, &list.id, "before_task_id", &old)? {
        i
    } else if let Some(i) = anchor_index(call, &list.id, "after_task_id", &old)? {
        i + 1
    } else {
        let p = call.params.int("position").unwrap_or(1);
        if p > rest_len + 1 && call.redacts(&list.id) {
            // Through a bypass, the list's length is not told.
            return Err(ToolError::invalid(
                format!("position {p} is past the end of the list"),
                "omit position to move them to the top",
            ));
        }
        if p > rest_len + 1 {
            return Err(ToolError::invalid(
                format!(
                    "position {p} is past the end: the moved tasks can start at 1 to {}",
                    rest_len + 1
                ),
                "omit position to move them to the top",
            ));
        }
        p - 1
    };

    let changed = write_order(call, &list.id, &moved, index)?;
    let moved_changed = moved
        .iter()
        .enumerate()
        .filter(|(k, id)| old.get(*id) != Some(&(index + *k as i64 + 1)))
        .count() as u64;
    let shifted = changed.saturating_sub(moved_changed);
    if changed > 0 {
        call.event(
            "reordered",
            Some(&list.id),
            None,
            json!({"task_ids": moved.iter().take(EVENT_IDS).collect::<Vec<_>>(),
                   "moved": moved.len(), "position": index + 1}),
        )?;
        call.touch_list(&list.id)?;
    }
    let tasks: Vec<Moved> = moved
        .iter()
        .enumerate()
        .map(|(k, id)| Moved {
            id: id.to_string(),
            position: Some(index + k as i64 + 1),
        })
        .collect();
    let summary = if changed > 0 {
        format!(
            "moved {} to #{} in {}; {} shifted",
            plural(moved.len(), "task"),
            index + 1,
            list.id,
            plural(shifted, "other task")
        )
    } else {
        format!(
            "order of {} unchanged: the tasks were already there",
            list.id
        )
    };
    Ok(Done {
        summary,
        result: Reordered {
            tasks,
            shifted: Some(shifted),
        },
    })
}

/// The position of each of `ids` that is a live task of the list.
fn live_positions(call: &Call, list_id: &str, ids: &[String]) -> ToolResult<HashMap<String, i64>> {
    let mut out = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(IN_LIST_MAX) {
        let marks = vec!["?"; chunk.len()].join(", ");
        let mut args: Vec<Value> = vec![list_id.into()];
        args.extend(chunk.iter().map(Value::from));
        let rows = call.rows(
            &format!(
                "SELECT id, position FROM tasks WHERE list_id = ? AND deleted_at IS NULL AND id IN ({marks})"
            ),
            &args,
        )?;
        for r in rows {
            if let (Some(id), Some(p)) = (r[0].as_str(), r[1].as_i64()) {
                out.insert(id.to_string(), p);
            }
        }
    }
    Ok(out)
}

/// For the anchor param `key`, how many of the tasks that stay come
/// before the anchor; `None` when the param is absent.
fn anchor_index(
    call: &Call,
    list_id: &str,
    key: &str,
    moved: &HashMap<String, i64>,
) -> ToolResult<Option<i64>> {
    let Some(anchor) = call.params.str(key).map(str::to_string) else {
        return Ok(None);
    };
    if moved.contains_key(&anchor) {
        return Err(ToolError::invalid(
            format!("{key} {anchor} is one of the tasks being moved"),
            "anchor on a task that is not moved",
        ));
    }
    let Some(at) = live_positions(call, list_id, std::slice::from_ref(&anchor))?.remove(&anchor)
    else {
        return Err(ToolError::invalid(
            format!("{key}: task {anchor} is not an active task of list {list_id}"),
            "task_lists get shows the list's tasks",
        ));
    };
    let rows = call.rows(
        "SELECT COUNT(*) FROM tasks WHERE list_id = ? AND deleted_at IS NULL \
         AND position <= ? AND (position, id) < (?, ?)",
        crate::params![list_id, at, at, anchor.as_str()],
    )?;
    let before = rows.first().and_then(|r| r[0].as_i64()).unwrap_or(0);
    // Ties on position are broken by id, as everywhere.
    let moved_before = moved
        .iter()
        .filter(|(id, p)| (**p, id.as_str()) < (at, anchor.as_str()))
        .count() as i64;
    Ok(Some(before - moved_before))
}

/// Renumbers the list: the other tasks keep their order, the moved ones
/// go in after the first `index` of them. One statement; returns how many
/// tasks changed position.
fn write_order(call: &Call, list_id: &str, moved: &[String], index: i64) -> ToolResult<u64> {
    // The rank typed, so that `? + ord` is an integer on every engine.
    let values = vec!["(?, CAST(? AS INTEGER))"; moved.len()].join(", ");
    let mut args: Vec<Value> = Vec::with_capacity(moved.len() * 2 + 4);
    for (k, id) in moved.iter().enumerate() {
        args.push(id.as_str().into());
        args.push(Value::Integer(k as i64 + 1));
    }
    args.extend([
        Value::from(list_id),
        Value::Integer(index),
        Value::Integer(moved.len() as i64),
        Value::Integer(index),
    ]);
    call.exec(
        &format!(
            "WITH moved(id, ord) AS (VALUES {values}), \
             rest AS (SELECT id, ROW_NUMBER() OVER (ORDER BY position, id) AS r FROM tasks \
                 WHERE list_id = ? AND deleted_at IS NULL AND id NOT IN (SELECT id FROM moved)), \
             target(id, pos) AS (SELECT id, CASE WHEN r <= ? THEN r ELSE r + ? END FROM rest \
                 UNION ALL SELECT id, ? + ord FROM moved) \
             UPDATE tasks SET position = target.pos FROM target \
             WHERE tasks.id = target.id AND tasks.position <> target.pos"
        ),
        &args,
    )
}

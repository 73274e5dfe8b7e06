//! `task_lists`: create (with get_or_create), find, get, delete.

use serde_json::{Value as Json, json};

use super::access;
use super::call::{Call, Output};
use super::deps;
use super::positions;
use super::summary::{plural, quoted};
use crate::error::{ToolError, ToolResult};
use crate::ids::IdKind;
use crate::model::{Counts, END_CLAIM, LIST_COLS, ListRow, TASK_COLS, TaskRow};
use crate::spec::DEFAULT_PAGE;
use crate::store::Value;

/// `create`: a new list, or with `get_or_create` the visible one with the same
/// scope and name. Atomic under races because writes hold the write lock.
pub fn create(call: &mut Call) -> ToolResult<Output> {
    let agent = call.agent()?.to_string();
    let p = &call.params;
    let name = p.str("name").unwrap_or_default().to_string();
    let scope_type = p.str("scope_type").unwrap_or("custom").to_string();
    let scope_key = scope_key(call, &scope_type, &agent)?;
    let visibility = call
        .params
        .str("visibility")
        .unwrap_or("shared")
        .to_string();
    let owner = call
        .params
        .str("owner_agent_id")
        .map(str::to_string)
        .or_else(|| (visibility == "private").then(|| agent.clone()));

    if call.params.bool("get_or_create") == Some(true) {
        let rows = call.rows(
            &format!(
                "SELECT {LIST_COLS} FROM lists WHERE scope_type = ? AND scope_key = ? AND name = ? \
                 AND deleted_at IS NULL ORDER BY created_at, id"
            ),
            crate::params![scope_type.as_str(), scope_key.as_str(), name.as_str()],
        )?;
        if let Some(list) = rows
            .iter()
            .map(|r| ListRow::from_row(r))
            .find(|l| l.visible_to(Some(&agent)))
        {
            let summary = format!("found list {} {}", list.id, quoted(&list.name));
            return Ok(Output {
                summary,
                data: json!({"list": list.to_json(), "created": false}),
            });
        }
    }

    let list = ListRow {
        id: call.new_id(IdKind::List),
        name,
        scope_type,
        scope_key,
        visibility,
        owner_agent_id: owner,
        created_by_agent_id: agent,
        created_at: call.now,
        updated_at: call.now,
        deleted_at: None,
    };
    call.exec(
        "INSERT INTO lists (id, name, name_fold, scope_type, scope_key, visibility, owner_agent_id, \
         created_by_agent_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        crate::params![
            list.id.as_str(),
            list.name.as_str(),
            list.name.to_lowercase(),
            list.scope_type.as_str(),
            list.scope_key.as_str(),
            list.visibility.as_str(),
            list.owner_agent_id.clone(),
            list.created_by_agent_id.as_str(),
            list.created_at,
            list.updated_at
        ],
    )?;
    call.event(
        "created",
        Some(&list.id),
        None,
        json!({"name": list.name, "visibility": list.visibility}),
    )?;
    let summary = format!(
        "created list {} {} ({})",
        list.id,
        quoted(&list.name),
        list.visibility
    );
    Ok(Output {
        summary,
        data: json!({"list": list.to_json(), "created": true}),
    })
}

/// The scope key: given, or taken from the host context for
/// workspace/thread/agent scopes; always empty for `global`.
fn scope_key(call: &Call, scope_type: &str, agent: &str) -> ToolResult<String> {
    let given = call.params.str("scope_key").map(str::to_string);
    let from_host = match scope_type {
        "workspace" => call.ctx.workspace.clone(),
        "thread" => call.ctx.thread.clone(),
        "agent" => Some(agent.to_string()),
        _ => Some(String::new()),
    };
    match (scope_type, given) {
        ("global", Some(k)) if !k.is_empty() => Err(ToolError::invalid(
            format!("a global list has no scope_key (got {k:?})"),
            "omit scope_key, or use scope_type custom",
        )),
        ("workspace" | "thread" | "agent", Some(k)) if k.trim().is_empty() => {
            Err(ToolError::invalid(
                format!("a {scope_type} list needs a non-empty scope_key"),
                format!("pass the {scope_type} id, or omit scope_key to use the host's"),
            ))
        }
        (_, Some(k)) => Ok(k),
        (_, None) => from_host
            .filter(|k| !k.is_empty() || scope_type == "global" || scope_type == "custom")
            .ok_or_else(|| {
                ToolError::invalid(
                    format!("scope_type {scope_type} needs a scope_key and the host gave none"),
                    format!("pass scope_key (the {scope_type} id)"),
                )
            }),
    }
}

/// `find`: visible lists, most recently updated first, with counts.
pub fn find(call: &mut Call) -> ToolResult<Output> {
    let p = &call.params;
    let mut sql = format!("SELECT {LIST_COLS} FROM lists WHERE 1 = 1");
    let mut args: Vec<Value> = Vec::new();
    match call.agent.as_deref() {
        Some(a) => {
            sql.push_str(" AND (visibility = 'shared' OR owner_agent_id = ?)");
            args.push(a.into());
        }
        None => sql.push_str(" AND visibility = 'shared'"),
    }
    for key in ["scope_type", "scope_key", "visibility"] {
        if let Some(v) = p.str(key) {
            sql.push_str(&format!(" AND {key} = ?"));
            args.push(v.into());
        }
    }
    if let Some(name) = p.str("name") {
        sql.push_str(" AND name_fold LIKE ? ESCAPE '\\'");
        args.push(format!("%{}%", escape_like(&name.to_lowercase())).into());
    }
    if p.bool("include_deleted") != Some(true) {
        sql.push_str(" AND deleted_at IS NULL");
    }
    if let Some(cursor) = p.str("cursor") {
        let (at, id) = parse_cursor(cursor)?;
        sql.push_str(" AND (updated_at < ? OR (updated_at = ? AND id < ?))");
        args.extend([Value::Integer(at), Value::Integer(at), id.into()]);
    }
    let limit = p.int("limit").unwrap_or(DEFAULT_PAGE);
    sql.push_str(" ORDER BY updated_at DESC, id DESC LIMIT ?");
    args.push(Value::Integer(limit + 1));

    let mut lists: Vec<ListRow> = call
        .rows(&sql, &args)?
        .iter()
        .map(|r| ListRow::from_row(r))
        .collect();
    let next_cursor = if lists.len() as i64 > limit {
        lists.truncate(limit as usize);
        lists.last().map(|l| format!("{}.{}", l.updated_at, l.id))
    } else {
        None
    };
    let counts = counts_by_list(
        call,
        &lists.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(),
    )?;
    let items: Vec<Json> = lists
        .iter()
        .map(|l| {
            let mut j = l.to_json();
            j["counts"] = counts
                .iter()
                .find(|(id, _)| *id == l.id)
                .map(|(_, c)| c.to_json())
                .unwrap_or_else(|| Counts::default().to_json());
            j
        })
        .collect();
    let summary = format!(
        "{}{}",
        plural(items.len(), "list"),
        if next_cursor.is_some() {
            " (more: pass next_cursor)"
        } else {
            ""
        }
    );
    Ok(Output {
        summary,
        data: json!({"lists": items, "next_cursor": next_cursor}),
    })
}

fn escape_like(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_")
}

fn parse_cursor(cursor: &str) -> ToolResult<(i64, String)> {
    cursor
        .split_once('.')
        .and_then(|(at, id)| Some((at.parse::<i64>().ok()?, id.to_string())))
        .filter(|(_, id)| id.starts_with(IdKind::List.prefix()))
        .ok_or_else(|| {
            ToolError::invalid(
                format!("cursor {cursor:?} is not a next_cursor of task_lists find"),
                "pass next_cursor exactly as returned, or omit it",
            )
        })
}

/// Counts per status of non-deleted tasks, for each of `list_ids`.
pub fn counts_by_list<'a>(call: &Call, list_ids: &[&'a str]) -> ToolResult<Vec<(&'a str, Counts)>> {
    let mut out: Vec<(&str, Counts)> = list_ids.iter().map(|id| (*id, Counts::default())).collect();
    for chunk in list_ids.chunks(500) {
        let marks = vec!["?"; chunk.len()].join(", ");
        let args: Vec<Value> = chunk.iter().map(|id| Value::from(*id)).collect();
        let rows = call.rows(
            &format!(
                "SELECT list_id, status, COUNT(*) FROM tasks WHERE deleted_at IS NULL AND list_id IN ({marks}) \
                 GROUP BY list_id, status"
            ),
            &args,
        )?;
        for r in rows {
            let (Some(list), Some(status), Some(n)) = (r[0].as_str(), r[1].as_str(), r[2].as_i64())
            else {
                continue;
            };
            if let Some((_, c)) = out.iter_mut().find(|(id, _)| *id == list) {
                c.add(status, n);
            }
        }
    }
    Ok(out)
}

/// `get`: one list, its counts and (by default) its tasks in position order.
pub fn get(call: &mut Call) -> ToolResult<Output> {
    let include_deleted = call.params.bool("include_deleted") == Some(true);
    let list = access::list_param(call, include_deleted)?;
    let counts = counts_by_list(call, &[list.id.as_str()])?.remove(0).1;
    let mut data = json!({"list": list.to_json(), "counts": counts.to_json()});
    let mut shown = None;
    if call.params.bool("include_tasks") != Some(false) {
        let mut sql = format!("SELECT {TASK_COLS} FROM tasks WHERE list_id = ?");
        let mut args: Vec<Value> = vec![list.id.as_str().into()];
        if !include_deleted {
            sql.push_str(" AND deleted_at IS NULL");
        }
        if let Some(statuses) = call.params.strs("status") {
            sql.push_str(&format!(
                " AND status IN ({})",
                vec!["?"; statuses.len()].join(", ")
            ));
            args.extend(statuses.iter().map(|s| Value::from(*s)));
        }
        sql.push_str(" ORDER BY CASE WHEN deleted_at IS NULL THEN 0 ELSE 1 END, position, id");
        let tasks: Vec<TaskRow> = call
            .rows(&sql, &args)?
            .iter()
            .map(|r| TaskRow::from_row(r))
            .collect();
        let deps = deps::of_list(call, &list.id)?;
        shown = Some(tasks.len());
        data["tasks"] = tasks
            .iter()
            .map(|t| t.to_json(deps::get(&deps, &t.id)))
            .collect();
    }
    let summary = format!(
        "list {} {}: {} todo, {} in progress, {} blocked, {} done, {} canceled{}",
        list.id,
        quoted(&list.name),
        counts.todo,
        counts.in_progress,
        counts.blocked,
        counts.done,
        counts.canceled,
        match shown {
            Some(n) => format!("; {} shown", plural(n, "task")),
            None => String::new(),
        }
    );
    Ok(Output { summary, data })
}

/// `delete`: soft-deletes the list and its active tasks; closed tasks keep
/// their history untouched.
pub fn delete(call: &mut Call) -> ToolResult<Output> {
    call.agent()?;
    let list = access::list_param(call, false)?;
    let active: Vec<TaskRow> = call
        .rows(
            &format!(
                "SELECT {TASK_COLS} FROM tasks WHERE list_id = ? AND deleted_at IS NULL \
                 AND status NOT IN ('done', 'canceled') ORDER BY position"
            ),
            crate::params![list.id.as_str()],
        )?
        .iter()
        .map(|r| TaskRow::from_row(r))
        .collect();
    // As for a single task: work another agent is doing is not deleted
    // from under it.
    if let Some(held) = active
        .iter()
        .find(|t| t.held_by_other(call.agent.as_deref(), call.now))
    {
        let mut e = access::claimed_conflict(held);
        e.message = format!("list {} cannot be deleted: {}", list.id, e.message);
        e.hint =
            "wait until the task is closed or its lease expires (then task_claims release_expired)"
                .into();
        return Err(e);
    }
    let n = call.exec(
        &format!(
            "UPDATE tasks SET deleted_at = ?, updated_at = ?, {END_CLAIM} WHERE list_id = ? \
             AND deleted_at IS NULL AND status NOT IN ('done', 'canceled')"
        ),
        crate::params![call.now, call.now, list.id.as_str()],
    )?;
    for t in &active {
        call.event(
            "deleted",
            Some(&list.id),
            Some(&t.id),
            json!({"title": t.title}),
        )?;
    }
    call.exec(
        "UPDATE lists SET deleted_at = ?, updated_at = ? WHERE id = ?",
        crate::params![call.now, call.now, list.id.as_str()],
    )?;
    positions::compact(call, &list.id)?;
    call.event("deleted", Some(&list.id), None, json!({"deleted_tasks": n}))?;
    let summary = format!(
        "deleted list {} {} and {}",
        list.id,
        quoted(&list.name),
        plural(n, "active task")
    );
    Ok(Output {
        summary,
        data: json!({"list_id": list.id, "deleted_tasks": n}),
    })
}

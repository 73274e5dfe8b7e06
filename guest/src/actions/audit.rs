//! `task_audit get`: the audit log, newest first. Without `list_id` (or
//! `task_id`) it shows the private-bypass events the caller may see.

use super::action::{Action, Done};
use crate::contract::{Access, ActionSpec, CURSOR, EVENT_KINDS, LIMIT, TASK_AUDIT, Ty, param};
use crate::ids::IdKind;
use serde::{Deserialize, Serialize};

use super::access;
use super::call::Call;
use super::page::{Page, PageRows};
use crate::clock::parse_rfc3339;
use crate::contract::DEFAULT_PAGE;
use crate::error::{ToolError, ToolResult};

use crate::store::Value;
use crate::text::plural;
use crate::text::quote;

pub use super::audit_event::AuditEvent;

/// `task_audit get` → `{events, next_cursor}`, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditPage {
    /// The page's events.
    pub events: PageRows<AuditEvent>,
    /// Where the next page starts; null on the last one.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// `task_audit get`, as one type: its spec, its result, its handler.
pub struct GetEvents;

impl Action for GetEvents {
    type Result = AuditPage;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_AUDIT,
        name: "get",
        summary: "audit events, newest first (without list_id: private-bypass events you may see)",
        own_params: &[
            param(
                "list_id",
                Ty::Id(IdKind::List),
                false,
                "events of this list",
            ),
            param(
                "task_id",
                Ty::Id(IdKind::Task),
                false,
                "events of this task",
            ),
            param(
                "kinds",
                Ty::EnumOrList(EVENT_KINDS),
                false,
                "only these kinds",
            ),
            param("since", Ty::Time, false, "RFC 3339; events at or after"),
            LIMIT,
            CURSOR,
        ],
        access: Access::List,
        writes: false,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","kinds":["status_changed"],"limit":20}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<AuditPage>> {
        get(call)
    }
}

/// `get`: events filtered by list, task, kinds and time, paged by cursor.
fn get(call: &mut Call) -> ToolResult<Done<AuditPage>> {
    let mut sql = "SELECT e.seq, e.id, e.at, e.agent_id, e.kind, e.list_id, e.task_id, e.data FROM events e WHERE 1 = 1".to_string();
    let mut args: Vec<Value> = Vec::new();
    let given = call.params.str("list_id").map(str::to_string);
    // The list whose events are shown, loaded and access-checked once.
    let list = match call.params.str("task_id").map(str::to_string) {
        Some(task_id) => {
            let task = access::task_row(call, &task_id)?;
            // Access to the task's own list is checked first, so a mismatch
            // never tells anything about a list the caller cannot see.
            let list = access::list(call, &task.list_id, true)?;
            if let Some(given) = given.filter(|l| *l != task.list_id) {
                return Err(ToolError::invalid(
                    format!("task {task_id} is not in list {given}"),
                    "pass only task_id, or the list_id the task belongs to",
                ));
            }
            sql.push_str(" AND e.task_id = ?");
            args.push(task_id.into());
            Some(list)
        }
        None => given.map(|id| access::list(call, &id, true)).transpose()?,
    };
    match &list {
        Some(list) => {
            sql.push_str(" AND e.list_id = ?");
            args.push(list.id.as_str().into());
        }
        None => {
            let agent = call.agent()?.to_string();
            sql.push_str(
                " AND e.kind = 'private_bypass' AND (e.agent_id = ? OR e.list_id IN \
                 (SELECT id FROM lists WHERE owner_agent_id = ?))",
            );
            args.extend([Value::from(agent.as_str()), Value::from(agent.as_str())]);
        }
    }
    if let Some(kinds) = call.params.strs("kinds") {
        sql.push_str(&format!(
            " AND e.kind IN ({})",
            vec!["?"; kinds.len()].join(", ")
        ));
        args.extend(kinds.into_iter().map(Value::from));
    }
    if let Some(since) = call.params.str("since").and_then(parse_rfc3339) {
        sql.push_str(" AND e.at >= ?");
        args.push(since.into());
    }
    let mut before = match call.params.str("cursor") {
        Some(cursor) => Some(
            cursor
                .strip_prefix("e")
                .and_then(|s| s.parse::<i64>().ok())
                .ok_or_else(|| {
                    ToolError::invalid(
                        format!(
                            "cursor {} is not a next_cursor of task_audit get",
                            quote(cursor)
                        ),
                        "pass next_cursor exactly as returned",
                    )
                })?,
        ),
        None => None,
    };
    // Newest first, a chunk at a time: an old event can be large (a
    // reorder used to list every id it moved).
    let mut page = Page::new(call.params.int("limit").unwrap_or(DEFAULT_PAGE));
    let next_cursor = 'fill: loop {
        let want = page.want();
        let mut chunk_sql = sql.clone();
        let mut chunk_args = args.clone();
        if let Some(seq) = before {
            chunk_sql.push_str(" AND e.seq < ?");
            chunk_args.push(seq.into());
        }
        chunk_sql.push_str(" ORDER BY e.seq DESC LIMIT ?");
        chunk_args.push(want.into());
        let rows = call.packed_rows(&chunk_sql, &chunk_args)?;
        let read = rows.len() as i64;
        for r in rows.rows() {
            if !page.add(AuditEvent::from_row(&r, 1)) {
                break 'fill before.map(|s| format!("e{s}"));
            }
            before = r.int(0);
        }
        if read < want {
            break None;
        }
    };
    let events = page.into_rows();
    let scope = list.map_or_else(
        || "private-bypass events you may see".to_string(),
        |l| format!("events of list {}", l.id),
    );
    let summary = format!(
        "{}: {scope}, newest first{}",
        plural(events.len(), "event"),
        if next_cursor.is_some() {
            " (more: pass next_cursor)"
        } else {
            ""
        }
    );
    Ok(Done {
        summary,
        result: AuditPage {
            events,
            next_cursor,
        },
    })
}

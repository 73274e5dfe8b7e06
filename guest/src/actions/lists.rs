//! `task_lists`: create (with get_or_create), find, delete; `get` lives in
//! `lists_get.rs`.

use super::action::{Action, Done};
use crate::contract::{
    Access, ActionSpec, CURSOR, INCLUDE_DELETED, LIMIT, LIST_ID, REQUIRES_REVIEW, SCOPE_TYPES,
    TASK_LISTS, Ty, VISIBILITIES, param,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};

use super::access;
use super::call::Call;
use super::page::{Page, PageRows};
use super::positions;
use super::summary::quoted;
use crate::contract::DEFAULT_PAGE;
use crate::error::{ToolError, ToolResult};
use crate::ids::IdKind;
use crate::model::{
    Approval, Counts, END_CLAIM, LIST_COLS, ListRow, TASK_COLS, TaskRow, VISIBLE_TO, Visibility,
};
use crate::results::ListJson;
use crate::store::Value;
use crate::text::plural;
use crate::text::quote;

/// `task_lists create` → `{list, created}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListCreated {
    /// The new list, or the existing one `get_or_create` found.
    pub list: ListJson,
    /// False when an existing list was returned.
    #[serde(default = "yes")]
    pub created: bool,
}

fn yes() -> bool {
    true
}

/// A list of a `find` page with its counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ListWithCounts {
    /// The list object.
    #[serde(flatten)]
    pub list: ListJson,
    /// Its tasks by status.
    #[serde(default)]
    pub counts: Counts,
}

/// `task_lists find` → `{lists, next_cursor}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListsPage {
    /// The page's lists.
    pub lists: PageRows<ListWithCounts>,
    /// Where the next page starts; null on the last one.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// `task_lists delete` → `{list_id, deleted_tasks}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListDeleted {
    /// The deleted list (always set by the tool).
    pub list_id: Option<String>,
    /// Active tasks soft-deleted with it (always set by the tool).
    pub deleted_tasks: Option<u64>,
}

/// `task_lists create`, as one type: its spec, its result, its handler.
pub struct CreateList;

impl Action for CreateList {
    type Result = ListCreated;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_LISTS,
        name: "create",
        summary: "create a list (get_or_create returns an existing one with the same scope, name and visibility)",
        own_params: &[
            param("name", Ty::Str { min: 1, max: 200 }, true, "list name"),
            param("scope_type", Ty::Enum(SCOPE_TYPES), false, "default custom"),
            param(
                "scope_key",
                Ty::Str { min: 0, max: 1000 },
                false,
                "context key; defaults from the host for workspace/thread/agent",
            ),
            param(
                "visibility",
                Ty::Enum(VISIBILITIES),
                false,
                "default shared",
            ),
            param(
                "owner_agent_id",
                Ty::Agent { nullable: false },
                false,
                "owner; private lists default to the creator",
            ),
            param(
                "get_or_create",
                Ty::Bool,
                false,
                "return the existing list if any",
            ),
            param(
                "requires_approval",
                Ty::Bool,
                false,
                "nothing is claimable until a person approves",
            ),
            REQUIRES_REVIEW,
        ],
        access: Access::None,
        writes: true,
        example: r#"{"name":"Release 1.2","scope_type":"workspace","scope_key":"/repo","get_or_create":true}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<ListCreated>> {
        create(call)
    }
}

/// `create`: a new list, or with `get_or_create` the visible one with the same
/// scope, name and visibility (a private one only if it is the caller's
/// own). Atomic under races because writes hold the write lock. With
/// `requires_approval` a new list's plan waits for a person (`pending`);
/// a list `get_or_create` finds is returned as it is (its approval, if
/// any, is the person's to change, never a tool's).
fn create(call: &mut Call) -> ToolResult<Done<ListCreated>> {
    let agent = call.agent()?.to_string();
    let p = &call.params;
    let name = p.str("name").unwrap_or_default().to_string();
    let scope_type = p.str("scope_type").unwrap_or("custom").to_string();
    let scope_key = scope_key(call, &scope_type, &agent)?;
    let visibility = call
        .params
        .str("visibility")
        .and_then(Visibility::parse)
        .unwrap_or(Visibility::Shared);
    let owner = call
        .params
        .str("owner_agent_id")
        .map(str::to_string)
        .or_else(|| (visibility == Visibility::Private).then(|| agent.clone()));

    if call.params.bool("get_or_create") == Some(true) {
        if visibility == Visibility::Private && owner.as_deref() != Some(agent.as_str()) {
            // It could only ever find that agent's private lists, which
            // the caller may not see: each call would make another.
            return Err(ToolError::invalid(
                "get_or_create finds only your own private lists, not a private list owned by another agent",
                "drop get_or_create to make a private list for another agent, or drop owner_agent_id",
            ));
        }
        // Same scope, name and visibility; a private request matches only
        // the caller's own private list (never one another agent made to
        // look like it), a shared request only shared lists.
        let rows = call.rows(
            &format!(
                "SELECT {LIST_COLS} FROM lists WHERE scope_type = ? AND scope_key = ? AND name = ? \
                 AND visibility = ? AND deleted_at IS NULL \
                 AND {VISIBLE_TO} ORDER BY created_at, id LIMIT 1"
            ),
            crate::params![
                scope_type.as_str(),
                scope_key.as_str(),
                name.as_str(),
                visibility.as_str(),
                agent.as_str()
            ],
        )?;
        if let Some(list) = rows.first().map(|r| ListRow::from_row(r)) {
            let summary = format!("found list {} {}", list.id, quoted(&list.name));
            return Ok(Done {
                summary,
                result: ListCreated {
                    list: ListJson::from(&list),
                    created: false,
                },
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
        created_at: call.now(),
        updated_at: call.now(),
        deleted_at: None,
        counts: Counts::default(),
        approval: (call.params.bool("requires_approval") == Some(true))
            .then_some(Approval::Pending),
        approval_note: None,
        approval_by: None,
        approval_at: None,
        requires_review: call.params.bool("requires_review") == Some(true),
    };
    call.exec(
        "INSERT INTO lists (id, name, name_fold, scope_type, scope_key, visibility, owner_agent_id, \
         created_by_agent_id, created_at, updated_at, approval, requires_review) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            list.updated_at,
            list.approval.map(Approval::as_str),
            i64::from(list.requires_review)
        ],
    )?;
    let mut data = json!({"name": list.name, "visibility": list.visibility});
    if list.approval.is_some() {
        data["requires_approval"] = json!(true);
    }
    if list.requires_review {
        data["requires_review"] = json!(true);
    }
    call.event("created", Some(&list.id), None, data)?;
    let summary = format!(
        "created list {} {} ({}{})",
        list.id,
        quoted(&list.name),
        list.visibility,
        if list.approval.is_some() {
            "; nothing is claimable until a person approves it"
        } else {
            ""
        }
    );
    Ok(Done {
        summary,
        result: ListCreated {
            list: ListJson::from(&list),
            created: true,
        },
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
            format!("a global list has no scope_key (got {})", quote(&k)),
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

/// `task_lists find`, as one type: its spec, its result, its handler.
pub struct FindLists;

impl Action for FindLists {
    type Result = ListsPage;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_LISTS,
        name: "find",
        summary: "lists you can see, most recently updated first, with counts",
        own_params: &[
            param("scope_type", Ty::Enum(SCOPE_TYPES), false, "filter"),
            param("scope_key", Ty::Str { min: 0, max: 1000 }, false, "filter"),
            param(
                "name",
                Ty::Str { min: 1, max: 200 },
                false,
                "case-insensitive substring",
            ),
            param("visibility", Ty::Enum(VISIBILITIES), false, "filter"),
            INCLUDE_DELETED,
            LIMIT,
            CURSOR,
        ],
        access: Access::None,
        writes: false,
        example: r#"{"scope_type":"workspace","scope_key":"/repo"}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<ListsPage>> {
        find(call)
    }
}

/// `find`: visible lists, most recently updated first, with counts.
fn find(call: &mut Call) -> ToolResult<Done<ListsPage>> {
    let p = &call.params;
    let mut sql = format!("SELECT {LIST_COLS} FROM lists WHERE 1 = 1");
    let mut args: Vec<Value> = Vec::new();
    sql.push_str(&format!(" AND {VISIBLE_TO}"));
    args.push(call.viewer.clone().into());
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

    let lists: Vec<ListRow> = call
        .rows(&sql, &args)?
        .into_iter()
        .map(|mut r| ListRow::from_row_owned(&mut r))
        .collect();
    // At most `limit` lists and about a page's bytes of JSON (a list's
    // name and scope_key can be long): the row that does not fit, or the
    // one past `limit`, says that more follow.
    let mut page = Page::new(limit);
    let mut next_cursor = None;
    // The cursor names the last list of the page: its time and id.
    let mut last_at = 0;
    for l in lists {
        let at = l.updated_at;
        let counts = l.counts;
        let item = ListWithCounts {
            list: ListJson::from(l),
            counts,
        };
        if !page.add(item) {
            next_cursor = page.last().map(|k| format!("{last_at}.{}", k.list.id));
            break;
        }
        last_at = at;
    }
    let items = page.into_rows();
    let summary = format!(
        "{}{}",
        plural(items.len(), "list"),
        if next_cursor.is_some() {
            " (more: pass next_cursor)"
        } else {
            ""
        }
    );
    Ok(Done {
        summary,
        result: ListsPage {
            lists: items,
            next_cursor,
        },
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
                format!(
                    "cursor {} is not a next_cursor of task_lists find",
                    quote(cursor)
                ),
                "pass next_cursor exactly as returned, or omit it",
            )
        })
}

/// Tasks read per query by `delete` for their audit events.
const DELETE_CHUNK: i64 = 500;

/// `task_lists delete`, as one type: its spec, its result, its handler.
pub struct DeleteList;

impl Action for DeleteList {
    type Result = ListDeleted;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_LISTS,
        name: "delete",
        summary: "soft-delete a list and its active tasks",
        own_params: &[LIST_ID],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<ListDeleted>> {
        delete(call)
    }
}

/// `delete`: soft-deletes the list and its active tasks; closed tasks keep
/// their history untouched. The tasks are read a page at a time (for their
/// audit events), so a list of any length is deleted in one call.
fn delete(call: &mut Call) -> ToolResult<Done<ListDeleted>> {
    call.agent()?;
    let list = access::list_param(call, false)?;
    // As for a single task: work another agent is doing is not deleted
    // from under it (for a person, any agent's running lease is another's).
    let sql = format!(
        "SELECT {TASK_COLS} FROM tasks WHERE list_id = ? AND deleted_at IS NULL \
         AND status = 'in_progress' AND claim_expires_at > ?"
    );
    let held = match call.claim_holder() {
        Some(holder) => call.rows(
            &format!("{sql} AND (claimed_by_agent_id IS NULL OR claimed_by_agent_id <> ?) LIMIT 1"),
            crate::params![list.id.as_str(), call.now(), holder],
        )?,
        None => call.rows(
            &format!("{sql} LIMIT 1"),
            crate::params![list.id.as_str(), call.now()],
        )?,
    };
    if let Some(row) = held.first() {
        let mut e = access::claimed_conflict(call, &TaskRow::from_row(row));
        e.message = if call.redacts(&list.id) {
            // Not even which task: the delete would have shown none.
            format!(
                "list {} cannot be deleted: one of its tasks is claimed by another agent",
                list.id
            )
        } else {
            format!("list {} cannot be deleted: {}", list.id, e.message)
        };
        e.hint =
            "wait until the task is closed or its lease expires (then task_claims release_expired)"
                .into();
        return Err(e);
    }
    // One `deleted` event per active task, recorded before the update
    // that takes them out of the active set. Each chunk starts after the
    // last one as a row-value comparison, which both planners range over
    // the (list_id, position) index: an OR of the two cases made each
    // chunk scan and sort the whole list (quadratic: 3 s of a 100,000
    // task delete).
    let mut after: Option<(i64, String)> = None;
    loop {
        let (at, id) = after.clone().unwrap_or((i64::MIN, String::new()));
        let rows = call.rows(
            "SELECT id, title, position FROM tasks WHERE list_id = ? AND deleted_at IS NULL \
             AND status NOT IN ('done', 'canceled') AND position >= ? AND (position, id) > (?, ?) \
             ORDER BY position, id LIMIT ?",
            crate::params![list.id.as_str(), at, at, id, DELETE_CHUNK],
        )?;
        let events: Vec<(String, Json)> = rows
            .iter()
            .map(|r| {
                let id = r[0].as_str().unwrap_or_default().to_string();
                (id, json!({"title": r[1].as_str().unwrap_or_default()}))
            })
            .collect();
        call.task_events("deleted", &list.id, &events)?;
        match rows.last() {
            Some(r) if rows.len() as i64 == DELETE_CHUNK => {
                after = Some((
                    r[2].as_i64().unwrap_or_default(),
                    r[0].as_str().unwrap_or_default().to_string(),
                ));
            }
            _ => break,
        }
    }
    // The list is marked deleted first, so the counter trigger skips the
    // tasks deleted with it; its counters are then set once from what is
    // left (its closed tasks).
    call.exec(
        "UPDATE lists SET deleted_at = ?, updated_at = ? WHERE id = ?",
        crate::params![call.now(), call.now(), list.id.as_str()],
    )?;
    let n = call.exec(
        &format!(
            "UPDATE tasks SET deleted_at = ?, updated_at = ?, {END_CLAIM} WHERE list_id = ? \
             AND deleted_at IS NULL AND status NOT IN ('done', 'canceled')"
        ),
        crate::params![call.now(), call.now(), list.id.as_str()],
    )?;
    call.exec(
        "UPDATE lists SET todo_count = 0, in_progress_count = 0, blocked_count = 0, \
         done_count = (SELECT COUNT(*) FROM tasks WHERE list_id = ?1 AND deleted_at IS NULL AND status = 'done'), \
         canceled_count = (SELECT COUNT(*) FROM tasks WHERE list_id = ?1 AND deleted_at IS NULL AND status = 'canceled') \
         WHERE id = ?1",
        crate::params![list.id.as_str()],
    )?;
    positions::compact(call, &list.id)?;
    call.event("deleted", Some(&list.id), None, json!({"deleted_tasks": n}))?;
    let summary = format!(
        "deleted list {} {} and {}",
        list.id,
        quoted(&list.name),
        plural(n, "active task")
    );
    Ok(Done {
        summary,
        result: ListDeleted {
            list_id: Some(list.id.clone()),
            deleted_tasks: Some(n),
        },
    })
}

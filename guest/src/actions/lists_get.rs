//! `task_lists get`: one list, its counts, and a page of its tasks in
//! position order (see `page.rs` for the bounds); a task is read from the
//! store only for the page it is on.

use super::action::{Action, Done};
use crate::contract::{
    Access, ActionSpec, CURSOR, INCLUDE_DELETED, LIST_ID, MAX_TASK_PAGE, PRIORITIES, STATUSES,
    TASK_LISTS, Ty, param,
};
use serde::{Deserialize, Serialize};

use super::access;
use super::approval;
use super::call::Call;
use super::deps;
use super::page::{Page, PageRows};
use super::summary::quoted;
use crate::contract::DEFAULT_TASK_PAGE;
use crate::error::{ToolError, ToolResult};
use crate::ids::{self, IdKind};
use crate::model::{Counts, Priority, TASK_COLS, TaskForm, TaskRow, carries_any_label, label_mark};
use crate::results::{ListJson, TaskJson};
use crate::store::Value;
use crate::text::plural;
use crate::text::quote;

/// `task_lists get` → `{list, counts, tasks?, next_cursor?}`; its tasks in
/// their board form ([`TaskForm::Board`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListDetail {
    /// The list.
    pub list: ListJson,
    /// Counts over the whole list (always set by the tool).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Counts>,
    /// One page of tasks, unless `include_tasks: false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<PageRows<TaskJson>>,
    /// With `tasks`: where the next page starts (inner None: last page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<Option<String>>,
}

/// The two runs of a list's tasks, in page order: the live ones by
/// position, then (with `include_deleted`) the deleted ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Run {
    Live,
    Deleted,
}

impl Run {
    fn tag(self) -> char {
        match self {
            Run::Live => 'p',
            Run::Deleted => 'd',
        }
    }
}

/// Where a page starts: after this task of this run.
#[derive(Debug, Clone, PartialEq, Eq)]
struct After {
    run: Run,
    position: i64,
    id: String,
}

impl After {
    /// The `next_cursor` text: `p12.task_…` (run, position, id).
    fn cursor(&self) -> String {
        format!("{}{}.{}", self.run.tag(), self.position, self.id)
    }

    fn parse(cursor: &str) -> ToolResult<After> {
        let parsed = (|| {
            let run = match cursor.chars().next()? {
                'p' => Run::Live,
                'd' => Run::Deleted,
                _ => return None,
            };
            let (position, id) = cursor[1..].split_once('.')?;
            ids::check(IdKind::Task, id).ok()?;
            Some(After {
                run,
                position: position.parse().ok()?,
                id: id.to_string(),
            })
        })();
        parsed.ok_or_else(|| {
            ToolError::invalid(
                format!(
                    "cursor {} is not a next_cursor of task_lists get",
                    quote(cursor)
                ),
                "pass next_cursor exactly as returned, or omit it for the first page",
            )
        })
    }
}

/// `task_lists get`, as one type: its spec, its result, its handler.
pub struct GetList;

impl Action for GetList {
    type Result = ListDetail;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_LISTS,
        name: "get",
        summary: "one list with counts and a page of its tasks in position order",
        own_params: &[
            LIST_ID,
            param("include_tasks", Ty::Bool, false, "default true"),
            param(
                "status",
                Ty::EnumOrList(STATUSES),
                false,
                "only tasks with this status (or any of these)",
            ),
            param(
                "priority",
                Ty::EnumOrList(PRIORITIES),
                false,
                "only tasks with this priority (or any of these)",
            ),
            param(
                "has_ref",
                Ty::Str { min: 1, max: 500 },
                false,
                "only tasks with a ref starting with this (a URI, or beads://)",
            ),
            param("label", Ty::Label, false, "only tasks carrying this label"),
            INCLUDE_DELETED,
            param(
                "include_times",
                Ty::Bool,
                false,
                "also each task's created_at, updated_at, started_at, completed_at",
            ),
            param(
                "limit",
                Ty::Int {
                    min: 1,
                    max: MAX_TASK_PAGE,
                },
                false,
                "tasks per page, default 100 (fewer when tasks are large)",
            ),
            CURSOR,
        ],
        access: Access::List,
        writes: false,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","status":["todo","in_progress"]}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<ListDetail>> {
        get(call)
    }
}

/// `get`: the list, counts for the whole list, and (unless
/// `include_tasks: false`) one page of tasks with `next_cursor`.
fn get(call: &mut Call) -> ToolResult<Done<ListDetail>> {
    let include_deleted = call.params.bool("include_deleted") == Some(true);
    let list = access::list_param(call, include_deleted)?;
    let counts = list.counts;
    let mut json = ListJson::from(&list);
    if let Some(approval) = json.approval.as_mut() {
        approval.changes = approval::count_changes(call, &list)?;
    }
    let mut detail = ListDetail {
        list: json,
        counts: Some(counts),
        tasks: None,
        next_cursor: None,
    };
    let mut shown = None;
    if call.params.bool("include_tasks") != Some(false) {
        let (tasks, next) = page(call, &list.id, include_deleted)?;
        shown = Some((tasks.len(), next.is_some()));
        detail.tasks = Some(tasks);
        detail.next_cursor = Some(next.map(|a| a.cursor()));
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
            Some((n, true)) => format!("; {} shown (more: pass next_cursor)", plural(n, "task")),
            Some((n, false)) => format!("; {} shown", plural(n, "task")),
            None => String::new(),
        }
    );
    let summary = match detail.list.approval.as_ref().and_then(approval::phrase) {
        Some(phrase) => format!("{summary}; {phrase}"),
        None => summary,
    };
    Ok(Done {
        summary,
        result: detail,
    })
}

/// One page of tasks as board rows, and where the next page starts.
fn page(
    call: &Call,
    list_id: &str,
    include_deleted: bool,
) -> ToolResult<(PageRows<TaskJson>, Option<After>)> {
    let limit = call.params.int("limit").unwrap_or(DEFAULT_TASK_PAGE);
    let form = TaskForm::Board {
        times: call.params.bool("include_times") == Some(true),
    };
    // `cursor` is where the page starts, `from` where the next query of
    // the current run starts.
    let cursor = call.params.str("cursor").map(After::parse).transpose()?;
    let mut from = cursor.clone();
    let mut run = cursor.as_ref().map_or(Run::Live, |a| a.run);
    if run == Run::Deleted && !include_deleted {
        return Err(ToolError::invalid(
            "this cursor pages through deleted tasks, but include_deleted is not set",
            "repeat the call that returned it, with include_deleted: true",
        ));
    }
    let mut page = Page::new(limit);
    // The run and position of the last task handed out; its id is the
    // page's last row's (taken once, not copied for every task).
    let mut last_at: Option<(Run, i64)> = None;
    let last = |page: &Page<TaskJson>, at: Option<(Run, i64)>| match (at, page.last()) {
        (Some((run, position)), Some(task)) => Some(After {
            run,
            position,
            id: task.id.clone(),
        }),
        _ => cursor.clone(),
    };
    loop {
        let want = page.want();
        let rows = chunk(call, list_id, run, from.as_ref(), want)?;
        let ids: Vec<&str> = rows.iter().map(|t| t.id.as_str()).collect();
        let graph = deps::of_tasks(call, &ids)?;
        let read = rows.len() as i64;
        for task in rows {
            let position = task.position;
            let depends_on = deps::get(&graph, &task.id);
            if !page.add(TaskJson::of(task, depends_on, form)) {
                let next = last(&page, last_at);
                return Ok((page.into_rows(), next));
            }
            last_at = Some((run, position));
        }
        if read == want {
            from = last(&page, last_at);
            continue;
        }
        // This run is exhausted: the deleted tasks follow the live ones.
        if run == Run::Live && include_deleted {
            run = Run::Deleted;
            from = None;
            continue;
        }
        return Ok((page.into_rows(), None));
    }
}

/// Up to `n` tasks of `run` after `from` (from the start of the run
/// without it), in position order, with the `status`, `priority`,
/// `has_ref` and `label` filters applied.
fn chunk(
    call: &Call,
    list_id: &str,
    run: Run,
    from: Option<&After>,
    n: i64,
) -> ToolResult<Vec<TaskRow>> {
    let mut sql = format!("SELECT {TASK_COLS} FROM tasks WHERE list_id = ?");
    let mut args: Vec<Value> = vec![list_id.into()];
    sql.push_str(match run {
        Run::Live => " AND deleted_at IS NULL",
        Run::Deleted => " AND deleted_at IS NOT NULL",
    });
    if let Some(statuses) = call.params.strs("status") {
        sql.push_str(&format!(
            " AND status IN ({})",
            vec!["?"; statuses.len()].join(", ")
        ));
        args.extend(statuses.iter().map(|s| Value::from(*s)));
    }
    if let Some(names) = call.params.strs("priority") {
        // Stored as ranks (the validator admitted only their names).
        let ranks: Vec<i64> = names
            .iter()
            .filter_map(|n| Priority::parse(n))
            .map(Priority::rank)
            .collect();
        sql.push_str(&format!(
            " AND priority IN ({})",
            vec!["?"; ranks.len()].join(", ")
        ));
        args.extend(ranks.into_iter().map(Value::Integer));
    }
    if let Some(prefix) = call.params.str("has_ref") {
        // A ref begins the column or follows a line break: the column with
        // a line break before it holds "\n" + prefix exactly when a ref
        // starts with it (removing every occurrence shortens it then; the
        // same, case-sensitive, in both dialects).
        sql.push_str(
            " AND refs IS NOT NULL AND length(replace(CAST(? AS TEXT) || refs, CAST(? AS TEXT), '')) < length(CAST(? AS TEXT) || refs)",
        );
        args.extend([
            Value::from("\n"),
            Value::from(format!("\n{prefix}")),
            Value::from("\n"),
        ]);
    }
    if let Some(label) = call.params.str("label") {
        // Exactly this label, case-sensitive, the same SQL in both
        // dialects. Numbered after the parameters so far, so the bare `?`
        // after them go on counting from there.
        let (nl, mark) = (args.len() + 1, args.len() + 2);
        sql.push_str(" AND ");
        sql.push_str(&carries_any_label(
            "labels",
            &[format!("?{mark}")],
            &format!("?{nl}"),
        ));
        args.extend([Value::from("\n"), Value::from(label_mark(label))]);
    }
    if let Some(a) = from.filter(|a| a.run == run) {
        // A row value, so a page starts at its place in the (list_id,
        // position) index rather than scanning the list's head.
        sql.push_str(" AND position >= ? AND (position, id) > (?, ?)");
        args.extend([
            Value::Integer(a.position),
            Value::Integer(a.position),
            a.id.as_str().into(),
        ]);
    }
    sql.push_str(" ORDER BY position, id LIMIT ?");
    args.push(Value::Integer(n));
    Ok(call
        .rows(&sql, &args)?
        .into_iter()
        .map(|mut r| TaskRow::from_row_owned(&mut r))
        .collect())
}

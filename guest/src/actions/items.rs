//! `task_items`: create, add_many (all or nothing, batch refs) and delete.
//! `update` lives in `items_update.rs`, `reorder` in `reorder.rs`.

use super::action::{Action, Done};
use crate::contract::{
    ASSIGNED, Access, ActionSpec, DESCRIPTION, LABELS, LIST_ID, MAX_BATCH, NOTES, PRIORITY, REFS,
    REQUIRES_REVIEW, TASK_ITEMS, TITLE, Ty, VERIFICATION, param,
};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

use serde_json::json;

use super::access;
use super::call::{Call, INSERT_EVENT};
use super::deps;
use super::positions;
use super::summary::{id_sample, quoted};
use crate::contract::Params;
use crate::error::{ToolError, ToolResult};
use crate::ids::IdKind;
use crate::model::{Approval, END_CLAIM, ListRow, Priority, Status, TaskForm, TaskRow};
use crate::results::TaskJson;
use crate::text::plural;
use crate::text::quote;
use crate::text_budget::{self, Cut};

/// `task_items create` and `update` → `{task}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// The task as stored now.
    pub task: TaskJson,
}

/// `task_items add_many` → `{tasks}`, in the order given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TasksResult {
    /// The tasks as stored.
    pub tasks: Vec<TaskJson>,
}

/// `task_items delete` → `{deleted}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TasksDeleted {
    /// Ids of the deleted tasks.
    pub deleted: Vec<String>,
}

/// Cuts the texts of an `add_many` echo (titles, descriptions, notes) so
/// that its JSON stays within [`ECHO_BYTES`](text_budget::ECHO_BYTES); the rest of each task (ids,
/// times, assignee, dependencies) is kept. Says whether it cut.
pub fn fit_batch(echo: &mut TasksResult) -> bool {
    let total = crate::text::json_text_len(echo);
    if total <= text_budget::ECHO_BYTES {
        return false;
    }
    let mut texts: Vec<&mut String> = echo
        .tasks
        .iter_mut()
        .flat_map(|t| {
            let (title, long) = t.texts_mut();
            long.into_iter().flatten().chain([title])
        })
        .collect();
    let text_bytes: usize = texts.iter().map(|t| crate::text::json_str_len(t)).sum();
    let fixed = total - text_bytes;
    text_budget::fit(
        &mut texts,
        text_budget::ECHO_BYTES.saturating_sub(fixed),
        Cut::Echo,
    )
}

/// A task about to be inserted.
struct NewTask {
    id: String,
    title: String,
    description: Option<String>,
    notes: Option<String>,
    priority: Priority,
    verification: Option<String>,
    assigned: Option<String>,
    depends_on: Vec<String>,
    refs: Vec<String>,
    labels: Vec<String>,
    /// Its own `requires_review` (none: the list's).
    requires_review: Option<bool>,
}

impl NewTask {
    /// The task `p` describes, its id `id`.
    fn from_params(p: &Params, id: String) -> Self {
        NewTask {
            id,
            title: p.str("title").unwrap_or_default().to_string(),
            description: p.str("description").map(str::to_string),
            notes: p.str("notes").map(str::to_string),
            priority: p
                .str("priority")
                .and_then(Priority::parse)
                .unwrap_or_default(),
            // As in update: an empty verification is none.
            verification: p
                .str("verification")
                .filter(|v| !v.trim().is_empty())
                .map(str::to_string),
            assigned: p.str("assigned_to_agent_id").map(str::to_string),
            depends_on: Vec::new(),
            refs: p
                .strs("refs")
                .unwrap_or_default()
                .into_iter()
                .map(str::to_string)
                .collect(),
            labels: crate::contract::labels::label_set(&p.strs("labels").unwrap_or_default()),
            requires_review: p.bool("requires_review"),
        }
    }

    /// Refuses texts over a task's bound ([`text_budget`]); `at` names
    /// the item of a batch.
    fn check_size(&self, at: &str) -> ToolResult<()> {
        text_budget::check(
            at,
            [
                self.description.as_deref(),
                self.notes.as_deref(),
                None,
                self.verification.as_deref(),
                None,
            ],
            0,
        )
    }
}

/// Inserts tasks at consecutive positions from `at`, with their
/// dependencies and a `created` event each; returns them as stored. A
/// task added to an approved plan waits for a person's approval (one
/// added while the plan is pending or rejected waits with the plan).
fn insert(call: &Call, list: &ListRow, at: i64, tasks: &[NewTask]) -> ToolResult<Vec<TaskRow>> {
    let list_id = list.id.as_str();
    let awaits_approval = list.approval == Some(Approval::Approved);
    let mut out = Vec::with_capacity(tasks.len());
    for (i, t) in tasks.iter().enumerate() {
        let row = TaskRow {
            id: t.id.clone(),
            list_id: list_id.to_string(),
            position: at + i as i64,
            title: t.title.clone(),
            description: t.description.clone(),
            notes: t.notes.clone(),
            status: Status::Todo,
            assigned_to_agent_id: t.assigned.clone(),
            claimed_by_agent_id: None,
            claim_token: None,
            claim_expires_at: None,
            lease_ms: None,
            outcome: None,
            created_at: call.now(),
            updated_at: call.now(),
            started_at: None,
            completed_at: None,
            deleted_at: None,
            priority: t.priority,
            verification: t.verification.clone(),
            verification_result: None,
            awaits_approval,
            approved_title: None,
            refs: t.refs.clone(),
            labels: t.labels.clone(),
            waits_on: None,
            ask: None,
            review: None,
            requires_review: t.requires_review.unwrap_or(list.requires_review),
            resume_for: None,
        };
        // The task and its event ride with the next statement or the
        // COMMIT (the store's `pipeline`; SQLite runs them at once): a
        // `create` is its list's read, then these with the COMMIT, two
        // round trips on PostgreSQL. Their failure fails that statement
        // or the commit, and the call.
        call.tx.pipeline(
            "INSERT INTO tasks (id, list_id, position, title, description, notes, status, assigned_to_agent_id, \
             created_at, updated_at, priority, verification, awaits_approval, refs, labels, requires_review) \
             VALUES (?, ?, ?, ?, ?, ?, 'todo', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            crate::params![
                row.id.as_str(),
                list_id,
                row.position,
                row.title.as_str(),
                row.description.clone(),
                row.notes.clone(),
                row.assigned_to_agent_id.clone(),
                call.now(),
                call.now(),
                row.priority.rank(),
                row.verification.clone(),
                i64::from(awaits_approval),
                crate::model::refs_column(&row.refs),
                crate::model::labels_column(&row.labels),
                i64::from(row.requires_review)
            ],
        )?;
        let mut data = json!({"title": row.title, "position": row.position});
        if awaits_approval {
            data["awaits_approval"] = json!(true);
        }
        call.tx.pipeline(
            INSERT_EVENT,
            crate::params![
                call.new_id(IdKind::Event),
                call.now(),
                call.actor(),
                "created",
                list_id,
                row.id.as_str(),
                call.event_data(&data)
            ],
        )?;
        out.push(row);
    }
    // Dependencies go in once every task of the batch exists: an item may
    // depend on one that comes after it.
    for t in tasks {
        deps::write(call, &t.id, &t.depends_on, false)?;
    }
    Ok(out)
}

/// `task_items create`, as one type: its spec, its result, its handler.
pub struct CreateTask;

impl Action for CreateTask {
    type Result = TaskResult;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_ITEMS,
        name: "create",
        summary: "add one task (appended unless position is given)",
        own_params: &[
            LIST_ID,
            TITLE,
            DESCRIPTION,
            NOTES,
            PRIORITY,
            VERIFICATION,
            ASSIGNED,
            REFS,
            LABELS,
            REQUIRES_REVIEW,
            param(
                "depends_on",
                Ty::Deps { refs: false },
                false,
                "task ids of this list that must be done/canceled first",
            ),
            param(
                "position",
                Ty::Int {
                    min: 1,
                    max: 1_000_000,
                },
                false,
                "1-based rank to insert at",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","title":"Write the migration","priority":"high","labels":["db"],"verification":"cargo test -p store passes","depends_on":["task_01JDQ50000000000000000000A"]}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<TaskResult>> {
        create(call)
    }
}

/// `create`: one task, appended or inserted at `position`.
fn create(call: &mut Call) -> ToolResult<Done<TaskResult>> {
    call.agent()?;
    // Its id once the list is read: the call's time is read after the
    // list's statement, which then rides with the BEGIN and the lock
    // (on PostgreSQL the store's clock comes with them).
    let mut task = NewTask::from_params(&call.params, String::new());
    task.check_size("")?;
    let list = access::list_param(call, false)?;
    task.id = call.new_id(IdKind::Task);
    let wanted = call.params.strs("depends_on").unwrap_or_default();
    task.depends_on = deps::check_existing(call, &list.id, None, &wanted)?;
    let at = positions::make_room(call, &list, call.params.int("position"), 1)?;
    let row = insert(call, &list, at, std::slice::from_ref(&task))?.remove(0);
    let summary = format!(
        "created task {} {} at #{} in {}",
        row.id,
        quoted(&row.title),
        row.position,
        list.id
    );
    Ok(Done {
        summary,
        result: TaskResult {
            task: TaskJson::new(&row, &task.depends_on, TaskForm::Whole),
        },
    })
}

/// `task_items add_many`, as one type: its spec, its result, its handler.
pub struct AddTasks;

impl Action for AddTasks {
    type Result = TasksResult;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_ITEMS,
        name: "add_many",
        summary: "add 1-500 tasks at once, all or nothing; items may depend on each other by ref",
        own_params: &[
            LIST_ID,
            param(
                "tasks",
                Ty::Items { max: MAX_BATCH },
                true,
                "items: title, description?, notes?, priority?, verification?, assigned_to_agent_id?, refs?, labels?, depends_on?, ref?",
            ),
            param(
                "position",
                Ty::Int {
                    min: 1,
                    max: 1_000_000,
                },
                false,
                "1-based rank of the first new task",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B","tasks":[{"ref":"schema","title":"Design schema"},{"title":"Write API","depends_on":["schema"]}]}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<TasksResult>> {
        add_many(call)
    }
}

/// `add_many`: up to 500 tasks in one transaction. Items may name each other
/// in `depends_on` by their batch-local `ref`, before or after themselves.
/// The result echoes every task, its texts cut when it would pass 1 MiB
/// ([`fit_batch`]).
fn add_many(call: &mut Call) -> ToolResult<Done<TasksResult>> {
    call.agent()?;
    let items = call.params.items("tasks");
    let mut tasks: Vec<NewTask> = items
        .iter()
        .map(|p| NewTask::from_params(p, call.new_id(IdKind::Task)))
        .collect();
    for (i, t) in tasks.iter().enumerate() {
        t.check_size(&format!("tasks[{i}]."))?;
    }
    text_budget::check_batch_deps(
        items
            .iter()
            .map(|p| p.strs("depends_on").map_or(0, |d| d.len()))
            .sum(),
    )?;
    let list = access::list_param(call, false)?;

    let mut refs: HashMap<&str, usize> = HashMap::new();
    for (i, p) in items.iter().enumerate() {
        let Some(r) = p.str("ref") else { continue };
        if crate::ids::check(IdKind::Task, r).is_ok() {
            // It would shadow the real task of that id in depends_on.
            return Err(ToolError::invalid(
                format!(
                    "tasks[{i}].ref {} is a task id; a ref must not look like one",
                    quote(r)
                ),
                "use a short name such as \"schema\" or \"step-1\"",
            ));
        }
        if let Some(first) = refs.insert(r, i) {
            return Err(ToolError::invalid(
                format!(
                    "tasks[{i}].ref {} is already used by tasks[{first}]",
                    quote(r)
                ),
                "refs must be unique within the batch",
            ));
        }
    }
    for (i, p) in items.iter().enumerate() {
        let mut existing = Vec::new();
        for d in p.strs("depends_on").unwrap_or_default() {
            match refs.get(d) {
                Some(j) => {
                    let dep = tasks[*j].id.clone();
                    if !tasks[i].depends_on.contains(&dep) {
                        tasks[i].depends_on.push(dep);
                    }
                }
                None if crate::ids::check(IdKind::Task, d).is_ok() => existing.push(d),
                // An id of the wrong kind (a list id, say) gets the usual
                // wrong-kind explanation.
                None if IdKind::of(d).is_some() => {
                    let why = crate::ids::check(IdKind::Task, d).unwrap_err();
                    return Err(ToolError::invalid(
                        format!("tasks[{i}].depends_on: {why}"),
                        "depends_on holds task ids or refs of this batch",
                    ));
                }
                None => {
                    // A few of the batch's refs, in batch order, as a reminder.
                    let mut known: Vec<(usize, &str)> =
                        refs.iter().map(|(r, i)| (*i, *r)).collect();
                    known.sort_unstable();
                    let shown: Vec<String> = known.iter().take(10).map(|(_, r)| quote(r)).collect();
                    return Err(ToolError::invalid(
                        format!(
                            "tasks[{i}].depends_on: {} is neither a ref of this batch nor a task id",
                            quote(d)
                        ),
                        match known.len() {
                            0 => "give items a ref to depend on them".to_string(),
                            n if n > shown.len() => {
                                format!("refs in this batch: {}, … ({n} in all)", shown.join(", "))
                            }
                            _ => format!("refs in this batch: {}", shown.join(", ")),
                        },
                    ));
                }
            }
        }
        let checked = deps::check_existing(call, &list.id, None, &existing)?;
        let deps_i = &mut tasks[i].depends_on;
        for c in checked {
            if !deps_i.contains(&c) {
                deps_i.push(c);
            }
        }
    }
    let graph: deps::Graph = tasks
        .iter()
        .map(|t| (t.id.clone(), t.depends_on.clone()))
        .collect();
    if let Some(cycle) = deps::find_cycle(&graph) {
        let label = |id: &str| {
            let i = tasks.iter().position(|t| t.id == id).unwrap_or(0);
            items[i]
                .str("ref")
                .map_or_else(|| format!("tasks[{i}]"), quote)
        };
        return Err(deps::cycle_error(&cycle, label));
    }

    let at = positions::make_room(call, &list, call.params.int("position"), tasks.len() as i64)?;
    let rows = insert(call, &list, at, &tasks)?;
    let mut data = TasksResult {
        tasks: rows
            .iter()
            .zip(&tasks)
            .map(|(r, t)| TaskJson::new(r, &t.depends_on, TaskForm::Whole))
            .collect(),
    };
    // The tasks are stored whole; a long batch's echo is cut to fit.
    let cut = fit_batch(&mut data);
    let summary = format!(
        "added {} to {} at #{}{}",
        plural(rows.len(), "task"),
        list.id,
        at,
        if cut { text_budget::ECHO_CUT_NOTE } else { "" }
    );
    Ok(Done {
        summary,
        result: data,
    })
}

/// `task_items delete`, as one type: its spec, its result, its handler.
pub struct DeleteTasks;

impl Action for DeleteTasks {
    type Result = TasksDeleted;
    const SPEC: &'static ActionSpec = &ActionSpec {
        tool: &TASK_ITEMS,
        name: "delete",
        summary: "soft-delete tasks (task_id or task_ids)",
        own_params: &[
            param("task_id", Ty::Id(IdKind::Task), false, "one task"),
            param(
                "task_ids",
                Ty::Ids(IdKind::Task, MAX_BATCH),
                false,
                "several tasks",
            ),
        ],
        access: Access::List,
        writes: true,
        example: r#"{"task_id":"task_01JDQ50000000000000000000A"}"#,
    };
    fn run(call: &mut Call) -> ToolResult<Done<TasksDeleted>> {
        delete(call)
    }
}

/// `delete`: soft-deletes tasks, refusing any claimed by another agent.
fn delete(call: &mut Call) -> ToolResult<Done<TasksDeleted>> {
    call.agent()?;
    let mut ids: Vec<String> = call
        .params
        .str("task_id")
        .map(|s| vec![s.to_string()])
        .unwrap_or_default();
    if let Some(more) = call.params.strs("task_ids") {
        if !ids.is_empty() {
            return Err(ToolError::invalid("pass task_id or task_ids, not both", ""));
        }
        ids = more.into_iter().map(str::to_string).collect();
    }
    if ids.is_empty() {
        return Err(ToolError::invalid(
            "missing task_id (or task_ids)",
            "pass the task to delete",
        ));
    }
    let mut seen = HashSet::new();
    ids.retain(|id| seen.insert(id.clone()));
    let mut lists: Vec<String> = Vec::new();
    for id in &ids {
        let access::Loaded { task, list, .. } = access::task(call, id)?;
        if task.held_by_other(call.claim_holder(), call.now()) {
            return Err(access::claimed_conflict(call, &task));
        }
        call.exec(
            &format!("UPDATE tasks SET deleted_at = ?, updated_at = ?, {END_CLAIM} WHERE id = ?"),
            crate::params![call.now(), call.now(), id.as_str()],
        )?;
        call.event(
            "deleted",
            Some(&list.id),
            Some(id),
            json!({"title": task.title}),
        )?;
        if !lists.contains(&list.id) {
            lists.push(list.id);
        }
    }
    for l in &lists {
        positions::compact(call, l)?;
    }
    let summary = format!("deleted {}: {}", plural(ids.len(), "task"), id_sample(&ids));
    Ok(Done {
        summary,
        result: TasksDeleted { deleted: ids },
    })
}

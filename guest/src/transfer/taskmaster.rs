//! Taskmaster's `tasks.json` (`.taskmaster/tasks/tasks.json`, written by
//! the `task-master-ai` package) read as tasks:
//!
//! - the tagged file (`{"master": {"tasks": […], "metadata": …}, …}`):
//!   the `master` tag, else the first tag; the older untagged file
//!   (`{"tasks": […]}`) too;
//! - each task, then its subtasks, in file order; the Taskmaster id kept
//!   as the ref `taskmaster://./<id>` (a subtask's id is `<task>.<sub>`);
//! - `title`, `description`, `details` as the notes, `testStrategy` as
//!   the verification;
//! - `status`: `pending` todo, `in-progress` todo (nothing is claimed by
//!   an import), `review`, `deferred` and `blocked` blocked, `done` done,
//!   `cancelled` canceled (their outcome says so);
//! - `priority`: `high` (and `critical`), `medium`, `low`;
//! - `dependencies`: task ids; a subtask's number is a sibling subtask,
//!   `"<task>.<sub>"` any subtask. A task waits for its subtasks, and a
//!   subtask for what its task waits for.

use serde_json::Value as Json;

use super::plan::{Fields, Item, Plan, malformed};
use crate::error::{ToolError, ToolResult};
use crate::model::{Priority, Status};
use crate::text::quote;

/// Parses a Taskmaster tasks.json.
pub fn parse(text: &str) -> ToolResult<Plan> {
    let doc: Json = serde_json::from_str(text).map_err(|e| {
        ToolError::invalid(
            format!("line {}: not valid JSON: {e}", e.line()),
            "a Taskmaster file is .taskmaster/tasks/tasks.json",
        )
    })?;
    let top = Fields::of(&doc, "the file")?;
    let (tag, tasks) = if top.map.contains_key("tasks") {
        (None, top.array("tasks")?)
    } else {
        let (name, tagged) = top
            .map
            .get_key_value("master")
            .or_else(|| top.map.iter().next())
            .ok_or_else(|| ToolError::invalid("the file holds no tag and no tasks", ""))?;
        let f = Fields::of(tagged, name.clone())?;
        (Some(name.clone()), f.array("tasks")?)
    };
    let base = tag
        .as_deref()
        .map_or_else(|| "tasks".to_string(), |t| format!("{t}.tasks"));
    let mut plan = Plan {
        name: Some(match &tag {
            Some(t) if t != "master" => format!("Taskmaster: {t}"),
            _ => "Taskmaster tasks".into(),
        }),
        ..Plan::default()
    };
    for (i, t) in tasks.iter().enumerate() {
        let f = Fields::of(t, format!("{base}[{i}]"))?;
        let id = f.id("id")?;
        let mut item = item(&f, &id, &mut plan)?;
        let parent_deps: Vec<String> = deps(&f, None)?;
        for d in &parent_deps {
            item.add_dep(d.clone());
        }
        let mut subs = Vec::new();
        for (j, s) in f.array("subtasks")?.iter().enumerate() {
            let sf = Fields::of(s, format!("{}.subtasks[{j}]", f.at))?;
            let sub_id = format!("{id}.{}", sf.id("id")?);
            let mut sub = self::item(&sf, &sub_id, &mut plan)?;
            for d in deps(&sf, Some(&id))? {
                sub.add_dep(d);
            }
            for d in &parent_deps {
                sub.add_dep(d.clone());
            }
            item.add_dep(sub_id);
            subs.push(sub);
        }
        plan.items.push(item);
        plan.items.extend(subs);
    }
    Ok(plan)
}

/// The task or subtask `f` with Taskmaster id `id`, without dependencies.
fn item(f: &Fields, id: &str, plan: &mut Plan) -> ToolResult<Item> {
    let mut item = Item::new(f.at.clone(), id, f.required("title")?);
    item.description = f.text("description")?;
    item.notes = f.text("details")?;
    item.verification = f.text("testStrategy")?;
    let status = f.str("status")?.unwrap_or("pending");
    (item.status, item.outcome) = match status {
        "pending" => (Status::Todo, None),
        "in-progress" => {
            plan.notes.push(format!(
                "{} (task {id}): in-progress, imported as todo (an import claims nothing)",
                f.at
            ));
            (Status::Todo, None)
        }
        "review" | "deferred" | "blocked" => (Status::Blocked, None),
        "done" => (Status::Done, Some("done in Taskmaster".to_string())),
        "cancelled" | "canceled" => (
            Status::Canceled,
            Some("cancelled in Taskmaster".to_string()),
        ),
        other => {
            return Err(malformed(
                &f.path("status"),
                format!(
                    "{} is not a Taskmaster status (pending, in-progress, review, deferred, blocked, done, cancelled)",
                    quote(other)
                ),
                "",
            ));
        }
    };
    if let Some(p) = f.str("priority")? {
        item.priority = match p {
            "high" | "critical" => Priority::High,
            "medium" => Priority::Medium,
            "low" => Priority::Low,
            other => {
                return Err(malformed(
                    &f.path("priority"),
                    format!("{} is not high, medium or low", quote(other)),
                    "",
                ));
            }
        };
    }
    item.add_ref(format!("taskmaster://./{id}"));
    Ok(item)
}

/// The keys of `f`'s dependencies; in a subtask of `parent`, a bare
/// number is a sibling.
fn deps(f: &Fields, parent: Option<&str>) -> ToolResult<Vec<String>> {
    let mut out = Vec::new();
    for (j, d) in f.array("dependencies")?.iter().enumerate() {
        let d = match d {
            Json::Number(n) => n.to_string(),
            Json::String(s) if !s.trim().is_empty() => s.trim().to_string(),
            _ => {
                return Err(ToolError::invalid(
                    format!("{}[{j}] must be a task id", f.path("dependencies")),
                    "",
                ));
            }
        };
        out.push(match parent {
            Some(p) if !d.contains('.') => format!("{p}.{d}"),
            _ => d,
        });
    }
    Ok(out)
}

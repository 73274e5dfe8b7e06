//! Taskmaster's `tasks.json` (`.taskmaster/tasks/tasks.json`, written by
//! the `task-master-ai` package) read as tasks, leniently: every tag of
//! the file comes across (a list each, or the one `--tag` names), and what
//! does not fit is said in the report.
//!
//! | Taskmaster | tasklists |
//! |---|---|
//! | a tag (`{"master": {"tasks": […], "metadata": …}, …}`) | a list, named after the tag (`master`: "Taskmaster tasks"); the older untagged file (`{"tasks": […]}`) one list |
//! | each task, then its subtasks | tasks in file order; a task waits for its subtasks, a subtask for what its task waits for |
//! | `id` (a subtask's `<task>.<sub>`) | the ref `taskmaster://./<id>` (`taskmaster://./<tag>/<id>` outside `master`) |
//! | subtask ids used twice in one task | renumbered after the highest (changed) |
//! | `title`, `description` | the same |
//! | `details` | notes |
//! | `testStrategy`, `acceptanceCriteria` | verification (both, when both are there) |
//! | `status` `pending` | todo |
//! | `in-progress` | todo (changed: an import claims nothing) |
//! | `review`, `deferred`, `blocked` | blocked (changed for review and deferred) |
//! | `done`, `cancelled` | done, canceled (their outcome says so) |
//! | any other status | todo (changed) |
//! | `priority` `high` (`critical`), `medium`, `low`; any other | high, medium, low; medium (changed) |
//! | the tag | the label `tag:<tag>` outside `master` |
//! | `updatedAt`; the tag's `metadata.created` | updated time; created time |
//! | `dependencies` (a subtask's number is a sibling) | dependencies; one on an id not in its tag, or that would make a cycle, a ref (kept as refs) |
//! | `assignee` (written by tools around Taskmaster) | assignee (dropped, and said, if it is no agent id) |
//! | `complexity`, `recommendedSubtasks`, `expansionPrompt`, `previousStatus` | dropped (said) |
//! | a subtask's own `subtasks` (Taskmaster nests one level; other tools write deeper ones) | dropped (said) |

use std::collections::HashSet;

use serde_json::Value as Json;

use super::plan::{Fields, Item, Plan, join, malformed};
use super::report::Report;
use crate::error::{ToolError, ToolResult};
use crate::model::{Priority, Status};
use crate::text::quote;

/// A task's or subtask's fields read, or knowingly not kept (a subtask's
/// links to its task are its place in the file).
const READ: [&str; 16] = [
    "id",
    "assignee",
    "title",
    "description",
    "details",
    "testStrategy",
    "acceptanceCriteria",
    "status",
    "priority",
    "dependencies",
    "subtasks",
    "updatedAt",
    "parentTaskId",
    "parentId",
    "parentTask",
    "isSubtask",
];

/// Parses a Taskmaster tasks.json: one plan a tag (only `tag`'s when
/// given), in the file's order.
pub fn parse(text: &str, tag: Option<&str>) -> ToolResult<Vec<Plan>> {
    let doc: Json = serde_json::from_str(text).map_err(|e| {
        ToolError::invalid(
            format!("line {}: not valid JSON: {e}", e.line()),
            "a Taskmaster file is .taskmaster/tasks/tasks.json",
        )
    })?;
    let top = Fields::of(&doc, "the file")?;
    if top.map.contains_key("tasks") {
        if let Some(t) = tag {
            return Err(ToolError::invalid(
                format!("--tag {}: this file has no tags", quote(t)),
                "leave --tag out",
            ));
        }
        return Ok(vec![tag_plan(None, &top, "tasks")?]);
    }
    let tags: Vec<&String> = top.map.keys().collect();
    if tags.is_empty() {
        return Err(ToolError::invalid("the file holds no tag and no tasks", ""));
    }
    let mut plans = Vec::new();
    for name in tags {
        if tag.is_some_and(|t| t != name) {
            continue;
        }
        let f = Fields::of(&top.map[name], name.clone())?;
        plans.push(tag_plan(Some(name), &f, &format!("{name}.tasks"))?);
    }
    if plans.is_empty() {
        let names: Vec<&str> = top.map.keys().map(String::as_str).collect();
        return Err(ToolError::invalid(
            format!(
                "--tag {}: the file's tags are {}",
                quote(tag.unwrap_or_default()),
                names.join(", ")
            ),
            "",
        ));
    }
    Ok(plans)
}

/// The plan of one tag (`None`: an untagged file), its tasks at `base`.
fn tag_plan(tag: Option<&str>, f: &Fields, base: &str) -> ToolResult<Plan> {
    let tasks = f.array("tasks")?;
    let created = f
        .map
        .get("metadata")
        .and_then(|m| m.get("created"))
        .and_then(Json::as_str)
        .and_then(crate::clock::parse_timestamp)
        .map(|t| t.as_millisecond());
    let outside_master = tag.filter(|t| *t != "master");
    let mut plan = Plan {
        name: Some(match outside_master {
            Some(t) => format!("Taskmaster: {t}"),
            None => "Taskmaster tasks".into(),
        }),
        ..Plan::default()
    };
    let ctx = Tag {
        prefix: outside_master.map(|t| format!("{t}/")).unwrap_or_default(),
        label: outside_master
            .and_then(|t| crate::contract::labels::label_from(&format!("tag:{t}"))),
        created,
    };
    for (i, t) in tasks.iter().enumerate() {
        let tf = Fields::of(t, format!("{base}[{i}]"))?;
        let id = tf.id("id")?;
        let mut task = item(&tf, &id, &ctx, &mut plan.report)?;
        let parent_deps: Vec<String> = deps(&tf, None)?;
        for d in &parent_deps {
            task.add_dep(d.clone());
        }
        let mut subs = Vec::new();
        let mut used: HashSet<String> = HashSet::new();
        let given: Vec<String> = tf
            .array("subtasks")?
            .iter()
            .filter_map(|s| {
                s.get("id")
                    .map(|v| v.to_string().trim_matches('"').to_string())
            })
            .collect();
        let mut next = given
            .iter()
            .filter_map(|s| s.parse::<u64>().ok())
            .max()
            .unwrap_or(0);
        for (j, s) in tf.array("subtasks")?.iter().enumerate() {
            let sf = Fields::of(s, format!("{}.subtasks[{j}]", tf.at))?;
            // Taskmaster nests one level: a deeper subtask has no place
            // here, and says so rather than vanish.
            for k in 0..sf.array("subtasks")?.len() {
                plan.report.dropped(
                    "a subtask of a subtask (Taskmaster nests one level)",
                    format!("{}.subtasks[{k}]", sf.at),
                );
            }
            let mut sub_no = sf.id("id")?;
            if !used.insert(sub_no.clone()) {
                next += 1;
                sub_no = next.to_string();
                used.insert(sub_no.clone());
                plan.report.changed(
                    "a subtask id its task already has, renumbered after the highest",
                    format!("{} (task {id}, now {id}.{sub_no})", sf.at),
                );
            }
            let sub_id = format!("{id}.{sub_no}");
            let mut sub = item(&sf, &sub_id, &ctx, &mut plan.report)?;
            for d in deps(&sf, Some(&id))? {
                sub.add_dep(d);
            }
            for d in &parent_deps {
                sub.add_dep(d.clone());
            }
            task.add_dep(sub_id);
            subs.push(sub);
        }
        plan.items.push(task);
        plan.items.extend(subs);
    }
    // A dependency on an id the tag does not hold: a ref to it.
    let known: HashSet<String> = plan.items.iter().map(|i| i.key.clone()).collect();
    for item in &mut plan.items {
        let place = item.place();
        let (inside, outside): (Vec<String>, Vec<String>) = std::mem::take(&mut item.depends_on)
            .into_iter()
            .partition(|d| known.contains(d));
        item.depends_on = inside;
        for d in outside {
            item.add_ref(format!("taskmaster://./{}{d}", ctx.prefix));
            plan.report.kept_as_ref(
                "a dependency on an id not in its tag, kept as a ref",
                format!("{place} → {d}"),
            );
        }
    }
    Ok(plan)
}

/// What every task of one tag shares.
struct Tag {
    /// Before an id in its ref (`<tag>/`; empty in `master`).
    prefix: String,
    /// The tag's label (none in `master`).
    label: Option<String>,
    /// The tag's creation time.
    created: Option<i64>,
}

/// The task or subtask `f` with Taskmaster id `id`, without dependencies.
fn item(f: &Fields, id: &str, tag: &Tag, report: &mut Report) -> ToolResult<Item> {
    let mut item = Item::new(f.at.clone(), id, f.required("title")?);
    let place = item.place();
    item.description = f.text("description")?;
    item.notes = f.text("details")?;
    item.verification = join(
        f.text("acceptanceCriteria")?
            .map(|a| format!("Acceptance criteria:\n{a}")),
        f.text("testStrategy")?,
    );
    let status = f.str("status")?.unwrap_or("pending");
    (item.status, item.outcome) = match status {
        "pending" => (Status::Todo, None),
        "blocked" => (Status::Blocked, None),
        "in-progress" => {
            report.changed(
                "status in-progress imported as todo (an import claims nothing)",
                place.clone(),
            );
            (Status::Todo, None)
        }
        "review" | "deferred" => {
            report.changed(
                format!("status {status} imported as blocked"),
                place.clone(),
            );
            (Status::Blocked, None)
        }
        "done" => (Status::Done, Some("done in Taskmaster".to_string())),
        "cancelled" | "canceled" => (
            Status::Canceled,
            Some("cancelled in Taskmaster".to_string()),
        ),
        other => {
            report.changed(format!("status {other} imported as todo"), place.clone());
            (Status::Todo, None)
        }
    };
    if let Some(p) = f.str("priority")? {
        item.priority = match p {
            "high" | "critical" => Priority::High,
            "medium" => Priority::Medium,
            "low" => Priority::Low,
            other => {
                report.changed(
                    "a priority not high, medium or low imported as medium",
                    format!("{place}: {other}"),
                );
                Priority::Medium
            }
        };
    }
    let uri = format!("taskmaster://./{}{id}", tag.prefix);
    item.source_ref = Some(uri.clone());
    item.add_ref(uri);
    if let Some(label) = &tag.label {
        item.add_label(label.clone());
    }
    item.times.created = tag.created;
    // Not Taskmaster's own field, but tools that write its files add it
    // (an agent's id, e.g. 5dlabs/taskmaster-sync).
    item.assigned = f.str("assignee")?.map(str::to_string);
    if let Some(at) = f.str("updatedAt")? {
        match crate::clock::parse_timestamp(at) {
            Some(t) => item.times.updated = Some(t.as_millisecond()),
            None => report.dropped(
                "an updatedAt that is no RFC 3339 time",
                format!("{place}: {at}"),
            ),
        }
    }
    for key in f.map.keys() {
        if !READ.contains(&key.as_str()) {
            report.dropped(
                format!("the field {key} (nothing here keeps it)"),
                place.clone(),
            );
        }
    }
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
                return Err(malformed(
                    &format!("{}[{j}]", f.path("dependencies")),
                    "must be a task id",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subtask_of_a_subtask_is_said_to_be_dropped() {
        let text = r#"{"master": {"tasks": [{"id": 1, "title": "a", "subtasks": [
            {"id": 1, "title": "b", "subtasks": [{"id": 1, "title": "c"}, {"id": 2, "title": "d"}]},
            {"id": 2, "title": "e", "subtasks": []}]}]}}"#;
        let plans = parse(text, None).unwrap();
        let titles: Vec<&str> = plans[0].items.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(titles, ["a", "b", "e"]);
        let dropped = &plans[0].report.dropped;
        assert_eq!(dropped.len(), 1, "{dropped:?}");
        assert_eq!(
            dropped[0].what,
            "a subtask of a subtask (Taskmaster nests one level)"
        );
        assert_eq!(dropped[0].count, 2);
        assert_eq!(
            dropped[0].examples[0],
            "master.tasks[0].subtasks[0].subtasks[0]"
        );
    }
}

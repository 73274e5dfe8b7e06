//! `task_items` results: tasks created, added in bulk, updated, reordered,
//! deleted. Each says what happened in a header, then shows the task rows.

use super::action::Render;
use super::fmt;
use super::table::{Align, Table, cell};
use super::{Line, LineBuf, Style, line, task};
use crate::actions::items::{TaskResult, TasksDeleted, TasksResult};
use crate::actions::reorder::{Moved, Reordered};
use crate::actions::{items, items_update, reorder};
use crate::model::Status;

/// Moved tasks listed before `… N more`: a person checks where the first
/// ones landed.
const ORDER_MAX: usize = 20;
/// Deleted or released ids listed before `+N more`.
const IDS_MAX: usize = 10;

/// `✓ verb in list_…` headers.
fn header(mark: &str, verb: &str, style: Style, list_id: Option<&str>, prep: &str) -> Line {
    let mut l = LineBuf::new();
    l.push(format!("{mark} {verb}"), style);
    if let Some(id) = list_id {
        l.push(format!(" {prep} "), Style::Text)
            .push(fmt::short_id(id), Style::Muted);
    }
    l.finish()
}

/// `create` → `{task}`.
pub(crate) fn created(result: TaskResult) -> Option<Vec<Line>> {
    let TaskResult { task: t } = result;
    let mut lines = vec![header(
        "✓",
        "created task",
        Style::Success,
        fmt::opt(&t.list_id),
        "in",
    )];
    lines.extend(task::rows(std::slice::from_ref(&t), 2));
    lines.extend(task::verification_lines(&t, 4));
    lines.extend(task::exchange_lines(&t, 4));
    lines.extend(task::refs_line(&t, 4));
    lines.extend(task::labels_line(&t, 4, true));
    Some(lines)
}

/// `add_many` → `{tasks}` in the order given; dependencies inside the
/// batch resolve to positions.
pub(crate) fn added(result: TasksResult) -> Option<Vec<Line>> {
    let TasksResult { tasks } = result;
    let list_id = tasks.iter().find_map(|t| fmt::opt(&t.list_id));
    let verb = format!("added {}", fmt::plural(tasks.len(), "task"));
    let mut lines = vec![header("✓", &verb, Style::Success, list_id, "to")];
    lines.extend(task::rows(&tasks, 2));
    Some(lines)
}

/// `update` → `{task}`. The result does not say what changed, so the
/// header names the state the task is now in.
pub(crate) fn updated(result: TaskResult) -> Option<Vec<Line>> {
    let TaskResult { task: t } = result;
    let (mark, verb, style) = match (t.status, t.waits_on) {
        (_, Some(crate::waits::WaitsOn::Answer)) => {
            ("?", "task waits for a person's answer", Style::Warning)
        }
        (_, Some(crate::waits::WaitsOn::Review)) => {
            ("◆", "task waits for a person's review", Style::Warning)
        }
        (Some(Status::Done), _) => ("✓", "task done", Style::Success),
        (Some(Status::Canceled), _) => ("✗", "task canceled", Style::Muted),
        (Some(Status::Blocked), _) => ("⏸", "task paused", Style::Warning),
        _ => ("✓", "task updated", Style::Success),
    };
    let mut lines = vec![header(mark, verb, style, fmt::opt(&t.list_id), "in")];
    lines.extend(task::rows(std::slice::from_ref(&t), 2));
    lines.extend(task::verification_lines(&t, 4));
    lines.extend(task::exchange_lines(&t, 4));
    lines.extend(task::refs_line(&t, 4));
    lines.extend(task::labels_line(&t, 4, true));
    Some(lines)
}

/// `reorder` → `{tasks: [{id, position}], shifted}`: the moved tasks at
/// their new positions, and how many others moved to make room.
pub(crate) fn reordered(result: Reordered) -> Option<Vec<Line>> {
    let mut sorted: Vec<&Moved> = result.tasks.iter().collect();
    sorted.sort_by_key(|t| t.position.unwrap_or(i64::MAX));
    let mut head = LineBuf::new();
    head.push(
        format!("↕ moved {}", fmt::plural(sorted.len(), "task")),
        Style::Accent,
    );
    if let Some(n) = result.shifted {
        head.push(
            format!(" · {} shifted", fmt::plural(n, "other task")),
            Style::Muted,
        );
    }
    let mut lines = vec![head.finish()];
    let mut t = Table::new(&[Align::Right, Align::Left]).indent(2);
    for row in sorted.iter().take(ORDER_MAX) {
        t.row(vec![
            cell(
                row.position.map(|p| format!("#{p}")).unwrap_or_default(),
                Style::Muted,
            ),
            cell(
                fmt::nonblank(&row.id)
                    .map(fmt::short_id)
                    .unwrap_or_default(),
                Style::Text,
            ),
        ]);
    }
    lines.extend(t.lines());
    if sorted.len() > ORDER_MAX {
        lines.push(line(
            format!("  … {} more", sorted.len() - ORDER_MAX),
            Style::Muted,
        ));
    }
    Some(lines)
}

/// `delete` → `{deleted: [task ids]}`.
pub(crate) fn deleted(result: TasksDeleted) -> Option<Vec<Line>> {
    let TasksDeleted { deleted: ids } = result;
    if ids.is_empty() {
        return Some(vec![line("nothing deleted", Style::Muted)]);
    }
    let verb = format!("deleted {}", fmt::plural(ids.len(), "task"));
    Some(vec![
        line(format!("✓ {verb}"), Style::Success),
        id_list(&ids),
    ])
}

/// `  task_…A, task_…B, +3 more`: ids a person may want to recognize, on
/// one line.
pub(crate) fn id_list(ids: &[String]) -> Line {
    let shown: Vec<String> = ids
        .iter()
        .take(IDS_MAX)
        .map(|id| fmt::short_id(id))
        .collect();
    let mut l = LineBuf::new();
    l.push("  ", Style::Text)
        .push(shown.join(", "), Style::Muted);
    if ids.len() > IDS_MAX {
        l.push(format!(", +{} more", ids.len() - IDS_MAX), Style::Muted);
    }
    l.finish()
}

impl Render for items::CreateTask {
    fn render(result: TaskResult) -> Option<Vec<Line>> {
        created(result)
    }
}

impl Render for items::AddTasks {
    fn render(result: TasksResult) -> Option<Vec<Line>> {
        added(result)
    }
}

impl Render for items_update::UpdateTask {
    fn render(result: TaskResult) -> Option<Vec<Line>> {
        updated(result)
    }
}

impl Render for reorder::ReorderTasks {
    fn render(result: Reordered) -> Option<Vec<Line>> {
        reordered(result)
    }
}

impl Render for items::DeleteTasks {
    fn render(result: TasksDeleted) -> Option<Vec<Line>> {
        deleted(result)
    }
}

#[cfg(test)]
mod tests {
    use crate::registry::render_result;
    use crate::render::tests::*;
    use crate::render::{Style, to_plain};
    use serde_json::json;

    #[test]
    fn create_shows_the_new_row() {
        let mut t = task_json(4, "todo", "Deploy to staging");
        t["assigned_to_agent_id"] = json!("deployer");
        let out = render_result("task_items", "create", &json!({"task": t}));
        assert_eq!(
            to_plain(&out),
            "✓ created task in list_…3X5Z7B\n  4  ○ todo  Deploy to staging  task_…TASK04  @deployer"
        );
        assert_eq!(style_of(&out, "✓ created task"), Some(Style::Success));
    }

    #[test]
    fn add_many_names_dependencies_by_short_id() {
        let a = task_json(1, "todo", "Write spec");
        let mut b = task_json(2, "todo", "Implement");
        b["depends_on"] = json!([a["id"]]);
        let mut c = task_json(3, "todo", "Ship");
        c["depends_on"] = json!([a["id"], b["id"], "task_01JDQ4ZK8M3N5P7R9T1VOTHER"]);
        let out = render_result("task_items", "add_many", &json!({"tasks": [a, b, c]}));
        assert_eq!(
            to_plain(&out),
            "✓ added 3 tasks to list_…3X5Z7B\n\
             \x20 1  ○ todo  Write spec  task_…TASK01\n\
             \x20 2  ○ todo  Implement   task_…TASK02  after task_…TASK01\n\
             \x20 3  ○ todo  Ship        task_…TASK03  after task_…TASK01, task_…TASK02, task_…VOTHER"
        );
    }

    #[test]
    fn update_header_follows_the_new_status() {
        let mut done = task_json(1, "done", "Set up CI");
        done["outcome"] = json!("CI green");
        let out = render_result("task_items", "update", &json!({"task": done}));
        assert_eq!(
            to_plain(&out),
            "✓ task done in list_…3X5Z7B\n  1  ✓ done  Set up CI  task_…TASK01\n             outcome: CI green"
        );
        let mut paused = task_json(3, "blocked", "Review");
        paused["assigned_to_agent_id"] = json!("builder-1");
        let out = render_result("task_items", "update", &json!({"task": paused}));
        assert_eq!(
            to_plain(&out),
            "⏸ task paused in list_…3X5Z7B\n  3  ⏸ paused  Review  task_…TASK03  @builder-1"
        );
        assert_eq!(style_of(&out, "⏸ task paused"), Some(Style::Warning));
        assert_eq!(style_of(&out, "@builder-1"), Some(Style::Warning));
        let mut noted = task_json(2, "in_progress", "Parser");
        noted["notes"] = json!("line one\nline two");
        let out = render_result("task_items", "update", &json!({"task": noted}));
        assert_eq!(
            to_plain(&out),
            "✓ task updated in list_…3X5Z7B\n  2  ▶ run  Parser  task_…TASK02\n            notes: line one line two"
        );
    }

    #[test]
    fn reorder_lists_the_moved_tasks() {
        let data = json!({"tasks": [
            {"id": task_id(3), "position": 2},
            {"id": task_id(1), "position": 1},
        ], "shifted": 4});
        let out = render_result("task_items", "reorder", &data);
        assert_eq!(
            to_plain(&out),
            "↕ moved 2 tasks · 4 other tasks shifted\n  #1  task_…TASK01\n  #2  task_…TASK03"
        );
        let many: Vec<_> = (1..=25)
            .map(|i| json!({"id": task_id(i), "position": i}))
            .collect();
        let plain = to_plain(&render_result(
            "task_items",
            "reorder",
            &json!({"tasks": many, "shifted": 0}),
        ));
        assert!(
            plain.starts_with("↕ moved 25 tasks · 0 other tasks shifted\n"),
            "{plain}"
        );
        assert!(
            plain.ends_with("  #20  task_…TASK20\n  … 5 more"),
            "{plain}"
        );
    }

    #[test]
    fn delete_lists_ids() {
        let data = json!({"deleted": [task_id(1), task_id(2)]});
        assert_eq!(
            to_plain(&render_result("task_items", "delete", &data)),
            "✓ deleted 2 tasks\n  task_…TASK01, task_…TASK02"
        );
        let many: Vec<_> = (1..=12).map(task_id).collect();
        let plain = to_plain(&render_result(
            "task_items",
            "delete",
            &json!({"deleted": many}),
        ));
        assert!(plain.ends_with("task_…TASK10, +2 more"), "{plain}");
        assert_eq!(
            to_plain(&render_result(
                "task_items",
                "delete",
                &json!({"deleted": []})
            )),
            "nothing deleted"
        );
    }
}

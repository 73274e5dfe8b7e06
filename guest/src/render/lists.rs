//! `task_lists` results: a list created or reused, the aligned list of lists,
//! one list's details with its tasks, a deleted list.

use super::action::{Headline, Render};
use super::fmt;
use super::table::{Table, cell};
use super::{Line, LineBuf, Span, Style, line, task};
use crate::actions::lists::{ListCreated, ListDeleted, ListsPage};
use crate::actions::lists_get::ListDetail;
use crate::actions::{lists, lists_get};
use crate::model::{Approval, Visibility};
use crate::results::ListJson;

/// Names longer than this are cut in tables.
const NAME_MAX: usize = 40;

/// `scope · visibility · owner @x`: where a list lives and who may see it.
fn whereabouts(list: &ListJson, l: &mut LineBuf) {
    let mut parts: Vec<Span> = Vec::new();
    let scope = scope(list);
    if !scope.is_empty() {
        parts.push(Span {
            text: scope,
            style: Style::Muted,
        });
    }
    if let Some(v) = fmt::visibility(list.visibility.map_or("", Visibility::as_str)) {
        parts.push(v);
    }
    if let Some(owner) = fmt::opt(&list.owner_agent_id) {
        parts.push(Span {
            text: format!("owner @{}", fmt::truncate(owner, 24)),
            style: Style::Muted,
        });
    }
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            l.push(" · ", Style::Muted);
        }
        l.push(&p.text, p.style);
    }
}

/// Where the plan of a list that requires approval stands, in a few
/// words: awaiting (warning), rejected with the reason (error), approved
/// by whom (with the note and, in `get`, what changed since). None for a
/// list that needs no approval.
fn approval(list: &ListJson, reason_max: usize) -> Option<LineBuf> {
    let a = list.approval.as_ref()?;
    let by =
        a.by.as_deref()
            .and_then(fmt::nonblank)
            .map(|b| format!(" by {}", fmt::truncate(b, 24)))
            .unwrap_or_default();
    let mut l = LineBuf::new();
    match a.state {
        Approval::Pending => {
            l.push("awaiting approval", Style::Warning);
        }
        Approval::Rejected => {
            l.push(format!("rejected{by}"), Style::Error);
            if let Some(reason) = a.reason.as_deref().and_then(fmt::nonblank) {
                l.push(
                    format!(
                        ": \"{}\"",
                        fmt::truncate(&fmt::one_line(reason), reason_max)
                    ),
                    Style::Error,
                );
            }
        }
        Approval::Approved => {
            l.push(format!("approved{by}"), Style::Success);
            if let Some(note) = a.note.as_deref().and_then(fmt::nonblank) {
                l.push(
                    format!(" · \"{}\"", fmt::truncate(&fmt::one_line(note), reason_max)),
                    Style::Muted,
                );
            }
            if let Some(since) = a.changes.and_then(|c| c.said("added")) {
                l.push(format!(" · since: {since}"), Style::Warning);
            }
        }
    }
    Some(l)
}

/// The list's name, or a placeholder for nameless data.
fn name(list: &ListJson, max: usize) -> String {
    fmt::nonblank(&list.name)
        .map(|n| fmt::truncate(n, max))
        .unwrap_or_else(|| "(unnamed)".into())
}

/// `create` → `{list, created}`: a new list, or the existing one that
/// `get_or_create` returned (said so, since no list was made).
pub(crate) fn created(result: ListCreated) -> Option<Vec<Line>> {
    let ListCreated { list, created } = result;
    let list = &list;
    let mut head = LineBuf::new();
    if created {
        head.push("✓ created list ", Style::Success);
    } else {
        head.push("↺ existing list ", Style::Muted);
    }
    head.push(name(list, 80), Style::Accent);
    if let Some(id) = fmt::nonblank(&list.id) {
        head.push(format!("  {}", fmt::short_id(id)), Style::Muted);
    }
    let mut more = LineBuf::new();
    more.push("  ", Style::Text);
    whereabouts(list, &mut more);
    if let Some(a) = approval(list, 60) {
        more.push(" · ", Style::Muted).extend(&a.finish());
    }
    let mut lines = vec![head.finish()];
    let more = more.finish();
    if !more.is_empty() {
        lines.push(more);
    }
    Some(lines)
}

/// `find` → `{lists, next_cursor}`: one aligned row per list with its
/// counters; a muted pointer when more pages exist.
pub(crate) fn found(page: ListsPage) -> Option<Vec<Line>> {
    let lists = &page.lists;
    let mut lines = Vec::new();
    if lists.is_empty() {
        lines.push(line("no lists", Style::Muted));
    } else {
        let mut t = Table::new(&[]);
        for entry in lists {
            let list = &entry.list;
            let mut tail = fmt::counters(&entry.counts);
            if fmt::opt(&list.deleted_at).is_some() {
                tail.push(Span {
                    text: "  deleted".into(),
                    style: Style::Error,
                });
            }
            if let Some(a) = approval(list, 30) {
                tail.push(Span {
                    text: "  ".into(),
                    style: Style::Text,
                });
                tail.extend(a.finish());
            }
            t.row(vec![
                cell(name(list, NAME_MAX), Style::Accent),
                cell(
                    fmt::nonblank(&list.id)
                        .map(fmt::short_id)
                        .unwrap_or_default(),
                    Style::Muted,
                ),
                cell(scope(list), Style::Muted),
                fmt::visibility(list.visibility.map_or("", Visibility::as_str))
                    .into_iter()
                    .collect(),
                tail,
            ]);
        }
        lines.extend(t.lines());
    }
    lines.extend(more_line(page.next_cursor.as_deref()));
    Some(lines)
}

/// `workspace:/work/main`: the list's scope in one token.
fn scope(list: &ListJson) -> String {
    fmt::scope_of(Some(&list.scope_type), Some(&list.scope_key))
}

/// `more: cursor …` when a page follows (the cursor itself is for the model).
pub(crate) fn more_line(next_cursor: Option<&str>) -> Option<Line> {
    let cursor = next_cursor.and_then(fmt::nonblank)?;
    Some(line(
        format!("more: cursor {}", fmt::truncate(cursor, 48)),
        Style::Muted,
    ))
}

/// `get` → `{list, counts, tasks?, next_cursor?}`: a header (name, id,
/// scope, visibility, counters), then the page's tasks in position order,
/// then a pointer to the next page if there is one.
pub(crate) fn detail(detail: ListDetail) -> Option<Vec<Line>> {
    let list = &detail.list;
    let tasks = detail.tasks.as_deref();
    let mut head = LineBuf::new();
    head.push(name(list, 80), Style::Accent);
    if let Some(id) = fmt::nonblank(&list.id) {
        head.push(format!("  {}", fmt::short_id(id)), Style::Muted);
    }
    if let Some(at) = fmt::opt(&list.deleted_at) {
        head.push(format!("  deleted {}", fmt::date(at)), Style::Error);
    }
    let mut sub = LineBuf::new();
    sub.push("  ", Style::Text);
    whereabouts(list, &mut sub);
    let counts = match (detail.counts, tasks) {
        (Some(c), _) => Some(c),
        (None, Some(t)) => Some(fmt::count_tasks(t)),
        (None, None) => None,
    };
    if let Some(c) = counts {
        if sub.width() > 2 {
            sub.push(" · ", Style::Muted);
        }
        sub.extend(&fmt::counters(&c));
    }
    let mut lines = vec![head.finish()];
    let sub = sub.finish();
    if !sub.is_empty() {
        lines.push(sub);
    }
    if let Some(a) = approval(list, 200) {
        let mut l = LineBuf::new();
        l.push("  plan ", Style::Muted).extend(&a.finish());
        lines.push(l.finish());
    }
    match tasks {
        Some([]) => lines.push(line("  no tasks", Style::Muted)),
        Some(t) => lines.extend(task::rows(t, 2)),
        None => {}
    }
    if let Some(more) = more_line(detail.next_cursor.flatten().as_deref()) {
        let mut l = LineBuf::new();
        l.push("  ", Style::Text).extend(&more);
        lines.push(l.finish());
    }
    Some(lines)
}

/// `delete` → `{list_id, deleted_tasks}`.
pub(crate) fn deleted(result: ListDeleted) -> Option<Vec<Line>> {
    let id = fmt::opt(&result.list_id);
    let n = result.deleted_tasks;
    if id.is_none() && n.is_none() {
        return None;
    }
    let mut l = LineBuf::new();
    l.push("✓ deleted list", Style::Success);
    if let Some(id) = id {
        l.push(format!(" {}", fmt::short_id(id)), Style::Muted);
    }
    if let Some(n) = n {
        l.push(
            format!(" · {} soft-deleted", fmt::plural(n, "active task")),
            Style::Muted,
        );
    }
    Some(vec![l.finish()])
}

impl Render for lists::CreateList {
    fn render(result: ListCreated) -> Option<Vec<Line>> {
        created(result)
    }
}

impl Render for lists::FindLists {
    fn render(result: ListsPage) -> Option<Vec<Line>> {
        found(result)
    }

    /// A bare table: its headline is its size (`3 lists`).
    fn headline(result: &ListsPage) -> Headline {
        Headline::Own(table_size(result.lists.len(), "list", &result.next_cursor))
    }
}

impl Render for lists_get::GetList {
    fn render(result: ListDetail) -> Option<Vec<Line>> {
        detail(result)
    }

    /// The list's name and its counters.
    fn headline(_result: &ListDetail) -> Headline {
        Headline::Lines(2)
    }
}

/// `3 lists` / `12 events (more pages)`: the headline of a result that
/// renders as a bare table of `n` rows.
pub(crate) fn table_size(n: usize, word: &str, next_cursor: &Option<String>) -> Line {
    let more = if next_cursor.is_some() {
        " (more pages)"
    } else {
        ""
    };
    line(format!("{}{more}", fmt::plural(n, word)), Style::Accent)
}

impl Render for lists::DeleteList {
    fn render(result: ListDeleted) -> Option<Vec<Line>> {
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
    fn create_new_and_existing() {
        let data = json!({"list": list_json(), "created": true});
        let out = render_result("task_lists", "create", &data);
        assert_eq!(
            to_plain(&out),
            "✓ created list Sprint 12  list_…3X5Z7B\n  workspace:/work/main · shared"
        );
        assert_eq!(style_of(&out, "✓ created list"), Some(Style::Success));
        assert_eq!(style_of(&out, "Sprint 12"), Some(Style::Accent));

        let mut private = list_json();
        private["visibility"] = json!("private");
        private["owner_agent_id"] = json!("builder-1");
        let data = json!({"list": private, "created": false});
        let out = render_result("task_lists", "create", &data);
        assert_eq!(
            to_plain(&out),
            "↺ existing list Sprint 12  list_…3X5Z7B\n  workspace:/work/main · private · owner @builder-1"
        );
        assert_eq!(style_of(&out, "private"), Some(Style::Warning));
    }

    #[test]
    fn a_plans_approval_shows_where_it_stands() {
        let mut pending = list_json();
        pending["approval"] = json!({"state": "pending"});
        let out = render_result(
            "task_lists",
            "create",
            &json!({"list": pending, "created": true}),
        );
        assert!(
            to_plain(&out).ends_with("shared · awaiting approval"),
            "{}",
            to_plain(&out)
        );
        assert_eq!(style_of(&out, "awaiting approval"), Some(Style::Warning));

        let mut rejected = list_json();
        rejected["approval"] = json!({"state": "rejected", "reason": "split step two", "by": "ana", "at": "2026-11-30T12:00:00.000Z"});
        let out = render_result(
            "task_lists",
            "get",
            &json!({"list": rejected, "counts": {"todo": 1, "in_progress": 0, "blocked": 0, "done": 0, "canceled": 0}, "tasks": []}),
        );
        assert!(
            to_plain(&out).contains("\n  plan rejected by ana: \"split step two\""),
            "{}",
            to_plain(&out)
        );
        assert_eq!(style_of(&out, "rejected by ana"), Some(Style::Error));
        let out = render_result(
            "task_lists",
            "find",
            &json!({"lists": [{"approval": {"state": "rejected", "reason": "split step two", "by": "ana"}, "id": "list_1", "name": "P"}], "next_cursor": null}),
        );
        assert!(
            to_plain(&out).ends_with("rejected by ana: \"split step two\""),
            "{}",
            to_plain(&out)
        );

        let mut approved = list_json();
        approved["approval"] = json!({"state": "approved", "note": "go", "by": "ana", "changes": {"added": 2, "retitled": 1}});
        let out = render_result("task_lists", "get", &json!({"list": approved}));
        assert!(
            to_plain(&out).ends_with("plan approved by ana · \"go\" · since: 2 added, 1 retitled"),
            "{}",
            to_plain(&out)
        );
    }

    #[test]
    fn find_is_an_aligned_table() {
        let mut second = list_json();
        second["id"] = json!("list_01JDQ4ZK8M3N5P7R9T1V3XAAAA");
        second["name"] = json!("Refactor auth");
        second["scope_type"] = json!("global");
        second["scope_key"] = json!("");
        second["visibility"] = json!("private");
        second["counts"] =
            json!({"todo": 0, "in_progress": 0, "blocked": 0, "done": 4, "canceled": 1});
        let mut first = list_json();
        first["counts"] =
            json!({"todo": 3, "in_progress": 1, "blocked": 1, "done": 2, "canceled": 0});
        let data = json!({"lists": [first, second], "next_cursor": "c_2"});
        let out = render_result("task_lists", "find", &data);
        assert_eq!(
            to_plain(&out),
            "Sprint 12      list_…3X5Z7B  workspace:/work/main  shared   todo 3 · run 1 · blocked 1 · done 2\n\
             Refactor auth  list_…3XAAAA  global                private  todo 0 · run 0 · blocked 0 · done 4 · canceled 1\n\
             more: cursor c_2"
        );
        let empty = json!({"lists": [], "next_cursor": null});
        assert_eq!(
            to_plain(&render_result("task_lists", "find", &empty)),
            "no lists"
        );
    }

    #[test]
    fn get_shows_header_and_tasks_in_order() {
        let data = json!({
            "list": list_json(),
            "counts": {"todo": 1, "in_progress": 1, "blocked": 1, "done": 1, "canceled": 1},
            "tasks": sample_tasks(),
        });
        let out = render_result("task_lists", "get", &data);
        assert_eq!(
            to_plain(&out),
            "Sprint 12  list_…3X5Z7B\n\
             \x20 workspace:/work/main · shared · todo 1 · run 1 · blocked 1 · done 1 · canceled 1\n\
             \x20 1  ✓ done      Set up CI           task_…TASK01  @builder-1\n\
             \x20                outcome: CI green on main, 3 jobs\n\
             \x20 2  ▶ run       Write the parser    task_…TASK02  @builder-2 until 12:15\n\
             \x20                notes: tokenizer done; next: expressions\n\
             \x20 3  ⏸ paused    Review API naming   task_…TASK03  @builder-1 · after task_…TASK02\n\
             \x20                notes: waiting for a decision from the user\n\
             \x20 4  ○ todo      Deploy to staging   task_…TASK04  after task_…TASK02, task_…TASK03\n\
             \x20 5  ✗ canceled  Support Windows 95  task_…TASK05\n\
             \x20                outcome: out of scope"
        );
        assert_eq!(style_of(&out, "✓ done"), Some(Style::Success));
        assert_eq!(style_of(&out, "⏸ paused"), Some(Style::Warning));
        assert_eq!(style_of(&out, "▶ run"), Some(Style::Accent));
        assert_eq!(style_of(&out, "✗ canceled"), Some(Style::Muted));
        assert_eq!(style_of(&out, "@builder-2"), Some(Style::Accent));

        let no_tasks = json!({"list": list_json(), "counts": {"todo": 0, "in_progress": 0, "blocked": 0, "done": 0, "canceled": 0}, "tasks": []});
        assert_eq!(
            to_plain(&render_result("task_lists", "get", &no_tasks)),
            "Sprint 12  list_…3X5Z7B\n  workspace:/work/main · shared · todo 0 · run 0 · blocked 0 · done 0\n  no tasks"
        );
        let without = json!({"list": list_json(), "counts": {"todo": 2}});
        assert_eq!(
            to_plain(&render_result("task_lists", "get", &without)),
            "Sprint 12  list_…3X5Z7B\n  workspace:/work/main · shared · todo 2 · run 0 · blocked 0 · done 0"
        );
    }

    #[test]
    fn get_points_at_the_next_page() {
        // Board rows: no list_id, no history times.
        let rows: Vec<_> = (1..=2)
            .map(|i| json!({"id": task_id(i), "position": i, "title": format!("Step {i}"), "status": "todo"}))
            .collect();
        let data = json!({
            "list": list_json(),
            "counts": {"todo": 250, "in_progress": 0, "blocked": 0, "done": 0, "canceled": 0},
            "tasks": rows,
            "next_cursor": format!("p2.{}", task_id(2)),
        });
        assert_eq!(
            to_plain(&render_result("task_lists", "get", &data)),
            "Sprint 12  list_…3X5Z7B\n\
             \x20 workspace:/work/main · shared · todo 250 · run 0 · blocked 0 · done 0\n\
             \x20 1  ○ todo  Step 1  task_…TASK01\n\
             \x20 2  ○ todo  Step 2  task_…TASK02\n\
             \x20 more: cursor p2.task_01JDQ4ZK8M3N5P7R9T1VTASK02"
        );
    }

    #[test]
    fn delete_says_how_many_tasks_went() {
        let data = json!({"list_id": LIST_ID, "deleted_tasks": 3});
        let out = render_result("task_lists", "delete", &data);
        assert_eq!(
            to_plain(&out),
            "✓ deleted list list_…3X5Z7B · 3 active tasks soft-deleted"
        );
        let one = json!({"list_id": LIST_ID, "deleted_tasks": 1});
        assert_eq!(
            to_plain(&render_result("task_lists", "delete", &one)),
            "✓ deleted list list_…3X5Z7B · 1 active task soft-deleted"
        );
    }
}

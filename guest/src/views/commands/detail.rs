//! The readable detail of one list (`tasks <list_id>`): the list's header,
//! then one block per task with everything a person asks about it — full
//! id, status, priority, who holds it, dates, labels, description, notes,
//! outcome, verification and its result, refs —
//! wrapped to the width instead of cut.

use serde_json::Value;

use crate::actions::lists_get::ListDetail;
use crate::model::{Priority, Status, Visibility};
use crate::render::{Line, LineBuf, Span, Style, fmt, line};
use crate::results::{TaskJson, from_json};
use crate::views::layout::{field, pack};

/// The lines of a `task_lists get` result.
pub(crate) fn lines(data: &Value, width: usize) -> Vec<Line> {
    let Some(detail) = from_json::<ListDetail>(data) else {
        return crate::registry::render_result("task_lists", "get", data);
    };
    let list = &detail.list;
    let mut out = Vec::new();
    let name = fmt::one_line(fmt::nonblank(&list.name).unwrap_or("(unnamed)"));
    let name = name.as_str();
    // The list id is what a user copies into the next command: never cut.
    if fmt::width(name) + 2 + fmt::width(&list.id) <= width {
        let mut head = LineBuf::new();
        head.push(name, Style::Accent)
            .push("  ", Style::Text)
            .push(&list.id, Style::Muted);
        out.push(head.finish());
    } else {
        out.push(line(fmt::truncate(name, width), Style::Accent));
        out.push(line(format!("  {}", list.id), Style::Muted));
    }
    let mut about = vec![muted(fmt::scope_of(
        Some(&list.scope_type),
        Some(&list.scope_key),
    ))];
    about.extend(fmt::visibility(
        list.visibility.map_or("", Visibility::as_str),
    ));
    if let Some(owner) = fmt::opt(&list.owner_agent_id) {
        about.push(muted(format!("owner @{}", fmt::truncate(owner, 24))));
    }
    if let Some(c) = &detail.counts {
        // One piece per counter (`todo 3`), styled by its number, so a
        // narrow terminal breaks between counters, not inside one.
        let spans = fmt::counters(c);
        for pair in spans.split(|s| s.text == " · ") {
            let text: String = pair.iter().map(|s| s.text.as_str()).collect();
            let style = pair.last().map_or(Style::Muted, |s| s.style);
            about.push(Span { text, style });
        }
    }
    about.push(muted(format!(
        "created {} by @{}",
        fmt::date(&list.created_at),
        fmt::truncate(&list.created_by_agent_id, 24)
    )));
    about.push(muted(format!("updated {}", fmt::date(&list.updated_at))));
    out.extend(pack(&about, 2, width));

    let tasks = detail.tasks.unwrap_or_default();
    if tasks.is_empty() {
        out.push(line("  no tasks", Style::Muted));
    }
    // Numbers right-aligned to the widest, so every block's details line
    // up under its title (`  9. …` and ` 10. …`).
    let number_width = tasks
        .iter()
        .filter_map(|t| t.position)
        .max()
        .map_or(1, |p| p.to_string().len());
    for task in &tasks {
        out.push(Vec::new());
        out.extend(block(task, number_width, width));
    }
    if let Some(Some(cursor)) = detail.next_cursor {
        out.push(Vec::new());
        out.push(line(
            format!(
                "  more tasks follow: task_lists get with cursor {}",
                fmt::truncate(&cursor, 48)
            ),
            Style::Muted,
        ));
    }
    out
}

/// One task: `3. ⏸ paused  Title`, then its id and holder, its dates, and
/// its texts.
pub(crate) fn block(task: &TaskJson, number_width: usize, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    // Details start under the title's badge: `  ` + number + `. `.
    let indent = 2 + number_width + 2;
    let badge = fmt::task_badge(task.status.map_or("?", Status::as_str), task.waits_on);
    let mut head = LineBuf::new();
    head.push(
        format!(
            "  {:>number_width$}. ",
            task.position.map_or("?".into(), |p| p.to_string())
        ),
        Style::Muted,
    )
    .push(badge.span().text, badge.style)
    .push("  ", Style::Text);
    if let Some(mark) = fmt::priority_of(task.priority) {
        head.push(mark.text, mark.style).push(" ", Style::Text);
    }
    head.push(
        fmt::nonblank(&task.title).unwrap_or("(untitled)"),
        Style::Strong,
    );
    // The title is the one line of a block that may be long; wrap it.
    out.extend(crate::views::layout::wrap_lines(vec![head.finish()], width));

    let mut about = vec![muted(task.id.clone())];
    if let Some(p) = task.priority.filter(|p| *p != Priority::Medium) {
        let style = fmt::priority(p).map_or(Style::Muted, |m| m.style);
        about.push(Span {
            text: format!("{p} priority"),
            style,
        });
    }
    about.extend(holder(task));
    if !task.depends_on.is_empty() {
        let deps: Vec<String> = task.depends_on.iter().map(|d| fmt::short_id(d)).collect();
        about.push(muted(format!("after {}", deps.join(", "))));
    }
    let times = [
        ("created", &task.created_at),
        ("started", &task.started_at),
        ("updated", &task.updated_at),
        ("closed", &task.completed_at),
    ];
    about.extend(
        times.iter().filter_map(|(label, t)| {
            fmt::opt(t).map(|t| muted(format!("{label} {}", fmt::date(t))))
        }),
    );
    out.extend(pack(&about, indent, width));
    let refs = (!task.refs.is_empty()).then(|| task.refs.join("  "));
    let labels = (!task.labels.is_empty()).then(|| task.labels.join(", "));
    for (label, text) in [
        ("labels", &labels),
        ("description", &task.description),
        ("notes", &task.notes),
        ("outcome", &task.outcome),
        ("verification", &task.verification),
        ("verification result", &task.verification_result),
        ("refs", &refs),
    ] {
        if let Some(text) = fmt::opt(text) {
            out.extend(field(label, text, indent, width));
        }
    }
    out
}

/// A muted piece of a detail line.
fn muted(text: impl Into<String>) -> Span {
    Span {
        text: text.into(),
        style: Style::Muted,
    }
}

/// Who holds the task: the claimer and its lease, else the assignee.
fn holder(task: &TaskJson) -> Vec<Span> {
    let mut spans = Vec::new();
    if let Some(c) = fmt::opt(&task.claimed_by_agent_id) {
        spans.push(Span {
            text: format!("claimed by @{}", fmt::truncate(c, 24)),
            style: Style::Accent,
        });
        if let Some(t) = fmt::opt(&task.claim_expires_at) {
            spans.push(muted(format!("until {}", fmt::date(t))));
        }
    }
    if let Some(a) = fmt::opt(&task.assigned_to_agent_id) {
        spans.push(Span {
            text: format!("assigned to @{}", fmt::truncate(a, 24)),
            style: Style::Muted,
        });
    }
    spans
}

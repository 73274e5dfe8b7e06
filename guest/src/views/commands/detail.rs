//! The readable detail of one list (`tasks <list_id>`): the list's header,
//! then one block per task with everything a person asks about it — full
//! id, status, who holds it, dates, description, notes and outcome —
//! wrapped to the width instead of cut.

use serde_json::Value;

use crate::model::{Status, Visibility};
use crate::render::{Line, LineBuf, Span, Style, fmt, line};
use crate::results::{ListDetail, TaskJson, from_json};
use crate::views::layout::field;

/// The lines of a `task_lists get` result.
pub(crate) fn lines(data: &Value, width: usize) -> Vec<Line> {
    let Some(detail) = from_json::<ListDetail>(data) else {
        return crate::render::render_result("task_lists", "get", data);
    };
    let list = &detail.list;
    let mut out = Vec::new();
    let mut head = LineBuf::new();
    head.push(
        fmt::nonblank(&list.name).unwrap_or("(unnamed)"),
        Style::Accent,
    )
    .push("  ", Style::Text)
    .push(&list.id, Style::Muted);
    out.push(head.finish());

    let mut sub = LineBuf::new();
    sub.push("  ", Style::Text).push(
        fmt::scope_of(Some(&list.scope_type), Some(&list.scope_key)),
        Style::Muted,
    );
    if let Some(v) = fmt::visibility(list.visibility.map_or("", Visibility::as_str)) {
        sub.push(" · ", Style::Muted).push(&v.text, v.style);
    }
    if let Some(owner) = fmt::opt(&list.owner_agent_id) {
        sub.push(
            format!(" · owner @{}", fmt::truncate(owner, 24)),
            Style::Muted,
        );
    }
    if let Some(c) = &detail.counts {
        sub.push(" · ", Style::Muted).extend(&fmt::counters(c));
    }
    out.push(sub.finish());
    let mut dates = LineBuf::new();
    dates.push(
        format!(
            "  created {} by @{} · updated {}",
            fmt::date(&list.created_at),
            fmt::truncate(&list.created_by_agent_id, 24),
            fmt::date(&list.updated_at)
        ),
        Style::Muted,
    );
    out.push(dates.finish());

    let tasks = detail.tasks.unwrap_or_default();
    if tasks.is_empty() {
        out.push(line("  no tasks", Style::Muted));
    }
    for task in &tasks {
        out.push(Vec::new());
        out.extend(block(task, width));
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
fn block(task: &TaskJson, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let badge = fmt::status(task.status.map_or("?", Status::as_str));
    let mut head = LineBuf::new();
    head.push(
        format!(
            "  {}. ",
            task.position.map_or("?".into(), |p| p.to_string())
        ),
        Style::Muted,
    )
    .push(badge.span().text, badge.style)
    .push("  ", Style::Text)
    .push(
        fmt::nonblank(&task.title).unwrap_or("(untitled)"),
        Style::Strong,
    );
    // The title is the one line of a block that may be long; wrap it.
    out.extend(crate::views::layout::wrap_lines(vec![head.finish()], width));

    let mut who = LineBuf::new();
    who.push("     ", Style::Text).push(&task.id, Style::Muted);
    for span in holder(task) {
        who.push(" · ", Style::Muted).push(&span.text, span.style);
    }
    if !task.depends_on.is_empty() {
        let deps: Vec<String> = task.depends_on.iter().map(|d| fmt::short_id(d)).collect();
        who.push(format!(" · after {}", deps.join(", ")), Style::Muted);
    }
    out.push(who.finish());

    let times = [
        ("created", &task.created_at),
        ("started", &task.started_at),
        ("updated", &task.updated_at),
        ("closed", &task.completed_at),
    ];
    let dates: Vec<String> = times
        .iter()
        .filter_map(|(label, t)| fmt::opt(t).map(|t| format!("{label} {}", fmt::date(t))))
        .collect();
    if !dates.is_empty() {
        out.push(line(format!("     {}", dates.join(" · ")), Style::Muted));
    }
    for (label, text) in [
        ("description", &task.description),
        ("notes", &task.notes),
        ("outcome", &task.outcome),
    ] {
        if let Some(text) = fmt::opt(text) {
            out.extend(field(label, text, 5, width));
        }
    }
    out
}

/// Who holds the task: the claimer and its lease, else the assignee.
fn holder(task: &TaskJson) -> Vec<Span> {
    let mut spans = Vec::new();
    if let Some(c) = fmt::opt(&task.claimed_by_agent_id) {
        let until = fmt::opt(&task.claim_expires_at)
            .map(|t| format!(" until {}", fmt::date(t)))
            .unwrap_or_default();
        spans.push(Span {
            text: format!("claimed by @{}{until}", fmt::truncate(c, 24)),
            style: Style::Accent,
        });
    }
    if let Some(a) = fmt::opt(&task.assigned_to_agent_id) {
        spans.push(Span {
            text: format!("assigned to @{}", fmt::truncate(a, 24)),
            style: Style::Muted,
        });
    }
    spans
}

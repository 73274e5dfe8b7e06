//! One task as a table row: position, status badge, title, short id, who
//! holds it, what it waits for; plus a muted memo line (outcome or notes).
//! Shared by list details, created/updated tasks and claims, so a task looks
//! the same wherever it shows up.

use super::fmt::{self, str_of};
use super::table::{Align, Table, cell};
use super::{Line, LineBuf, Span, Style};
use serde_json::Value;

/// Titles longer than this are cut in rows (the full title is in the JSON).
const TITLE_MAX: usize = 60;
/// Memo lines (notes, outcome) are cut to about this many columns.
const MEMO_MAX: usize = 100;
/// Column of the title in [`table`], where memo lines hang.
const TITLE_COLUMN: usize = 2;

/// The columns of a task table: position right-aligned, the rest left.
pub(crate) fn table(indent: usize) -> Table {
    Table::new(&[
        Align::Right,
        Align::Left,
        Align::Left,
        Align::Left,
        Align::Left,
    ])
    .indent(indent)
}

/// Adds a task row and its memo line.
pub(crate) fn add_row(t: &mut Table, task: &Value) {
    let status = str_of(task, "status").unwrap_or("?");
    let badge = fmt::status(status);
    let deleted = str_of(task, "deleted_at").is_some();
    let position = fmt::int(task, "position")
        .map(|p| p.to_string())
        .unwrap_or_default();
    let title_style = if deleted || status == "canceled" {
        Style::Muted
    } else {
        Style::Text
    };
    let title = str_of(task, "title")
        .map(|s| fmt::truncate(s, TITLE_MAX))
        .unwrap_or_else(|| "(untitled)".into());
    let id = str_of(task, "id").map(fmt::short_id).unwrap_or_default();
    t.row(vec![
        cell(position, Style::Muted),
        vec![badge.span()],
        cell(title, title_style),
        cell(id, Style::Muted),
        extras(task),
    ]);
    if let Some(memo) = memo(task) {
        t.detail(TITLE_COLUMN, memo);
    }
}

/// Who holds the task and what it waits for: `@builder-1 until 12:15 ·
/// after task_…3X5Z7B · deleted`. The claimer is shown over the assignee
/// because it is who is working on it right now. Dependencies are short
/// ids in every view: a page of a list, or a single task, may not show
/// the tasks they name, so a position could not always be given.
fn extras(task: &Value) -> Vec<Span> {
    let mut l = LineBuf::new();
    let sep = |l: &mut LineBuf| {
        if !l.is_empty() {
            l.push(" · ", Style::Muted);
        }
    };
    let claimer = str_of(task, "claimed_by_agent_id");
    let assignee = str_of(task, "assigned_to_agent_id");
    if let Some(c) = claimer {
        l.push(format!("@{}", fmt::truncate(c, 24)), Style::Accent);
        if let Some(until) = str_of(task, "claim_expires_at") {
            let when = fmt::compact_date(until, str_of(task, "updated_at"));
            l.push(format!(" until {when}"), Style::Muted);
        }
    } else if let Some(a) = assignee {
        let style = if str_of(task, "status") == Some("blocked") {
            Style::Warning
        } else {
            Style::Muted
        };
        l.push(format!("@{}", fmt::truncate(a, 24)), style);
    }
    let deps: Vec<String> = fmt::arr(task, "depends_on")
        .map(|d| {
            d.iter()
                .filter_map(Value::as_str)
                .map(fmt::short_id)
                .collect()
        })
        .unwrap_or_default();
    if !deps.is_empty() {
        sep(&mut l);
        let shown = deps.iter().take(6).cloned().collect::<Vec<_>>().join(", ");
        let more = if deps.len() > 6 {
            format!(", +{}", deps.len() - 6)
        } else {
            String::new()
        };
        l.push(format!("after {shown}{more}"), Style::Muted);
    }
    if str_of(task, "deleted_at").is_some() {
        sep(&mut l);
        l.push("deleted", Style::Error);
    }
    l.finish()
}

/// The memo under a task: its outcome once closed, else its notes (the
/// agent's working memory), one line, muted.
fn memo(task: &Value) -> Option<Vec<Span>> {
    let closed = matches!(str_of(task, "status"), Some("done" | "canceled"));
    let (label, text) = match (str_of(task, "outcome"), str_of(task, "notes")) {
        (Some(o), _) if closed => ("outcome", o),
        (_, Some(n)) => ("notes", n),
        (Some(o), None) => ("outcome", o),
        (None, None) => return None,
    };
    let mut l = LineBuf::new();
    l.push(format!("{label}: "), Style::Muted)
        .push(fmt::truncate(text, MEMO_MAX), Style::Muted);
    Some(l.finish())
}

/// A whole task table (rows in position order) indented by `indent`.
pub(crate) fn rows(tasks: &[Value], indent: usize) -> Vec<Line> {
    let mut sorted: Vec<&Value> = tasks.iter().filter(|t| t.is_object()).collect();
    sorted.sort_by_key(|t| fmt::int(t, "position").unwrap_or(i64::MAX));
    let mut t = table(indent);
    for task in sorted {
        add_row(&mut t, task);
    }
    t.lines()
}

/// `#3 Write parser` with the title styled: the short way to name a task in
/// a sentence (claims, updates).
pub(crate) fn name(task: &Value, l: &mut LineBuf) {
    if let Some(p) = fmt::int(task, "position") {
        l.push(format!("#{p} "), Style::Muted);
    }
    let title = str_of(task, "title")
        .map(|s| fmt::truncate(s, TITLE_MAX))
        .unwrap_or_else(|| "(untitled)".into());
    l.push(title, Style::Strong);
    if let Some(id) = str_of(task, "id") {
        l.push(format!("  {}", fmt::short_id(id)), Style::Muted);
    }
}

/// The notes line for a single task view (claims), or None without notes.
pub(crate) fn notes_line(task: &Value, indent: usize) -> Option<Line> {
    let notes = str_of(task, "notes")?;
    let mut l = LineBuf::new();
    l.push(" ".repeat(indent), Style::Text)
        .push("notes: ", Style::Muted)
        .push(fmt::truncate(notes, MEMO_MAX), Style::Muted);
    Some(l.finish())
}

//! One task as a table row: position, status badge, priority mark and
//! title with its first labels, short id, who holds it, what it waits
//! for; plus a muted memo line (outcome or notes). A single task adds its
//! verification lines, its refs and (when the row could not show them
//! all) its labels.
//! Shared by list details, created/updated tasks and claims, so a task looks
//! the same wherever it shows up.

use super::fmt::{self, opt};
use super::table::{Align, Table, cell};
use super::{Line, LineBuf, Span, Style};
use crate::model::Status;
use crate::results::TaskJson;

/// Titles longer than this are cut in rows (the full title is in the JSON).
const TITLE_MAX: usize = 60;
/// Memo lines (notes, outcome) are cut to about this many columns.
const MEMO_MAX: usize = 100;
/// Column of the title in [`table`], where memo lines hang.
const TITLE_COLUMN: usize = 2;
/// Labels a row shows after its title (then how many more).
const ROW_LABELS: usize = 3;
/// Columns each label of a row is cut to.
const ROW_LABEL_CHARS: usize = 20;

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
pub(crate) fn add_row(t: &mut Table, task: &TaskJson) {
    let badge = fmt::task_badge(task.status.map_or("?", Status::as_str), task.waits_on);
    let deleted = opt(&task.deleted_at).is_some();
    let position = task.position.map(|p| p.to_string()).unwrap_or_default();
    let title_style = if deleted || task.status == Some(Status::Canceled) {
        Style::Muted
    } else {
        Style::Text
    };
    let title = fmt::nonblank(&task.title)
        .map(|s| fmt::truncate(s, TITLE_MAX))
        .unwrap_or_else(|| "(untitled)".into());
    let id = fmt::nonblank(&task.id)
        .map(fmt::short_id)
        .unwrap_or_default();
    let mut title_cell = marked(task);
    title_cell.extend(cell(title, title_style));
    if !task.labels.is_empty() {
        title_cell.extend(cell(
            format!(
                "  {}",
                fmt::labels(&task.labels, ROW_LABELS, ROW_LABEL_CHARS)
            ),
            Style::Muted,
        ));
    }
    t.row(vec![
        cell(position, Style::Muted),
        vec![badge.span()],
        title_cell,
        cell(id, Style::Muted),
        extras(task),
    ]);
    if let Some(memo) = memo(task) {
        t.detail(TITLE_COLUMN, memo);
    }
}

/// The priority mark and a space before a title (nothing for medium).
fn marked(task: &TaskJson) -> Vec<Span> {
    fmt::priority_of(task.priority)
        .map(|mark| {
            vec![
                mark,
                Span {
                    text: " ".into(),
                    style: Style::Text,
                },
            ]
        })
        .unwrap_or_default()
}

/// Who holds the task and what it waits for: `@builder-1 until 12:15 ·
/// after task_…3X5Z7B · deleted`. The claimer is shown over the assignee
/// because it is who is working on it right now. Dependencies are short
/// ids in every view: a page of a list, or a single task, may not show
/// the tasks they name, so a position could not always be given.
fn extras(task: &TaskJson) -> Vec<Span> {
    let mut l = LineBuf::new();
    let sep = |l: &mut LineBuf| {
        if !l.is_empty() {
            l.push(" · ", Style::Muted);
        }
    };
    let claimer = opt(&task.claimed_by_agent_id);
    let assignee = opt(&task.assigned_to_agent_id);
    if let Some(c) = claimer {
        l.push(format!("@{}", fmt::truncate(c, 24)), Style::Accent);
        if let Some(until) = opt(&task.claim_expires_at) {
            let when = fmt::compact_date(until, opt(&task.updated_at));
            l.push(format!(" until {when}"), Style::Muted);
        }
    } else if let Some(a) = assignee {
        let style = if task.status == Some(Status::Blocked) {
            Style::Warning
        } else {
            Style::Muted
        };
        l.push(format!("@{}", fmt::truncate(a, 24)), style);
    }
    let deps: Vec<String> = task.depends_on.iter().map(|d| fmt::short_id(d)).collect();
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
    if opt(&task.deleted_at).is_some() {
        sep(&mut l);
        l.push("deleted", Style::Error);
    }
    l.finish()
}

/// The memo under a task: its outcome once closed, else its notes (the
/// agent's working memory), one line, muted.
fn memo(task: &TaskJson) -> Option<Vec<Span>> {
    let closed = task.status.is_some_and(Status::is_closed);
    let (label, text) = match (opt(&task.outcome), opt(&task.notes)) {
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
pub(crate) fn rows(tasks: &[TaskJson], indent: usize) -> Vec<Line> {
    let mut sorted: Vec<&TaskJson> = tasks.iter().collect();
    sorted.sort_by_key(|t| t.position.unwrap_or(i64::MAX));
    let mut t = table(indent);
    for task in sorted {
        add_row(&mut t, task);
    }
    t.lines()
}

/// `#3 Write parser` with the title styled: the short way to name a task in
/// a sentence (claims, updates).
pub(crate) fn name(task: &TaskJson, l: &mut LineBuf) {
    if let Some(p) = task.position {
        l.push(format!("#{p} "), Style::Muted);
    }
    let title = fmt::nonblank(&task.title)
        .map(|s| fmt::truncate(s, TITLE_MAX))
        .unwrap_or_else(|| "(untitled)".into());
    l.extend(&marked(task)).push(title, Style::Strong);
    if let Some(id) = fmt::nonblank(&task.id) {
        l.push(format!("  {}", fmt::short_id(id)), Style::Muted);
    }
}

/// A single task's verification and what it showed, one muted line each
/// (those set), indented by `indent`.
pub(crate) fn verification_lines(task: &TaskJson, indent: usize) -> Vec<Line> {
    [
        ("verification", &task.verification),
        ("verification result", &task.verification_result),
    ]
    .into_iter()
    .filter_map(|(label, text)| {
        let text = opt(text)?;
        let mut l = LineBuf::new();
        l.push(" ".repeat(indent), Style::Text)
            .push(format!("{label}: "), Style::Muted)
            .push(fmt::truncate(text, MEMO_MAX), Style::Muted);
        Some(l.finish())
    })
    .collect()
}

/// A single task's exchange with its person, one line each (those set):
/// the question and its answer, the review and a return's reason, so
/// that the agent handed the task back reads them with it.
pub(crate) fn exchange_lines(task: &TaskJson, indent: usize) -> Vec<Line> {
    let mut out: Vec<(String, String, Style)> = Vec::new();
    if let Some(ask) = &task.ask {
        out.push((
            "question".into(),
            format!("{} (@{})", ask.question, ask.by),
            Style::Warning,
        ));
        if let Some(answer) = &ask.answer {
            let by = ask.answered_by.as_deref().unwrap_or("a person");
            out.push(("answer".into(), format!("{answer} ({by})"), Style::Success));
        }
    }
    if let Some(review) = &task.review {
        let by = review.by.as_deref().unwrap_or("a person");
        let (text, style) = match review.state {
            crate::waits::ReviewState::Pending => {
                ("waits for a person's review".to_string(), Style::Warning)
            }
            crate::waits::ReviewState::Accepted => (format!("accepted by {by}"), Style::Success),
            crate::waits::ReviewState::Returned => (
                format!(
                    "returned by {by}: {}",
                    review.reason.as_deref().unwrap_or_default()
                ),
                Style::Warning,
            ),
        };
        out.push(("review".into(), text, style));
    } else if task.requires_review {
        out.push(("review".into(), "required before done".into(), Style::Muted));
    }
    out.into_iter()
        .map(|(label, text, style)| {
            let mut l = LineBuf::new();
            l.push(" ".repeat(indent), Style::Text)
                .push(format!("{label}: "), Style::Muted)
                .push(fmt::truncate(&fmt::one_line(&text), MEMO_MAX), style);
            l.finish()
        })
        .collect()
}

/// A single task's refs on one muted line (`refs: github://o/r/1,
/// https://…`), or None without refs.
pub(crate) fn refs_line(task: &TaskJson, indent: usize) -> Option<Line> {
    if task.refs.is_empty() {
        return None;
    }
    let mut l = LineBuf::new();
    l.push(" ".repeat(indent), Style::Text)
        .push("refs: ", Style::Muted)
        .push(fmt::truncate(&task.refs.join(", "), MEMO_MAX), Style::Muted);
    Some(l.finish())
}

/// A single task's labels on one muted line (`labels: backend, db`),
/// each whole; None without labels, or when `in_row` and its row showed
/// them all already.
pub(crate) fn labels_line(task: &TaskJson, indent: usize, in_row: bool) -> Option<Line> {
    if task.labels.is_empty() || (in_row && task.labels.len() <= ROW_LABELS) {
        return None;
    }
    let mut l = LineBuf::new();
    l.push(" ".repeat(indent), Style::Text)
        .push("labels: ", Style::Muted)
        .push(task.labels.join(", "), Style::Muted);
    Some(l.finish())
}

/// The notes line for a single task view (claims), or None without notes.
pub(crate) fn notes_line(task: &TaskJson, indent: usize) -> Option<Line> {
    let notes = opt(&task.notes)?;
    let mut l = LineBuf::new();
    l.push(" ".repeat(indent), Style::Text)
        .push("notes: ", Style::Muted)
        .push(fmt::truncate(notes, MEMO_MAX), Style::Muted);
    Some(l.finish())
}

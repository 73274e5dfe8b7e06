//! The dashboard's lines for a width and a height: a title, the lists
//! (awaiting approval first, with their counters and approval state) or
//! the opened list (its approval, what changed since, its tasks) or one
//! task's details, the selection marked; then the open prompt, the last
//! action's result, and the footer of keys from the key map (write keys
//! only when a person may act). Every text from the store is made safe
//! for a screen by the line builder.

use super::super::identity;
use super::super::keys::KEYS;
use super::board::{Board, Entry};
use super::input::{Level, level};
use super::state::{Prompt, State};
use crate::bindings::{CallContext, DashboardView};
use crate::clock::format_ms;
use crate::error::ToolError;
use crate::model::{Approval, TaskRow};
use crate::render::{Line, LineBuf, Span, Style, fmt, line, render_error};
use crate::views::commands::detail;
use crate::views::layout::{fit_all, pack, wrap_lines};

/// The marker of the selected row (and the room others leave for it).
const MARK: &str = "▸ ";
const NO_MARK: &str = "  ";

/// The screen's lines.
pub(crate) fn lines(
    state: &State,
    board: &Board,
    view: &DashboardView,
    ctx: &CallContext,
    width: usize,
) -> Vec<Line> {
    let can_act = identity::can_act(ctx);
    let mut top = vec![title(ctx, can_act)];
    let (head, rows, selected) = body(state, board, width);
    top.extend(head);
    let mut bottom: Vec<Line> = Vec::new();
    if let Some(p) = &state.prompt {
        bottom.push(prompt_line(p, width));
    }
    if let Some(m) = &state.message {
        let (mark, style) = if m.failed {
            ("✗ ", Style::Error)
        } else {
            ("✓ ", Style::Success)
        };
        bottom.push(line(format!("{mark}{}", m.text), style));
        if !m.hint.is_empty() {
            bottom.push(line(format!("  {}", m.hint), Style::Muted));
        }
    }
    bottom.extend(footer(can_act, state.prompt.is_some(), width));
    let height = usize::try_from(view.height).unwrap_or(usize::MAX);
    let rows = window(rows, selected, height, top.len() + bottom.len() + 1);
    let mut out = top;
    out.extend(rows);
    out.push(Vec::new());
    out.extend(bottom);
    if height > 0 && out.len() > height {
        // Too low even for the fixed lines: the footer gives way last.
        let cut = out.len() - height;
        out.drain(1..(1 + cut).min(out.len()));
    }
    fit_all(out, width)
}

/// Entries of the inbox the screen shows above the lists (two lines
/// each: what it is and how to settle it, then what it said).
const INBOX_ENTRIES: usize = 4;

/// The inbox heading the lists: its count, then its first entries (what
/// each is, the verbs that settle it on the task's or list's keys, what
/// it said) and how many more; the heading alone when nothing needs the
/// person.
fn inbox_head(board: &Board) -> Vec<Line> {
    use crate::views::inbox;
    let Some(read) = &board.inbox else {
        return Vec::new();
    };
    let mut shown = inbox::Inbox {
        entries: read.entries.iter().take(INBOX_ENTRIES).cloned().collect(),
        ..read.clone()
    };
    // The rest is counted by the lines' own "… N more".
    shown.count = read.count;
    let mut out: Vec<Line> = inbox::lines(&shown, crate::views::columns(u32::MAX))
        .into_iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                return l;
            }
            let mut indented = vec![Span {
                text: "  ".into(),
                style: Style::Text,
            }];
            indented.extend(l);
            indented
        })
        .collect();
    out.push(Vec::new());
    out
}

/// The screen while the store cannot be read: the error, and how to close.
pub(crate) fn failure(e: &ToolError, width: usize) -> Vec<Line> {
    let mut out = vec![line("Tasks", Style::Accent)];
    out.extend(wrap_lines(render_error(e), width));
    out.push(line("esc/q close", Style::Muted));
    fit_all(out, width)
}

/// `Tasks · @alice`, or `Tasks · read-only`.
fn title(ctx: &CallContext, can_act: bool) -> Line {
    let mut l = LineBuf::new();
    l.push("Tasks", Style::Accent);
    match ctx.person.as_deref() {
        Some(p) if can_act => l.push(format!("  as @{}", fmt::truncate(p, 24)), Style::Muted),
        _ => l.push("  read-only", Style::Warning),
    };
    l.finish()
}

/// The lines above the rows, the rows, and which row is selected.
fn body(state: &State, board: &Board, width: usize) -> (Vec<Line>, Vec<Line>, Option<usize>) {
    match level(state) {
        Level::Lists => {
            let head = inbox_head(board);
            if board.lists.is_empty() {
                return (
                    vec![line("no lists here yet", Style::Muted)],
                    Vec::new(),
                    None,
                );
            }
            // Names in one column (up to a third of the width), so the
            // counters line up.
            let column = board
                .lists
                .iter()
                .map(|e| fmt::width(&list_name(e)))
                .max()
                .unwrap_or(0)
                .min((width / 3).max(12));
            let rows = board
                .lists
                .iter()
                .enumerate()
                .map(|(i, e)| list_row(e, i == state.row, column))
                .collect();
            (head, rows, Some(state.row))
        }
        Level::Tasks => {
            let Some(opened) = &board.opened else {
                return (Vec::new(), Vec::new(), None);
            };
            let head = list_head(&opened.entry, width);
            let number = opened
                .tasks
                .iter()
                .map(|t| t.position)
                .max()
                .map_or(1, |p| p.to_string().len());
            let mut rows: Vec<Line> = opened
                .tasks
                .iter()
                .enumerate()
                .map(|(i, t)| task_row(t, i == state.row, number, board.now, width))
                .collect();
            if opened.tasks.is_empty() {
                rows.push(line("  no tasks", Style::Muted));
            }
            if opened.hidden > 0 {
                rows.push(line(
                    format!(
                        "  {} hidden (f shows them)",
                        fmt::plural(opened.hidden, "finished task")
                    ),
                    Style::Muted,
                ));
            }
            if opened.more {
                rows.push(line("  more tasks follow", Style::Muted));
            }
            let selected = (!opened.tasks.is_empty()).then_some(state.row);
            // What needs the person comes first here too when something
            // does (one list opens at once: there is no lists' screen).
            let mut top = match &board.inbox {
                Some(read) if read.count > 0 => inbox_head(board),
                _ => Vec::new(),
            };
            top.extend(head);
            (top, rows, selected)
        }
        Level::Detail => {
            let mut head = board
                .opened
                .as_ref()
                .map(|o| list_head(&o.entry, width))
                .unwrap_or_default();
            if let Some(task) = &board.detail {
                let number = task.position.map_or(1, |p| p.to_string().len());
                head.extend(detail::block(task, number, width));
                if let Some(row) = &board.detail_row {
                    head.extend(extras(row, width));
                }
            }
            (head, Vec::new(), None)
        }
    }
}

/// What the detail adds to `/tasks`' block: that the task awaits a
/// person's approval.
fn extras(task: &TaskRow, width: usize) -> Vec<Line> {
    if !task.awaits_approval {
        return Vec::new();
    }
    pack(
        &[span("⏳ awaits approval (A approves it)", Style::Warning)],
        4,
        width,
    )
}

/// A list's name as its row shows it.
fn list_name(e: &Entry) -> String {
    fmt::one_line(fmt::nonblank(&e.list.name).unwrap_or("(unnamed)"))
}

/// A list's row on the lists: name (in a `column` that wide), counters,
/// approval, short id.
fn list_row(e: &Entry, selected: bool, column: usize) -> Line {
    let mut l = LineBuf::new();
    l.push(if selected { MARK } else { NO_MARK }, Style::Accent);
    let name = fmt::truncate(&list_name(e), column);
    let pad = column.saturating_sub(fmt::width(&name));
    let style = if selected {
        Style::Strong
    } else {
        Style::Accent
    };
    l.push(&name, style).push(" ".repeat(pad + 2), Style::Text);
    l.extend(&fmt::counters(&e.list.counts));
    for s in approval_spans(e, false) {
        l.push("  ", Style::Text).push(&s.text, s.style);
    }
    l.push("  ", Style::Text)
        .push(fmt::short_id(&e.list.id), Style::Muted);
    l.finish()
}

/// The opened list's header: name and id, counters, approval state and
/// what changed since approval.
fn list_head(e: &Entry, width: usize) -> Vec<Line> {
    let mut head = LineBuf::new();
    head.push(
        fmt::nonblank(&e.list.name).unwrap_or("(unnamed)"),
        Style::Accent,
    )
    .push("  ", Style::Text)
    .push(&e.list.id, Style::Muted);
    let mut out = vec![head.finish()];
    let mut about: Vec<Span> = Vec::new();
    let counters = fmt::counters(&e.list.counts);
    for pair in counters.split(|s| s.text == " · ") {
        let text: String = pair.iter().map(|s| s.text.as_str()).collect();
        about.push(span(text, pair.last().map_or(Style::Muted, |s| s.style)));
    }
    about.extend(approval_spans(e, true));
    out.extend(pack(&about, 2, width));
    out
}

/// The approval state of a list (none for a list that needs none), and,
/// approved, what changed since; `long` adds who and the note or reason.
pub(crate) fn approval_spans(e: &Entry, long: bool) -> Vec<Span> {
    let l = &e.list;
    let mut out = Vec::new();
    let Some(state) = l.approval else {
        return out;
    };
    let who = match (&l.approval_by, l.approval_at) {
        (Some(by), Some(at)) if long => format!(
            " by @{} {}",
            fmt::truncate(by, 24),
            fmt::date(&format_ms(at))
        ),
        (Some(by), None) if long => format!(" by @{}", fmt::truncate(by, 24)),
        _ => String::new(),
    };
    match state {
        Approval::Pending => out.push(span("⏳ awaiting approval", Style::Warning)),
        Approval::Rejected => {
            out.push(span(format!("✗ rejected{who}"), Style::Error));
            if let Some(reason) = l
                .approval_note
                .as_deref()
                .and_then(fmt::nonblank)
                .filter(|_| long)
            {
                out.push(span(
                    format!("reason: {}", fmt::truncate(reason, 120)),
                    Style::Error,
                ));
            }
        }
        Approval::Approved => {
            out.push(span(format!("✓ approved{who}"), Style::Success));
            if let Some(note) = l
                .approval_note
                .as_deref()
                .and_then(fmt::nonblank)
                .filter(|_| long)
            {
                out.push(span(
                    format!("note: {}", fmt::truncate(note, 120)),
                    Style::Muted,
                ));
            }
        }
    }
    if e.awaiting > 0 {
        out.push(span(
            format!("⏳ {} awaiting approval", fmt::plural(e.awaiting, "task")),
            Style::Warning,
        ));
    }
    if let Some(since) = e.changes.and_then(|c| c.said("added")) {
        out.push(span(format!("since approval: {since}"), Style::Warning));
    }
    out
}

/// A task's row: `▸ 3. ▶ run  ↑ Title  @agent  until 12:03  →bob  ⏳ awaits approval  [db]  task_…3X5Z7B`.
fn task_row(t: &TaskRow, selected: bool, number: usize, now: i64, width: usize) -> Line {
    let mut l = LineBuf::new();
    l.push(if selected { MARK } else { NO_MARK }, Style::Accent);
    l.push(format!("{:>number$}. ", t.position), Style::Muted);
    let badge = fmt::task_badge(t.status.as_str(), t.waits_on);
    l.push(badge.span().text, badge.style)
        .push("  ", Style::Text);
    if let Some(mark) = fmt::priority(t.priority) {
        // The mark every view gives a priority that is not medium.
        l.push(mark.text, mark.style).push(" ", Style::Text);
    }
    let mut details: Vec<Span> = Vec::new();
    if let Some(c) = t.claimed_by_agent_id.as_deref().and_then(fmt::nonblank) {
        details.push(span(format!("@{}", fmt::truncate(c, 20)), Style::Accent));
        // As the widget says it: until when, or that it ran out.
        details.push(match t.claim_expires_at {
            Some(at) if at > now => span(
                format!(
                    "until {}",
                    fmt::compact_date(&format_ms(at), Some(&format_ms(now)))
                ),
                Style::Muted,
            ),
            _ => span("lease expired", Style::Warning),
        });
    }
    if let Some(a) = t.assigned_to_agent_id.as_deref().and_then(fmt::nonblank) {
        details.push(span(format!("→{}", fmt::truncate(a, 20)), Style::Muted));
    }
    if t.awaits_approval {
        details.push(span("⏳ awaits approval", Style::Warning));
    }
    if !t.labels.is_empty() {
        // The first two, short: the task's details show them all.
        details.push(span(fmt::labels(&t.labels, 2, 16), Style::Muted));
    }
    details.push(span(fmt::short_id(&t.id), Style::Muted));
    let details_width: usize = details.iter().map(|s| fmt::width(&s.text) + 2).sum();
    // The title yields room to the details, down to a readable few columns.
    let room = width.saturating_sub(l.width() + details_width).max(12);
    let title = fmt::nonblank(&t.title).unwrap_or("(untitled)");
    l.push(
        fmt::truncate(title, room),
        if selected { Style::Strong } else { Style::Text },
    );
    for d in details {
        l.push("  ", Style::Text).push(&d.text, d.style);
    }
    l.finish()
}

/// The open prompt: `Reject "Plan", reason: text▏` or a question.
fn prompt_line(p: &Prompt, width: usize) -> Line {
    let mut l = LineBuf::new();
    if p.yes_no {
        l.push(&p.label, Style::Warning).push("  y/n", Style::Muted);
        return l.finish();
    }
    l.push(format!("{}: ", p.label), Style::Accent);
    // The end of a long text stays in sight, where the person types.
    let room = width.saturating_sub(l.width() + 1).max(4);
    l.push(fmt::truncate_left(&p.buffer, room), Style::Text)
        .push("▏", Style::Accent);
    l.finish()
}

/// The footer: the key map's keys, those of one action (or one label)
/// side by side as one entry (`↑/k/↓/j select`, `K/J/T move
/// up/down/first`); write keys
/// only when a person may act, else how to name one; while a prompt is open, how to answer it.
fn footer(can_act: bool, prompting: bool, width: usize) -> Vec<Line> {
    if prompting {
        return vec![line("enter ok · esc cancel", Style::Muted)];
    }
    let mut entries: Vec<(Vec<&'static str>, Vec<&'static str>, &'static str)> = Vec::new();
    for k in KEYS
        .iter()
        .filter(|k| k.on_terminal() && (can_act || !k.writes()))
    {
        match entries.last_mut() {
            Some((keys, labels, action)) if *action == k.action || labels == &[k.label] => {
                keys.push(k.shown());
                if !labels.contains(&k.label) {
                    labels.push(k.label);
                }
            }
            _ => entries.push((vec![k.shown()], vec![k.label], k.action)),
        }
    }
    let pieces: Vec<Span> = entries
        .iter()
        .map(|(keys, labels, _)| {
            span(
                format!("{} {}", keys.join("/"), joined(labels)),
                Style::Muted,
            )
        })
        .collect();
    let mut out = Vec::new();
    if !can_act {
        // Read-only says how to act before a write key is tried; the keys
        // stay the last line.
        out.push(line(
            fmt::truncate(&format!("to act, {}", identity::NO_PERSON_HINT), width),
            Style::Muted,
        ));
    }
    out.extend(pack(&pieces, 0, width));
    out
}

/// Labels of one action as one: `move up`, `move down` → `move up/down`.
fn joined(labels: &[&str]) -> String {
    let Some((first, rest)) = labels.split_first() else {
        return String::new();
    };
    if rest.is_empty() {
        return (*first).to_string();
    }
    let (verb, _) = first.split_once(' ').unwrap_or((first, ""));
    let shared = rest
        .iter()
        .all(|l| l.split_once(' ').is_some_and(|(v, _)| v == verb));
    if !shared {
        return labels.join("/");
    }
    let tails: Vec<&str> = labels
        .iter()
        .map(|l| l.split_once(' ').map_or("", |(_, t)| t))
        .collect();
    format!("{verb} {}", tails.join("/"))
}

/// The rows that fit in `height` beside `fixed` lines, the selected one
/// in sight, and a line saying how many more there are when cut.
fn window(rows: Vec<Line>, selected: Option<usize>, height: usize, fixed: usize) -> Vec<Line> {
    if height == 0 || rows.len() + fixed <= height {
        return rows;
    }
    let room = height.saturating_sub(fixed + 1).max(1);
    let at = selected.unwrap_or(0).min(rows.len().saturating_sub(1));
    let start = at
        .saturating_sub(room - 1)
        .min(rows.len().saturating_sub(room));
    let end = (start + room).min(rows.len());
    let left = rows.len() - (end - start);
    let mut out: Vec<Line> = rows.into_iter().skip(start).take(end - start).collect();
    out.push(line(
        format!("  … {} more (↑/↓ to scroll)", left),
        Style::Muted,
    ));
    out
}

fn span(text: impl Into<String>, style: Style) -> Span {
    Span {
        text: text.into(),
        style,
    }
}

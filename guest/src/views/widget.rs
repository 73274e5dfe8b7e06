//! The widget's layout: which lines of the board fit in ten, in what order,
//! and the line that says what was left out.
//!
//! Rules: a list's header line (name and counters) comes before its tasks,
//! and a task inside its list's group never repeats the list name. Lists
//! holding the viewer's own tasks come first, and inside a list its own
//! tasks come first. When everything does not fit, lines are kept in this
//! order of importance: the lists holding own tasks with those tasks, the
//! other lists' headers, then (full mode) the other active tasks; one last
//! line counts what was hidden (`… 3 tasks, 2 lists hidden`).

use super::board::{Board, Group};
use super::frame::{self, MAX_CONTENT};
use super::rows;
use crate::bindings::WidgetMode;
use crate::model::TaskRow;
use crate::render::{Line, Style, fmt, line};

/// One line of the board: a list header, or a task of that list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// Group `g`'s header.
    Header(usize),
    /// Group `g`'s counters, on a line of their own under a split header.
    Counters(usize),
    /// Group `g`'s own task `i`.
    Own(usize, usize),
    /// Group `g`'s other task `i`.
    Other(usize, usize),
}

/// The framed widget of `board`, at most `width` columns and ten lines.
pub(crate) fn lines(board: &Board, mode: WidgetMode, width: usize) -> Vec<Line> {
    let groups = &board.groups;
    let full = mode == WidgetMode::Full;
    let own_total: usize = groups.iter().map(|g| g.own.len()).sum();
    let others_total: usize = if full {
        groups.iter().map(|g| g.others_total).sum()
    } else {
        0
    };
    let inner = width.saturating_sub(frame::BORDER);
    let split: Vec<bool> = groups
        .iter()
        .map(|g| rows::split_header(g, inner))
        .collect();
    let header_lines = groups.len() + split.iter().filter(|s| **s).count();
    let needed = header_lines + own_total + others_total;
    // What needs a person comes first, on a line of its own.
    let inbox = (board.inbox > 0).then(|| inbox_line(board.inbox));
    let room = MAX_CONTENT - usize::from(inbox.is_some());
    let hides = needed > room || board.more_lists;
    let budget = if hides { room - 1 } else { room };

    let picked = pick(groups, &split, full, budget);
    let shown_headers = picked
        .iter()
        .filter(|e| matches!(e, Entry::Header(_)))
        .count();
    let shown_tasks = picked
        .iter()
        .filter(|e| matches!(e, Entry::Own(..) | Entry::Other(..)))
        .count();

    let badge_width = picked
        .iter()
        .filter_map(|e| task_of(groups, *e))
        .map(|t| fmt::width(&fmt::task_badge(t.status.as_str(), t.waits_on).span().text))
        .max()
        .unwrap_or(0);
    let name_width = name_column(groups, &picked, inner);
    let mut content: Vec<Line> = inbox.into_iter().collect();
    content.extend(picked.iter().map(|e| match (*e, task_of(groups, *e)) {
        (Entry::Header(g), _) if split[g] => rows::header_name(&groups[g], inner),
        (Entry::Header(g), _) => rows::header(&groups[g], name_width, inner),
        (Entry::Counters(g), _) => rows::header_counters(&groups[g], inner),
        (Entry::Own(..), Some(t)) => rows::task(t, true, board.now, badge_width, inner),
        (_, Some(t)) => rows::task(t, false, board.now, badge_width, inner),
        (_, None) => Vec::new(),
    }));
    if hides {
        let tasks = own_total + others_total - shown_tasks;
        let lists = groups.len() - shown_headers;
        content.push(hidden_line(tasks, lists, board.more_lists));
    }
    let title = match board.agent.as_deref() {
        Some(a) => format!("tasks · @{}", fmt::truncate(a, 24)),
        None => "tasks".to_string(),
    };
    frame::frame(&title, &content, width)
}

/// The names' column when every shown header fits whole with its name
/// padded to the widest (counters then line up); None on a terminal too
/// narrow for that, where each header packs its own name and counters.
fn name_column(groups: &[Group], picked: &[Entry], inner: usize) -> Option<usize> {
    // Split headers lay out on their own; the others line up together.
    let headers = picked.iter().filter_map(|e| match e {
        Entry::Header(g) if !picked.contains(&Entry::Counters(*g)) => groups.get(*g),
        _ => None,
    });
    let (mut widest, mut counters) = (0, 0);
    for g in headers {
        widest = widest.max(fmt::width(&rows::name(g)));
        counters = counters.max(rows::counters_width(g));
    }
    (widest + 2 + counters <= inner).then_some(widest)
}

/// The task an entry stands for.
fn task_of(groups: &[Group], e: Entry) -> Option<&TaskRow> {
    match e {
        Entry::Header(_) | Entry::Counters(_) => None,
        Entry::Own(g, i) => groups.get(g)?.own.get(i),
        Entry::Other(g, i) => groups.get(g)?.others.get(i),
    }
}

/// The entries that fit in `budget` lines, in display order (each group's
/// header (two lines when `split`), its own tasks, its other tasks). A
/// header is shown whole or not at all, and a task only under its header.
fn pick(groups: &[Group], split: &[bool], full: bool, budget: usize) -> Vec<Entry> {
    let mut chosen: Vec<Entry> = Vec::new();
    let take = |e: Entry, chosen: &mut Vec<Entry>| {
        if chosen.len() < budget {
            chosen.push(e);
        }
    };
    let take_header = |g: usize, chosen: &mut Vec<Entry>| {
        let lines = if split[g] { 2 } else { 1 };
        if chosen.len() + lines <= budget {
            chosen.push(Entry::Header(g));
            if split[g] {
                chosen.push(Entry::Counters(g));
            }
        }
    };
    for (g, group) in groups.iter().enumerate().filter(|(_, g)| !g.own.is_empty()) {
        take_header(g, &mut chosen);
        if !chosen.contains(&Entry::Header(g)) {
            continue;
        }
        for i in 0..group.own.len() {
            take(Entry::Own(g, i), &mut chosen);
        }
    }
    for (g, _) in groups.iter().enumerate().filter(|(_, g)| g.own.is_empty()) {
        take_header(g, &mut chosen);
    }
    if full {
        for (g, group) in groups.iter().enumerate() {
            if !chosen.contains(&Entry::Header(g)) {
                continue;
            }
            for i in 0..group.others.len() {
                take(Entry::Other(g, i), &mut chosen);
            }
        }
    }
    let rank = |e: &Entry| match *e {
        Entry::Header(g) => (g, 0, 0),
        Entry::Counters(g) => (g, 0, 1),
        Entry::Own(g, i) => (g, 1, i),
        Entry::Other(g, i) => (g, 2, i),
    };
    chosen.sort_by_key(rank);
    chosen
}

/// `● 2 need you · /task-inbox`: what waits on a person, and where to see it.
fn inbox_line(count: usize) -> Line {
    vec![
        crate::render::Span {
            text: format!("● {}", super::inbox::need_you(count)),
            style: Style::Warning,
        },
        crate::render::Span {
            text: " · /task-inbox".into(),
            style: Style::Muted,
        },
    ]
}

/// `… 3 tasks, 2 lists hidden`: what the ten lines could not hold.
fn hidden_line(tasks: usize, lists: usize, more_lists: bool) -> Line {
    let mut parts = Vec::new();
    if tasks > 0 {
        parts.push(fmt::plural(tasks, "task"));
    }
    if lists > 0 || more_lists {
        let n = if more_lists {
            format!("{lists}+ lists")
        } else {
            fmt::plural(lists, "list")
        };
        parts.push(n);
    }
    if parts.is_empty() {
        // Only reached if the counts disagree with what was read.
        parts.push("some tasks".into());
    }
    line(format!("… {} hidden", parts.join(", ")), Style::Muted)
}

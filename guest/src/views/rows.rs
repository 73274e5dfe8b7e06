//! The widget's two kinds of line: a list header (name and counters) and a
//! task (status, title, short id, who holds it), each laid out to fit the
//! frame's inner width by cutting the title first.

use super::board::Group;
use crate::clock::format_ms;
use crate::model::{Approval, Counts, Status, TaskRow};
use crate::render::{Line, LineBuf, Span, Style, fmt};

/// A title is never cut below this many columns to make room for details:
/// the details go first.
const TITLE_MIN: usize = 12;

/// A title shorter than this shows whole before the short id does; a
/// longer one is cut to this before the id gives way.
const TITLE_WANTED: usize = 24;

/// `todo N · run N · blocked N · done N`, exactly these four (the widget
/// has no room for canceled work, which nobody watches), then where the
/// plan stands while it is not approved: nothing of it is handed out.
fn counters(group: &Group) -> Vec<Span> {
    let mut spans = fmt::counters(&Counts {
        canceled: 0,
        ..group.counts
    });
    let approval = match group.list.approval {
        Some(Approval::Pending) => Some(("awaiting approval", Style::Warning)),
        Some(Approval::Rejected) => Some(("rejected", Style::Error)),
        Some(Approval::Approved) | None => None,
    };
    if let Some((text, style)) = approval {
        spans.push(Span {
            text: " · ".into(),
            style: Style::Muted,
        });
        spans.push(Span {
            text: text.into(),
            style,
        });
    }
    spans
}

/// The list's name as the header shows it (before any cut).
pub(crate) fn name(group: &Group) -> String {
    fmt::one_line(fmt::nonblank(&group.list.name).unwrap_or("(unnamed)"))
}

/// Columns the header's counters take.
pub(crate) fn counters_width(group: &Group) -> usize {
    counters(group).iter().map(|s| fmt::width(&s.text)).sum()
}

/// Names are cut to this width before counters are (when the frame is
/// too narrow for both, the header takes two lines).
const NAME_MIN: usize = 12;

/// `Sprint 12  todo 3 · run 1 · blocked 0 · done 2`. With `column`, the
/// name is padded to it so every header's counters line up; without, the
/// name yields columns to the counters, down to a few characters.
pub(crate) fn header(group: &Group, column: Option<usize>, inner: usize) -> Line {
    let full = name(group);
    let width = column.unwrap_or_else(|| {
        let room = inner.saturating_sub(counters_width(group) + 2);
        room.max(NAME_MIN.min(fmt::width(&full)))
    });
    let name = fmt::truncate(&full, width.max(1));
    let pad = column.map_or(0, |c| c.saturating_sub(fmt::width(&name)));
    let mut l = LineBuf::new();
    l.push(name, Style::Accent)
        .push(" ".repeat(pad + 2), Style::Text)
        .extend(&counters(group));
    l.finish()
}

/// Whether `inner` columns are too few for a header to keep its counters
/// whole beside a readable name: the header then takes two lines.
pub(crate) fn split_header(group: &Group, inner: usize) -> bool {
    NAME_MIN.min(fmt::width(&name(group))) + 2 + counters_width(group) > inner
}

/// The first line of a split header: the name alone.
pub(crate) fn header_name(group: &Group, inner: usize) -> Line {
    let mut l = LineBuf::new();
    l.push(fmt::truncate(&name(group), inner.max(1)), Style::Accent);
    l.finish()
}

/// The second line of a split header: the counters, indented when they
/// fit so (cut only on a frame narrower than they are).
pub(crate) fn header_counters(group: &Group, inner: usize) -> Line {
    let indent = if counters_width(group) + 2 <= inner {
        "  "
    } else {
        ""
    };
    let mut l = LineBuf::new();
    l.push(indent, Style::Text).extend(&counters(group));
    l.finish()
}

/// `HH:MM` (or a longer date on another day) of `ms`, seen from `now`.
fn when(ms: i64, now: i64) -> String {
    fmt::compact_date(&format_ms(ms), Some(&format_ms(now)))
}

/// Who holds the task and until when, from the viewer's side: its own
/// claim shows its lease, another agent's claim or reservation its name.
fn details(task: &TaskRow, own: bool, now: i64) -> Vec<Span> {
    let mut l = LineBuf::new();
    let lease = |l: &mut LineBuf, exp: Option<i64>| match exp {
        Some(t) if t > now => {
            l.push(format!("until {}", when(t, now)), Style::Muted);
        }
        _ => {
            l.push("lease expired", Style::Warning);
        }
    };
    match (task.status, own) {
        (Status::InProgress, true) => lease(&mut l, task.claim_expires_at),
        (Status::InProgress, false) => {
            let holder = task.claimed_by_agent_id.as_deref().unwrap_or("?");
            l.push(format!("@{} ", fmt::truncate(holder, 20)), Style::Accent);
            lease(&mut l, task.claim_expires_at);
        }
        (Status::Todo, true) => {
            l.push("for you", Style::Muted);
        }
        (status, false) => {
            if let Some(a) = task.assigned_to_agent_id.as_deref() {
                let style = if status == Status::Blocked {
                    Style::Warning
                } else {
                    Style::Muted
                };
                l.push(format!("@{}", fmt::truncate(a, 20)), style);
            }
        }
        _ => {}
    }
    l.finish()
}

/// `  ▶ run     Write the parser  task_…TASK02  until 12:15`: the badge
/// padded to `badge_width` so titles line up, the priority mark before a
/// title that is not medium (`↑ Write the parser`); the viewer's own
/// titles stand out. When the title would be cut short, the short id gives way
/// first (commands need the full id anyway), then the details, which say
/// who holds the task.
pub(crate) fn task(task: &TaskRow, own: bool, now: i64, badge_width: usize, inner: usize) -> Line {
    let badge = fmt::task_badge(task.status.as_str(), task.waits_on).span();
    let pad = badge_width.saturating_sub(fmt::width(&badge.text));
    let id = fmt::short_id(&task.id);
    let mut details = details(task, own, now);
    let width_of = |spans: &[Span]| spans.iter().map(|s| fmt::width(&s.text)).sum::<usize>();
    let mark = fmt::priority(task.priority);
    let mark_width = mark.as_ref().map_or(0, |m| fmt::width(&m.text) + 1);
    let fixed = 2 + badge_width + 2 + mark_width;
    let title_full = fmt::nonblank(&task.title).unwrap_or("(untitled)");
    let wanted = fmt::width(title_full).min(TITLE_WANTED);
    let id_width = 2 + fmt::width(&id);
    let details_width = if details.is_empty() {
        0
    } else {
        2 + width_of(&details)
    };
    let room = |tail: usize| inner.saturating_sub(fixed + tail);
    let show_id = room(id_width + details_width) >= wanted;
    let mut tail = if show_id { id_width } else { 0 } + details_width;
    if room(tail) < wanted.min(TITLE_MIN) && !details.is_empty() {
        tail -= details_width;
        details.clear();
    }
    let title = fmt::truncate(title_full, room(tail).max(TITLE_MIN));
    let mut l = LineBuf::new();
    l.push("  ", Style::Text)
        .push(&badge.text, badge.style)
        .push(" ".repeat(pad + 2), Style::Text);
    if let Some(mark) = mark {
        l.push(mark.text, mark.style).push(" ", Style::Text);
    }
    l.push(title, if own { Style::Strong } else { Style::Text });
    if show_id {
        l.push("  ", Style::Text).push(id, Style::Muted);
    }
    if !details.is_empty() {
        l.push("  ", Style::Text).extend(&details);
    }
    l.finish()
}

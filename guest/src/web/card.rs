//! A task's card, on a board and atop its details: position, status
//! badge, priority, title and labels, who holds it and its lease, who it
//! is reserved for, what it waits for, its notes, outcome and
//! verification, in the words the terminal views use. On a board the
//! card's texts sit in one `.texts` block the stylesheet shows once the
//! card is selected (the card at rest is read at a glance); a closed
//! card's outcome shows at rest too, on one line.

use super::html::{Html, style_class};
use super::read::Dep;
use super::route::encode;
use crate::clock::format_ms;
use crate::model::{Status, TaskRow};
use crate::render::fmt;
use crate::waits::WaitsOn;

/// The address of a task's details.
pub(crate) fn task_href(id: &str) -> String {
    format!("/tasks/{}", encode(id))
}

/// The address of a list's board.
pub(crate) fn list_href(id: &str) -> String {
    format!("/lists/{}", encode(id))
}

/// The address of a list's board showing only the tasks carrying
/// `label`, laid out as `view` asks (`view=order&`, or empty for the
/// default).
pub(crate) fn label_href(list_id: &str, label: &str, view: &str) -> String {
    format!("{}?{view}label={}", list_href(list_id), encode(label))
}

/// A task's labels, small, right after its title: each a link to its
/// list's board showing only the tasks carrying it (`view` as for
/// [`label_href`]). Every label went through the contract's rule when it
/// was stored (ASCII words, nothing to hide), and the builder escapes it
/// again here.
pub(crate) fn labels(h: &mut Html, task: &TaskRow, view: &str) {
    if task.labels.is_empty() {
        return;
    }
    h.open("div", &[("class", "labels")]);
    for (i, label) in task.labels.iter().enumerate() {
        if i > 0 {
            h.text(" ");
        }
        h.elem(
            "a",
            &[
                ("class", "tag"),
                ("data-label", label),
                ("href", &label_href(&task.list_id, label, view)),
            ],
            label,
        );
    }
    h.close("div");
}

/// Opens `<article class="task">` for `task` and writes its head: the
/// caller writes the rest and closes it.
pub(crate) fn open(h: &mut Html, task: &TaskRow, link: bool) {
    // `needs`: it waits on a person (an answer, a review, an approval):
    // a phone shows such cards first.
    let needs = task.waits_on.is_some() || task.awaits_approval;
    let class = format!(
        "task prio-{} st-{}{}",
        task.priority.as_str(),
        task.status.as_str(),
        if needs { " needs" } else { "" }
    );
    h.open(
        "article",
        &[
            ("class", &class),
            ("data-task", &task.id),
            ("data-status", task.status.as_str()),
            ("tabindex", "0"),
        ],
    );
    h.open("div", &[("class", "head")]);
    h.elem("span", &[("class", "pos")], &format!("{}.", task.position));
    let badge = fmt::status(task.status.as_str());
    h.elem(
        "span",
        &[("class", &format!("badge {}", style_class(badge.style)))],
        &badge.span().text,
    );
    if let Some(mark) = fmt::priority(task.priority) {
        h.elem(
            "span",
            &[("class", &format!("prio {}", style_class(mark.style)))],
            &format!("{} {}", mark.text, task.priority),
        );
    }
    let title = fmt::nonblank(&task.title).unwrap_or("(untitled)");
    if link {
        h.open("a", &[("href", &task_href(&task.id))])
            .elem("span", &[("class", "title")], title)
            .close("a");
    } else {
        h.elem("span", &[("class", "title")], title);
    }
    h.close("div");
}

/// Who holds `task` and until when, who it is reserved for, and whether
/// it awaits approval.
pub(crate) fn holders(h: &mut Html, task: &TaskRow, now: i64) {
    let mut any = false;
    let mut item = |h: &mut Html, class: &'static str, text: &str| {
        if !any {
            h.open("div", &[("class", "meta")]);
            any = true;
        }
        h.elem("span", &[("class", class)], text);
    };
    if task.status == Status::InProgress
        && let Some(c) = task.claimed_by_agent_id.as_deref().and_then(fmt::nonblank)
    {
        item(h, "claimer s-accent", &format!("@{c}"));
        match task.claim_expires_at {
            Some(at) if at > now => item(
                h,
                "lease s-muted",
                &format!(
                    "until {}",
                    fmt::compact_date(&format_ms(at), Some(&format_ms(now)))
                ),
            ),
            _ => item(h, "lease expired s-warning", "lease expired"),
        }
    }
    if let Some(a) = task.assigned_to_agent_id.as_deref().and_then(fmt::nonblank) {
        item(h, "assignee s-muted", &format!("→{a}"));
    }
    if task.awaits_approval {
        item(h, "wait s-warning", "⏳ awaits approval");
    }
    if any {
        h.close("div");
    }
}

/// `after #2 Title, #3 Other` (open ones marked), or nothing.
pub(crate) fn deps(h: &mut Html, label: &str, deps: &[Dep]) {
    if deps.is_empty() {
        return;
    }
    h.open("div", &[("class", "deps")]);
    h.elem("span", &[("class", "label")], label);
    for d in deps {
        let class = if d.open { "dep open" } else { "dep closed" };
        let text = if d.title.is_empty() {
            fmt::short_id(&d.id)
        } else {
            format!("#{} {}", d.position, fmt::truncate(&d.title, 60))
        };
        h.text(" ")
            .elem("a", &[("class", class), ("href", &task_href(&d.id))], &text);
    }
    h.close("div");
}

/// A task's refs: an `https://` ref is a link (opened without telling
/// the other site who sent it: `noopener noreferrer`), any other scheme
/// text. Every ref went through the contract's rule when it was stored,
/// and the builder escapes it again here.
pub(crate) fn refs(h: &mut Html, refs: &[String]) {
    if refs.is_empty() {
        return;
    }
    h.open("div", &[("class", "refs")]);
    h.elem("span", &[("class", "label")], "refs:");
    for r in refs {
        h.text(" ");
        let shown = fmt::truncate(r, 80);
        if crate::contract::refs::is_link(r) {
            h.elem(
                "a",
                &[
                    ("class", "ref"),
                    ("href", r),
                    ("rel", "noopener noreferrer"),
                    ("target", "_blank"),
                ],
                &shown,
            );
        } else {
            h.elem("span", &[("class", "ref")], &shown);
        }
    }
    h.close("div");
}

/// A card's texts, in one `.texts` block (on a board, shown once the
/// card is selected; a closed card's outcome at rest too): notes (how many
/// lines, the last), outcome, verification and its result (the outcome
/// and result of a finish in review are the wait's: `wait.rs`), each as
/// written, its lines kept; then its refs. Nothing when it has none.
pub(crate) fn texts(h: &mut Html, task: &TaskRow, note_lines: i64) {
    let mut shown: Vec<(&'static str, String, &str)> = Vec::new();
    if note_lines > 0
        && let Some(last) = task
            .notes
            .as_deref()
            .and_then(|n| n.lines().rev().find(|l| !l.trim().is_empty()))
    {
        let label = format!("notes ({}):", crate::text::plural(note_lines, "line"));
        shown.push(("notes", label, last));
    }
    // A finish in review shows its outcome and result with the wait.
    let in_review = task.waits_on == Some(WaitsOn::Review);
    for (class, label, text, on) in [
        ("outcome", "outcome:", &task.outcome, !in_review),
        ("verification", "verification:", &task.verification, true),
        (
            "verification-result",
            "verification result:",
            &task.verification_result,
            !in_review,
        ),
    ] {
        if let Some(text) = fmt::opt(text).filter(|_| on) {
            shown.push((class, label.to_string(), text));
        }
    }
    if shown.is_empty() && task.refs.is_empty() {
        return;
    }
    h.open("div", &[("class", "texts")]);
    for (class, label, text) in shown {
        field(h, class, &label, text);
    }
    refs(h, &task.refs);
    h.close("div");
}

/// The most characters of one text a card shows (the task's page shows
/// it all).
const TEXT_CHARS: usize = 600;

/// One of a card's texts under its label, as written (its lines kept,
/// cut after [`TEXT_CHARS`]).
fn field(h: &mut Html, class: &'static str, label: &str, text: &str) {
    h.open("div", &[("class", class)])
        .elem("span", &[("class", "label")], label)
        .text(" ")
        .open("span", &[("class", "text")])
        .multiline(&cut(text.trim(), TEXT_CHARS))
        .close("span")
        .close("div");
}

/// `text` cut after `max` characters with a trailing `…`, its lines kept.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", text[..at].trim_end()),
        None => text.to_string(),
    }
}

/// The earliest lease expiry after `now` among `tasks`.
pub(crate) fn next_expiry<'a>(tasks: impl Iterator<Item = &'a TaskRow>, now: i64) -> Option<i64> {
    tasks
        .filter(|t| t.status == Status::InProgress)
        .filter_map(|t| t.claim_expires_at)
        .filter(|at| *at > now)
        .min()
}

//! The inbox atop the overview: what needs the person, in the order the
//! component computes it for every surface (`views::inbox`): each entry's
//! kind, its task (or plan) linked, its list, its agent, what it says and
//! since when, and the forms of the verbs that settle it.

use super::card::{list_href, task_href};
use super::forms;
use super::html::{Html, style_class};
use crate::clock::{format_ms, parse_rfc3339};
use crate::person::dashboard::board::Entry as ListEntry;
use crate::render::fmt;
use crate::views::inbox::{self, Entry, Inbox, Kind};

/// Characters of what an entry says that the overview shows (a question
/// or a reason is at most 2,000: whole).
const SAID: usize = 2_000;

/// The inbox's section: its heading with the count (or that nothing needs
/// the person), then its entries; with `can_act`, each with its forms.
/// `lists` are the overview's own, for a plan's approval state.
pub(crate) fn section(
    h: &mut Html,
    inbox: &Inbox,
    lists: &[ListEntry],
    now: i64,
    can_act: bool,
    ret: &str,
) {
    h.open(
        "section",
        &[
            ("class", "inbox"),
            ("aria-labelledby", "inbox-title"),
            ("data-count", &inbox.count.to_string()),
        ],
    );
    h.open("h2", &[("id", "inbox-title")]);
    for span in inbox::heading(inbox) {
        h.elem("span", &[("class", style_class(span.style))], &span.text);
    }
    h.close("h2");
    for e in &inbox.entries {
        entry(h, e, lists, now, can_act, ret);
    }
    if inbox.count > inbox.entries.len() {
        h.elem(
            "p",
            &[("class", "more s-muted")],
            &format!("… {} more", inbox.count - inbox.entries.len()),
        );
    }
    h.close("section");
}

/// One entry: `<article class="entry">` with the `data-task` (or, for a
/// plan, the `data-list` and `data-approval`) and the `data-status` its
/// card has, so the keys and the question asked first treat it as its
/// card.
fn entry(h: &mut Html, e: &Entry, lists: &[ListEntry], now: i64, can_act: bool, ret: &str) {
    let kind = kind_name(e.kind);
    let class = format!("entry kind-{kind}");
    let mut attrs = vec![
        ("class", class.as_str()),
        ("data-entry", e.key.as_str()),
        ("data-kind", kind),
    ];
    let plan = e.kind == Kind::Approval;
    let approval = lists
        .iter()
        .find(|l| l.list.id == e.list_id)
        .map(super::list::approval_word);
    match (plan, e.task_id.as_deref()) {
        (false, Some(task)) => {
            attrs.push(("data-task", task));
            attrs.push(("data-status", status_of(e.kind)));
        }
        _ => {
            attrs.push(("data-list", e.list_id.as_str()));
            if let Some(a) = approval {
                attrs.push(("data-approval", a));
            }
        }
    }
    attrs.push(("tabindex", "0"));
    h.open("article", &attrs);
    h.open("div", &[("class", "head")]);
    let style = match e.kind {
        Kind::Approval | Kind::Question | Kind::Review => "s-warning",
        Kind::Stalled | Kind::FailedCheck => "s-error",
    };
    h.elem(
        "span",
        &[("class", &format!("badge {style}"))],
        e.kind.word(),
    );
    let href = match (plan, e.task_id.as_deref()) {
        (false, Some(task)) => task_href(task),
        _ => list_href(&e.list_id),
    };
    let title = fmt::nonblank(&e.title).unwrap_or("(untitled)");
    h.open("a", &[("href", &href)])
        .elem("span", &[("class", "title")], title)
        .close("a");
    h.close("div");
    h.open("div", &[("class", "meta")]);
    if !plan {
        h.open("a", &[("class", "list"), ("href", &list_href(&e.list_id))])
            .text(fmt::nonblank(&e.list).unwrap_or("(unnamed)"))
            .close("a");
    }
    if let Some(agent) = e.agent.as_deref().and_then(fmt::nonblank) {
        h.elem("span", &[("class", "agent s-accent")], &format!("@{agent}"));
    }
    if let Some(at) = parse_rfc3339(&e.since) {
        h.elem(
            "time",
            &[
                ("datetime", &e.since),
                ("title", &fmt::date(&format_ms(at))),
            ],
            &ago((now - at) / 1000),
        );
    }
    h.close("div");
    if let Some(said) = fmt::nonblank(&e.said) {
        h.open("div", &[("class", "said")])
            .multiline(&fmt::truncate(said, SAID))
            .close("div");
    }
    if can_act {
        forms::entry_actions(h, e, ret);
    }
    h.close("article");
}

/// The entry's kind as `data-kind` and its class name it.
fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Approval => "approval",
        Kind::Question => "question",
        Kind::Review => "review",
        Kind::Stalled => "stalled",
        Kind::FailedCheck => "failed_check",
    }
}

/// The status a task stands in while it is an entry of `kind`: waiting
/// on a person or paused after its check, blocked; stalled, running.
fn status_of(kind: Kind) -> &'static str {
    match kind {
        Kind::Stalled => "in_progress",
        _ => "blocked",
    }
}

/// How long ago, to the minute (the page is redrawn on a change, not by
/// the second): `just now`, `5m ago`, `2h ago`, `1d3h ago`.
fn ago(secs: i64) -> String {
    if secs < 60 {
        return "just now".into();
    }
    let rounded = if secs < 86_400 {
        secs - secs % 60
    } else {
        secs - secs % 3600
    };
    format!("{} ago", fmt::duration(rounded))
}

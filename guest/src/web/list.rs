//! A list summed up, as the dashboard says it: its counters, its approval
//! state (who decided and when, the note or reason) and what changed
//! since, its scope. On the overview as an entry, atop its pages as a
//! header with its decision forms and links.

use super::card::list_href;
use super::filter::Filter;
use super::forms;
use super::html::{Html, style_class};
use crate::model::Approval;
use crate::person::dashboard::board::Entry;
use crate::person::dashboard::layout::approval_spans;
use crate::render::{Span, fmt};

/// The list's approval as `data-approval` says it.
pub(crate) fn approval_word(entry: &Entry) -> &'static str {
    entry.list.approval.map_or("none", Approval::as_str)
}

/// The list's name as shown.
pub(crate) fn name(entry: &Entry) -> &str {
    fmt::nonblank(&entry.list.name).unwrap_or("(unnamed)")
}

/// Styled spans, each its own `<span>`.
fn spans(h: &mut Html, spans: &[Span]) {
    for s in spans {
        h.elem("span", &[("class", style_class(s.style))], &s.text);
    }
}

/// The counters, the approval in full (who, when, the note or reason)
/// and the scope.
fn about(h: &mut Html, entry: &Entry) {
    h.open("div", &[("class", "counters")]);
    spans(h, &fmt::counters(&entry.list.counts));
    h.close("div");
    let approval = approval_spans(entry, true);
    if !approval.is_empty() {
        h.open("div", &[("class", "approval")]);
        for s in &approval {
            h.elem("span", &[("class", style_class(s.style))], &s.text);
        }
        h.close("div");
    }
    let scope = fmt::scope_of(Some(&entry.list.scope_type), Some(&entry.list.scope_key));
    h.open("div", &[("class", "scope s-muted")]);
    h.text(&scope);
    if let Some(v) = fmt::visibility(entry.list.visibility.as_str()) {
        h.text(" · ").text(&v.text);
    }
    h.close("div");
}

/// An entry of the overview: `<article class="list">` with its name
/// linked, its summary, and Approve/Reject when a decision is awaited.
pub(crate) fn entry(h: &mut Html, entry: &Entry, can_act: bool, ret: &str) {
    let list = &entry.list;
    h.open(
        "article",
        &[
            ("class", "list"),
            ("data-list", &list.id),
            ("data-approval", approval_word(entry)),
            ("tabindex", "0"),
        ],
    );
    h.elem(
        "a",
        &[("class", "name"), ("href", &list_href(&list.id))],
        name(entry),
    );
    about(h, entry);
    if can_act && entry.awaits_approval() {
        forms::list_decision(h, list, true, ret);
    }
    h.close("article");
}

/// Which page of a list is shown (for the header's links).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shown {
    /// The columns view of the board.
    Columns,
    /// The order view of the board.
    Order,
    /// A task of it.
    Task,
    /// Its audit timeline.
    Audit,
}

/// The header of a list's page: name and id, summary with the approval
/// in full, decision and add forms, and the links between its views
/// (the board's two keeping its search and filters, if any).
pub(crate) fn header(
    h: &mut Html,
    entry: &Entry,
    shown: Shown,
    filter: Option<&Filter>,
    can_act: bool,
    ret: &str,
) {
    let list = &entry.list;
    h.open(
        "header",
        &[
            ("class", "list-head"),
            ("data-list", &list.id),
            ("data-approval", approval_word(entry)),
        ],
    );
    h.open("h1", &[]);
    h.elem(
        "a",
        &[("class", "name"), ("href", &list_href(&list.id))],
        name(entry),
    );
    h.text(" ")
        .elem("span", &[("class", "id s-muted")], &list.id);
    h.close("h1");
    about(h, entry);
    h.open("nav", &[("class", "views")]);
    let base = list_href(&list.id);
    let filter = filter
        .map(Filter::query)
        .filter(|q| !q.is_empty())
        .map(|q| format!("&{q}"))
        .unwrap_or_default();
    for (name, href, is) in [
        (
            "columns",
            format!("{base}?view=columns{filter}"),
            Shown::Columns,
        ),
        ("order", format!("{base}?view=order{filter}"), Shown::Order),
        ("audit", format!("{base}/audit"), Shown::Audit),
    ] {
        if is == shown {
            h.elem("a", &[("href", &href), ("aria-current", "page")], name);
        } else {
            h.elem("a", &[("href", &href)], name);
        }
    }
    h.close("nav");
    if can_act {
        forms::list_decision(h, list, entry.awaits_approval(), ret);
        if matches!(shown, Shown::Columns | Shown::Order) {
            forms::add_task(h, &list.id, ret);
        }
    }
    h.close("header");
}

//! The search form atop a board and the overview: a GET form, so the
//! address keeps what is searched (a reload, a link, the live refresh
//! all keep it), with the search box (`/` or Ctrl/⌘K focus it: find.js),
//! the filters' choices, and, while anything is filtered, the way to
//! clear it. What each filter means is `filter.rs`.

use super::filter::{COLUMN_STATUSES, Filter, STATUSES};
use super::html::Html;
use crate::model::Priority;

/// What a board's filters may pick from: the agents its tasks are
/// assigned to or held by, and the labels they carry (the overview,
/// across lists, asks for them as text).
#[derive(Debug, Clone, Default)]
pub(crate) struct Choices {
    /// Agent ids, sorted.
    pub agents: Vec<String>,
    /// Labels, sorted.
    pub labels: Vec<String>,
}

/// The form, sent to `action` with `keep` (the view's own fields, which
/// the search does not change) as hidden fields; with `choices`, the
/// assignee and label are picked from them, else typed.
pub(crate) fn form(
    h: &mut Html,
    action: &str,
    keep: &[(&'static str, &str)],
    filter: &Filter,
    choices: Option<&Choices>,
) {
    h.open(
        "form",
        &[
            ("class", "find"),
            ("method", "get"),
            ("action", action),
            ("role", "search"),
        ],
    );
    for (name, value) in keep {
        h.void(
            "input",
            &[("type", "hidden"), ("name", name), ("value", value)],
        );
    }
    h.void(
        "input",
        &[
            ("type", "search"),
            ("name", "q"),
            ("value", &filter.q),
            ("placeholder", "search title, description, notes, outcome"),
            ("aria-label", "search the tasks' texts"),
            ("aria-keyshortcuts", "/ Control+K Meta+K"),
            ("autocomplete", "off"),
        ],
    );
    let agent = filter.assignee.as_deref().unwrap_or("");
    let label = filter.label.as_deref().unwrap_or("");
    match choices {
        Some(c) => {
            pick(
                h,
                "assignee",
                "any agent",
                &with(&c.agents, agent),
                agent,
                |a| format!("@{a}"),
            );
            pick(
                h,
                "label",
                "any label",
                &with(&c.labels, label),
                label,
                str::to_string,
            );
        }
        None => {
            typed(h, "assignee", "agent", agent);
            typed(h, "label", "label", label);
        }
    }
    let priorities: Vec<String> = Priority::ALL
        .iter()
        .map(|p| p.as_str().to_string())
        .collect();
    let priority = filter.priority.map_or("", Priority::as_str);
    pick(h, "priority", "any priority", &priorities, priority, |p| {
        format!("{p} priority")
    });
    let mut statuses: Vec<String> = STATUSES[..COLUMN_STATUSES]
        .iter()
        .map(|(n, _)| (*n).to_string())
        .collect();
    let status = filter.status.unwrap_or("");
    if !status.is_empty() && !statuses.iter().any(|s| s == status) {
        statuses.push(status.to_string());
    }
    pick(h, "status", "any status", &statuses, status, str::to_string);
    check(h, "running", "running now", filter.running);
    check(h, "needs", "needs a person", filter.needs);
    h.elem("button", &[("type", "submit")], "search");
    h.close("form");
}

/// `all` with `current` among them (a filter the address names that no
/// task carries any more still shows as picked).
fn with(all: &[String], current: &str) -> Vec<String> {
    let mut out = all.to_vec();
    if !current.is_empty() && !out.iter().any(|v| v == current) {
        out.push(current.to_string());
        out.sort();
    }
    out
}

/// A `<select>` of `values` (shown as `show` says) after `any` (no filter).
fn pick(
    h: &mut Html,
    name: &'static str,
    any: &str,
    values: &[String],
    current: &str,
    show: impl Fn(&str) -> String,
) {
    let label = format!("filter by {name}");
    h.open(
        "select",
        &[("name", name), ("aria-label", &label), ("class", name)],
    );
    option(h, "", any, current.is_empty());
    for v in values {
        option(h, v, &show(v), v == current);
    }
    h.close("select");
}

fn option(h: &mut Html, value: &str, text: &str, selected: bool) {
    if selected {
        h.elem(
            "option",
            &[("value", value), ("selected", "selected")],
            text,
        );
    } else {
        h.elem("option", &[("value", value)], text);
    }
}

/// A text field for a filter picked by name across lists.
fn typed(h: &mut Html, name: &'static str, what: &str, value: &str) {
    let label = format!("filter by {name}");
    h.void(
        "input",
        &[
            ("type", "text"),
            ("name", name),
            ("value", value),
            ("placeholder", what),
            ("aria-label", &label),
            ("class", name),
            ("autocomplete", "off"),
        ],
    );
}

/// A checkbox sending `name=1`.
fn check(h: &mut Html, name: &'static str, text: &str, on: bool) {
    h.open("label", &[("class", name)]);
    let mut attrs = vec![("type", "checkbox"), ("name", name), ("value", "1")];
    if on {
        attrs.push(("checked", "checked"));
    }
    h.void("input", &attrs);
    h.text(" ").text(text);
    h.close("label");
}

/// The note of a filtered page: what it shows (`shown` of `total`, `more`
/// when the page was cut), and the link that clears every filter.
pub(crate) fn note(
    h: &mut Html,
    filter: &Filter,
    shown: usize,
    more: bool,
    total: Option<i64>,
    clear: &str,
) {
    let mut attrs = vec![("class", "filter")];
    if let Some(l) = &filter.label {
        attrs.push(("data-label", l.as_str()));
    }
    h.open("p", &attrs);
    h.text("showing only the tasks ");
    for (i, phrase) in filter.phrases().iter().enumerate() {
        if i > 0 {
            h.text(", ");
        }
        // The label as its tag, as the cards show it.
        match (&filter.label, phrase.strip_prefix("labeled ")) {
            (Some(l), Some(rest)) if rest == l => {
                h.text("labeled ").elem("span", &[("class", "tag")], l);
            }
            _ => {
                h.text(phrase);
            }
        }
    }
    let plus = if more { "+" } else { "" };
    let count = match total {
        Some(total) => format!(" ({shown}{plus} of {})", crate::text::plural(total, "task")),
        None => format!(" ({}{plus})", crate::text::plural(shown as i64, "task")),
    };
    h.text(&count).text(" · ");
    h.elem(
        "a",
        &[("class", "clear"), ("href", clear)],
        "show every task",
    );
    h.close("p");
}

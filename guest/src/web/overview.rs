//! `GET /`: headed by the person's inbox (what needs them, with its
//! forms), then the search form, then the lists the context sees, those
//! awaiting a person's decision first in their own section, each with its
//! counters, approval state and scope. With a search or a filter, the
//! tasks it finds across those lists, grouped by list, take the lists'
//! place.

use super::board;
use super::card;
use super::filter::Filter;
use super::find;
use super::html::Html;
use super::inbox;
use super::list;
use super::page::Page;
use super::read::{Found, Overview};

/// The overview's page: `found`, what `filter` found, when it filters.
pub(crate) fn page(
    overview: &Overview,
    filter: &Filter,
    found: Option<&Found>,
    can_act: bool,
    ret: &str,
) -> Page {
    let mut h = Html::new();
    inbox::section(
        &mut h,
        &overview.inbox,
        &overview.lists,
        overview.now,
        can_act,
        ret,
    );
    find::form(&mut h, "/", &[], filter, None);
    if let Some(found) = found {
        results(&mut h, filter, found);
        return Page {
            title: "Tasks".into(),
            refresh_at: card::next_expiry(
                found
                    .groups
                    .iter()
                    .flat_map(|(_, c)| c.iter().map(|c| &c.task)),
                found.now,
            ),
            main: h,
        };
    }
    let (awaiting, rest): (Vec<_>, Vec<_>) =
        overview.lists.iter().partition(|e| e.awaits_approval());
    if overview.lists.is_empty() {
        h.elem("p", &[("class", "empty s-muted")], "no lists here yet");
    }
    for (class, heading, entries) in [
        ("awaiting", "Awaiting approval", &awaiting),
        ("lists", "Lists", &rest),
    ] {
        if entries.is_empty() {
            continue;
        }
        h.open("section", &[("class", class)]);
        h.elem("h2", &[], heading);
        for e in entries.iter() {
            list::entry(&mut h, e, can_act, ret);
        }
        h.close("section");
    }
    if overview.more {
        h.elem(
            "p",
            &[("class", "more s-muted")],
            &format!(
                "only the {} most recently updated lists are shown",
                crate::views::visible::MAX_LISTS
            ),
        );
    }
    Page {
        title: "Tasks".into(),
        main: h,
        refresh_at: None,
    }
}

/// What a search found across lists: the note (how many, the way back),
/// then each list's matching tasks under its name, which links to its
/// board searched the same way.
fn results(h: &mut Html, filter: &Filter, found: &Found) {
    let shown: usize = found.groups.iter().map(|(_, c)| c.len()).sum();
    find::note(h, filter, shown, found.more, None, "/");
    h.open("section", &[("class", "found")]);
    h.elem("h2", &[], "Found");
    if found.groups.is_empty() {
        h.elem(
            "p",
            &[("class", "empty s-muted")],
            "no task of the lists you may see matches what is searched: clear a filter or search other words",
        );
    }
    let query = filter.query();
    // A card's label links keep the other filters, on its list's board.
    let others = filter.query_without_label();
    let prefix = if others.is_empty() {
        String::new()
    } else {
        format!("{others}&")
    };
    for (list, cards) in &found.groups {
        h.open(
            "section",
            &[("class", "found-list"), ("data-list", &list.id)],
        );
        let name = crate::render::fmt::nonblank(&list.name).unwrap_or("(unnamed)");
        h.open("h3", &[]);
        h.elem(
            "a",
            &[
                ("class", "name"),
                ("href", &format!("{}?{query}", card::list_href(&list.id))),
            ],
            name,
        );
        h.text(" ").elem(
            "span",
            &[("class", "count s-muted")],
            &cards.len().to_string(),
        );
        h.close("h3");
        for c in cards {
            board::write_card(h, c, found.now, &prefix);
        }
        h.close("section");
    }
    h.close("section");
    if found.more {
        h.elem(
            "p",
            &[("class", "more s-muted")],
            &format!(
                "only the first {} tasks found are shown: search more words to narrow it",
                super::read::MAX_TASKS
            ),
        );
    }
}

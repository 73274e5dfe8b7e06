//! `GET /`: headed by the person's inbox (what needs them, with its
//! forms), then the lists the context sees, those awaiting a person's
//! decision first in their own section, each with its counters, approval
//! state and scope.

use super::html::Html;
use super::inbox;
use super::list;
use super::page::Page;
use super::read::Overview;

/// The overview's page.
pub(crate) fn page(overview: &Overview, can_act: bool, ret: &str) -> Page {
    let mut h = Html::new();
    inbox::section(
        &mut h,
        &overview.inbox,
        &overview.lists,
        overview.now,
        can_act,
        ret,
    );
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

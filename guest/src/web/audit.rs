//! `GET /lists/{id}/audit`: a list's audit timeline, newest first, a page
//! at a time (`?before=<seq>` for the older ones).

use super::card::list_href;
use super::html::Html;
use super::list::{self, Shown};
use super::page::Page;
use super::read::Audit;
use super::timeline;

/// The audit page.
pub(crate) fn page(audit: &Audit, can_act: bool, ret: &str) -> Page {
    let mut h = Html::new();
    list::header(&mut h, &audit.entry, Shown::Audit, None, can_act, ret);
    h.open("section", &[("class", "audit")]);
    h.elem("h2", &[], "Audit");
    let base = format!("{}/audit", list_href(&audit.entry.list.id));
    timeline::write(&mut h, &audit.events, Some(&base));
    h.close("section");
    Page {
        title: format!("{} · audit", list::name(&audit.entry)),
        main: h,
        refresh_at: None,
    }
}

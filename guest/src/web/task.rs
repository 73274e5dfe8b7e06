//! `GET /tasks/{id}`: a task's details: its card (its labels linking to
//! the board filtered by each), every field (the long texts whole), what it waits for and what waits for it, its newest
//! audit events, a form for every action that applies, and one editing
//! every field.

use super::card;
use super::edit_form;
use super::forms;
use super::html::Html;
use super::list::{self, Shown};
use super::page::Page;
use super::read::Detail;
use super::suggest::Suggestions;
use super::timeline;
use super::wait;
use crate::clock::format_ms;
use crate::render::fmt;

/// The details page.
pub(crate) fn page(d: &Detail, s: &Suggestions, can_act: bool, ret: &str) -> Page {
    let mut h = Html::new();
    list::header(&mut h, &d.entry, Shown::Task, None, can_act, ret);
    let t = &d.task;
    card::open(&mut h, t, false);
    card::labels(&mut h, t, "");
    card::holders(&mut h, t, d.now);
    wait::write(&mut h, t, d.now, true);
    h.open("dl", &[("class", "fields")]);
    for (label, text) in [
        ("description", &t.description),
        ("notes", &t.notes),
        ("outcome", &t.outcome),
        ("verification", &t.verification),
        ("verification result", &t.verification_result),
    ] {
        if let Some(text) = fmt::opt(text) {
            h.elem("dt", &[], label);
            h.open("dd", &[("class", "text")])
                .multiline(text)
                .close("dd");
        }
    }
    let times = [
        ("created", Some(t.created_at)),
        ("started", t.started_at),
        ("updated", Some(t.updated_at)),
        ("closed", t.completed_at),
    ];
    for (label, at) in times {
        if let Some(at) = at {
            h.elem("dt", &[], label);
            h.elem("dd", &[], &fmt::date(&format_ms(at)));
        }
    }
    if let Some(ms) = t.lease_ms.filter(|_| t.claimed_by_agent_id.is_some()) {
        h.elem("dt", &[], "lease");
        h.elem("dd", &[], &fmt::duration(ms / 1000));
    }
    h.elem("dt", &[], "id");
    h.elem("dd", &[("class", "id")], &t.id);
    h.close("dl");
    card::refs(&mut h, &t.refs);
    card::deps(&mut h, "after", &d.deps);
    card::deps(&mut h, "needed by", &d.dependents);
    if can_act {
        forms::task_actions(&mut h, t, ret, true);
        // Under an agent's running claim only release and move apply.
        if t.status != crate::model::Status::InProgress {
            edit_form::edit(&mut h, t, &d.deps, s, ret);
        }
    }
    h.close("article");
    h.open("section", &[("class", "audit")]);
    h.elem("h2", &[], "Audit");
    timeline::write(&mut h, &d.events, None);
    h.close("section");
    Page {
        title: fmt::nonblank(&t.title).unwrap_or("(untitled)").to_string(),
        refresh_at: card::next_expiry(std::iter::once(t), d.now),
        main: h,
    }
}

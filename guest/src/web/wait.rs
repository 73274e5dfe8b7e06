//! What a task waits on a person for, and how the last exchange went, on
//! its card and its page: the question asked (and the answer once given,
//! who gave it and when), the finish waiting for review with its outcome,
//! the reason a returned task came back, an acceptance. The person reading
//! the board is the one it waits for: "your answer", "your review".

use super::html::Html;
use crate::clock::format_ms;
use crate::model::TaskRow;
use crate::render::fmt;
use crate::waits::{ReviewState, WaitsOn};

/// Characters of a said text a card shows (one line of it).
const CARD: usize = 200;

/// The wait and the last exchange of `task`, as of `now`: all of each
/// text on its `whole` page; one line each on a card, and there only
/// while it concerns what is still open (an answer, a return).
pub(crate) fn write(h: &mut Html, task: &TaskRow, now: i64, whole: bool) {
    let now = format_ms(now);
    let when = |at: &str| fmt::compact_date(at, Some(&now));
    let open = !task.is_closed();
    if let Some(ask) = &task.ask {
        if task.waits_on == Some(WaitsOn::Answer) {
            block(h, "wait waits-answer", |h| {
                h.elem(
                    "strong",
                    &[("class", "s-warning")],
                    "⏳ waits for your answer",
                )
                .elem(
                    "span",
                    &[("class", "by s-muted")],
                    &format!("asked by @{} {}", ask.by, when(&ask.at)),
                );
            });
            said(h, "asked", "question:", &ask.question, whole);
        } else if let Some(answer) = ask.answer.as_deref().filter(|_| whole || open) {
            block(h, "wait answered", |h| {
                h.elem("strong", &[("class", "s-success")], "answered")
                    .elem(
                        "span",
                        &[("class", "by s-muted")],
                        &format!(
                            "by @{} {}",
                            ask.answered_by.as_deref().unwrap_or_default(),
                            when(ask.answered_at.as_deref().unwrap_or_default())
                        ),
                    );
            });
            said(
                h,
                "asked",
                &format!("@{} asked:", ask.by),
                &ask.question,
                whole,
            );
            said(h, "answer", "answer:", answer, whole);
        }
    }
    let Some(review) = &task.review else {
        return;
    };
    if task.waits_on == Some(WaitsOn::Review) {
        block(h, "wait waits-review", |h| {
            h.elem(
                "strong",
                &[("class", "s-warning")],
                "⏳ waits for your review",
            )
            .elem(
                "span",
                &[("class", "by s-muted")],
                &format!(
                    "finished by @{} {}",
                    review.submitted_by,
                    when(&review.submitted_at)
                ),
            );
        });
        if let Some(outcome) = fmt::opt(&task.outcome) {
            said(h, "outcome", "outcome:", outcome, whole);
        }
        if let Some(result) = fmt::opt(&task.verification_result) {
            said(
                h,
                "verification-result",
                "verification result:",
                result,
                whole,
            );
        }
        return;
    }
    let by = format!(
        "by @{} {}",
        review.by.as_deref().unwrap_or_default(),
        when(review.at.as_deref().unwrap_or_default())
    );
    match review.state {
        ReviewState::Returned if whole || open => {
            block(h, "wait returned", |h| {
                h.elem("strong", &[("class", "s-warning")], "↩ returned")
                    .elem("span", &[("class", "by s-muted")], &by);
            });
            let reason = review.reason.as_deref().unwrap_or_default();
            said(h, "reason", "reason:", reason, whole);
        }
        ReviewState::Accepted if whole => {
            block(h, "wait accepted", |h| {
                h.elem("strong", &[("class", "s-success")], "✓ accepted")
                    .elem("span", &[("class", "by s-muted")], &by);
            });
        }
        _ => {}
    }
}

/// `<div class="{class}">` around what `inner` writes.
fn block(h: &mut Html, class: &'static str, inner: impl FnOnce(&mut Html)) {
    h.open("div", &[("class", class)]);
    inner(h);
    h.close("div");
}

/// A said text under its label: whole (its lines kept) or one line cut.
fn said(h: &mut Html, class: &'static str, label: &str, text: &str, whole: bool) {
    h.open("div", &[("class", class)])
        .elem("span", &[("class", "label")], label)
        .text(" ");
    if whole {
        h.open("span", &[("class", "text")])
            .multiline(text)
            .close("span");
    } else {
        h.text(&fmt::truncate(&fmt::one_line(text), CARD));
    }
    h.close("div");
}

//! The page that asks a person to confirm a sign-in link another site sent
//! their browser to. Following such a link silently would let any page the
//! person visits sign their browser in as someone else (whose token that
//! page holds), so that what they then do on the board is done under
//! another name. The page's button sends the same link again, now from the
//! board's own page, which the host takes as the person's own click.

use super::html::Html;
use super::refusal::bare;
use super::route;
use crate::bindings::{SignInLink, WebResponse};

/// The confirmation page of `link`.
pub(crate) fn confirm(link: &SignInLink) -> WebResponse {
    let holder = format!("@{}", link.holder);
    let (heading, says) = match &link.current {
        Some(current) if *current == link.holder => (
            format!("Sign in again as {holder}?"),
            format!(
                "Another page sent you to the board with a sign-in link for {holder}, whom you are signed in as already."
            ),
        ),
        Some(current) => (
            format!("Switch to {holder}?"),
            format!(
                "Another page sent you to the board with a sign-in link for {holder}. You are signed in as @{current}: what you do after switching is done as {holder}."
            ),
        ),
        None => (
            format!("Sign in as {holder}?"),
            format!(
                "Another page sent you to the board with a sign-in link for {holder}. Sign in only if you meant to open it."
            ),
        ),
    };
    // The same link, sent from this page: a plain form whose fields are
    // the link's query (the token among them).
    let mut form = Html::new();
    let path = if link.path.starts_with('/') {
        link.path.as_str()
    } else {
        "/"
    };
    form.open("form", &[("method", "get"), ("action", path)]);
    for (name, value) in route::query(&link.query).0 {
        form.void(
            "input",
            &[("type", "hidden"), ("name", &name), ("value", &value)],
        );
    }
    form.elem(
        "button",
        &[("type", "submit")],
        &format!("Sign in as {holder}"),
    );
    form.close("form");
    let stay = match &link.current {
        Some(current) => format!("Stay @{current}"),
        None => "Do not sign in".to_string(),
    };
    form.open("p", &[]);
    form.elem("a", &[("href", "/")], &stay);
    form.close("p");
    bare(200, &heading, &[&says], &form)
}

//! The pages of requests the host refused before they reached the board:
//! why, and what to do. They read no store.

use super::html::Html;
use super::page::{self, HTML};
use crate::bindings::{WebRefusal, WebResponse};

/// The answer to a refused request.
pub(crate) fn answer(why: WebRefusal) -> WebResponse {
    let (status, heading, says, todo) = match why {
        WebRefusal::Unauthenticated => (
            401,
            "Sign in to the board",
            "This board needs its token: the request carried none, or one the server does not know.",
            "Open the address `tasklists serve` printed (it ends in ?token=…), or ask whoever runs the board for a token.",
        ),
        WebRefusal::WrongHost => (
            421,
            "Wrong address",
            "The board does not answer for the host name this request was sent to.",
            "Open it by the address `tasklists serve` printed; to reach it by another name, start it with --allow-host NAME.",
        ),
        WebRefusal::CrossOrigin => (
            403,
            "Refused: sent from another page",
            "A change to the board must come from the board's own pages; this one came from another site, or did not say where it came from.",
            "Reload the board and act from its own page.",
        ),
        WebRefusal::TooLarge => (
            413,
            "Too large",
            "The request is larger than the board accepts.",
            "Shorten the text and send it again.",
        ),
        WebRefusal::Busy => (
            503,
            "Busy",
            "The board is busy with other requests.",
            "Try again in a moment.",
        ),
        WebRefusal::AgentToken => (
            403,
            "Refused: an agent's token",
            "This token belongs to an agent: it may call the tools at /mcp, not open the board or take a person's actions.",
            "A person signs in with a person's token: `tasklists token add NAME --person`.",
        ),
        WebRefusal::TooMany => (
            429,
            "Too many requests",
            "This token already has as many requests in progress as one holder may.",
            "Wait for an answer, then send the next request.",
        ),
        WebRefusal::TooSlow => (
            408,
            "Too slow",
            "The request's headers or body did not arrive in time.",
            "Send the request again, whole.",
        ),
        WebRefusal::NoAgent => (
            403,
            "Refused: the board's own token names no agent",
            "The token `tasklists serve` printed opens the board; at /mcp it acts as the agent the server was started with (--agent-id), and this server was started without one.",
            "Give each agent its own token (`tasklists token add NAME`), or start the server with --agent-id NAME.",
        ),
        WebRefusal::TooManyStreams => (
            429,
            "Too many open pages",
            "This sign-in already has as many live board pages open as it may.",
            "Close some of the board's tabs, then reload this one.",
        ),
    };
    bare(status, heading, &[says, todo], &Html::new())
}

/// A bare document: no script or stylesheet (it may be shown before any
/// sign-in), nothing from the store: a heading, paragraphs, then `more`.
pub(super) fn bare(status: u16, heading: &str, paragraphs: &[&str], more: &Html) -> WebResponse {
    let mut h = Html::new();
    page::head(&mut h, heading);
    h.close("head")
        .open("body", &[])
        .open("main", &[("id", "board")]);
    h.elem("h1", &[], heading);
    for p in paragraphs {
        h.elem("p", &[], p);
    }
    h.append(more);
    h.close("main").close("body").close("html");
    WebResponse {
        status,
        content_type: HTML.into(),
        body: format!("<!doctype html>\n{}", h.finish()),
        location: String::new(),
        immutable: false,
    }
}

//! `/events`: a person's live-event stream ([`super::events`]), bounded
//! per session, per token and in all ([`super::streams`]), from the
//! count its page names: a reconnecting browser's `Last-Event-ID`, else
//! `?since=N` (the count the page was read at).

use super::answers::refuse;
use super::board::Board;
use super::who::Person;
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use tasklists_host::WebRefusal;

/// The stream of the person who asked, if they may open one more.
pub(super) async fn events(
    State(board): State<Arc<Board>>,
    Person(who): Person,
    headers: HeaderMap,
    uri: Uri,
) -> Response {
    match board.streams.open(who.session.as_deref(), &who.token) {
        Some(held) => board
            .changes
            .stream(held, since(&headers, &uri))
            .into_response(),
        None => refuse(&board, WebRefusal::TooManyStreams),
    }
}

/// The count the page last knew of: `Last-Event-ID`, else `since` of the
/// query; none (or not a number) when it names none.
fn since(headers: &HeaderMap, uri: &Uri) -> Option<u64> {
    let last = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok());
    last.or_else(|| {
        form_urlencoded::parse(uri.query().unwrap_or("").as_bytes())
            .find(|(name, _)| name == "since")
            .and_then(|(_, value)| value.parse().ok())
    })
}

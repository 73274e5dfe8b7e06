//! `/events`: a person's live-event stream ([`super::events`]), bounded
//! per session, per token and in all ([`super::streams`]).

use super::answers::refuse;
use super::board::Board;
use super::who::Person;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use tasklists_host::WebRefusal;

/// The stream of the person who asked, if they may open one more.
pub(super) async fn events(State(board): State<Arc<Board>>, Person(who): Person) -> Response {
    match board.streams.open(who.session.as_deref(), &who.token) {
        Some(held) => board.changes.stream(held).into_response(),
        None => refuse(&board, WebRefusal::TooManyStreams),
    }
}

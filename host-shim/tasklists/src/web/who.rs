//! Who sent a request, as extractors over the [`Board`]: [`Person`] for
//! the board's pages and live events (a session, else a bearer token; a
//! person's; and for a browser's state change, its own page), [`Bearer`]
//! for `/mcp` (a bearer token only). Each rejection is the component's
//! refusal page, so a refused request never reaches a handler.

use super::answers::refuse;
use super::board::Board;
use super::checks::same_origin;
use super::connections::Conn;
use super::credentials::{Sender, bearer, sender};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderValue, Method, header};
use axum::response::Response;
use std::sync::Arc;
use tasklists_host::WebRefusal;

/// A person's request to the board: its sender, signed in with a
/// person's token (an agent's token may only call the tools).
pub(super) struct Person(pub(super) Sender);

impl FromRequestParts<Arc<Board>> for Person {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, board: &Arc<Board>) -> Result<Self, Response> {
        let Some(who) = sender(board, &parts.headers).await? else {
            return Err(refuse(board, WebRefusal::Unauthenticated));
        };
        if !who.identity.board {
            return Err(refuse(board, WebRefusal::AgentToken));
        }
        // A token holder's connection: the last to give way to a newcomer.
        if let Some(conn) = parts.extensions.get::<Arc<Conn>>() {
            conn.trust();
        }
        // A browser sends its cookie with whatever page asks: a state
        // change it carries must come from the board's own page. A bearer
        // token is no ambient credential, so a script needs no `Origin`.
        if parts.method == Method::POST && who.session.is_some() && !own_page(parts) {
            return Err(refuse(board, WebRefusal::CrossOrigin));
        }
        Ok(Person(who))
    }
}

/// Whether the request's `Origin` is the board's own page (at the `Host`
/// the host layer already accepted).
fn own_page(parts: &Parts) -> bool {
    let text = |name| parts.headers.get(name).and_then(|v| v.to_str().ok());
    same_origin(text(header::ORIGIN), text(header::HOST).unwrap_or(""))
}

/// The token of a request to `/mcp`: `Authorization: Bearer` only, never
/// a cookie (no page of another site can send that header without a
/// preflight this server never answers; and a board session is no token).
pub(super) struct Bearer(pub(super) String);

impl FromRequestParts<Arc<Board>> for Bearer {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, board: &Arc<Board>) -> Result<Self, Response> {
        match bearer(&parts.headers) {
            Some(token) => Ok(Bearer(token.to_string())),
            None => Err(unauthenticated(board)),
        }
    }
}

/// `401` with the challenge an HTTP client expects.
pub(super) fn unauthenticated(board: &Board) -> Response {
    let mut response = refuse(board, WebRefusal::Unauthenticated);
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

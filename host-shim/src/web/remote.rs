//! `/mcp`: MCP over Streamable HTTP for remote agents. A request is taken
//! on only with a token in `Authorization: Bearer` (never a cookie: no
//! page of another site can send that header without a preflight this
//! server never answers), within the server's limits, its body read whole
//! in bounded time and size; its calls run as the token's holder, pinned
//! (`params.agent_id` naming anyone else is `forbidden`).

use super::limits::Over;
use super::server::{BODY_TIMEOUT, Board, bearer, identify, refuse};
use crate::WebRefusal;
use crate::mcp::Caller;
use axum::body::Body;
use axum::extract::Request;
use axum::http::request::Parts;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use futures_util::StreamExt;
use std::sync::Arc;

/// The largest request body: the stdio server's longest line (rmcp's
/// 16 MiB), well above the component's 4 MiB params limit, so an oversized
/// call still gets the contract's own answer, as on stdio.
pub const MAX_BODY: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// Body bytes held at most over every request in progress (as much as the
/// stdio server buffers): a flood of large bodies is answered `503`.
pub const MAX_HELD_BYTES: usize = 64 << 20;

/// Answers one request to `/mcp`.
pub async fn mcp(board: &Board, mut parts: Parts, body: Body) -> Response {
    let Some(token) = bearer(&parts.headers) else {
        return unauthenticated(board);
    };
    let slot = match board.limits.slot() {
        Ok(slot) => slot,
        Err(_) => return refuse(board, WebRefusal::Busy),
    };
    let identity = match identify(board, token).await {
        Ok(Some(identity)) => identity,
        Ok(None) => return unauthenticated(board),
        Err(refused) => return refused,
    };
    let mut permit = match slot.for_holder(&identity.name) {
        Ok(permit) => permit,
        Err(Over::Holder) => return refuse(board, WebRefusal::TooMany),
        Err(Over::Total) => return refuse(board, WebRefusal::Busy),
    };
    let mut bytes = Vec::new();
    let mut stream = body.into_data_stream();
    let read = tokio::time::timeout(BODY_TIMEOUT, async {
        while let Some(chunk) = stream.next().await {
            let Ok(chunk) = chunk else {
                return Err(WebRefusal::TooSlow);
            };
            if bytes.len() + chunk.len() > MAX_BODY {
                return Err(WebRefusal::TooLarge);
            }
            if permit.hold(chunk.len()).is_err() {
                return Err(WebRefusal::Busy);
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(())
    })
    .await;
    match read {
        Ok(Ok(())) => {}
        Ok(Err(why)) => return refuse(board, why),
        Err(_) => return refuse(board, WebRefusal::TooSlow),
    }
    parts.extensions.insert(Caller {
        ctx: identity.ctx,
        held: Arc::new(permit),
    });
    let request = Request::from_parts(parts, Body::from(bytes));
    board.mcp.handle(request).await
}

/// `401` with the challenge an HTTP client expects.
fn unauthenticated(board: &Board) -> Response {
    let mut response = refuse(board, WebRefusal::Unauthenticated);
    response
        .headers_mut()
        .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

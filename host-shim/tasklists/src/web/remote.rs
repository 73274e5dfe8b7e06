//! `/mcp`: MCP over Streamable HTTP for remote agents. A request is taken
//! on only with a token in `Authorization: Bearer` (never a cookie: no
//! page of another site can send that header without a preflight this
//! server never answers; and a board session is no token), within the
//! server's limits, its body read whole in bounded time and size and its
//! JSON values counted before anything parses it (off the runtime's
//! threads), so what it will cost once parsed is held against the
//! server's budget; its calls run as the token's holder, pinned
//! (`params.agent_id` naming anyone else is `forbidden`). The board's own
//! printed token acts as the agent `serve` was started with, pinned, and
//! is refused here when there is none.

use super::access::Identity;
use super::answers::refuse;
use super::board::Board;
use super::connections::Conn;
use super::credentials::identify;
use super::limits::{Over, Permit};
use super::who::{Bearer, unauthenticated};
use crate::mcp::{Caller, budget};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::Response;
use futures_util::StreamExt;
use std::sync::Arc;
use tasklists_host::WebRefusal;

/// What a request's body may hold besides its call's arguments (the
/// JSON-RPC envelope, the tool's name): the body is refused past the
/// params bound plus this, before it is parsed, so an oversized call that
/// is still near the bound gets the contract's own answer.
pub const ENVELOPE_BYTES: usize = 64 << 10;

/// What every request in progress may cost at most together, in bytes
/// (bodies, and what parsing them will take: [`budget::cost`]): past it a
/// request is answered `503` at once.
pub const MAX_HELD_BYTES: usize = 96 << 20;

/// The largest request body for a server whose calls take at most
/// `max_params` bytes of arguments.
pub fn max_body(max_params: usize) -> usize {
    max_params.saturating_add(ENVELOPE_BYTES)
}

/// Answers one request to `/mcp` (its token already taken by [`Bearer`]).
pub(super) async fn mcp(
    State(board): State<Arc<Board>>,
    Bearer(token): Bearer,
    request: Request,
) -> Response {
    let board = board.as_ref();
    let (mut parts, body) = request.into_parts();
    // Refused before anything is read: a body announced over the bound.
    let announced = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > board.mcp_max_body as u64) {
        return refuse(board, WebRefusal::TooLarge);
    }
    let slot = match board.limits.slot() {
        Ok(slot) => slot,
        Err(_) => return refuse(board, WebRefusal::Busy),
    };
    let identity = match identify(board, &token).await {
        Ok(Some((identity, _))) => identity,
        Ok(None) => return unauthenticated(board),
        Err(refused) => return refused,
    };
    let Some(ctx) = tools_context(&identity) else {
        return refuse(board, WebRefusal::NoAgent);
    };
    if let Some(conn) = parts.extensions.get::<Arc<Conn>>() {
        conn.trust();
    }
    let mut permit = match slot.for_holder(&identity.name) {
        Ok(permit) => permit,
        Err(Over::Holder) => return refuse(board, WebRefusal::TooMany),
        Err(Over::Total) => return refuse(board, WebRefusal::Busy),
    };
    let bytes = match read_body(body, board, &mut permit).await {
        Ok(bytes) => bytes,
        Err(why) => return refuse(board, why),
    };
    // Counted on a blocking thread: the pages' requests go on meanwhile.
    let counted = bytes.clone();
    let values = tokio::task::spawn_blocking(move || budget::values(&counted, budget::MAX_VALUES))
        .await
        .unwrap_or(usize::MAX);
    if values > budget::MAX_VALUES {
        return refuse(board, WebRefusal::TooLarge);
    }
    let parsing = budget::cost(bytes.len(), values).saturating_sub(bytes.len());
    if permit.hold(parsing).is_err() {
        return refuse(board, WebRefusal::Busy);
    }
    parts.extensions.insert(Caller {
        ctx,
        held: Arc::new(permit),
    });
    let request = Request::from_parts(parts, Body::from(bytes));
    board.mcp.handle(request).await
}

/// The context a token's calls run in: its holder, pinned; for the
/// board's printed token, the agent `serve` was started with, pinned, or
/// none (refused).
fn tools_context(identity: &Identity) -> Option<tasklists_host::CallContext> {
    let mut ctx = identity.ctx.clone();
    ctx.agent_id.as_ref()?;
    ctx.agent_pinned = true;
    Some(ctx)
}

/// The body, whole, within `/mcp`'s bound and the server's body timeout,
/// each chunk held against the server's budget.
async fn read_body(body: Body, board: &Board, permit: &mut Permit) -> Result<Bytes, WebRefusal> {
    let max = board.mcp_max_body;
    let mut bytes = Vec::new();
    let mut stream = body.into_data_stream();
    let read = tokio::time::timeout(board.body_timeout, async {
        while let Some(chunk) = stream.next().await {
            let Ok(chunk) = chunk else {
                return Err(WebRefusal::TooSlow);
            };
            if bytes.len() + chunk.len() > max {
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
        Ok(Ok(())) => Ok(Bytes::from(bytes)),
        Ok(Err(why)) => Err(why),
        Err(_) => Err(WebRefusal::TooSlow),
    }
}

//! What every request handler of the server shares ([`Board`]), and who
//! sent a request: a session's cookie, else a bearer token (one of the
//! server's own, or one the store holds, asked on every request), and the
//! component's pages for a refused request or a failed host. The board's
//! routes ([`super::server`]) and `/mcp` ([`super::remote`]) both use it.

use super::access::{Identity, Tokens, digest_hex};
use super::checks::AllowedHosts;
use super::events::Changes;
use super::limits::Limits;
use super::sessions::{Opened, Sessions};
use super::streams::Streams;
use crate::mcp::HttpMcp;
use crate::serve::actor::{Actor, Unanswered};
use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Duration;
use tasklists_host::{CallContext, TokenLookup, WebRefusal, WebResponse};

/// The longest token looked up in the store (a longer one is no token).
const MAX_TOKEN_CHARS: usize = 512;
/// How long a request's body may take to arrive, once its headers have.
pub(super) const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// What every request handler shares.
pub(super) struct Board {
    pub(super) tokens: Tokens,
    /// The context the server was started with (its workspace, which a
    /// stored token's holder works in too).
    pub(super) base: CallContext,
    pub(super) hosts: AllowedHosts,
    /// The session cookie's name: `tasklists-PORT` (browsers send a host's
    /// cookies to each of its ports: the port keeps two boards apart), or
    /// over TLS `__Host-tasklists-PORT` (`Secure`, this host only).
    pub(super) cookie: String,
    /// Whether the board is served over TLS: its cookie is then `Secure`,
    /// never sent back over plain HTTP.
    pub(super) secure: bool,
    /// The browsers signed in.
    pub(super) sessions: Sessions,
    /// The live-event streams open.
    pub(super) streams: Arc<Streams>,
    /// The host actor: the board's pages and token lookups, and `/mcp`'s
    /// calls (through [`HttpMcp`]), one at a time in arrival order.
    pub(super) actor: Actor,
    pub(super) changes: Changes,
    /// The MCP endpoint at `/mcp`.
    pub(super) mcp: HttpMcp,
    /// Requests to `/mcp` in progress: in total, per holder, body bytes.
    pub(super) limits: Arc<Limits>,
    /// The largest body `/mcp` reads (the params bound and an envelope).
    pub(super) mcp_max_body: usize,
    /// The component's page for each refusal, asked once at the start (it
    /// touches no store): a flood of refused requests never reaches the
    /// component's queue, so it cannot crowd out the token holder.
    pub(super) refusals: Vec<(WebRefusal, WebResponse)>,
}

/// Who sent a request, as the server found it.
pub(super) struct Who {
    /// The identity it acts as.
    pub(super) identity: Identity,
    /// The key of its session, when it came with one (a browser, whose
    /// state changes then need their `Origin` checked).
    pub(super) session: Option<String>,
    /// The digest of the token it was signed in with (or sent).
    pub(super) token: String,
}

/// The sender of a request: its session (by cookie), else its
/// `Authorization: Bearer` token.
pub(super) async fn authenticate(
    board: &Board,
    headers: &HeaderMap,
) -> Result<Option<Who>, Response> {
    if let Some(found) = session(board, headers).await? {
        return Ok(Some(found));
    }
    let Some(token) = bearer(headers) else {
        return Ok(None);
    };
    Ok(identify(board, token).await?.map(|(identity, _)| Who {
        identity,
        session: None,
        token: digest_hex(token),
    }))
}

/// The live session of the request's cookie: one opened with a token the
/// store holds is asked about again (revoked: the session is over).
pub(super) async fn session(board: &Board, headers: &HeaderMap) -> Result<Option<Who>, Response> {
    let Some(secret) = cookie(headers, &board.cookie) else {
        return Ok(None);
    };
    let Some(session) = board.sessions.find(secret) else {
        return Ok(None);
    };
    let (identity, token) = match &session.opened {
        Opened::Own(digest) => (session.identity, digest.clone()),
        Opened::Stored(digest) => match holder(board, digest.clone()).await? {
            Some(identity) => (identity, digest.clone()),
            None => {
                board.sessions.end(&session.key);
                return Ok(None);
            }
        },
    };
    Ok(Some(Who {
        identity,
        session: Some(session.key),
        token,
    }))
}

/// The token of an `Authorization: Bearer` header.
pub(super) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
}

/// The identity of `token`, and how a session opened with it is checked
/// later: one of the server's own (compared in constant time), else the
/// holder the store names for its digest, asked on every request (a
/// revoked token is refused at once). The store's answer is an error page
/// when it cannot be had.
pub(super) async fn identify(
    board: &Board,
    token: &str,
) -> Result<Option<(Identity, Opened)>, Response> {
    let digest = digest_hex(token);
    if let Some(identity) = board.tokens.identify(token) {
        return Ok(Some((identity.clone(), Opened::Own(digest))));
    }
    if token.is_empty() || token.len() > MAX_TOKEN_CHARS {
        return Ok(None);
    }
    Ok(holder(board, digest.clone())
        .await?
        .map(|identity| (identity, Opened::Stored(digest))))
}

/// The identity of the holder of the stored token whose digest is
/// `digest`, if the store holds it.
async fn holder(board: &Board, digest: String) -> Result<Option<Identity>, Response> {
    match board
        .actor
        .run(move |host| host.resolve_token(&digest))
        .await
    {
        Ok(TokenLookup::Holder(holder)) => Ok(Some(Identity::holder(&holder, &board.base))),
        Ok(TokenLookup::Unknown) => Ok(None),
        Ok(TokenLookup::Refused(e)) => {
            Err(failed(&format!("cannot read the tokens: {}", e.message)))
        }
        Err(Unanswered::Busy) => Err(refuse(board, WebRefusal::Busy)),
        Err(Unanswered::Failed(why)) => Err(failed(&why)),
    }
}

/// The value of the cookie `name`, if the request carries it.
pub(super) fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// The component's page for a refused request (worded at the start).
pub(super) fn refuse(board: &Board, why: WebRefusal) -> Response {
    match board.refusals.iter().find(|(kind, _)| *kind == why) {
        Some((_, page)) => respond(page.clone()),
        None => failed(&format!("no page for the refusal {why:?}")),
    }
}

/// The component's answer as an HTTP response.
pub(super) fn respond(page: WebResponse) -> Response {
    let status = StatusCode::from_u16(page.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, Body::from(page.body)).into_response();
    let headers = response.headers_mut();
    if let Ok(kind) = HeaderValue::from_str(&page.content_type) {
        headers.insert(header::CONTENT_TYPE, kind);
    }
    if !page.location.is_empty()
        && let Ok(to) = HeaderValue::from_str(&page.location)
    {
        headers.insert(header::LOCATION, to);
    }
    if page.immutable {
        headers.insert("x-tasklists-immutable", HeaderValue::from_static("1"));
    }
    response
}

/// The host itself failed: said in the log, and in a plain answer.
pub(super) fn failed(why: &str) -> Response {
    eprintln!("tasklists serve: {why}");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        "tasklists serve: the host failed on this request; its log says why\n",
    )
        .into_response()
}

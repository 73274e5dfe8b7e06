//! A request's credentials and whose they are: a session's cookie (a
//! browser signed in), or a token (`Authorization: Bearer`, or the link
//! to open): one of the server's own, or one the store holds, asked on
//! every request so that a revoked one is refused at once. A lookup the
//! host cannot answer is the component's page (busy) or the failed answer.

use super::access::{Identity, digest_hex};
use super::answers::{failed, refuse};
use super::board::Board;
use super::sessions::Opened;
use crate::serve::actor::Unanswered;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use tasklists_host::{TokenLookup, WebRefusal};

/// The longest token looked up in the store (a longer one is no token).
const MAX_TOKEN_CHARS: usize = 512;

/// Who sent a request, as the server found it.
pub(super) struct Sender {
    /// The identity it acts as.
    pub(super) identity: Identity,
    /// The key of its session, when it came with one (a browser, whose
    /// state changes then need their `Origin` checked).
    pub(super) session: Option<String>,
    /// The digest of the token it was signed in with (or sent).
    pub(super) token: String,
}

/// The sender of a request to the board: its session (by cookie), else
/// its `Authorization: Bearer` token.
pub(super) async fn sender(board: &Board, headers: &HeaderMap) -> Result<Option<Sender>, Response> {
    if let Some(found) = session(board, headers).await? {
        return Ok(Some(found));
    }
    let Some(token) = bearer(headers) else {
        return Ok(None);
    };
    Ok(identify(board, token).await?.map(|(identity, _)| Sender {
        identity,
        session: None,
        token: digest_hex(token),
    }))
}

/// The live session of the request's cookie: one opened with a token the
/// store holds is asked about again (revoked: the session is over).
pub(super) async fn session(
    board: &Board,
    headers: &HeaderMap,
) -> Result<Option<Sender>, Response> {
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
    Ok(Some(Sender {
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
fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

//! Signing in by a link: a GET of a board page with `?token=…` (the link
//! `serve` printed) starts a session ([`super::sessions`]) whose secret,
//! not the token, becomes the browser's cookie, and sends the browser on
//! to the same page without the token. A sign-in link another site sent
//! the browser to is confirmed by the person first, on a page of the
//! component's. A layer on the board's routes, ahead of their
//! [`super::who::Person`]: a request carrying a token is this, whatever
//! session it may have.

use super::answers::{ask, failed, refuse};
use super::board::Board;
use super::credentials::{identify, session};
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use tasklists_host::{SignInLink, WebRefusal};

/// The query parameter that carries a token in the URL to open.
pub(super) const TOKEN_PARAM: &str = "token";

/// The layer: a request with a token in its URL signs in (a GET) or is
/// refused (a state change never carries one); any other goes on.
pub(super) async fn link(
    State(board): State<Arc<Board>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(token) = query_token(request.uri().query().unwrap_or("")) else {
        return next.run(request).await;
    };
    if request.method() == Method::POST {
        return refuse(&board, WebRefusal::Unauthenticated);
    }
    let (parts, _) = request.into_parts();
    sign_in(&board, &parts, &token).await
}

/// The `token` of a query string, percent-decoded.
fn query_token(query: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(key, _)| key == TOKEN_PARAM)
        .map(|(_, value)| value.into_owned())
}

/// Whether a request was sent by the person themselves: typed or opened
/// from outside the browser (`Sec-Fetch-Site: none`), sent from one of
/// the board's own pages (`same-origin`), or by a client that is no
/// browser (no such header: it keeps no cookie another site could use).
fn own_navigation(headers: &HeaderMap) -> bool {
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        None => true,
        Some(site) => site == "none" || site == "same-origin",
    }
}

/// `?token=…`: a new session and a redirect to the page without the
/// token; a link another site sent the browser to is first confirmed
/// on a page of the component's.
async fn sign_in(board: &Board, parts: &Parts, token: &str) -> Response {
    let (identity, opened) = match identify(board, token).await {
        Ok(Some((identity, _))) if !identity.board => return refuse(board, WebRefusal::AgentToken),
        Ok(Some(found)) => found,
        Ok(None) => return refuse(board, WebRefusal::Unauthenticated),
        Err(refused) => return refused,
    };
    let current = match session(board, &parts.headers).await {
        Ok(current) => current,
        Err(refused) => return refused,
    };
    let path = local_path(parts.uri.path());
    let query = parts.uri.query().unwrap_or("");
    if !own_navigation(&parts.headers) {
        let link = SignInLink {
            holder: identity.name.clone(),
            current: current.map(|who| who.identity.name),
            path: path.to_string(),
            query: query.to_string(),
        };
        return ask(board, move |host| host.web_confirm_sign_in(&link)).await;
    }
    if let Some(key) = current.and_then(|who| who.session) {
        board.sessions.end(&key);
    }
    let secret = match board.sessions.start(identity, opened) {
        Ok(secret) => secret,
        Err(e) => return failed(&e.to_string()),
    };
    let rest: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(
            form_urlencoded::parse(query.as_bytes()).filter(|(key, _)| key != TOKEN_PARAM),
        )
        .finish();
    let to = if rest.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{rest}")
    };
    let mut response = StatusCode::SEE_OTHER.into_response();
    let secure = if board.secure { "; Secure" } else { "" };
    let set = format!(
        "{}={secret}; HttpOnly; SameSite=Strict; Path=/{secure}",
        board.cookie
    );
    if let (Ok(set), Ok(to)) = (HeaderValue::from_str(&set), HeaderValue::from_str(&to)) {
        response.headers_mut().insert(header::SET_COOKIE, set);
        response.headers_mut().insert(header::LOCATION, to);
    }
    response
}

/// `path` if it is one of this server's, else `/`: `//host` (or `/\host`,
/// which browsers read as `//host`) would leave it.
fn local_path(path: &str) -> &str {
    let local = path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.chars().any(char::is_control);
    if local { path } else { "/" }
}

//! The middleware every request passes, whatever its route: the `Host`
//! check (against DNS rebinding: a page of another site whose name was
//! pointed at this address sends its own name) and the one log line.

use super::answers::refuse;
use super::board::Board;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use std::sync::Arc;
use std::time::Instant;
use tasklists_host::WebRefusal;

/// Refuses a request sent to a name the server does not answer for,
/// before anything else looks at it.
pub(super) async fn host(
    State(board): State<Arc<Board>>,
    request: Request,
    next: Next,
) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !board.hosts.allows(host) {
        return refuse(&board, WebRefusal::WrongHost);
    }
    next.run(request).await
}

/// One line per request on stderr: `METHOD PATH STATUS N ms` (the path
/// without its query, which may carry a token).
pub(super) async fn log(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    eprintln!(
        "{method} {path} {} {} ms",
        response.status().as_u16(),
        started.elapsed().as_millis()
    );
    response
}

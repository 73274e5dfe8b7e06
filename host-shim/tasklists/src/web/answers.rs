//! The component's answers as HTTP responses: a page it wrote, a refusal
//! page it worded at the start, and the plain answer of a host that failed.

use super::board::Board;
use crate::serve::actor::Unanswered;
use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tasklists_host::{Host, HostError, WebRefusal, WebResponse};

/// How long a browser may keep an asset that never changes for this
/// build (its URL names its version): a day, in its own cache only. Any
/// other answer is kept nowhere (the security headers' `no-store`).
const IMMUTABLE: &str = "private, max-age=86400, immutable";

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
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    }
    response
}

/// The component's page for a refused request (worded at the start).
pub(super) fn refuse(board: &Board, why: WebRefusal) -> Response {
    match board.refusals.iter().find(|(kind, _)| *kind == why) {
        Some((_, page)) => respond(page.clone()),
        None => failed(&format!("no page for the refusal {why:?}")),
    }
}

/// The page `job` asks the component for, run on the host actor: busy
/// when too many jobs wait, the failed answer when the host failed.
pub(super) async fn ask(
    board: &Board,
    job: impl FnOnce(&mut Host) -> Result<WebResponse, HostError> + Send + 'static,
) -> Response {
    match board.actor.run(job).await {
        Ok(page) => respond(page),
        Err(Unanswered::Busy) => refuse(board, WebRefusal::Busy),
        Err(Unanswered::Failed(why)) => failed(&why),
    }
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

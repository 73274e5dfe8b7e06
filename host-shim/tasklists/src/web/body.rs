//! [`Form`], the extractor of a board request's body, bounded in size and
//! time (the server's `--body-timeout`, `Board::body_timeout`) and refused
//! with the component's pages.

use super::answers::refuse;
use super::board::Board;
use axum::body::to_bytes;
use axum::extract::{FromRequest, Request};
use axum::response::Response;
use std::sync::Arc;
use tasklists_host::WebRefusal;

/// The largest body a form may send (a task's texts fit well within it).
const MAX_BODY: usize = 256 * 1024;

/// The body of a request to the board, whole, as text: at most
/// [`MAX_BODY`] bytes (else `TooLarge`) within the body timeout (else
/// `TooSlow`), the component's own pages. Read only once its sender is
/// known: an extractor after [`super::who::Person`].
pub(super) struct Form(pub(super) String);

impl FromRequest<Arc<Board>> for Form {
    type Rejection = Response;

    async fn from_request(request: Request, board: &Arc<Board>) -> Result<Self, Response> {
        let read = to_bytes(request.into_body(), MAX_BODY);
        match tokio::time::timeout(board.body_timeout, read).await {
            // A body that is not UTF-8 is no form of ours: the component
            // refuses what it cannot read, so it gets the text as lossy.
            Ok(Ok(bytes)) => Ok(Form(String::from_utf8_lossy(&bytes).into_owned())),
            // Over the bound, or a connection broken mid-body.
            Ok(Err(_)) => Err(refuse(board, WebRefusal::TooLarge)),
            Err(_) => Err(refuse(board, WebRefusal::TooSlow)),
        }
    }
}

//! The board's pages: a person's GET or POST of any path but `/mcp` and
//! `/events`, answered by the component (`web.handle`), which decides its
//! own paths, pages, assets and redirects.

use super::answers::ask;
use super::board::Board;
use super::body::Form;
use super::who::Person;
use axum::extract::State;
use axum::http::{Method, Uri};
use axum::response::Response;
use std::sync::Arc;
use tasklists_host::{WebMethod, WebRequest};

/// One page, as the component answers it for the person who asked.
pub(super) async fn page(
    State(board): State<Arc<Board>>,
    Person(who): Person,
    method: Method,
    uri: Uri,
    Form(body): Form,
) -> Response {
    let request = WebRequest {
        // The route takes GET (and HEAD, answered as a GET) and POST.
        method: if method == Method::POST {
            WebMethod::Post
        } else {
            WebMethod::Get
        },
        path: uri.path().to_string(),
        query: uri.query().unwrap_or("").to_string(),
        body,
        changes: board.changes.count(),
    };
    let ctx = who.identity.ctx;
    ask(&board, move |host| host.web(&request, &ctx)).await
}

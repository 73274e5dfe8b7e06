//! The routes and the layers around them. From the outside in, every
//! request gets its log line, the security headers on its answer, and the
//! `Host` check; then its route: `/mcp` (any method: rmcp answers, its
//! bearer taken by [`super::who::Bearer`]), `/events` (GET) and the
//! component's pages (GET and POST of any other path; other methods get
//! axum's `405`), both of these behind the sign-in link's layer and
//! [`super::who::Person`]. The pages and assets are gzipped for a
//! browser that asks (tower-http's compression; no page holds a secret
//! a reflected search could be measured against); the event streams are
//! not, so each change reaches the page when it is sent.

use super::board::Board;
use super::{headers, layers, live, pages, remote, sign_in};
use axum::Router;
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::{any, get};
use std::sync::Arc;
use tower_http::compression::CompressionLayer;

/// The server's whole router over `board`.
pub(super) fn app(board: Arc<Board>) -> Router {
    // Only on the methods a route takes: a `DELETE /?token=…` is a 405
    // like any other.
    let link = || from_fn_with_state(board.clone(), sign_in::link);
    let pages = get(pages::page)
        .post(pages::page)
        .route_layer(link())
        .layer(CompressionLayer::new().gzip(true));
    let routes = Router::new()
        .route("/mcp", any(remote::mcp).layer(headers::never_kept()))
        .route(
            "/events",
            get(live::events)
                .route_layer(link())
                .layer(headers::never_kept()),
        )
        .route("/", pages.clone())
        .route("/{*path}", pages)
        .with_state(board.clone());
    // Around the routes whole, not around each: a layer on a route's
    // method router would also wrap its 405, whose `Allow` header axum
    // then adds to whatever the layer answered (a 421 for a `DELETE`).
    let whole = Router::new()
        .fallback_service(routes)
        .layer(from_fn_with_state(board, layers::host));
    headers::secure(whole).layer(from_fn(layers::log))
}

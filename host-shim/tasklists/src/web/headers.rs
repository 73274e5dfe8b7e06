//! The headers every answer carries, as tower-http layers around the
//! router: no inline script or style may run (the component's pages have
//! none), nothing may frame the board, no page leaks its address to
//! another site, and no answer is kept by a cache unless it says it may
//! (the component's immutable assets: [`super::answers::respond`]).

use axum::Router;
use axum::http::{HeaderName, HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::set_header::response::SetMultipleResponseHeadersLayer;

/// The Content-Security-Policy of every answer.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// What a cache may keep of an answer that says nothing itself: nothing.
const NO_STORE: &str = "no-store";

/// `router` with the security headers on every answer it gives (its
/// refusals, its 404 and 405 included).
pub fn secure(router: Router) -> Router {
    let always: [(HeaderName, &'static str); 4] = [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        // Not `no-referrer`: under it Chromium sends `Origin: null` with a
        // form posted without script, which the Origin check must refuse.
        // `same-origin` still gives no other site the page's address.
        (header::REFERRER_POLICY, "same-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    let always = always
        .into_iter()
        .map(|(name, value)| (name, HeaderValue::from_static(value)).into())
        .collect();
    router
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static(NO_STORE),
        ))
        .layer(SetMultipleResponseHeadersLayer::overriding(always))
}

/// A stream's answer is kept nowhere either, whatever its maker says
/// (axum's and rmcp's event streams say `no-cache`).
pub fn never_kept() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE))
}

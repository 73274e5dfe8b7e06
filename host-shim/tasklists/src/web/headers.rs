//! The headers every answer carries: no inline script or style may run
//! (the component's pages have none), nothing may frame the board, and no
//! page is kept by a cache or leaks its address to another site.

use axum::http::{HeaderMap, HeaderValue, header};

/// The Content-Security-Policy of every answer.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/// Adds the security headers; `immutable` marks an asset that never
/// changes for this build (the browser may keep it a day).
pub fn secure(headers: &mut HeaderMap, immutable: bool) {
    let set = |headers: &mut HeaderMap, name, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set(headers, header::CONTENT_SECURITY_POLICY, CSP);
    set(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(headers, header::REFERRER_POLICY, "no-referrer");
    set(headers, header::X_FRAME_OPTIONS, "DENY");
    set(
        headers,
        header::CACHE_CONTROL,
        if immutable {
            "private, max-age=86400, immutable"
        } else {
            "no-store"
        },
    );
}

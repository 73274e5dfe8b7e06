//! The web board (`tasklists serve`): every page, asset and answer to a
//! person's form, as HTML the component writes. The host authenticated the
//! request and checked where it came from; this decides what it gets.

use crate::bindings::{CallContext, WebRefusal, WebRequest, WebResponse};
use crate::clock::Clock;
use crate::store::Store;

/// Answers one request of the board as `ctx.person`.
pub fn handle(
    request: &WebRequest,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> WebResponse {
    let _ = (request, ctx, store, clock);
    WebResponse {
        status: 404,
        content_type: "text/plain; charset=utf-8".into(),
        body: "not found".into(),
        location: String::new(),
        immutable: false,
    }
}

/// The page for a request the host refused before it reached the board.
pub fn refusal(why: WebRefusal) -> WebResponse {
    let status = match why {
        WebRefusal::Unauthenticated => 401,
        WebRefusal::WrongHost => 421,
        WebRefusal::CrossOrigin => 403,
        WebRefusal::TooLarge => 413,
        WebRefusal::Busy => 503,
    };
    WebResponse {
        status,
        content_type: "text/plain; charset=utf-8".into(),
        body: format!("{why:?}"),
        location: String::new(),
        immutable: false,
    }
}

//! The web board (`tasklists serve`): every page, asset and answer to a
//! person's form, as HTML the component writes. The host authenticated the
//! request and checked where it came from; this decides what it gets.
//!
//! One concern a file: `route.rs` reads the request (path, query, form),
//! `html.rs` is the one HTML builder (every text cleaned and escaped),
//! `page.rs` the document around a page, `read.rs` what a page shows (one
//! read transaction each), `list.rs` and `card.rs` a list's summary and a
//! task's card, `forms.rs` the action forms (keys from the key map),
//! `edit_form.rs` the forms with every field of a task (`suggest.rs`
//! what they suggest), `overview.rs` (headed by `inbox.rs`), `board.rs`, `task.rs`, `audit.rs`
//! (+ `timeline.rs`) the pages, `wait.rs` what a task waits on a person
//! for, `act.rs` a person's form carried out, `help.rs` the keys' panel,
//! the in-page question and the liveness notes, `drop.rs` what dropping a
//! card on the board does (drag.js), `filter.rs` the search and filters
//! read from a page's address and `find.rs` their form and what they
//! show, `assets.rs` the script and
//! stylesheet, `refusal.rs` the pages of requests the host refused, `sign_in.rs` the
//! confirmation of a sign-in link another site sent.

mod act;
mod assets;
mod audit;
mod board;
mod card;
mod columns;
mod drop;
mod edit_form;
mod filter;
mod find;
mod forms;
mod help;
mod html;
mod inbox;
mod list;
mod overview;
mod page;
mod read;
mod refusal;
mod route;
mod sign_in;
mod suggest;
mod task;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_drag;
#[cfg(test)]
mod tests_edit;
#[cfg(test)]
mod tests_find;
#[cfg(test)]
mod tests_inbox;
#[cfg(test)]
mod tests_look;
mod timeline;
mod wait;

use crate::bindings::{CallContext, SignInLink, WebRefusal, WebRequest, WebResponse};
use crate::clock::Clock;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::person::identity;
use crate::store::Store;
use html::Html;
use page::Page;
use read::Source;
use route::{BadRequest, Route};

/// Answers one request of the board as `ctx.person`.
pub fn handle(
    request: &WebRequest,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> WebResponse {
    let query = route::query(&request.query);
    let fragment = query.has("part", "main") || query.has("part", "actions");
    let route = match route::route(request) {
        Ok(route) => route,
        Err(BadRequest(why)) => {
            let e = ToolError::invalid(why, "open the board from its lists: /");
            return failed(&e, ctx, fragment);
        }
    };
    let own = route::without_part(&query);
    let ret = if own.is_empty() {
        request.path.clone()
    } else {
        format!("{}?{own}", request.path)
    };
    let can_act = identity::can_act(ctx);
    let src = Source { ctx, store, clock };
    let page: ToolResult<Page> = match route {
        Route::Overview => filter::Filter::read(&query).and_then(|f| {
            let found = if f.is_empty() {
                None
            } else {
                Some(src.found(&f)?)
            };
            src.overview()
                .map(|o| overview::page(&o, &f, found.as_ref(), can_act, &ret))
        }),
        Route::Board(id) => {
            let view = match query.get("view") {
                Some("order") => board::View::Order,
                _ => board::View::Columns,
            };
            let hide = query.has("finished", "hide");
            if query.has("part", "actions") {
                return actions(&src, query.get("task"), can_act, &ret);
            }
            if query.has("part", "suggest") {
                return match suggest::part(&src, &id, can_act) {
                    Ok(h) => fragment_of(h),
                    Err(e) => failed(&e, ctx, true),
                };
            }
            // Only a live refresh has the page's cards to fill its marks.
            let have = board::versions(query.get("have").filter(|_| fragment));
            filter::Filter::read(&query).and_then(|f| {
                src.board(&id, &f)
                    .map(|b| board::page(&b, view, hide, can_act, &ret, &have))
            })
        }
        Route::Task(id) => src.task(&id).and_then(|d| {
            let s = if can_act {
                suggest::read(&src, &d.task.list_id)?
            } else {
                suggest::Suggestions::default()
            };
            Ok(task::page(&d, &s, can_act, &ret))
        }),
        Route::Audit(id) => {
            let cursor = query.get("before").map(|b| format!("e{b}"));
            src.audit(&id, cursor.as_deref())
                .map(|a| audit::page(&a, can_act, &ret))
        }
        Route::Asset(name) => {
            return assets::serve(&name)
                .unwrap_or_else(|| failed(&nowhere(&request.path), ctx, fragment));
        }
        Route::Act => return act::answer(&request.body, &query, ctx, store, clock),
        Route::Unknown => Err(nowhere(&request.path)),
    };
    match page {
        Ok(page) => page::respond_live(page, 200, ctx, fragment, Some(request.changes)),
        Err(e) => failed(&e, ctx, fragment),
    }
}

/// The forms of task `task` on a board (its selected card's action bar),
/// returning to the board at `ret`, as a fragment; nothing for a person
/// who may not act.
fn actions(src: &Source, task: Option<&str>, can_act: bool, ret: &str) -> WebResponse {
    let body = match src.task(task.unwrap_or("")).map(|d| d.task) {
        Ok(_) if !can_act => Html::new(),
        Ok(task) => board::actions(&task, ret),
        Err(e) => return failed(&e, src.ctx, true),
    };
    fragment_of(body)
}

/// A fragment of a page, as it is.
fn fragment_of(body: Html) -> WebResponse {
    WebResponse {
        status: 200,
        content_type: page::HTML.into(),
        body: body.finish(),
        location: String::new(),
        immutable: false,
    }
}

/// The page for a request the host refused before it reached the board.
pub fn refusal(why: WebRefusal) -> WebResponse {
    refusal::answer(why)
}

/// The page asking a person to confirm a sign-in link another site sent
/// their browser to.
pub fn confirm_sign_in(link: &SignInLink) -> WebResponse {
    sign_in::confirm(link)
}

/// `not_found` for a path the board has no page at.
fn nowhere(path: &str) -> ToolError {
    ToolError::new(
        ErrorCode::NotFound,
        format!("the board has no page at {}", crate::text::quote(path)),
        "its pages: / (the lists), /lists/<list id>, /tasks/<task id>, /lists/<list id>/audit",
    )
}

/// A page that could not be shown: the error's status and the
/// component's words for it.
fn failed(e: &ToolError, ctx: &CallContext, fragment: bool) -> WebResponse {
    let status = act::status_of(e.code);
    let heading = match status {
        404 => "Not found",
        400 => "Bad request",
        403 => "Not allowed",
        _ => "Cannot show this page",
    };
    let mut body = Html::new();
    body.open("div", &[("class", "error")])
        .lines(&crate::render::render_error(
            &crate::actions::printable_error(e.clone()),
        ))
        .close("div");
    page::respond(page::message(heading, body), status, ctx, fragment)
}

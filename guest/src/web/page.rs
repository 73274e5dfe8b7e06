//! The document around every page: the head (the theme's tiny blocking
//! script, stylesheet and script by their hashed addresses, nothing
//! inline), the body's key map and person, the header with the theme
//! switch, the liveness notes and the flash region, the `<main>` a live
//! refresh replaces, the keys' legend and panel and the dialog of a key
//! that asks first (`help.rs`); or, for `part=main`, that main's inner
//! HTML alone.
//! And the answers built from it.

use super::assets;
use super::help;
use super::html::Html;
use crate::bindings::{CallContext, KeyInput, WebResponse};
use crate::person::identity;

/// HTML's media type.
pub(crate) const HTML: &str = "text/html; charset=utf-8";

/// A page's content: its title, its main, and when the page should
/// refresh itself (the next lease expiry shown, ms since the epoch).
pub(crate) struct Page {
    /// The document's title.
    pub title: String,
    /// The inner HTML of `<main>`.
    pub main: Html,
    /// The next lease expiry the page shows.
    pub refresh_at: Option<i64>,
}

/// `page` as an answer with `status`: the whole document, or only the
/// main's inner HTML when `fragment` (a live refresh).
pub(crate) fn respond(page: Page, status: u16, ctx: &CallContext, fragment: bool) -> WebResponse {
    respond_live(page, status, ctx, fragment, None)
}

/// [`respond`] for a page read when the host's live stream had told of
/// `changes` store changes: the document names that count
/// (`body[data-since]`), so its stream tells it only of later ones.
pub(crate) fn respond_live(
    page: Page,
    status: u16,
    ctx: &CallContext,
    fragment: bool,
    changes: Option<u64>,
) -> WebResponse {
    let body = if fragment {
        let mut main = Html::new();
        refresh_mark(&mut main, page.refresh_at);
        main.append(&page.main);
        main.finish()
    } else {
        document(page, ctx, changes)
    };
    WebResponse {
        status,
        content_type: HTML.into(),
        body,
        location: String::new(),
        immutable: false,
    }
}

/// A document's start, up to its open `<head>`'s title: the language,
/// the charset, the viewport, and no icon (so the browser asks for none
/// and gets no 404 page). Every page and every refusal starts so.
pub(crate) fn head(h: &mut Html, title: &str) {
    h.open("html", &[("lang", "en")]).open("head", &[]);
    h.void("meta", &[("charset", "utf-8")]);
    h.void(
        "meta",
        &[
            ("name", "viewport"),
            ("content", "width=device-width, initial-scale=1"),
        ],
    );
    h.elem("title", &[], title);
    h.void("link", &[("rel", "icon"), ("href", "data:,")]);
}

/// The whole document.
fn document(page: Page, ctx: &CallContext, changes: Option<u64>) -> String {
    let mut h = Html::new();
    head(&mut h, &page.title);
    // Blocking, and first: the theme the person chose is on <html> before
    // the page is first painted (no flash of the other theme).
    h.open("script", &[("src", &assets::THEME.address())])
        .close("script");
    h.void(
        "link",
        &[("rel", "stylesheet"), ("href", &assets::CSS.address())],
    );
    h.open(
        "script",
        &[("src", &assets::JS.address()), ("defer", "defer")],
    )
    .close("script");
    h.close("head");
    let person = if identity::can_act(ctx) {
        ctx.person.as_deref().unwrap_or_default()
    } else {
        ""
    };
    let since = changes.map(|n| n.to_string()).unwrap_or_default();
    h.open(
        "body",
        &[
            ("data-keys", &key_map_json()),
            ("data-person", person),
            ("data-since", &since),
        ],
    );
    h.open("header", &[("class", "top")]);
    h.open("a", &[("class", "home"), ("href", "/")])
        .text("Tasks")
        .close("a");
    who(&mut h, ctx);
    theme_switch(&mut h);
    help::hint(&mut h);
    h.close("header");
    liveness(&mut h);
    h.open(
        "div",
        &[("id", "flash"), ("role", "status"), ("aria-live", "polite")],
    )
    .close("div");
    let refresh = page.refresh_at.map(|t| t.to_string()).unwrap_or_default();
    h.open("main", &[("id", "board"), ("data-refresh-at", &refresh)]);
    refresh_mark(&mut h, page.refresh_at);
    h.append(&page.main);
    h.close("main");
    let can_act = identity::can_act(ctx);
    help::legend(&mut h, can_act);
    help::panel(&mut h, can_act);
    if can_act {
        help::ask(&mut h);
    }
    h.close("body").close("html");
    format!("<!doctype html>\n{}", h.finish())
}

/// The themes a person may choose, as `data-theme-choice` names them
/// (look.js keeps the choice in the browser and sets `data-theme` on
/// `<html>`; `system` removes it), and the button's words.
pub(crate) const THEMES: [(&str, &str); 3] =
    [("system", "system"), ("light", "light"), ("dark", "dark")];

/// The theme switch: one pressed button among the themes (the system's
/// until the person chooses; look.js marks the one chosen).
fn theme_switch(h: &mut Html) {
    h.open(
        "div",
        &[
            ("class", "theme"),
            ("role", "group"),
            ("aria-label", "colour theme"),
        ],
    );
    h.elem(
        "span",
        &[("class", "lead"), ("aria-hidden", "true")],
        "theme:",
    );
    for (name, words) in THEMES {
        let pressed = if name == "system" { "true" } else { "false" };
        h.elem(
            "button",
            &[
                ("type", "button"),
                ("data-theme-choice", name),
                ("aria-pressed", pressed),
                ("title", &format!("colour theme: {words}")),
            ],
            words,
        );
    }
    h.close("div");
}

/// The notes board.js shows while they are true, in one live region: the
/// server does not answer (the event stream is down, a read got no
/// answer), a form got no answer (its text stays in its field), a refresh
/// waits for the person to leave a field.
fn liveness(h: &mut Html) {
    h.open(
        "div",
        &[
            ("id", "liveness"),
            ("class", "liveness"),
            ("role", "status"),
            ("aria-live", "polite"),
        ],
    );
    h.open(
        "p",
        &[
            ("id", "offline"),
            ("class", "offline"),
            ("hidden", "hidden"),
        ],
    )
    .elem("strong", &[], "not live: reconnecting…")
    .text(
        " The board's server does not answer, so this page may be out of date; \
         it reconnects by itself. If the server was stopped, start it again \
         (tasklists serve, on the same port) and this page catches up.",
    )
    .close("p");
    h.open(
        "p",
        &[("id", "unsent"), ("class", "unsent"), ("hidden", "hidden")],
    )
    .elem("strong", &[], "Not sent:")
    .text(
        " the server did not answer. Anything you typed is still in its \
         field: send it again once the board is live.",
    )
    .close("p");
    h.elem(
        "p",
        &[("id", "paused"), ("class", "paused"), ("hidden", "hidden")],
        "updates paused while you type · they show when you leave the field",
    );
    h.open(
        "p",
        &[
            ("id", "signed-out"),
            ("class", "offline"),
            ("hidden", "hidden"),
        ],
    )
    .elem("strong", &[], "signed out:")
    .text(
        " the server no longer knows this browser's session (it was \
         restarted, the session went unused for 12 hours, or its token was \
         revoked). Open the sign-in link (the address `tasklists serve` \
         printed) in another tab: this page then catches up, and what you \
         typed stays in its field.",
    )
    .close("p");
    h.close("div");
}

/// The refresh time again inside `<main>`, where a live refresh (which
/// replaces only main's inner HTML) finds it.
fn refresh_mark(h: &mut Html, refresh_at: Option<i64>) {
    let at = refresh_at.map(|t| t.to_string()).unwrap_or_default();
    h.open(
        "div",
        &[
            ("class", "refresh"),
            ("hidden", "hidden"),
            ("data-refresh-at", &at),
        ],
    )
    .close("div");
}

/// `as @ann`, or that the board is read-only and how to name yourself
/// (the dashboard's words).
fn who(h: &mut Html, ctx: &CallContext) {
    match ctx.person.as_deref() {
        Some(p) if identity::can_act(ctx) => {
            h.elem("span", &[("class", "who")], &format!("as @{p}"));
        }
        _ => {
            h.open("span", &[("class", "who read-only")])
                .elem("strong", &[], "read-only")
                .text(" · ")
                .text(&format!("to act, {}", identity::NO_PERSON_HINT))
                .close("span");
        }
    }
}

/// The key map as JSON: `[{key, action, label, input, writes}]`.
fn key_map_json() -> String {
    let keys: Vec<serde_json::Value> = crate::person::key_map()
        .into_iter()
        .map(|k| {
            serde_json::json!({
                "key": k.key,
                "action": k.action,
                "label": k.label,
                "input": input_name(k.input),
                "writes": k.writes,
            })
        })
        .collect();
    serde_json::Value::from(keys).to_string()
}

/// The key map's input as the forms and board.js name it.
pub(crate) fn input_name(input: KeyInput) -> &'static str {
    match input {
        KeyInput::None => "none",
        KeyInput::Text => "text",
        KeyInput::Confirm => "confirm",
    }
}

/// A short page saying `heading` and `lines` (the component's words), with
/// a link back to the lists.
pub(crate) fn message(heading: &str, body: Html) -> Page {
    let mut main = Html::new();
    main.open("section", &[("class", "message")]);
    main.elem("h1", &[], heading);
    main.append(&body);
    main.open("p", &[])
        .open("a", &[("href", "/")])
        .text("Back to the lists")
        .close("a")
        .close("p");
    main.close("section");
    Page {
        title: heading.to_string(),
        main,
        refresh_at: None,
    }
}

/// A 303 to `location`.
pub(crate) fn see_other(location: String) -> WebResponse {
    WebResponse {
        status: 303,
        content_type: "text/plain; charset=utf-8".into(),
        body: String::new(),
        location,
        immutable: false,
    }
}

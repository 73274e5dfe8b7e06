//! The board's two static files, compiled into the component: the script
//! (transport only: live refresh, forms by fetch, the key map's keys) and
//! the stylesheet. Their addresses carry a hash of their bytes, so the
//! browser may keep them for good and a new build is fetched anew.
//!
//! Each file is written in parts, one concern each (`assets/board.js` is
//! the core: refresh, forms, keys; the others build on what it exposes as
//! `window.tasklistsBoard`), joined here into the one file a page loads.

use crate::bindings::WebResponse;

/// A static file.
pub(crate) struct Asset {
    /// Its name under `/assets/`.
    pub name: &'static str,
    /// Its media type.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
    /// FNV-1a of its bytes.
    pub hash: u64,
}

impl Asset {
    /// Its address: `/assets/<name>?v=<hash>`.
    pub(crate) fn address(&self) -> String {
        format!("/assets/{}?v={:016x}", self.name, self.hash)
    }
}

/// The 64-bit FNV-1a hash of `bytes`, at compile time.
pub(crate) const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

const JS_TEXT: &str = concat!(
    include_str!("assets/board.js"),
    include_str!("assets/find.js"),
    include_str!("assets/drag.js"),
    include_str!("assets/edit.js"),
    include_str!("assets/look.js"),
);
const CSS_TEXT: &str = concat!(
    include_str!("assets/board.css"),
    include_str!("assets/find.css"),
    include_str!("assets/drag.css"),
    include_str!("assets/edit.css"),
);

/// `board.js`.
pub(crate) static JS: Asset = Asset {
    name: "board.js",
    content_type: "text/javascript; charset=utf-8",
    body: JS_TEXT,
    hash: fnv1a(JS_TEXT.as_bytes()),
};

/// `board.css`.
pub(crate) static CSS: Asset = Asset {
    name: "board.css",
    content_type: "text/css; charset=utf-8",
    body: CSS_TEXT,
    hash: fnv1a(CSS_TEXT.as_bytes()),
};

const THEME_TEXT: &str = include_str!("assets/theme.js");

/// `theme.js`: the theme the person chose, set on `<html>` before the
/// first paint (a tiny blocking script: the look part's, see look.js).
pub(crate) static THEME: Asset = Asset {
    name: "theme.js",
    content_type: "text/javascript; charset=utf-8",
    body: THEME_TEXT,
    hash: fnv1a(THEME_TEXT.as_bytes()),
};

/// The asset named `name` (whatever its `v`), or None.
pub(crate) fn serve(name: &str) -> Option<WebResponse> {
    let asset = [&JS, &CSS, &THEME].into_iter().find(|a| a.name == name)?;
    Some(WebResponse {
        status: 200,
        content_type: asset.content_type.into(),
        body: asset.body.into(),
        location: String::new(),
        immutable: true,
    })
}

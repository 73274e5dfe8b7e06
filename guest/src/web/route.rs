//! A request read: its path into a [`Route`], its query and a form body
//! into name/value pairs (percent-decoded, `+` as a space). Anything that
//! does not decode is refused here, before a page or an action sees it.

use crate::bindings::{WebMethod, WebRequest};

/// Largest form body read (a task's texts fit many times over); a larger
/// one is refused with 400, nothing read. (`tasklists serve` refuses
/// bodies past its own, smaller limit before they get here.)
pub(crate) const MAX_BODY: usize = 1 << 20;

/// Most fields a form may carry (the largest form has a handful).
const MAX_FIELDS: usize = 32;

/// Where a request goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    /// `GET /`: the lists.
    Overview,
    /// `GET /lists/{id}`: a list's board.
    Board(String),
    /// `GET /lists/{id}/audit`: a list's audit timeline.
    Audit(String),
    /// `GET /tasks/{id}`: a task's details.
    Task(String),
    /// `GET /assets/{name}`.
    Asset(String),
    /// `POST /act`: a person's action.
    Act,
    /// Anything else (or a method the path does not take).
    Unknown,
}

/// Why a request could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BadRequest(pub String);

/// The route of `request`; a path that does not decode is refused.
pub(crate) fn route(request: &WebRequest) -> Result<Route, BadRequest> {
    let path = decode(&request.path, false)
        .ok_or_else(|| BadRequest("the address is not valid percent-encoded UTF-8".into()))?;
    let parts: Vec<&str> = path.split('/').skip(1).collect();
    let get = request.method == WebMethod::Get;
    Ok(match (get, parts.as_slice()) {
        (true, [""]) => Route::Overview,
        (true, ["lists", id]) if !id.is_empty() => Route::Board((*id).to_string()),
        (true, ["lists", id, "audit"]) if !id.is_empty() => Route::Audit((*id).to_string()),
        (true, ["tasks", id]) if !id.is_empty() => Route::Task((*id).to_string()),
        (true, ["assets", name]) => Route::Asset((*name).to_string()),
        (false, ["act"]) => Route::Act,
        _ => Route::Unknown,
    })
}

/// Name/value pairs of a query string or a form body, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Pairs(pub Vec<(String, String)>);

impl Pairs {
    /// The first value of `name`, if given.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether `name` is given with `value`.
    pub(crate) fn has(&self, name: &str, value: &str) -> bool {
        self.0.iter().any(|(n, v)| n == name && v == value)
    }
}

/// A query string read leniently: a pair that does not decode is left
/// out (a query only chooses a view).
pub(crate) fn query(text: &str) -> Pairs {
    Pairs(
        text.split('&')
            .filter(|p| !p.is_empty())
            .filter_map(|p| {
                let (n, v) = p.split_once('=').unwrap_or((p, ""));
                Some((decode(n, true)?, decode(v, true)?))
            })
            .collect(),
    )
}

/// The fields a form may give more than once: a list picked in parts
/// (the edit form's dependencies: one box per task kept, one to add).
const REPEATED: [&str; 1] = ["depends_on"];

/// A form body read strictly: too large, too many fields, a field given
/// twice (but for [`REPEATED`]) or one that does not decode is refused.
pub(crate) fn form(body: &str) -> Result<Pairs, BadRequest> {
    if body.len() > MAX_BODY {
        return Err(BadRequest(format!(
            "the form is {} bytes, more than the {} a form may carry",
            body.len(),
            MAX_BODY
        )));
    }
    let mut pairs = Vec::new();
    for p in body.split('&').filter(|p| !p.is_empty()) {
        let (n, v) = p.split_once('=').unwrap_or((p, ""));
        let (Some(n), Some(v)) = (decode(n, true), decode(v, true)) else {
            return Err(BadRequest(
                "the form is not valid application/x-www-form-urlencoded UTF-8".into(),
            ));
        };
        if !REPEATED.contains(&n.as_str()) && pairs.iter().any(|(m, _): &(String, String)| *m == n)
        {
            return Err(BadRequest(format!(
                "the form gives the field {} twice",
                crate::text::quote(&n)
            )));
        }
        pairs.push((n, v));
        if pairs.len() > MAX_FIELDS {
            return Err(BadRequest(format!(
                "the form has more than {MAX_FIELDS} fields"
            )));
        }
    }
    Ok(Pairs(pairs))
}

/// `s` percent-decoded (and `+` as a space when `plus`); None when an
/// escape is broken or the bytes are not UTF-8.
pub(crate) fn decode(s: &str, plus: bool) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// `s` percent-encoded for a path segment or a query value (unreserved
/// characters kept).
pub(crate) fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Where a no-script form post returns: a path of this site (starting
/// with one `/`, no scheme, no `//` host, no backslash or control), else
/// the overview.
pub(crate) fn safe_return(to: Option<&str>) -> String {
    match to {
        Some(to)
            if to.starts_with('/')
                && !to.starts_with("//")
                && !to.contains('\\')
                && !to.chars().any(char::is_control) =>
        {
            to.to_string()
        }
        _ => "/".into(),
    }
}

/// `query` without what only the board's script asks (`part`, the
/// cards it `have`s, the `task` whose actions it fetches): a page's own
/// address for forms and links.
pub(crate) fn without_part(query: &Pairs) -> String {
    query
        .0
        .iter()
        .filter(|(n, _)| !matches!(n.as_str(), "part" | "have" | "task"))
        .map(|(n, v)| format!("{}={}", encode(n), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

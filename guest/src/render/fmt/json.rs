//! Tolerant access to JSON fields (blank strings count as absent) and
//! compact one-line forms of JSON values.

use super::{short_id, truncate};
use serde_json::Value;

/// A non-empty string field.
pub(crate) fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)?.as_str().and_then(nonblank)
}

/// The text unless it is blank: a typed field read as [`str_of`] reads a
/// JSON one.
pub(crate) fn nonblank(s: &str) -> Option<&str> {
    (!s.trim().is_empty()).then_some(s)
}

/// An optional typed text field, blank counting as absent.
pub(crate) fn opt(s: &Option<String>) -> Option<&str> {
    s.as_deref().and_then(nonblank)
}

/// An integer field, tolerant of huge or fractional numbers (clamped).
pub(crate) fn int(v: &Value, key: &str) -> Option<i64> {
    as_int(v.get(key)?)
}

/// An integer from a JSON number, clamped into i64.
pub(crate) fn as_int(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    if v.as_u64().is_some() {
        return Some(i64::MAX);
    }
    // `as` saturates for floats; NaN cannot come from JSON.
    v.as_f64().map(|f| f as i64)
}

/// A field that must be an array.
pub(crate) fn arr<'a>(v: &'a Value, key: &str) -> Option<&'a Vec<Value>> {
    v.get(key)?.as_array()
}

/// A value in a few words: strings bare (ids shortened), others as compact
/// JSON, cut to `max` columns.
pub(crate) fn compact_value(v: &Value, max: usize) -> String {
    match v {
        Value::String(s) if looks_like_id(s) => short_id(s),
        Value::String(s) => truncate(s, max),
        Value::Array(items) if items.iter().all(|i| i.as_str().is_some_and(looks_like_id)) => {
            let ids: Vec<String> = items
                .iter()
                .filter_map(Value::as_str)
                .map(short_id)
                .collect();
            truncate(&format!("[{}]", ids.join(",")), max)
        }
        other => compact_json(other, max),
    }
}

/// Compact JSON, cut to `max` columns.
pub(crate) fn compact_json(v: &Value, max: usize) -> String {
    truncate(&serde_json::to_string(v).unwrap_or_default(), max)
}

/// `prefix_` + a 26-character ULID: the ids the tools hand out.
pub(crate) fn looks_like_id(s: &str) -> bool {
    match s.split_once('_') {
        Some((p, rest)) => {
            !p.is_empty()
                && p.chars().all(|c| c.is_ascii_lowercase())
                && rest.len() == 26
                && rest.chars().all(|c| c.is_ascii_alphanumeric())
        }
        None => false,
    }
}

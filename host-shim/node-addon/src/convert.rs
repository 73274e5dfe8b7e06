//! The store's values and errors across N-API, the addon's one place for
//! them: parameters arrive in the shape jco gives WIT's `value` variant
//! (`{tag, val}`, s64 as BigInt, bytes as Uint8Array); query results leave
//! packed ([`SqlRows`]), and the host library turns them into jco's `rows`
//! shape; errors leave as exceptions whose `code` is `store:` and the WIT
//! `store-error` case (`store:busy`, `store:invalid-state`, …), `message`
//! the engine's words. The host library turns exactly these into the
//! component's error values; any other exception is a host bug and traps
//! the call.

use napi::bindgen_prelude::{BigInt, Either4, Float64Array, Uint8Array, Uint32Array};
use napi_derive::napi;
use tasklists_store::{Rows, StoreError, Value};

/// One WIT `value`: `tag` is the case (`null`, `integer`, `real`, `text`,
/// `blob`), `val` its payload.
#[napi(object)]
pub struct SqlValue {
    /// The variant case.
    pub tag: String,
    /// The payload (absent for `null`).
    pub val: Option<Either4<BigInt, f64, String, Uint8Array>>,
}

/// WIT `rows`, packed so that a result of any size crosses into
/// JavaScript in six values instead of two objects per cell (building
/// `{tag, val}` objects through N-API cost about 1 µs per cell; JavaScript
/// builds them from this in a few nanoseconds). The host library unpacks
/// it (`store-import.ts`, `unpackRows`).
///
/// Cells are row-major, `kinds[i]` saying what cell `i` is.
#[napi(object)]
pub struct SqlRows {
    /// Column names, in order.
    pub columns: Vec<String>,
    /// Per cell: 0 null, 1 integer (in `numbers`, exact), 2 integer
    /// beyond 2^53 (its decimal digits in `text`), 3 real (in `numbers`),
    /// 4 text (in `text`), 5 blob (the next of `blobs`).
    pub kinds: Uint8Array,
    /// The numeric cells' values (other cells hold 0).
    pub numbers: Float64Array,
    /// Every text cell (and big integer's digits), concatenated.
    pub text: String,
    /// Per cell, where its text ends in `text`, in UTF-16 units (it starts
    /// where the previous text cell ended).
    pub text_ends: Uint32Array,
    /// The blob cells' bytes, in order.
    pub blobs: Vec<Uint8Array>,
}

/// Cell kinds of [`SqlRows`].
mod kind {
    pub(super) const NULL: u8 = 0;
    pub(super) const INTEGER: u8 = 1;
    pub(super) const BIG_INTEGER: u8 = 2;
    pub(super) const REAL: u8 = 3;
    pub(super) const TEXT: u8 = 4;
    pub(super) const BLOB: u8 = 5;
}

/// The largest integer a JavaScript number holds exactly.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// A parameter from the component; a shape jco would never produce is a
/// host bug, reported as such (it traps the call).
pub(crate) fn to_value(value: SqlValue) -> napi::Result<Value> {
    Ok(match (value.tag.as_str(), value.val) {
        ("null", _) => Value::Null,
        ("integer", Some(Either4::A(n))) => {
            let (n, lossless) = n.get_i64();
            if !lossless {
                return Err(napi::Error::from_reason(
                    "an integer parameter is not an s64",
                ));
            }
            Value::Integer(n)
        }
        ("real", Some(Either4::B(f))) => Value::Real(f),
        ("text", Some(Either4::C(s))) => Value::Text(s),
        ("blob", Some(Either4::D(b))) => Value::Blob(b.to_vec()),
        (tag, _) => {
            return Err(napi::Error::from_reason(format!(
                "a parameter is not a store value (case {tag:?} with a payload of another type)"
            )));
        }
    })
}

/// Every parameter of a statement.
pub(crate) fn to_values(values: Vec<SqlValue>) -> napi::Result<Vec<Value>> {
    values.into_iter().map(to_value).collect()
}

/// A query's result, packed for the host library.
pub(crate) fn from_rows(rows: Rows) -> SqlRows {
    let cells: usize = rows.rows.iter().map(Vec::len).sum();
    let mut kinds = Vec::with_capacity(cells);
    let mut numbers = vec![0.0; cells];
    let mut text = String::new();
    let mut text_ends = vec![0u32; cells];
    let mut text_units = 0usize;
    let mut blobs = Vec::new();
    let mut push_text = |text: &mut String, s: &str, i: usize| {
        text.push_str(s);
        text_units += s.encode_utf16().count();
        text_ends[i] = u32::try_from(text_units).unwrap_or(u32::MAX);
    };
    for (i, value) in rows.rows.into_iter().flatten().enumerate() {
        kinds.push(match value {
            Value::Null => kind::NULL,
            Value::Integer(n) if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&n) => {
                numbers[i] = n as f64;
                kind::INTEGER
            }
            Value::Integer(n) => {
                push_text(&mut text, &n.to_string(), i);
                kind::BIG_INTEGER
            }
            Value::Real(f) => {
                numbers[i] = f;
                kind::REAL
            }
            Value::Text(s) => {
                push_text(&mut text, &s, i);
                kind::TEXT
            }
            Value::Blob(b) => {
                blobs.push(Uint8Array::from(b));
                kind::BLOB
            }
        });
    }
    SqlRows {
        columns: rows.columns,
        kinds: Uint8Array::from(kinds),
        numbers: Float64Array::from(numbers),
        text,
        text_ends: Uint32Array::from(text_ends),
        blobs,
    }
}

/// A store error, thrown with its WIT case in `code`.
pub(crate) fn store_error(e: StoreError) -> napi::Error<String> {
    let code = format!("store:{}", e.wit_case());
    napi::Error::new(code, e.message().to_owned())
}

/// A host bug (a value jco would never pass), in the same error type.
pub(crate) fn host_bug(e: napi::Error) -> napi::Error<String> {
    napi::Error::new("host-bug".to_string(), e.reason.clone())
}

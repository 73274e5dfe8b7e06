//! The store's values and errors across N-API, the addon's one place for
//! them: parameters arrive as the payloads of WIT's `value` variant, each
//! case told by its JavaScript type ([`SqlParam`]); query results leave
//! in jco's shape of the WIT `rows` record ([`SqlRows`]), packed lists the
//! component takes as they are; errors leave as exceptions whose `code` is `store:` and the WIT
//! `store-error` case (`store:busy`, `store:invalid-state`, …), `message`
//! the engine's words. The host library turns exactly these into the
//! component's error values; any other exception is a host bug and traps
//! the call.

use napi::Env;
use napi::bindgen_prelude::{
    BigInt, BigInt64ArraySlice, Either5, Float64ArraySlice, Null, Uint8Array, Uint8ArraySlice,
    Uint32ArraySlice,
};
use napi_derive::napi;
use tasklists_store::{Rows, StoreError, Value};

/// One parameter: the payload of the WIT `value` the component passed,
/// its case told by its JavaScript type: a string (text), a BigInt
/// (integer), a number (real), `null`, a Uint8Array (blob). The host
/// library takes it out of jco's `{tag, val}` (`store-import.ts`): reading
/// that object through N-API cost two property lookups and a string per
/// parameter, most of what a statement's parameters cost to cross.
#[napi]
pub type SqlParam = Either5<String, BigInt, f64, Null, Uint8Array>;

/// WIT `rows` in jco's shape: the store's packed lists, each crossing
/// N-API as one typed array or string (a value per cell built through
/// N-API cost about 1 µs each), and handed to the component by jco as
/// they are.
#[napi(object)]
pub struct SqlRows<'env> {
    /// Cells per row.
    pub width: u32,
    /// One letter per cell, row after row (`wit/store.wit`).
    pub cells: String,
    /// The integer cells, in order.
    pub integers: BigInt64ArraySlice<'env>,
    /// The real cells, in order.
    pub reals: Float64ArraySlice<'env>,
    /// The text cells, concatenated.
    pub text: String,
    /// Where each text cell ends in `text`, in UTF-8 bytes.
    pub text_ends: Uint32ArraySlice<'env>,
    /// The blob cells, in order.
    pub blobs: Vec<Uint8ArraySlice<'env>>,
}

/// A parameter from the component; an integer that is no s64 is a host
/// bug, reported as such (it traps the call).
pub(crate) fn to_value(value: SqlParam) -> napi::Result<Value> {
    Ok(match value {
        Either5::A(text) => Value::Text(text),
        Either5::B(n) => {
            let (n, lossless) = n.get_i64();
            if !lossless {
                return Err(napi::Error::from_reason(
                    "an integer parameter is not an s64",
                ));
            }
            Value::Integer(n)
        }
        Either5::C(real) => Value::Real(real),
        Either5::D(Null) => Value::Null,
        Either5::E(blob) => Value::Blob(blob.to_vec()),
    })
}

/// Every parameter of a statement.
pub(crate) fn to_values(values: Vec<SqlParam>) -> napi::Result<Vec<Value>> {
    values.into_iter().map(to_value).collect()
}

/// A query's result, its lists copied into typed arrays of the engine's
/// own memory: small as they are, a copy costs less than handing V8 the
/// vectors as external buffers, each with a finalizer its collector runs.
pub(crate) fn from_rows(env: &Env, rows: Rows) -> napi::Result<SqlRows<'_>> {
    Ok(SqlRows {
        width: u32::try_from(rows.width()).unwrap_or(u32::MAX),
        integers: BigInt64ArraySlice::copy_from(env, &rows.integers)?,
        reals: Float64ArraySlice::copy_from(env, &rows.reals)?,
        text_ends: Uint32ArraySlice::copy_from(env, &rows.text_ends)?,
        blobs: rows
            .blobs
            .iter()
            .map(|blob| Uint8ArraySlice::copy_from(env, blob))
            .collect::<napi::Result<_>>()?,
        cells: rows.cells,
        text: rows.text,
    })
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

//! The store's values in the shapes jco gives WIT's `value` variant and
//! `rows` record (`{tag, val}`, s64 as BigInt, bytes as Uint8Array), so
//! they pass between the component and the backend untouched by the
//! JavaScript in between.

use napi::bindgen_prelude::{BigInt, Either4, Uint8Array};
use napi_derive::napi;
use tasklists_store::{Rows, Value};

/// One WIT `value`: `tag` is the case (`null`, `integer`, `real`, `text`,
/// `blob`), `val` its payload.
#[napi(object)]
pub struct SqlValue {
    /// The variant case.
    pub tag: String,
    /// The payload (absent for `null`).
    pub val: Option<Either4<BigInt, f64, String, Uint8Array>>,
}

/// WIT `rows`: column names and each row's values in column order.
#[napi(object)]
pub struct SqlRows {
    /// Column names, in order.
    pub columns: Vec<String>,
    /// The rows.
    pub rows: Vec<Vec<SqlValue>>,
}

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

fn from_value(value: Value) -> SqlValue {
    let (tag, val) = match value {
        Value::Null => ("null", None),
        Value::Integer(n) => ("integer", Some(Either4::A(BigInt::from(n)))),
        Value::Real(f) => ("real", Some(Either4::B(f))),
        Value::Text(s) => ("text", Some(Either4::C(s))),
        Value::Blob(b) => ("blob", Some(Either4::D(Uint8Array::from(b)))),
    };
    SqlValue {
        tag: tag.to_string(),
        val,
    }
}

/// A query's result, for the component.
pub(crate) fn from_rows(rows: Rows) -> SqlRows {
    SqlRows {
        columns: rows.columns,
        rows: rows
            .rows
            .into_iter()
            .map(|row| row.into_iter().map(from_value).collect())
            .collect(),
    }
}

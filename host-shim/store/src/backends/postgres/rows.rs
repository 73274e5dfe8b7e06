//! PostgreSQL columns as store values: integers (`int2`, `int4`, `int8`,
//! `oid`, `bool` as 0/1, an integral `numeric`), reals (`float4`,
//! `float8`, any other `numeric`), text (and `json`), blobs (`bytea`),
//! null. Any other column type is refused before the query runs, naming
//! the column and the cast that would fix it.

use super::params::{base, is_text};
use crate::{StoreError, Value};
use std::error::Error;
use tokio_postgres::Column;
use tokio_postgres::types::{FromSql, Type};

/// What one value costs against the result cap (as in the SQLite backend).
pub(super) fn value_cost(value: &Value) -> usize {
    16 + match value {
        Value::Text(s) => s.len(),
        Value::Blob(b) => b.len(),
        _ => 8,
    }
}

/// Whether the store can return a column of type `ty`.
fn supported(ty: &Type) -> bool {
    let ty = base(ty);
    is_text(ty)
        || [
            Type::INT2,
            Type::INT4,
            Type::INT8,
            Type::OID,
            Type::FLOAT4,
            Type::FLOAT8,
            Type::NUMERIC,
            Type::BOOL,
            Type::BYTEA,
            Type::JSON,
            Type::JSONB,
            Type::VOID,
        ]
        .contains(ty)
}

/// Refuses a statement whose result has a column the store cannot return.
pub(super) fn check_columns(columns: &[Column]) -> Result<(), StoreError> {
    match columns.iter().find(|c| !supported(c.type_())) {
        None => Ok(()),
        Some(column) => Err(StoreError::Sql(format!(
            "unsupported column type {} (column `{}`): cast it to one the store returns \
             (::int8, ::float8, ::text, ::bytea)",
            column.type_().name(),
            column.name()
        ))),
    }
}

/// One column of a row, read as a store value.
pub(super) struct Cell(pub(super) Value);

type Failure = Box<dyn Error + Sync + Send>;

impl<'a> FromSql<'a> for Cell {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, Failure> {
        let ty = base(ty);
        let fixed = |n: usize| -> Result<&[u8], Failure> {
            if raw.len() == n {
                Ok(raw)
            } else {
                Err(format!("a {} value of {} bytes", ty.name(), raw.len()).into())
            }
        };
        let value = if *ty == Type::INT8 {
            Value::Integer(i64::from_be_bytes(fixed(8)?.try_into()?))
        } else if *ty == Type::INT4 {
            Value::Integer(i32::from_be_bytes(fixed(4)?.try_into()?).into())
        } else if *ty == Type::INT2 {
            Value::Integer(i16::from_be_bytes(fixed(2)?.try_into()?).into())
        } else if *ty == Type::OID {
            Value::Integer(u32::from_be_bytes(fixed(4)?.try_into()?).into())
        } else if *ty == Type::FLOAT8 {
            Value::Real(f64::from_be_bytes(fixed(8)?.try_into()?))
        } else if *ty == Type::FLOAT4 {
            Value::Real(f32::from_be_bytes(fixed(4)?.try_into()?).into())
        } else if *ty == Type::BOOL {
            Value::Integer(i64::from(fixed(1)?[0] != 0))
        } else if *ty == Type::NUMERIC {
            numeric(raw)?
        } else if *ty == Type::BYTEA {
            Value::Blob(raw.to_vec())
        } else if *ty == Type::VOID {
            Value::Null
        } else if *ty == Type::JSONB {
            // A version byte (1), then the text.
            let text = raw
                .strip_prefix(&[1])
                .ok_or("a jsonb value of an unknown version")?;
            Value::Text(String::from_utf8_lossy(text).into_owned())
        } else {
            // Text types, enums and json: the text itself. The connection
            // is UTF-8; never fail a read on a stray byte anyway.
            Value::Text(String::from_utf8_lossy(raw).into_owned())
        };
        Ok(Cell(value))
    }

    fn from_sql_null(_ty: &Type) -> Result<Self, Failure> {
        Ok(Cell(Value::Null))
    }

    /// Every type: what the store returns is decided by [`check_columns`].
    fn accepts(_ty: &Type) -> bool {
        true
    }
}

/// The sign word of a binary `numeric`.
const NUMERIC_NEG: u16 = 0x4000;
const NUMERIC_NAN: u16 = 0xC000;
const NUMERIC_PINF: u16 = 0xD000;
const NUMERIC_NINF: u16 = 0xF000;

/// A binary `numeric` (base-10000 digits, the first at `weight`) as an
/// integer when it has no fraction and fits, else as the nearest real.
fn numeric(raw: &[u8]) -> Result<Value, Failure> {
    let word = |i: usize| -> Result<u16, Failure> {
        raw.get(i * 2..i * 2 + 2)
            .map(|b| u16::from_be_bytes([b[0], b[1]]))
            .ok_or_else(|| "a truncated numeric value".into())
    };
    let ndigits = usize::from(word(0)?);
    let weight = i64::from(word(1)? as i16);
    let sign = word(2)?;
    match sign {
        NUMERIC_NAN => return Ok(Value::Real(f64::NAN)),
        NUMERIC_PINF => return Ok(Value::Real(f64::INFINITY)),
        NUMERIC_NINF => return Ok(Value::Real(f64::NEG_INFINITY)),
        _ => {}
    }
    let digits = (0..ndigits)
        .map(|i| word(4 + i))
        .collect::<Result<Vec<u16>, _>>()?;
    let negative = sign == NUMERIC_NEG;
    // Integral: every digit after the decimal point is zero.
    let integral = digits
        .iter()
        .enumerate()
        .all(|(i, &d)| d == 0 || weight - i as i64 >= 0);
    if integral {
        let mut acc: Option<i128> = Some(0);
        for (i, &d) in digits.iter().enumerate() {
            let place = weight - i as i64;
            if place >= 0 && d != 0 {
                let scale = u32::try_from(place)
                    .ok()
                    .and_then(|p| 10_000i128.checked_pow(p));
                acc = acc.and_then(|a| scale.and_then(|s| a.checked_add(i128::from(d) * s)));
            }
        }
        if let Some(i) = acc
            .map(|a| if negative { -a } else { a })
            .and_then(|a| i64::try_from(a).ok())
        {
            return Ok(Value::Integer(i));
        }
    }
    // The digits as decimal text with an exponent: parsing rounds exactly.
    let mut text = String::from(if negative { "-0" } else { "0" });
    for d in &digits {
        text.push_str(&format!("{d:04}"));
    }
    let exponent = 4 * (weight + 1 - ndigits as i64);
    text.push_str(&format!("e{exponent}"));
    Ok(Value::Real(text.parse::<f64>()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A binary numeric from its header and digits.
    fn raw(weight: i16, sign: u16, digits: &[u16]) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend((digits.len() as u16).to_be_bytes());
        out.extend(weight.to_be_bytes());
        out.extend(sign.to_be_bytes());
        out.extend(0u16.to_be_bytes());
        for d in digits {
            out.extend(d.to_be_bytes());
        }
        out
    }

    #[test]
    fn numerics_are_integers_when_integral_and_reals_otherwise() {
        assert_eq!(numeric(&raw(0, 0, &[])).unwrap(), Value::Integer(0));
        // 12345678 = 1234 5678
        assert_eq!(
            numeric(&raw(1, 0, &[1234, 5678])).unwrap(),
            Value::Integer(12_345_678)
        );
        // -20000 = 2 0000, stripped to one digit at weight 1
        assert_eq!(
            numeric(&raw(1, NUMERIC_NEG, &[2])).unwrap(),
            Value::Integer(-20_000)
        );
        // 1.5 = 1 . 5000
        assert_eq!(numeric(&raw(0, 0, &[1, 5000])).unwrap(), Value::Real(1.5));
        // 0.0001
        assert_eq!(numeric(&raw(-1, 0, &[1])).unwrap(), Value::Real(0.0001));
        // 10^40 does not fit an i64: the nearest real.
        assert_eq!(numeric(&raw(10, 0, &[1])).unwrap(), Value::Real(1e40));
        assert!(
            matches!(numeric(&raw(0, NUMERIC_NAN, &[])).unwrap(), Value::Real(f) if f.is_nan())
        );
        assert!(numeric(&[0, 1]).is_err());
    }

    #[test]
    fn i64_extremes_survive_numeric() {
        // 9223372036854775807 = 922 3372 0368 5477 5807
        let max = raw(4, 0, &[922, 3372, 368, 5477, 5807]);
        assert_eq!(numeric(&max).unwrap(), Value::Integer(i64::MAX));
        let min = raw(4, NUMERIC_NEG, &[922, 3372, 368, 5477, 5808]);
        assert_eq!(numeric(&min).unwrap(), Value::Integer(i64::MIN));
    }
}

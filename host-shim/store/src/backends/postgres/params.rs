//! Store values as PostgreSQL parameters. A value has one of five kinds
//! while PostgreSQL infers a type for every `$n` from the statement, so
//! each value is encoded by the type the server expects (an integer into
//! `int2`, `int4`, `int8`, `numeric`, `bool`, …), range-checked. A value
//! that does not fit its parameter is a typed `Sql` error naming both,
//! raised before anything is sent, so the transaction stays usable.

use crate::{StoreError, Value};
use bytes::BytesMut;
use std::error::Error;
use tokio_postgres::types::{Format, IsNull, Kind, ToSql, Type, to_sql_checked};

/// What a parameter's bytes are, once its value met its type.
#[derive(Debug, PartialEq)]
enum Encoding<'a> {
    Null,
    I16(i16),
    I32(i32),
    I64(i64),
    U32(u32),
    F32(f32),
    F64(f64),
    Bool(bool),
    /// Bytes as they are (text types in UTF-8, `bytea`, `json`).
    Raw(&'a [u8]),
    /// `jsonb`: a version byte, then the text.
    Jsonb(&'a [u8]),
    /// Sent in text format: a `numeric`, or an integer for a text type.
    Text(String),
}

/// The type a value is encoded as: a domain by its base type.
pub(super) fn base(ty: &Type) -> &Type {
    match ty.kind() {
        Kind::Domain(inner) => base(inner),
        _ => ty,
    }
}

/// Whether `ty` holds text: `text`, `varchar`, `char(n)`, `name`, an
/// untyped literal, the one-byte `"char"`, or an enum (sent as its label).
pub(super) fn is_text(ty: &Type) -> bool {
    [
        Type::TEXT,
        Type::VARCHAR,
        Type::BPCHAR,
        Type::NAME,
        Type::UNKNOWN,
        Type::CHAR,
    ]
    .contains(ty)
        || matches!(ty.kind(), Kind::Enum(_))
}

/// How `value` is sent as a parameter of type `ty`, or why it cannot be.
fn encoding<'a>(value: &'a Value, ty: &Type) -> Result<Encoding<'a>, String> {
    let ty = base(ty);
    let out_of_range = |i: i64| format!("the integer {i} is out of range for {}", ty.name());
    let mismatch = || {
        let kind = match value {
            Value::Null => "null",
            Value::Integer(_) => "an integer",
            Value::Real(_) => "a real",
            Value::Text(_) => "text",
            Value::Blob(_) => "a blob",
        };
        format!(
            "{kind} cannot be bound where PostgreSQL expects {}",
            ty.name()
        )
    };
    Ok(match value {
        Value::Null => Encoding::Null,
        Value::Integer(i) => {
            let i = *i;
            if *ty == Type::INT8 {
                Encoding::I64(i)
            } else if *ty == Type::INT4 {
                Encoding::I32(i32::try_from(i).map_err(|_| out_of_range(i))?)
            } else if *ty == Type::INT2 {
                Encoding::I16(i16::try_from(i).map_err(|_| out_of_range(i))?)
            } else if *ty == Type::OID {
                Encoding::U32(u32::try_from(i).map_err(|_| out_of_range(i))?)
            } else if *ty == Type::FLOAT8 {
                Encoding::F64(i as f64)
            } else if *ty == Type::FLOAT4 {
                Encoding::F32(i as f32)
            } else if *ty == Type::BOOL {
                match i {
                    0 | 1 => Encoding::Bool(i == 1),
                    _ => return Err(format!("the integer {i} is not a bool (0 or 1)")),
                }
            } else if *ty == Type::NUMERIC || is_text(ty) {
                Encoding::Text(i.to_string())
            } else {
                return Err(mismatch());
            }
        }
        Value::Real(f) => {
            if *ty == Type::FLOAT8 {
                Encoding::F64(*f)
            } else if *ty == Type::FLOAT4 {
                Encoding::F32(*f as f32)
            } else if *ty == Type::NUMERIC {
                Encoding::Text(numeric_text(*f))
            } else {
                return Err(mismatch());
            }
        }
        Value::Text(s) if is_text(ty) || *ty == Type::JSON => Encoding::Raw(s.as_bytes()),
        Value::Text(s) if *ty == Type::JSONB => Encoding::Jsonb(s.as_bytes()),
        Value::Blob(b) if *ty == Type::BYTEA => Encoding::Raw(b),
        Value::Text(_) | Value::Blob(_) => return Err(mismatch()),
    })
}

/// A float as `numeric` text (which has NaN and, since PostgreSQL 14,
/// the infinities).
fn numeric_text(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        // Rust prints a finite float in full, without an exponent.
        f.to_string()
    }
}

/// Checks every parameter against the types PostgreSQL inferred: the
/// count, then each value (1-based, as `$n` is written).
pub(super) fn check(params: &[Value], types: &[Type]) -> Result<(), StoreError> {
    if params.len() != types.len() {
        return Err(StoreError::Sql(format!(
            "the statement takes {} parameter{}, {} {} given",
            types.len(),
            if types.len() == 1 { "" } else { "s" },
            params.len(),
            if params.len() == 1 { "was" } else { "were" },
        )));
    }
    for (n, (value, ty)) in params.iter().zip(types).enumerate() {
        encoding(value, ty)
            .map_err(|why| StoreError::Sql(format!("parameter ${}: {why}", n + 1)))?;
    }
    Ok(())
}

/// A store value as a parameter, encoded by the parameter's type.
#[derive(Debug)]
pub(super) struct Param<'a>(pub(super) &'a Value);

impl ToSql for Param<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        // `check` ran first; a mismatch here is still an error, never a panic.
        match encoding(self.0, ty)? {
            Encoding::Null => return Ok(IsNull::Yes),
            Encoding::I16(v) => out.extend_from_slice(&v.to_be_bytes()),
            Encoding::I32(v) => out.extend_from_slice(&v.to_be_bytes()),
            Encoding::I64(v) => out.extend_from_slice(&v.to_be_bytes()),
            Encoding::U32(v) => out.extend_from_slice(&v.to_be_bytes()),
            Encoding::F32(v) => out.extend_from_slice(&v.to_be_bytes()),
            Encoding::F64(v) => out.extend_from_slice(&v.to_be_bytes()),
            Encoding::Bool(v) => out.extend_from_slice(&[u8::from(v)]),
            Encoding::Raw(bytes) => out.extend_from_slice(bytes),
            Encoding::Jsonb(bytes) => {
                out.extend_from_slice(&[1]);
                out.extend_from_slice(bytes);
            }
            Encoding::Text(text) => out.extend_from_slice(text.as_bytes()),
        }
        Ok(IsNull::No)
    }

    /// Every type: whether the value fits is decided by [`check`].
    fn accepts(_ty: &Type) -> bool {
        true
    }

    /// `numeric` and an integer bound to a text type go as text: no
    /// binary `numeric` encoder needed, and the server parses it exactly.
    fn encode_format(&self, ty: &Type) -> Format {
        match encoding(self.0, ty) {
            Ok(Encoding::Text(_)) => Format::Text,
            _ => Format::Binary,
        }
    }

    to_sql_checked!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_fit_every_integer_type_in_range() {
        assert_eq!(
            encoding(&Value::Integer(7), &Type::INT2),
            Ok(Encoding::I16(7))
        );
        assert_eq!(
            encoding(&Value::Integer(i64::MIN), &Type::INT8),
            Ok(Encoding::I64(i64::MIN))
        );
        assert!(
            encoding(&Value::Integer(70_000), &Type::INT2)
                .unwrap_err()
                .contains("out of range for int2")
        );
        assert!(encoding(&Value::Integer(1 << 40), &Type::INT4).is_err());
        assert_eq!(
            encoding(&Value::Integer(1), &Type::BOOL),
            Ok(Encoding::Bool(true))
        );
        assert!(encoding(&Value::Integer(2), &Type::BOOL).is_err());
        assert_eq!(
            encoding(&Value::Integer(-3), &Type::NUMERIC),
            Ok(Encoding::Text("-3".into()))
        );
        assert_eq!(
            encoding(&Value::Integer(5), &Type::TEXT),
            Ok(Encoding::Text("5".into()))
        );
    }

    #[test]
    fn mismatches_name_the_parameter_and_both_types() {
        let e = check(
            &[Value::Integer(1), Value::Text("x".into())],
            &[Type::INT8, Type::INT8],
        )
        .unwrap_err();
        assert_eq!(
            e,
            StoreError::Sql(
                "parameter $2: text cannot be bound where PostgreSQL expects int8".into()
            )
        );
        let e = check(&[Value::Blob(vec![1])], &[Type::TEXT]).unwrap_err();
        assert!(e.to_string().contains("a blob"), "{e}");
        let e = check(&[], &[Type::TEXT]).unwrap_err();
        assert!(
            e.to_string().contains("takes 1 parameter, 0 were given"),
            "{e}"
        );
        assert!(check(&[Value::Null], &[Type::BYTEA]).is_ok());
    }

    #[test]
    fn numeric_text_is_exact_and_knows_the_specials() {
        assert_eq!(numeric_text(1.5), "1.5");
        assert_eq!(numeric_text(1e21), "1000000000000000000000");
        assert_eq!(numeric_text(f64::NEG_INFINITY), "-Infinity");
        assert_eq!(numeric_text(f64::NAN), "NaN");
    }
}

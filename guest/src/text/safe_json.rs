//! The writer behind [`crate::text::json_text`]: compact JSON, safe to
//! print, written from a serializable value in one pass.
//!
//! Every result an agent reads is written here, and a page's rows are
//! written here to be measured, so this is the component's hottest loop.
//! serde_json escapes a string a byte at a time, then `json_text` walked
//! the whole text again for the characters serde_json leaves raw (DEL,
//! C1, the invisible ones). This writer does both at once, eight bytes at
//! a time over the plain ASCII that nearly every id, name and time is.
//!
//! The text is byte for byte serde_json's, with `json_text`'s escapes.
//! What this writer does not write the same way (a map key that is not a
//! string, a 128-bit integer, an error a value raises), it refuses with
//! [`Unsupported`], and the caller writes that value the slow way, so the
//! result never differs (tests compare the two on every kind of value).

use serde::ser::{self, Serialize};

use super::is_unsafe;

/// serde_json's name for a `RawValue`: a struct of one field, the JSON
/// text, which serde_json writes as it is. Written the same way here, with
/// its unsafe characters escaped as `json_text` escapes them.
pub const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// The name of a newtype around a `RawValue` whose text this writer wrote
/// itself (a page's rows, [`crate::actions::page`]): copied without
/// looking for unsafe characters again. serde_json sees the `RawValue`.
pub const WRITTEN_HERE: &str = "$tasklists::safe_json::WrittenHere";

/// A value this writer leaves to serde_json (see the module's doc).
#[derive(Debug)]
pub struct Unsupported(String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not written by the fast writer: {}", self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

fn unsupported<T>(what: &str) -> Result<T, Unsupported> {
    Err(Unsupported(what.to_string()))
}

/// `value` as compact JSON safe to print, in a string of at least
/// `capacity` bytes; [`Unsupported`] for what only serde_json writes.
pub fn write<T: Serialize + ?Sized>(value: &T, capacity: usize) -> Result<String, Unsupported> {
    let mut writer = Writer {
        out: String::with_capacity(capacity),
        raw: false,
        written_here: false,
    };
    value.serialize(&mut writer)?;
    Ok(writer.out)
}

/// The text being written.
struct Writer {
    out: String,
    /// Inside a `RawValue`: its one string is JSON text, copied with only
    /// its unsafe characters escaped.
    raw: bool,
    /// Inside a [`WRITTEN_HERE`] newtype, until its `RawValue` starts.
    written_here: bool,
}

impl Writer {
    /// `s` as the contents of a JSON string literal (`in_string`), or as
    /// the JSON text of a `RawValue`, whose unsafe characters valid JSON
    /// can only hold inside its string literals, where a `\u` escape
    /// means the same.
    fn escaped(&mut self, s: &str, in_string: bool) {
        let bytes = s.as_bytes();
        let (mut start, mut at) = (0, 0);
        loop {
            at += plain_run(&bytes[at..], in_string);
            let Some(&byte) = bytes.get(at) else { break };
            let c = match byte {
                0..0x80 => char::from(byte),
                _ => s[at..].chars().next().unwrap_or_default(),
            };
            let next = at + c.len_utf8();
            // Past this test: `"` and `\` (in a string), C0 and DEL, and
            // the unsafe non-ASCII characters. Any other is kept as it is.
            if byte < 0x80 || is_unsafe(c) {
                self.out.push_str(&s[start..at]);
                if in_string && byte < 0x80 {
                    self.ascii_escape(byte);
                } else {
                    self.unicode_escapes(c);
                }
                start = next;
            }
            at = next;
        }
        self.out.push_str(&s[start..]);
    }

    /// An ASCII byte that a JSON string cannot hold raw, as serde_json
    /// escapes it (DEL, which it leaves raw, as `json_text` does).
    fn ascii_escape(&mut self, byte: u8) {
        let short = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0c => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            _ => "",
        };
        if short.is_empty() {
            self.unicode_escapes(char::from(byte));
        } else {
            self.out.push_str(short);
        }
    }

    /// `\uXXXX` (lower-case hex, as serde_json and `json_text` write it)
    /// for each UTF-16 unit of `c`.
    fn unicode_escapes(&mut self, c: char) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut units = [0u16; 2];
        for unit in c.encode_utf16(&mut units) {
            self.out.push_str("\\u");
            for shift in [12, 8, 4, 0] {
                self.out
                    .push(char::from(HEX[usize::from((*unit >> shift) & 0xf)]));
            }
        }
    }

    fn quoted(&mut self, s: &str) {
        self.out.push('"');
        self.escaped(s, true);
        self.out.push('"');
    }

    /// A struct's field name as a key, copied without looking for
    /// characters to escape: a field name is this crate's own identifier
    /// (serde's derive, or a `rename` here), never a text from outside,
    /// and looking at every key of every row was a fifth of a page of
    /// lists' writing. One that needed an escape would be a bug in this
    /// crate, which debug builds (every test) catch.
    fn field_name(&mut self, key: &'static str) {
        debug_assert!(
            key.chars()
                .all(|c| c != '"' && c != '\\' && !c.is_control() && !is_unsafe(c)),
            "the field name {key:?} needs escaping"
        );
        self.out.push('"');
        self.out.push_str(key);
        self.out.push('"');
    }
}

/// How many bytes at the start of `bytes` are written as they are: ASCII
/// that is printable and, `in_string`, neither `"` nor `\`. Eight bytes
/// at a time while they all are; the last (up to seven) bytes of a text of
/// eight or more as the eight that end it, which overlap bytes already
/// found plain.
fn plain_run(bytes: &[u8], in_string: bool) -> usize {
    let plain_word = |word: &[u8]| {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        /// The high bit of each byte of `x` that is zero (exact when no
        /// byte of `x` has its high bit set, which the test ORs in too).
        fn zeros(x: u64) -> u64 {
            x.wrapping_sub(ONES) & !x & HIGH
        }
        let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // A byte >= 0x80, a byte < 0x20 (x - 0x20 borrows into its high
        // bit, bytes being < 0x80 then), DEL, and in a string `"` or `\`.
        let mut special =
            (x & HIGH) | (x.wrapping_sub(0x20 * ONES) & !x & HIGH) | zeros(x ^ (0x7f * ONES));
        if in_string {
            special |= zeros(x ^ (u64::from(b'"') * ONES)) | zeros(x ^ (u64::from(b'\\') * ONES));
        }
        special == 0
    };
    let mut at = 0;
    while at + 8 <= bytes.len() && plain_word(&bytes[at..at + 8]) {
        at += 8;
    }
    if at < bytes.len() && at >= 8 && at + 8 > bytes.len() && plain_word(&bytes[bytes.len() - 8..])
    {
        return bytes.len();
    }
    at + bytes[at..]
        .iter()
        .take_while(|&&b| (0x20..0x7f).contains(&b) && !(in_string && (b == b'"' || b == b'\\')))
        .count()
}

/// The writer's methods for the narrower numbers: each writes its value
/// as the widest of its kind, as serde_json does.
macro_rules! widen {
    ($($method:ident($ty:ty) as $wide:ident;)*) => {
        $(fn $method(self, v: $ty) -> Result<(), Unsupported> {
            self.$wide(v.into())
        })*
    };
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    widen! {
        serialize_i8(i8) as serialize_i64;
        serialize_i16(i16) as serialize_i64;
        serialize_i32(i32) as serialize_i64;
        serialize_u8(u8) as serialize_u64;
        serialize_u16(u16) as serialize_u64;
        serialize_u32(u32) as serialize_u64;
        serialize_f32(f32) as serialize_f64;
    }
    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        self.out.push_str(itoa::Buffer::new().format(v));
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        self.out.push_str(itoa::Buffer::new().format(v));
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        // Rare in results: serde_json's own text (ryu, or null when not
        // finite).
        let text = serde_json::to_string(&v).map_err(|e| Unsupported(e.to_string()))?;
        self.out.push_str(&text);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        if self.raw && self.written_here {
            self.out.push_str(v);
        } else if self.raw {
            self.escaped(v, false);
        } else {
            self.quoted(v);
        }
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unsupported> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for byte in v {
            seq.serialize_element(byte)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.out.push_str("null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Unsupported> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        if name == WRITTEN_HERE {
            self.written_here = true;
            let written = value.serialize(&mut *self);
            self.written_here = false;
            return written;
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.out.push('{');
        self.quoted(variant);
        self.out.push(':');
        value.serialize(&mut *self)?;
        self.out.push('}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        // Only the RawValue right inside a WRITTEN_HERE newtype is trusted.
        self.written_here = false;
        Ok(Compound::open(self, "[", "]"))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Unsupported> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        self.out.push('{');
        self.quoted(variant);
        self.out.push(':');
        Ok(Compound::open(self, "[", "]}"))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>, Unsupported> {
        self.written_here = false;
        Ok(Compound::open(self, "{", "}"))
    }
    fn serialize_struct(
        self,
        name: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        if name == RAW_VALUE {
            return Ok(Compound::Raw(self));
        }
        self.written_here = false;
        Ok(Compound::open(self, "{", "}"))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>, Unsupported> {
        self.out.push('{');
        self.quoted(variant);
        self.out.push(':');
        Ok(Compound::open(self, "{", "}}"))
    }
    fn serialize_i128(self, _v: i128) -> Result<(), Unsupported> {
        unsupported("a 128-bit integer")
    }
    fn serialize_u128(self, _v: u128) -> Result<(), Unsupported> {
        unsupported("a 128-bit integer")
    }
}

/// An array or object being written, or a `RawValue`'s text.
enum Compound<'a> {
    /// `close` ends it; `first` until its first element or entry.
    Open {
        writer: &'a mut Writer,
        first: bool,
        close: &'static str,
    },
    /// A `RawValue`: its one field is its text.
    Raw(&'a mut Writer),
}

impl<'a> Compound<'a> {
    fn open(writer: &'a mut Writer, open: &str, close: &'static str) -> Self {
        writer.out.push_str(open);
        Compound::Open {
            writer,
            first: true,
            close,
        }
    }

    /// The writer, after the comma that separates from what came before.
    fn next(&mut self) -> &mut Writer {
        match self {
            Compound::Open { writer, first, .. } => {
                if !std::mem::take(first) {
                    writer.out.push(',');
                }
                writer
            }
            Compound::Raw(writer) => writer,
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self.next())
    }

    fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        if let Compound::Raw(writer) = self {
            writer.raw = true;
            let written = value.serialize(&mut **writer);
            writer.raw = false;
            return written;
        }
        let writer = self.next();
        writer.field_name(key);
        writer.out.push(':');
        value.serialize(writer)
    }

    fn close(self) -> Result<(), Unsupported> {
        if let Compound::Open { writer, close, .. } = self {
            writer.out.push_str(close);
        }
        Ok(())
    }
}

/// The sequence traits (arrays, tuples, tuple variants' lists): each
/// element after a comma.
macro_rules! elements {
    ($($kind:ident::$method:ident),*) => {
        $(impl ser::$kind for Compound<'_> {
            type Ok = ();
            type Error = Unsupported;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
                self.element(value)
            }
            fn end(self) -> Result<(), Unsupported> {
                self.close()
            }
        })*
    };
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        key.serialize(Key(self.next()))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        let Compound::Open { writer, .. } = self else {
            return unsupported("a map inside a RawValue");
        };
        writer.out.push(':');
        value.serialize(&mut **writer)
    }
    fn end(self) -> Result<(), Unsupported> {
        self.close()
    }
}

/// The struct traits (structs, struct variants): each field as a key and
/// its value, or a `RawValue`'s text.
macro_rules! fields {
    ($($kind:ident),*) => {
        $(impl ser::$kind for Compound<'_> {
            type Ok = ();
            type Error = Unsupported;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Unsupported> {
                self.field(key, value)
            }
            fn end(self) -> Result<(), Unsupported> {
                self.close()
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

/// `Key`'s methods for what is not a string: each refuses the key.
macro_rules! refuse {
    ($($method:ident($($arg:ty),*) -> $ok:ty;)*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<$ok, Unsupported> {
            unsupported("a key that is not a string")
        })*
    };
}

/// A map's key: strings only (and what serde writes as one); any other
/// key is left to serde_json, which quotes numbers and refuses the rest.
struct Key<'a>(&'a mut Writer);

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        self.0.quoted(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        value.serialize(self)
    }
    refuse! {
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Unsupported> {
        unsupported("a key that is not a string")
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Unsupported> {
        unsupported("a key that is not a string")
    }
}

#[cfg(test)]
#[path = "safe_json_tests.rs"]
mod tests;

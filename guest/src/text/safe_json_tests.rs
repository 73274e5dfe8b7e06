//! The fast writer against its oracle: for every kind of value and every
//! character, [`write`] gives byte for byte what serde_json then
//! `json_text`'s escapes give ([`json_text_slowly`]), or refuses.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use super::*;
use crate::text::json_text_slowly;

/// `value` written fast, which must equal the oracle.
fn same<T: Serialize + ?Sized>(value: &T) -> String {
    let fast = write(value, 0).expect("written by the fast writer");
    assert_eq!(fast, json_text_slowly(value));
    fast
}

/// Characters of every kind the writer tells apart.
fn characters() -> Vec<char> {
    let mut all: Vec<char> = (0..0x80u8).map(char::from).collect();
    all.extend([
        '\u{80}',
        '\u{9b}',
        '\u{9d}',
        '\u{9f}',
        '\u{a0}',
        '\u{ad}',
        'é',
        '\u{34f}',
        '\u{61c}',
        '\u{200b}',
        '\u{200c}',
        '\u{200d}',
        '\u{200e}',
        '\u{2028}',
        '\u{202e}',
        '\u{2066}',
        '\u{2069}',
        '\u{fe0f}',
        '\u{feff}',
        '\u{fffd}',
        '€',
        '日',
        '🚀',
        '\u{e0001}',
        '\u{e0041}',
        '\u{e0100}',
        '\u{10ffff}',
    ]);
    all
}

#[test]
fn every_character_at_every_place_of_a_word_is_written_as_serde_json_and_json_text_do() {
    for c in characters() {
        // Lengths and places around the eight bytes read at a time.
        for len in [0usize, 1, 7, 8, 9, 15, 16, 17, 24] {
            for at in [0, len / 2, len.saturating_sub(1), len] {
                let mut s: String = "x".repeat(at);
                s.push(c);
                s.push_str(&"y".repeat(len - at.min(len)));
                same(s.as_str());
                same(&json!({ s.clone(): [s.clone(), s] }));
            }
        }
    }
}

#[test]
fn values_of_every_json_kind_are_written_the_same() {
    let written = same(&json!({
        "null": null, "yes": true, "no": false,
        "ints": [0, -1, 42, i64::MIN, i64::MAX, u64::MAX],
        "reals": [0.5, -2.25, 1e300, 1.0e-7, 3.0],
        "empty": [[], {}, ""],
        "nested": {"a": [{"b": {"c": ["d\n\u{7f}\u{202e}"]}}]},
    }));
    assert!(
        written.contains(r#""reals":[0.5,-2.25,1e+300,1e-7,3.0]"#),
        "{written}"
    );
    same(&json!(f64::NAN.to_string()));
    same(&1.5f32);
    same(&f64::INFINITY);
    same(&'\u{9b}');
    same(&());
}

#[test]
fn rust_types_as_results_declare_them_are_written_the_same() {
    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Plain,
        Wrapped(String),
        Pair(u8, i16),
        Shaped { x: u32, y: Option<bool> },
    }
    #[derive(Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    enum Tagged {
        One { v: i32 },
        Two,
    }
    #[derive(Serialize)]
    struct Inner {
        counts: BTreeMap<String, u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        absent: Option<String>,
    }
    #[derive(Serialize)]
    struct Unit;
    #[derive(Serialize)]
    struct Newtype(Vec<u8>);
    #[derive(Serialize)]
    struct Outer {
        id: &'static str,
        #[serde(flatten)]
        inner: Inner,
        kinds: Vec<Kind>,
        tagged: Vec<Tagged>,
        unit: Unit,
        newtype: Newtype,
        tuple: (i8, &'static str, char),
        #[serde(with = "serde_bytes_as_seq")]
        bytes: Vec<u8>,
    }
    /// serde's `serialize_bytes`, which serde_json writes as an array.
    mod serde_bytes_as_seq {
        pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(v)
        }
    }
    same(&Outer {
        id: "task_01\u{2066}",
        inner: Inner {
            counts: BTreeMap::from([("todo".into(), 3), ("d\"one".into(), 0)]),
            absent: None,
        },
        kinds: vec![
            Kind::Plain,
            Kind::Wrapped("w\t".into()),
            Kind::Pair(255, -3),
            Kind::Shaped { x: 1, y: None },
        ],
        tagged: vec![Tagged::One { v: -1 }, Tagged::Two],
        unit: Unit,
        newtype: Newtype(vec![1, 2]),
        tuple: (-8, "t", '\u{1b}'),
        bytes: vec![0, 255],
    });
}

#[test]
fn raw_json_is_copied_with_its_unsafe_characters_escaped() {
    for text in [
        r#"{"a":1}"#,
        "{\"t\":\"a\u{7f}\u{9b}31m\u{202e}\u{e0041}é\"}",
        // Whitespace between tokens is escaped as json_text always did.
        "{\"a\": [1,\n 2]}",
        r#""\"quoted\" \\ back""#,
    ] {
        let raw = RawValue::from_string(text.to_string()).unwrap();
        same(&raw);
        same(&json!(["before", "after"]));
        same(&vec![raw.clone(), raw]);
    }
    // Raw text inside a result, as a page's rows and stored events are.
    #[derive(Serialize)]
    struct Event {
        seq: u64,
        data: Box<RawValue>,
    }
    let data = RawValue::from_string("{\"why\":\"x\u{2066}y\"}".to_string()).unwrap();
    let written = same(&Event { seq: 7, data });
    assert_eq!(written, r#"{"seq":7,"data":{"why":"x\u2066y"}}"#);
}

#[test]
fn what_only_serde_json_writes_is_refused_and_json_text_still_writes_it() {
    let numbered: BTreeMap<u32, &str> = BTreeMap::from([(1, "a"), (2, "b")]);
    assert!(write(&numbered, 0).is_err());
    assert_eq!(
        crate::text::json_text(&numbered),
        r#"{"1":"a","2":"b"}"#,
        "the slow path writes it as before"
    );
    assert!(write(&1u128, 0).is_err());
    assert_eq!(crate::text::json_text(&1u128), "1");
    // A value whose serialization fails is `null`, as before.
    struct Failing;
    impl Serialize for Failing {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no"))
        }
    }
    assert!(write(&Failing, 0).is_err());
    assert_eq!(crate::text::json_text(&Failing), "null");
}

/// Any text: ASCII-heavy, with every kind of escape and unsafe character.
fn any_text() -> impl Strategy<Value = String> {
    let pieces = prop_oneof![
        4 => "[a-z0-9 _.:/-]{0,12}",
        1 => proptest::sample::select(characters()).prop_map(String::from),
        1 => any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(pieces, 0..12).prop_map(|p| p.concat())
}

proptest! {
    #[test]
    fn any_text_in_any_place_is_written_the_same(
        key in any_text(), value in any_text(), n in any::<i64>(),
    ) {
        let v = json!({ key.clone(): {"v": value, "n": n, "list": [key, null]} });
        let fast = write(&v, 0).unwrap();
        prop_assert_eq!(&fast, &json_text_slowly(&v));
        prop_assert_eq!(serde_json::from_str::<Value>(&fast).unwrap(), v);
    }
}

#[test]
fn only_the_raw_value_right_inside_written_here_is_copied_unscanned() {
    /// A newtype named WRITTEN_HERE around a value that is not a RawValue
    /// (no caller does this): the raw text deeper inside is still scanned.
    struct Wrapped<T>(T);
    impl<T: Serialize> Serialize for Wrapped<T> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_newtype_struct(WRITTEN_HERE, &self.0)
        }
    }
    let raw = RawValue::from_string("\"a\u{202e}b\"".to_string()).unwrap();
    for value in [
        json!([raw.get()]),
        serde_json::to_value(BTreeMap::from([("k", &raw)])).unwrap(),
    ] {
        same(&Wrapped(value));
    }
    same(&Wrapped(vec![raw.clone()]));
    same(&Wrapped(BTreeMap::from([("k", raw.clone())])));
    // Right inside, it is copied as it is: only a page's own rows are.
    assert_eq!(write(&Wrapped(raw), 0).unwrap(), "\"a\u{202e}b\"");
}

/// A struct's field names are copied as keys, not scanned: any name the
/// derive or a plain `rename` gives is the oracle's text, a non-ASCII
/// identifier included.
#[test]
fn field_names_are_written_as_serde_json_writes_them() {
    #[derive(Serialize)]
    struct Fields {
        id: &'static str,
        #[serde(rename = "inProgress")]
        in_progress: u8,
        #[serde(rename = "$déjà-vu")]
        seen: bool,
    }
    let text = same(&Fields {
        id: "a\"b",
        in_progress: 1,
        seen: true,
    });
    assert_eq!(text, r#"{"id":"a\"b","inProgress":1,"$déjà-vu":true}"#);
}

/// A field name that would need an escape is this crate's bug: debug
/// builds, which run every test, stop on it instead of writing it raw.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "needs escaping")]
fn a_field_name_that_needs_an_escape_is_caught_in_tests() {
    #[derive(Serialize)]
    struct Bad {
        #[serde(rename = "a\"b")]
        quoted: u8,
    }
    let _ = write(&Bad { quoted: 1 }, 0);
}

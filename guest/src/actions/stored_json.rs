//! JSON kept as the store holds it (an event's `data`): written into a
//! result as it is, parsed only where a renderer looks inside. Parsing
//! each event's data to write it out again was a share of `task_audit
//! get` (BENCHMARKS.md, "reads near the store").

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use serde_json::value::RawValue;

/// A JSON value kept as its text.
#[derive(Debug, Clone)]
pub struct StoredJson(Box<RawValue>);

impl StoredJson {
    /// The stored text, checked to be JSON; `null` when it is absent or
    /// not JSON (a damaged row shows as no data, as before). Text spread
    /// over lines (not written by the component) is written compact, so
    /// that a result stays one line of JSON.
    pub fn from_stored(text: Option<String>) -> Self {
        let Some(text) = text else {
            return Self::default();
        };
        // Bytes, not chars: a char pattern is searched a character at a
        // time, and every event of `task_audit get` passes here.
        if text.bytes().any(|b| b == b'\n' || b == b'\r') {
            return serde_json::from_str::<Value>(&text)
                .map_or_else(|_| Self::default(), Self::from);
        }
        RawValue::from_string(text).map_or_else(|_| Self::default(), StoredJson)
    }

    /// The value, parsed.
    pub fn value(&self) -> Value {
        serde_json::from_str(self.0.get()).unwrap_or(Value::Null)
    }
}

impl Default for StoredJson {
    fn default() -> Self {
        StoredJson::from(Value::Null)
    }
}

impl From<Value> for StoredJson {
    fn from(v: Value) -> Self {
        // Serializing a Value cannot fail.
        StoredJson(serde_json::value::to_raw_value(&v).expect("a Value serializes"))
    }
}

/// Equal when their values are (the texts may differ in spacing).
impl PartialEq for StoredJson {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get() || self.value() == other.value()
    }
}

impl Serialize for StoredJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Read through a `Value`, so that any deserializer serves (renderers read
/// results back from a `Value`, where a `RawValue` cannot be borrowed).
impl<'de> Deserialize<'de> for StoredJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Value::deserialize(deserializer).map(StoredJson::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stored_text_is_written_as_it_is_and_read_back_as_its_value() {
        let s = StoredJson::from_stored(Some(r#"{"b":1,"a":[true,null]}"#.into()));
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"b":1,"a":[true,null]}"#
        );
        assert_eq!(s.value(), json!({"b": 1, "a": [true, null]}));
        let back: StoredJson = serde_json::from_value(json!({"b": 1, "a": [true, null]})).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn text_over_lines_is_written_compact() {
        let s = StoredJson::from_stored(Some("{\n  \"a\": 1\r\n}".into()));
        assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"a":1}"#);
    }

    #[test]
    fn absent_or_broken_text_is_null() {
        for text in [None, Some(""), Some("{not json"), Some("1 2")] {
            let s = StoredJson::from_stored(text.map(String::from));
            assert_eq!(serde_json::to_string(&s).unwrap(), "null", "{text:?}");
        }
    }
}

//! What a call returns, seen from Rust: the component's [`ToolReply`] (what
//! the agent receives), and [`ToolOutput`], the success of a reply with its
//! data, parsed when a caller first reads it.

use crate::bindings::{ToolError, ToolReply};
use serde_json::Value;
use std::fmt;
use std::ops::Deref;
use std::sync::OnceLock;

/// A successful reply, with its data.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    /// One line for humans and models.
    pub summary: String,
    /// The result data object.
    pub data: Data,
    /// The content text the agent receives (summary, newline, data).
    pub text: String,
}

/// A result's data: the JSON text exactly as the component serialized it
/// (key order kept), read as a [`Value`] through `Deref`. The text is
/// parsed on first read, not when the call returns: parsing a page of 50
/// lists into a `Value` cost about as much as the component's own work
/// for it (issue 39's profile of `find`), and a caller that forwards the
/// reply (the CLI prints `text`) never reads it.
#[derive(Clone, Default)]
pub struct Data {
    json: String,
    parsed: OnceLock<Value>,
}

impl Data {
    /// The data as the component wrote it.
    pub fn new(json: String) -> Self {
        Self {
            json,
            parsed: OnceLock::new(),
        }
    }

    /// The JSON text, exactly as the component serialized it.
    pub fn json(&self) -> &str {
        &self.json
    }

    /// The parsed value, owned.
    pub fn into_value(self) -> Value {
        match self.parsed.into_inner() {
            Some(v) => v,
            None => parse(&self.json),
        }
    }
}

/// `Null` if the text were not JSON, which the component never sends.
fn parse(json: &str) -> Value {
    serde_json::from_str(json).unwrap_or(Value::Null)
}

impl Deref for Data {
    type Target = Value;
    fn deref(&self) -> &Value {
        self.parsed.get_or_init(|| parse(&self.json))
    }
}

impl PartialEq for Data {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl PartialEq<Value> for Data {
    fn eq(&self, other: &Value) -> bool {
        **self == *other
    }
}

impl PartialEq<Data> for Value {
    fn eq(&self, other: &Data) -> bool {
        *self == **other
    }
}

/// The JSON text, as `Value`'s `Display` would write it.
impl fmt::Display for Data {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.json)
    }
}

impl fmt::Debug for Data {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl ToolOutput {
    /// The contract's tool content, as the component composed it.
    pub fn to_content_text(&self) -> String {
        self.text.clone()
    }
}

impl ToolReply {
    /// Whether the call failed.
    pub fn is_error(&self) -> bool {
        self.outcome.is_err()
    }

    /// The structured content, parsed (`Null` if it were not JSON, which
    /// the component never sends).
    pub fn structured_value(&self) -> Value {
        parse(&self.structured)
    }

    /// The success with its data, or the typed error.
    pub fn into_result(self) -> Result<ToolOutput, ToolError> {
        match self.outcome {
            Ok(summary) => Ok(ToolOutput {
                summary,
                data: Data::new(self.structured),
                text: self.text,
            }),
            Err(error) => Err(error),
        }
    }
}

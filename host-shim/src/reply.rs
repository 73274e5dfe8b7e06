//! What a call returns, seen from Rust: the component's [`ToolReply`] (what
//! the agent receives), and [`ToolOutput`], the success of a reply with its
//! data parsed, for callers that work on the data.

use crate::bindings::{ToolError, ToolReply};

/// A successful reply, with the data parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    /// One line for humans and models.
    pub summary: String,
    /// The result data object.
    pub data: serde_json::Value,
    /// The data exactly as the component serialized it (key order kept).
    pub data_json: String,
    /// The content text the agent receives (summary, newline, data).
    pub text: String,
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
    pub fn structured_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.structured).unwrap_or(serde_json::Value::Null)
    }

    /// The success with its data, or the typed error.
    pub fn into_result(self) -> Result<ToolOutput, ToolError> {
        match self.outcome {
            Ok(summary) => Ok(ToolOutput {
                summary,
                data: serde_json::from_str(&self.structured).unwrap_or(serde_json::Value::Null),
                data_json: self.structured,
                text: self.text,
            }),
            Err(error) => Err(error),
        }
    }
}

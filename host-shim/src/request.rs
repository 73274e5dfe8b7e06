//! The contract's calling convention on the host side: which tools exist,
//! and parsing `{"action": …, "params": {…}}` requests. Everything that
//! can be refused without running the component is refused here, with the
//! contract's `invalid_params`.

use crate::config::DEFAULT_MAX_PARAMS_BYTES;
use crate::error::{ErrorCode, ToolError};
use serde_json::Value;

/// The five tools, in catalogue order.
pub const TOOL_NAMES: [&str; 5] = [
    "task_lists",
    "task_items",
    "task_claims",
    "task_audit",
    "task_help",
];

/// One of the five tools (the component exports one function per tool).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tool {
    Lists,
    Items,
    Claims,
    Audit,
    Help,
}

impl Tool {
    /// The tool named `name`, or `invalid_params` listing the real ones.
    pub(crate) fn parse(name: &str) -> Result<Tool, ToolError> {
        match name {
            "task_lists" => Ok(Tool::Lists),
            "task_items" => Ok(Tool::Items),
            "task_claims" => Ok(Tool::Claims),
            "task_audit" => Ok(Tool::Audit),
            "task_help" => Ok(Tool::Help),
            _ => Err(ToolError::new(
                ErrorCode::InvalidParams,
                format!(
                    "unknown tool {}; the tools are {}",
                    shown_name(name),
                    TOOL_NAMES.join(", ")
                ),
                "call task_help all for the reference",
            )),
        }
    }
}

/// Checks that `name` is one of the five tools: the contract's
/// `invalid_params` listing them otherwise (hosts that answer an unknown
/// tool some other way, a usage error or a JSON-RPC error, reuse its
/// message).
pub fn check_tool(name: &str) -> Result<(), ToolError> {
    Tool::parse(name).map(drop)
}

/// A parsed request: the action and the params object as JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolRequest {
    /// The action, e.g. `claim_next`.
    pub action: String,
    /// The params object as compact JSON, or `""` when the request had none.
    pub params: String,
}

const REQUEST_HINT: &str = r#"send one JSON object: {"action": "<action>", "params": {…}}; task_help all lists the actions"#;

impl ToolRequest {
    /// Parses a request with the default size limit.
    pub fn parse(request: &str) -> Result<ToolRequest, ToolError> {
        Self::parse_with_limit(request, DEFAULT_MAX_PARAMS_BYTES)
    }

    /// Parses a request no larger than `max_bytes`: broken JSON, a missing
    /// or non-string `action`, non-object `params` and unknown top-level
    /// keys are `invalid_params`.
    pub fn parse_with_limit(request: &str, max_bytes: usize) -> Result<ToolRequest, ToolError> {
        check_size("the request", request.len(), max_bytes)?;
        let value: Value = serde_json::from_str(request)
            .map_err(|e| invalid(format!("the request is not valid JSON: {e}"), REQUEST_HINT))?;
        Self::from_value(value)
    }

    /// The request in an already parsed JSON value (an MCP client's
    /// `arguments`), checked as [`ToolRequest::parse`] checks text. The size
    /// of the params is checked by the call itself.
    pub fn from_value(value: Value) -> Result<ToolRequest, ToolError> {
        let Value::Object(mut map) = value else {
            return Err(invalid("the request must be a JSON object", REQUEST_HINT));
        };
        if let Some(key) = map.keys().find(|k| *k != "action" && *k != "params") {
            let hint = if shown_name(key).starts_with('`')
                && (key == "agent_id" || key.ends_with("_id"))
            {
                format!(
                    "put `{key}` inside params: {{\"action\": …, \"params\": {{\"{key}\": …}}}}"
                )
            } else {
                REQUEST_HINT.to_string()
            };
            return Err(invalid(
                format!(
                    "unknown key {} in the request; the allowed keys are action, params",
                    shown_name(key)
                ),
                hint,
            ));
        }
        let action = match map.remove("action") {
            Some(Value::String(action)) => action,
            Some(_) => return Err(invalid("`action` must be a string", REQUEST_HINT)),
            None => return Err(invalid("the request has no `action`", REQUEST_HINT)),
        };
        let params = match map.remove("params") {
            None | Some(Value::Null) => String::new(),
            Some(params @ Value::Object(_)) => params.to_string(),
            Some(_) => return Err(invalid("`params` must be a JSON object", REQUEST_HINT)),
        };
        Ok(ToolRequest { action, params })
    }
}

/// A name the caller sent (a tool, a key), as a message may quote it: in
/// backquotes when it looks like a name (up to 64 letters, digits, `_`,
/// `-`, `.`), else only its length, so that no message echoes a huge or
/// unprintable value.
fn shown_name(name: &str) -> String {
    let plain = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if plain {
        format!("`{name}`")
    } else {
        format!("(a name of {} characters)", name.chars().count())
    }
}

/// Refuses input over `max_bytes` before it reaches the component.
pub(crate) fn check_size(what: &str, len: usize, max_bytes: usize) -> Result<(), ToolError> {
    if len <= max_bytes {
        return Ok(());
    }
    Err(invalid(
        format!(
            "{what} is {} KiB, over the limit of {} KiB",
            len.div_ceil(1024),
            max_bytes / 1024
        ),
        "split the work into several smaller calls",
    ))
}

fn invalid(message: impl Into<String>, hint: impl Into<String>) -> ToolError {
    ToolError::new(ErrorCode::InvalidParams, message, hint)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_action_and_params() {
        let r =
            ToolRequest::parse(r#"{"action":"claim_next","params":{"list_id":"list_1"}}"#).unwrap();
        assert_eq!(r.action, "claim_next");
        assert_eq!(r.params, r#"{"list_id":"list_1"}"#);
        let r = ToolRequest::parse(r#"{"action":"all"}"#).unwrap();
        assert_eq!(r.params, "");
    }

    #[test]
    fn refuses_what_the_contract_refuses() {
        for (request, needle) in [
            ("{", "not valid JSON"),
            ("[]", "must be a JSON object"),
            (r#"{"params":{}}"#, "no `action`"),
            (r#"{"action":3}"#, "must be a string"),
            (r#"{"action":"get","params":[1]}"#, "must be a JSON object"),
            (
                r#"{"action":"get","list_id":"x"}"#,
                "allowed keys are action, params",
            ),
        ] {
            let err = ToolRequest::parse(request).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{request}");
            assert!(err.message.contains(needle), "{request}: {}", err.message);
        }
        let err = ToolRequest::parse(r#"{"action":"get","list_id":"x"}"#).unwrap_err();
        assert!(err.hint.contains("inside params"), "{}", err.hint);
    }

    #[test]
    fn refuses_oversized_requests() {
        let big = format!(
            r#"{{"action":"create","params":{{"name":"{}"}}}}"#,
            "x".repeat(2048)
        );
        let err = ToolRequest::parse_with_limit(&big, 1024).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidParams);
        assert!(
            err.message.contains("over the limit of 1 KiB"),
            "{}",
            err.message
        );
    }

    #[test]
    fn names_are_quoted_only_when_short_and_plain() {
        let huge = "x".repeat(1 << 20);
        for bad in [huge.as_str(), "task\u{1b}[2J", "list\u{202e}s", ""] {
            let err = Tool::parse(bad).unwrap_err();
            assert!(err.message.len() < 200, "{}", err.message);
            assert!(err.message.contains("characters)"), "{}", err.message);
            let request = serde_json::json!({"action": "x", (bad): 1});
            let err = ToolRequest::from_value(request).unwrap_err();
            assert!(err.message.len() < 200 && err.hint.len() < 200, "{err:?}");
        }
        assert!(
            Tool::parse("task_list")
                .unwrap_err()
                .message
                .starts_with("unknown tool `task_list`;")
        );
    }

    #[test]
    fn knows_the_five_tools() {
        for name in TOOL_NAMES {
            Tool::parse(name).unwrap();
        }
        let err = Tool::parse("task_list").unwrap_err();
        assert!(err.message.contains("task_lists"));
    }
}

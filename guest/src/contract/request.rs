//! Parsing the agent's arguments, `{"action": …, "params": {…}}`: broken
//! JSON, a missing or non-string `action`, non-object `params` and unknown
//! top-level keys are `invalid_params`, with a hint showing the shape; a
//! tool name that is not one of the five has one answer ([`unknown_tool`]).

use super::ToolSpec;
use super::suggest::closest;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::text::quote;
use serde_json::Value;

const REQUEST_HINT: &str = r#"send one JSON object: {"action": "<action>", "params": {…}}; task_help all lists the actions"#;

/// The action and the params object (compact JSON, `""` when absent) of
/// the agent's arguments.
pub fn parse_arguments(arguments: &str) -> ToolResult<(String, String)> {
    let value: Value = serde_json::from_str(arguments).map_err(|e| {
        ToolError::invalid(format!("the request is not valid JSON: {e}"), REQUEST_HINT)
    })?;
    let Value::Object(mut map) = value else {
        return Err(ToolError::invalid(
            "the request must be a JSON object",
            REQUEST_HINT,
        ));
    };
    if let Some(key) = map.keys().find(|k| *k != "action" && *k != "params") {
        let hint = if shown_name(key).starts_with('`')
            && (key == "agent_id" || key.ends_with("_id"))
        {
            format!("put `{key}` inside params: {{\"action\": …, \"params\": {{\"{key}\": …}}}}")
        } else {
            REQUEST_HINT.to_string()
        };
        return Err(ToolError::invalid(
            format!(
                "unknown key {} in the request; the allowed keys are action, params",
                shown_name(key)
            ),
            hint,
        ));
    }
    let action = match map.remove("action") {
        Some(Value::String(action)) => action,
        Some(_) => {
            return Err(ToolError::invalid(
                "`action` must be a string",
                REQUEST_HINT,
            ));
        }
        None => {
            return Err(ToolError::invalid(
                "the request has no `action`",
                REQUEST_HINT,
            ));
        }
    };
    let params = match map.remove("params") {
        None | Some(Value::Null) => String::new(),
        Some(params @ Value::Object(_)) => params.to_string(),
        Some(_) => {
            return Err(ToolError::invalid(
                "`params` must be a JSON object",
                REQUEST_HINT,
            ));
        }
    };
    Ok((action, params))
}

/// A name the caller sent (a tool, a key), as a message may quote it: in
/// backquotes when it looks like a name (up to 64 letters, digits, `_`,
/// `-`, `.`), else only its length, so that no message echoes a huge or
/// unprintable value.
pub fn shown_name(name: &str) -> String {
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

/// The one answer to a tool name that is not one of the five, whichever
/// way it was called: `invalid_params` listing the real ones.
pub fn unknown_tool(name: &str) -> ToolError {
    let names: Vec<&str> = super::TOOLS.iter().map(|t| t.name).collect();
    ToolError::invalid(
        format!(
            "unknown tool {}; the tools are {}",
            shown_name(name),
            names.join(", ")
        ),
        "call task_help all for the reference",
    )
}

/// The answer to an action `tool` does not have (`actions`: the ones it
/// has): `unknown_action` listing them, with the closest name if one is near.
pub fn unknown_action(tool: &ToolSpec, action: &str, actions: &[&str]) -> ToolError {
    let mut msg = format!(
        "{} has no action {}; valid actions: {}",
        tool.name,
        quote(action),
        actions.join(", ")
    );
    if let Some(near) = closest(action, actions.iter().copied()) {
        msg.push_str(&format!(" (did you mean {}?)", quote(near)));
    }
    ToolError::new(
        ErrorCode::UnknownAction,
        msg,
        "task_help schemas lists every tool+action",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::check_tool;
    use crate::error::ErrorCode;

    #[test]
    fn parses_action_and_params() {
        let (action, params) =
            parse_arguments(r#"{"action":"claim_next","params":{"list_id":"list_1"}}"#).unwrap();
        assert_eq!(action, "claim_next");
        assert_eq!(params, r#"{"list_id":"list_1"}"#);
        let (_, params) = parse_arguments(r#"{"action":"all"}"#).unwrap();
        assert_eq!(params, "");
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
            let err = parse_arguments(request).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{request}");
            assert!(err.message.contains(needle), "{request}: {}", err.message);
        }
        let err = parse_arguments(r#"{"action":"get","list_id":"x"}"#).unwrap_err();
        assert!(err.hint.contains("inside params"), "{}", err.hint);
    }

    #[test]
    fn names_are_quoted_only_when_short_and_plain() {
        let huge = "x".repeat(1 << 20);
        for bad in [huge.as_str(), "task\u{1b}[2J", "list\u{202e}s", ""] {
            let err = check_tool(bad).unwrap_err();
            assert!(err.message.len() < 200, "{}", err.message);
            assert!(err.message.contains("characters)"), "{}", err.message);
            let request = serde_json::json!({"action": "x", (bad): 1}).to_string();
            let err = parse_arguments(&request).unwrap_err();
            assert!(err.message.len() < 200 && err.hint.len() < 200, "{err:?}");
        }
    }
}

//! From the host's types to MCP's: catalogue entries to `Tool`s, results
//! and contract errors to `CallToolResult`s.

use crate::{ToolError, ToolInfo, ToolOutput};
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};

/// A catalogue entry as an MCP tool, with every annotation set explicitly
/// (MCP's defaults assume an open-world, destructive tool).
pub(super) fn tool(info: &ToolInfo) -> Tool {
    let schema: JsonObject = match &info.input_schema {
        serde_json::Value::Object(map) => map.clone(),
        // The component always publishes an object schema; an MCP schema
        // must be one, so anything else degrades to "any object".
        _ => JsonObject::from_iter([("type".to_string(), "object".into())]),
    };
    let mut tool = Tool::new(info.name.clone(), info.description.clone(), schema);
    tool.title = Some(info.title.clone());
    tool.annotations = Some(
        ToolAnnotations::new()
            .read_only(info.annotations.read_only)
            .destructive(info.annotations.destructive)
            .idempotent(info.annotations.idempotent)
            .open_world(info.annotations.open_world),
    );
    tool
}

/// A successful call: the contract's text (summary line + compact JSON with
/// full ids) for the model, the same data as `structuredContent`.
pub(super) fn success(output: ToolOutput) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(output.to_content_text())]);
    result.structured_content = Some(output.data);
    result
}

/// A refused call: `isError: true` carrying `{"error": {code, message, hint}}`
/// both as text and as `structuredContent`.
pub(super) fn failure(error: &ToolError) -> CallToolResult {
    let json = error.to_json();
    let mut result = CallToolResult::error(vec![ContentBlock::text(json.to_string())]);
    result.structured_content = Some(json);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ErrorCode, ToolAnnotations as HostAnnotations};
    use serde_json::json;

    #[test]
    fn tools_carry_every_annotation() {
        let info = ToolInfo {
            name: "task_help".into(),
            title: "Help".into(),
            description: "Read the reference.".into(),
            input_schema: json!({"type": "object"}),
            annotations: HostAnnotations {
                read_only: true,
                destructive: false,
                idempotent: true,
                open_world: false,
            },
        };
        let wire = serde_json::to_value(tool(&info)).unwrap();
        assert_eq!(
            wire["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
        assert_eq!(wire["title"], "Help");
        assert_eq!(wire["inputSchema"], json!({"type": "object"}));
    }

    #[test]
    fn results_and_errors_keep_the_contract_shape() {
        let output = ToolOutput {
            summary: "1 list".into(),
            data: json!({"lists": []}),
            data_json: r#"{"lists":[]}"#.into(),
        };
        let wire = serde_json::to_value(success(output)).unwrap();
        assert_eq!(wire["content"][0]["text"], "1 list\n{\"lists\":[]}");
        assert_eq!(wire["structuredContent"], json!({"lists": []}));
        assert_eq!(wire["isError"], false);

        let error = ToolError::new(ErrorCode::Conflict, "taken", "claim another");
        let wire = serde_json::to_value(failure(&error)).unwrap();
        assert_eq!(wire["isError"], true);
        assert_eq!(
            wire["structuredContent"],
            json!({"error": {"code": "conflict", "message": "taken", "hint": "claim another"}})
        );
        assert_eq!(wire["content"][0]["text"], error.to_json_text());
    }
}

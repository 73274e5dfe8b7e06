//! From the component's types to MCP's: catalogue entries to `Tool`s,
//! replies to `CallToolResult`s, carried as the component made them.

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use tasklists_host::{ToolInfo, ToolReply};

/// A catalogue entry as an MCP tool, with every annotation set explicitly
/// (MCP's defaults assume an open-world, destructive tool).
pub(super) fn tool(info: &ToolInfo) -> Tool {
    let schema: JsonObject = match info.schema() {
        serde_json::Value::Object(map) => map,
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

/// A reply as MCP's result: the component's text as the content, its
/// structured data as `structuredContent`, `isError` when it failed.
pub(super) fn result(reply: ToolReply) -> CallToolResult {
    let structured = reply.structured_value();
    let content = vec![ContentBlock::text(reply.text.clone())];
    let mut result = if reply.is_error() {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    result.structured_content = Some(structured);
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tasklists_host::{ErrorCode, ToolAnnotations as HostAnnotations, ToolError};

    #[test]
    fn tools_carry_every_annotation() {
        let info = ToolInfo {
            name: "task_help".into(),
            title: "Help".into(),
            description: "Read the reference.".into(),
            input_schema: r#"{"type":"object"}"#.into(),
            annotations: HostAnnotations {
                read_only: true,
                destructive: false,
                idempotent: true,
                open_world: false,
            },
            prompt_snippet: "Read the reference".into(),
            prompt_guidelines: Vec::new(),
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
    fn replies_are_carried_as_they_are() {
        let reply = ToolReply {
            text: "1 list\n{\"lists\":[]}".into(),
            structured: r#"{"lists":[]}"#.into(),
            outcome: Ok("1 list".into()),
        };
        let wire = serde_json::to_value(result(reply)).unwrap();
        assert_eq!(wire["content"][0]["text"], "1 list\n{\"lists\":[]}");
        assert_eq!(wire["structuredContent"], json!({"lists": []}));
        assert_eq!(wire["isError"], false);

        let text = r#"{"error":{"code":"conflict","message":"taken","hint":""}}"#;
        let reply = ToolReply {
            text: text.into(),
            structured: text.into(),
            outcome: Err(ToolError {
                code: ErrorCode::Conflict,
                message: "taken".into(),
                hint: String::new(),
            }),
        };
        let wire = serde_json::to_value(result(reply)).unwrap();
        assert_eq!(wire["isError"], true);
        assert_eq!(wire["content"][0]["text"], text);
        assert_eq!(wire["structuredContent"]["error"]["code"], "conflict");
    }
}

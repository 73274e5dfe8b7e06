//! The hand-written `ServerHandler`: `initialize`, `tools/list` and
//! `tools/call`, everything else left to rmcp's defaults.

use super::convert;
use crate::{CallContext, Host, TOOL_NAMES, ToolInfo};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use std::sync::{Arc, Mutex, MutexGuard};

/// Serves the component's tools; one per process.
pub(super) struct TasklistsServer {
    /// The one host (connection + instance); the mutex keeps guest calls
    /// one at a time, whatever the client pipelines.
    host: Arc<Mutex<Host>>,
    /// The catalogue, converted once at start-up.
    tools: Vec<Tool>,
    /// The default caller context (`--agent-id`, `--pin-agent`, workspace).
    ctx: Arc<CallContext>,
}

impl TasklistsServer {
    /// A server for `tools` (the component's catalogue) on `host`.
    pub(super) fn new(host: Arc<Mutex<Host>>, tools: &[ToolInfo], ctx: CallContext) -> Self {
        TasklistsServer {
            host,
            tools: tools.iter().map(convert::tool).collect(),
            ctx: Arc::new(ctx),
        }
    }
}

/// Locks the host even after a panic in an earlier call: the host rolls
/// back and replaces its instance on every failure, so its state is safe
/// to reuse, and one bug must not turn the server off for the session.
fn lock(host: &Mutex<Host>) -> MutexGuard<'_, Host> {
    host.lock().unwrap_or_else(|poisoned| {
        eprintln!("tasklists mcp: recovering after a panic in an earlier call");
        poisoned.into_inner()
    })
}

impl ServerHandler for TasklistsServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        info.server_info =
            Implementation::new("tasklists", env!("CARGO_PKG_VERSION")).with_title("Task lists");
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let tool = request.name.to_string();
        if !TOOL_NAMES.contains(&tool.as_str()) {
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool `{tool}`; the tools are {}",
                    TOOL_NAMES.join(", ")
                ),
                None,
            ));
        }
        // The arguments are the contract's request object; the host parses
        // it like any other request (size limit, keys, action, params).
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let request_text = arguments.to_string();
        let host = Arc::clone(&self.host);
        let ctx = Arc::clone(&self.ctx);
        // The guest call blocks (SQLite, wasm): run it off the async
        // threads. If the client cancels, the call still finishes (each
        // call is one transaction); only its answer is dropped.
        let outcome =
            tokio::task::spawn_blocking(move || lock(&host).call_json(&request_text, &tool, &ctx))
                .await
                .map_err(|e| {
                    McpError::internal_error(format!("the tool call failed: {e}"), None)
                })?;
        Ok(match outcome {
            Ok(output) => convert::success(output),
            Err(error) => convert::failure(&error),
        }
        .into())
    }
}

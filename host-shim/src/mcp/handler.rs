//! The hand-written `ServerHandler`: `initialize`, `tools/list` and
//! `tools/call`, everything else left to rmcp's defaults.

use super::convert;
use super::pending::Pending;
use super::worker::Worker;
use crate::{ToolInfo, ToolRequest, check_tool};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

/// Serves the component's tools; one per process.
pub(super) struct TasklistsServer {
    /// Runs the guest calls, one at a time, in arrival order.
    worker: Worker,
    /// What is held for the client; a call counts until it ends.
    pending: Pending,
    /// The catalogue, converted once at start-up.
    tools: Vec<Tool>,
}

impl TasklistsServer {
    /// A server for `tools` (the component's catalogue) calling through
    /// `worker`, counting its calls in `pending`.
    pub(super) fn new(worker: Worker, pending: Pending, tools: &[ToolInfo]) -> Self {
        TasklistsServer {
            worker,
            pending,
            tools: tools.iter().map(convert::tool).collect(),
        }
    }
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
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let tool = request.name.to_string();
        check_tool(&tool).map_err(|e| McpError::invalid_params(e.message, None))?;
        // The arguments are the contract's request object, checked like any
        // other request (keys, action, params; the call checks the size).
        let arguments = serde_json::Value::Object(request.arguments.unwrap_or_default());
        let request = match ToolRequest::from_value(arguments) {
            Ok(request) => request,
            Err(error) => return Ok(convert::failure(&error).into()),
        };
        // Counted until it ends, even if the client cancels it meanwhile
        // (the call still runs): a flood of calls and cancellations is
        // bounded too.
        let _running = self
            .pending
            .running(context.id.clone(), request.params.len());
        // Queued before the first await: calls run in the order they came.
        let answer = self.worker.submit(tool, request);
        let outcome = answer.await.map_err(|_| {
            McpError::internal_error("the tool worker stopped; restart the server", None)
        })?;
        Ok(match outcome {
            Ok(output) => convert::success(output),
            Err(error) => convert::failure(&error),
        }
        .into())
    }
}

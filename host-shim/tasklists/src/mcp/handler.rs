//! The hand-written `ServerHandler`: `initialize`, `tools/list` and
//! `tools/call`, everything else left to rmcp's defaults. The same handler
//! serves stdio (one per process) and Streamable HTTP (one per request,
//! the caller's identity and count handed in by the HTTP server: see
//! [`super::caller::Caller`]).

use super::caller::Caller;
use super::convert;
use super::order::AnswerOrder;
use super::pending::Pending;
use crate::serve::actor::Actor;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use std::sync::Arc;
use tasklists_host::ToolInfo;

/// Serves the component's tools: one per stdio process, one per HTTP
/// request (cheap to clone: the actor's sender and the shared catalogue).
#[derive(Clone)]
pub(super) struct TasklistsServer {
    /// Runs the guest calls, started in arrival order (one at a time on
    /// stdio, on a pool under `serve`).
    actor: Actor,
    /// What is held for a stdio client; a call counts until it ends.
    /// None over HTTP, where each request's [`Caller`] holds its count.
    pending: Option<Pending>,
    /// Keeps a stdio client's answers in the order of its calls. None over
    /// HTTP, where each request has its own answer.
    order: Option<AnswerOrder>,
    /// The catalogue, converted once at start-up.
    tools: Arc<[Tool]>,
}

impl TasklistsServer {
    /// Whether the catalogue has a tool of this name.
    fn knows(&self, name: &str) -> bool {
        self.tools.iter().any(|t| t.name == name)
    }
}

impl TasklistsServer {
    /// A server for `tools` (the component's catalogue) calling through
    /// `actor`, counting its calls in `pending` and answering them in
    /// `order` (both for stdio only).
    pub(super) fn new(
        actor: Actor,
        stdio: Option<(Pending, AnswerOrder)>,
        tools: &[ToolInfo],
    ) -> Self {
        let (pending, order) = stdio.unzip();
        TasklistsServer {
            actor,
            pending,
            order,
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
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let tool = request.name.to_string();
        // The arguments go to the component as the client sent them; it
        // checks them like any other request (keys, action, params, size).
        let arguments =
            serde_json::Value::Object(request.arguments.unwrap_or_default()).to_string();
        // Counted from now until it has run (the queued job owns the
        // count), whatever its id and even if the client cancels it
        // meanwhile: a flood of calls, of cancellations or of calls under
        // one id is bounded too.
        // Over HTTP: who calls (its token's holder, pinned) and its count.
        let caller = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Caller>())
            .cloned();
        let held: Box<dyn Send> = match (&self.pending, &caller) {
            (_, Some(caller)) => Box::new(caller.held.clone()),
            (Some(pending), None) => Box::new(pending.call(arguments.len())),
            (None, None) => {
                return Err(McpError::internal_error(
                    "a request over HTTP reached the tools without its caller",
                    None,
                ));
            }
        };
        // Queued, and in line to answer, before the first await: calls run
        // and answer in the order they came.
        let known = self.knows(&tool);
        let turn = self
            .order
            .as_ref()
            .map(|order| order.take_turn(context.id, context.ct));
        let answer = self
            .actor
            .call(tool, arguments, caller.map(|c| c.ctx), held);
        let answer = match answer.await {
            Err(_) => Err(McpError::internal_error(
                "the tool worker stopped; restart the server",
                None,
            )),
            Ok(Err(e)) => Err(McpError::internal_error(e.to_string(), None)),
            Ok(Ok(reply)) => match &reply.outcome {
                // A tool the server does not publish is a protocol error,
                // as MCP asks; the words are the component's.
                Err(error) if !known => Err(McpError::invalid_params(error.message.clone(), None)),
                _ => Ok(convert::result(reply).into()),
            },
        };
        if let Some(turn) = turn {
            turn.wait().await;
        }
        answer
    }
}

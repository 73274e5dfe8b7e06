//! MCP over Streamable HTTP: rmcp's server in stateless mode (the component
//! keeps no session: every request stands alone), answering in JSON where
//! the protocol allows, with the stdio server's handler and a queue of its
//! own (one thread owning one [`Host`], calls in arrival order). The HTTP
//! server in front of it (`tasklists serve`) checks the `Host`, the token
//! and the limits, and hands each request's [`super::Caller`] in through the
//! request's extensions; without one a request is refused.

use super::handler::TasklistsServer;
use crate::serve::queue;
use crate::{CallContext, Host, HostConfig, HostError};
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;

/// The MCP endpoint: one queue, one handler per request.
pub struct HttpMcp {
    service: StreamableHttpService<TasklistsServer, NeverSessionManager>,
}

impl HttpMcp {
    /// Opens a host on `config` (its store opened on the first call) and
    /// starts its queue; `max_body` bounds a request's body.
    pub fn start(config: HostConfig, max_body: usize) -> Result<HttpMcp, HostError> {
        let mut host = Host::open_lazily(config.clone())?;
        let tools = host.catalogue()?;
        // No context of its own: every call names its caller.
        let (queue, _thread) = queue::start(host, config, CallContext::default(), || {})
            .map_err(|e| HostError::Serve(format!("cannot start the MCP worker thread: {e}")))?;
        let server = TasklistsServer::new(queue, None, &tools);
        let settings = StreamableHttpServerConfig::default()
            .with_legacy_session_mode(false)
            .with_json_response(true)
            .with_sse_keep_alive(None)
            // The server in front checks `Host` against its own names, and
            // takes a token only as `Authorization: Bearer`, which no page
            // of another site can send without a preflight it never gets.
            .disable_allowed_hosts()
            .with_max_request_body_bytes(max_body);
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(NeverSessionManager::default()),
            settings,
        );
        Ok(HttpMcp { service })
    }

    /// Answers one request (already authenticated: its [`super::Caller`] is in
    /// its extensions).
    pub async fn handle(&self, request: Request) -> Response {
        self.service.handle(request).await.map(Body::new)
    }
}

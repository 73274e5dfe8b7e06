//! MCP over Streamable HTTP: rmcp's server in stateless mode (the component
//! keeps no session: every request stands alone), answering in JSON where
//! the protocol allows, with the stdio server's handler, its calls run by
//! the server's host actor (the board's too: a pool of threads each
//! owning a `Host`, calls started in arrival order). The HTTP
//! server in front of it (`tasklists serve`) checks the `Host`, the token
//! and the limits, and hands each request's [`super::Caller`] in through the
//! request's extensions; without one a request is refused.

use super::handler::TasklistsServer;
use crate::serve::actor::Actor;
use axum::body::Body;
use axum::extract::Request;
use axum::response::Response;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::sync::Arc;
use tasklists_host::ToolInfo;

/// The MCP endpoint: one queue (to the pool), one handler per request.
pub struct HttpMcp {
    service: StreamableHttpService<TasklistsServer, NeverSessionManager>,
}

impl HttpMcp {
    /// The endpoint for the catalogue `tools`, its calls run by `actor`
    /// (each as the caller its request names); `max_body` bounds a
    /// request's body.
    pub fn new(actor: Actor, tools: &[ToolInfo], max_body: usize) -> HttpMcp {
        let server = TasklistsServer::new(actor, None, tools);
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
        HttpMcp { service }
    }

    /// Answers one request (already authenticated: its [`super::Caller`] is in
    /// its extensions).
    pub async fn handle(&self, request: Request) -> Response {
        self.service.handle(request).await.map(Body::new)
    }
}

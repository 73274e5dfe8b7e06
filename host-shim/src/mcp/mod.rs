//! The MCP server: the five tools over stdio for Claude Code, Codex, Cursor
//! and any other MCP client, built on the official Rust SDK (`rmcp`).
//!
//! The tool list comes from the component's catalogue at start-up; every
//! `tools/call` is one guest call on the single [`Host`] of the process,
//! behind a mutex, so concurrent requests never share an instance at once.
//! Logs go to stderr only: stdout carries the protocol.

mod convert;
mod handler;
mod logging;

use crate::{CallContext, Host, HostConfig, HostError};
use handler::TasklistsServer;
pub use logging::LOG_ENV;
use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;
use std::sync::{Arc, Mutex};

/// Serves MCP on stdin/stdout until stdin closes (the client went away),
/// then lets the call in flight finish and returns.
///
/// `ctx` is the default caller context of every call: its `agent_id` is
/// what `--agent-id` or `TASKLISTS_AGENT_ID` gave, and `params.agent_id`
/// overrides it unless `agent_pinned` is set.
pub fn serve_stdio(config: HostConfig, ctx: CallContext) -> Result<(), HostError> {
    logging::init();
    let db_path = config.db_path.clone();
    let mut host = Host::open(config)?;
    let tools = host.catalogue()?;
    let identity = match &ctx.agent_id {
        Some(id) if ctx.agent_pinned => format!("agent `{id}` (pinned)"),
        Some(id) => format!("default agent `{id}`"),
        None => "no default agent (calls that change state need params.agent_id)".to_string(),
    };
    eprintln!(
        "tasklists mcp: serving {} tools on {}; {identity}",
        tools.len(),
        db_path.display()
    );
    let host = Arc::new(Mutex::new(host));
    let server = TasklistsServer::new(Arc::clone(&host), &tools, ctx);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| HostError::Mcp(format!("cannot start the async runtime: {e}")))?;
    let quit = runtime.block_on(async move {
        match server.serve(rmcp::transport::stdio_pipes()).await {
            Ok(service) => service
                .waiting()
                .await
                .map(|reason| format!("{reason:?}"))
                .map_err(|e| HostError::Mcp(e.to_string())),
            // The client went away before the handshake (a probe, a
            // cancelled start): nothing to serve, not a failure.
            Err(ServerInitializeError::ConnectionClosed(during)) => {
                Ok(format!("the client left during the {during}"))
            }
            Err(e) => Err(HostError::Mcp(e.to_string())),
        }
    })?;
    // A call may still be running on a blocking thread: wait for it, so a
    // write the client already sent is never cut short by the exit.
    drop(host.lock());
    eprintln!("tasklists mcp: stopped ({quit})");
    Ok(())
}

//! The MCP server: the five tools over stdio for Claude Code, Codex, Cursor
//! and any other MCP client, built on the official Rust SDK (`rmcp`), and
//! over Streamable HTTP ([`HttpMcp`], mounted at `/mcp` by `tasklists
//! serve`), with the same handler, replies and limits.
//!
//! The tool list comes from the component's catalogue at start-up. Every
//! `tools/call` is queued to the host actor ([`crate::serve::actor`]): on
//! stdio one thread owning the process's [`Host`], so guest calls run one
//! at a time, in the order they arrived; under `serve`, a pool shared with
//! the board, so one server keeps up with many agents.
//! Logs go to stderr only: stdout carries the protocol.

pub mod budget;
mod caller;
mod convert;
mod decode;
mod handler;
mod http;
mod order;
mod pending;
mod transport;

use crate::error::ServerError;
use crate::serve::actor::{self, Shape};
pub use caller::Caller;
use handler::TasklistsServer;
pub use http::HttpMcp;
use order::AnswerOrder;
use pending::Pending;
use rmcp::ServiceExt;
use rmcp::service::ServerInitializeError;
use std::time::Duration;
use tasklists_host::{CallContext, ErrorCode, Host, HostConfig};
use transport::StdioTransport;

/// Serves MCP on stdin/stdout until stdin closes (the client went away)
/// and every request received has been answered, then returns.
///
/// `ctx` is the default caller context of every call: its `agent_id` is
/// what `--agent-id` or `TASKLISTS_AGENT_ID` gave, and `params.agent_id`
/// overrides it unless `agent_pinned` is set. A host identity the contract
/// refuses stops the server before it serves anything, with the reason on
/// stderr; a database that cannot be opened is reported by every call.
pub fn serve_stdio(config: HostConfig, ctx: CallContext) -> Result<(), ServerError> {
    crate::logging::init();
    let location = config.store.clone();
    // A database that cannot be opened does not stop the server: the host
    // opens it on demand, so the tools are listed, task_help answers, and
    // every call that needs the store says what is wrong with the file
    // (so the agent can tell its user) and tries again on the next call,
    // so fixing the file needs no restart.
    let mut host = Host::open_lazily(config.clone())?;
    let tools = host.catalogue()?;
    check_start(&mut host, &ctx)?;
    let identity = match &ctx.agent_id {
        Some(id) if ctx.agent_pinned => format!("agent `{id}` (pinned)"),
        Some(id) => format!("default agent `{id}`"),
        None => "no default agent (calls that change state need params.agent_id)".to_string(),
    };
    tracing::info!("serving {} tools on {}; {identity}", tools.len(), location);

    let pending = Pending::default();
    let gate = pending.clone();
    // One worker: a client's pipelined calls run in the order it sent
    // them, and `order` makes them land in it.
    let (actor, workers) = actor::start(host, config, ctx, Shape::Shared(1), move || {
        gate.wait_to_answer()
    })
    .map_err(|e| ServerError::Mcp(format!("cannot start the worker thread: {e}")))?;
    let order = AnswerOrder::default();
    let server = TasklistsServer::new(actor, Some((pending.clone(), order.clone())), &tools);
    // One thread for the protocol is plenty: the guest calls run on the
    // worker, and a single scheduler keeps requests in arrival order.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ServerError::Mcp(format!("cannot start the async runtime: {e}")))?;
    let session_pending = pending.clone();
    let (quit, output) = runtime.block_on(async move {
        let (stdin, stdout) = rmcp::transport::stdio_pipes();
        let (transport, output) = StdioTransport::spawn(stdin, stdout, session_pending, order);
        let quit = match server.serve(transport).await {
            Ok(service) => service
                .waiting()
                .await
                .map(|reason| format!("{reason:?}"))
                .map_err(|e| ServerError::Mcp(e.to_string())),
            // The client went away before the handshake (a probe, a
            // cancelled start): nothing to serve, not a failure.
            Err(ServerInitializeError::ConnectionClosed(during)) => {
                Ok(format!("the client left during the {during}"))
            }
            Err(e) => Err(ServerError::Mcp(e.to_string())),
        };
        (quit, output)
    });
    // A read of stdin that cannot be cancelled (a terminal, a regular file)
    // must not hold the exit.
    runtime.shutdown_timeout(Duration::from_millis(100));
    // Nothing will be written any more: a worker waiting for stdout to
    // drain goes on.
    pending.close();
    // The server (and with it the queue) is gone: the worker finishes any
    // call still queued (one whose answer could not be sent), so a write
    // the client sent is never cut short.
    workers.join();
    let quit = quit?;
    if output.is_broken() {
        return Err(ServerError::Mcp(
            "stdout was closed before the session ended; answers were lost (the calls themselves completed)".into(),
        ));
    }
    tracing::info!("stopped ({quit})");
    Ok(())
}

/// One read before serving, so that what would fail every call fails once,
/// at start-up, where the user sees it: an identity the contract refuses.
/// A database the component cannot use (a newer schema) is only logged:
/// each call reports it to the agent as a `storage` error.
fn check_start(host: &mut Host, ctx: &CallContext) -> Result<(), ServerError> {
    match host.call("task_lists", "find", r#"{"limit":1}"#, ctx) {
        Ok(_) => Ok(()),
        Err(e) if e.code == ErrorCode::InvalidParams => Err(ServerError::Mcp(format!(
            "{}; start the server with a valid --agent-id or TASKLISTS_AGENT_ID",
            e.message
        ))),
        Err(e) => {
            tracing::warn!("the database is not usable: {} ({})", e.message, e.hint);
            Ok(())
        }
    }
}

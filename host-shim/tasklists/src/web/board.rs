//! What every handler, extractor and layer of the server shares: the
//! [`Board`], the router's state.

use super::access::Tokens;
use super::checks::AllowedHosts;
use super::events::Changes;
use super::limits::Limits;
use super::sessions::Sessions;
use super::streams::Streams;
use crate::mcp::HttpMcp;
use crate::serve::actor::Actor;
use std::sync::Arc;
use std::time::Duration;
use tasklists_host::{CallContext, WebRefusal, WebResponse};

/// What every request handler shares.
pub(super) struct Board {
    pub(super) tokens: Tokens,
    /// The context the server was started with (its workspace, which a
    /// stored token's holder works in too).
    pub(super) base: CallContext,
    pub(super) hosts: AllowedHosts,
    /// The session cookie's name: `tasklists-PORT` (browsers send a host's
    /// cookies to each of its ports: the port keeps two boards apart), or
    /// over TLS `__Host-tasklists-PORT` (`Secure`, this host only).
    pub(super) cookie: String,
    /// Whether the board is served over TLS: its cookie is then `Secure`,
    /// never sent back over plain HTTP.
    pub(super) secure: bool,
    /// The browsers signed in.
    pub(super) sessions: Sessions,
    /// The live-event streams open.
    pub(super) streams: Arc<Streams>,
    /// The host actor: the board's pages and token lookups, and `/mcp`'s
    /// calls (through [`HttpMcp`]), one at a time in arrival order.
    pub(super) actor: Actor,
    pub(super) changes: Changes,
    /// The MCP endpoint at `/mcp`.
    pub(super) mcp: HttpMcp,
    /// Requests to `/mcp` in progress: in total, per holder, body bytes.
    pub(super) limits: Arc<Limits>,
    /// The largest body `/mcp` reads (the params bound and an envelope).
    pub(super) mcp_max_body: usize,
    /// How long a request's body may take to arrive once it is read (the
    /// board's forms and `/mcp` alike).
    pub(super) body_timeout: Duration,
    /// The component's page for each refusal, asked once at the start (it
    /// touches no store): a flood of refused requests never reaches the
    /// component's queue, so it cannot crowd out the token holder.
    pub(super) refusals: Vec<(WebRefusal, WebResponse)>,
}

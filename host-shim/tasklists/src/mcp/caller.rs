//! Who sends a request to `/mcp`, as the HTTP server found it: handed to
//! the handler through the request's extensions. Its own file so that the
//! handler and the HTTP transport both name it without naming each other.

use std::sync::Arc;
use tasklists_host::CallContext;

/// Who sends an HTTP request to `/mcp`, as the server found it.
#[derive(Clone)]
pub struct Caller {
    /// The context its calls run in: its token's holder as the agent id,
    /// pinned (`params.agent_id` naming anyone else is `forbidden`).
    pub ctx: CallContext,
    /// What the server counts for the request (its limits): held until the
    /// call has run, even when the client went away meanwhile.
    pub held: Arc<dyn Send + Sync>,
}

//! [`ServerError`]: a server mode (MCP on stdio, `tasklists serve`,
//! `tasklists notify`) that
//! could not start or stopped. The library's [`HostError`] says what the
//! host itself could not do; this adds what only the binary's transports
//! can fail at.

use tasklists_host::HostError;

/// Why a server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServerError {
    /// The host (component, store) failed.
    #[error(transparent)]
    Host(#[from] HostError),
    /// The MCP server could not start or its connection failed.
    #[error("MCP server: {0}")]
    Mcp(String),
    /// The web board's server could not start or failed.
    #[error("tasklists serve: {0}")]
    Serve(String),
    /// The notifier could not start.
    #[error("tasklists notify: {0}")]
    Notify(String),
}

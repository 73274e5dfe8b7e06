//! `tasklists serve`: the web board and MCP at `/mcp`, with the global
//! database and the person who starts it as the identity of the token it
//! prints.

use super::{Failure, Globals};
use crate::web::{ServeError, ServeOptions};
use std::path::PathBuf;
use tasklists_host::HostConfig;

/// The options beside `--listen`, as given.
pub(crate) struct Extra {
    pub(crate) token_file: Option<PathBuf>,
    pub(crate) allow_hosts: Vec<String>,
    pub(crate) tls_cert: Option<PathBuf>,
    pub(crate) tls_key: Option<PathBuf>,
    pub(crate) max_connections: usize,
    pub(crate) max_requests: usize,
    pub(crate) max_requests_per_token: usize,
    pub(crate) body_timeout: u64,
}

/// Serves the board until Ctrl-C or SIGTERM.
pub(crate) fn run(globals: &Globals, listen: &str, extra: Extra) -> Result<(), Failure> {
    let listen = ServeOptions::parse_listen(listen).map_err(|e| Failure::Usage(e.to_string()))?;
    let options = ServeOptions {
        listen,
        token_file: extra.token_file,
        allow_hosts: extra.allow_hosts,
        tls_cert: extra.tls_cert,
        tls_key: extra.tls_key,
        max_connections: extra.max_connections.max(1),
        max_requests: extra.max_requests.max(1),
        max_requests_per_token: extra.max_requests_per_token.max(1),
        body_timeout: std::time::Duration::from_secs(extra.body_timeout),
    };
    let config = HostConfig::new(globals.location()?);
    crate::web::serve(options, config, globals.ctx.clone()).map_err(|e| match e {
        ServeError::Server(e) => Failure::from(e),
        other => Failure::Usage(other.to_string()),
    })
}

//! `tasklists serve`: the web board and MCP at `/mcp`, with the global
//! database and the person who starts it as the identity of the token it
//! prints; the notifier beside them with `--notify-*`.

use super::args::ServeArgs;
use super::{Failure, Globals};
use crate::web::{ServeError, ServeOptions};
use tasklists_host::HostConfig;

/// Serves the board until Ctrl-C or SIGTERM.
pub(crate) fn run(globals: &Globals, args: &ServeArgs) -> Result<(), Failure> {
    let listen =
        ServeOptions::parse_listen(&args.listen).map_err(|e| Failure::Usage(e.to_string()))?;
    let options = ServeOptions {
        listen,
        token_file: args.token_file.clone(),
        allow_hosts: args.allow_host.clone(),
        tls_cert: args.tls_cert.clone(),
        tls_key: args.tls_key.clone(),
        max_connections: args.max_connections.max(1),
        max_requests: args.max_requests.max(1),
        max_requests_per_token: args.max_requests_per_token.max(1),
        body_timeout: std::time::Duration::from_secs(args.body_timeout),
        notify: super::notify::plan(&args.notify)?,
    };
    let config = HostConfig::new(globals.location()?);
    crate::web::serve(options, config, globals.ctx.clone()).map_err(|e| match e {
        ServeError::Server(e) => Failure::from(e),
        other => Failure::Usage(other.to_string()),
    })
}

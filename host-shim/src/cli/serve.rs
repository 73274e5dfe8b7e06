//! `tasklists serve`: the web board, with the global database and the
//! person who starts it as the identity of the token it prints.

use super::{Failure, Globals};
use std::path::PathBuf;
use tasklists_host::HostConfig;
use tasklists_host::web::{ServeError, ServeOptions};

/// Serves the board until Ctrl-C or SIGTERM.
pub(crate) fn run(
    globals: &Globals,
    listen: &str,
    token_file: Option<PathBuf>,
    allow_hosts: Vec<String>,
) -> Result<(), Failure> {
    let listen = ServeOptions::parse_listen(listen).map_err(|e| Failure::Usage(e.to_string()))?;
    let options = ServeOptions {
        listen,
        token_file,
        allow_hosts,
    };
    let config = HostConfig::new(globals.location()?);
    tasklists_host::web::serve(options, config, globals.ctx.clone()).map_err(|e| match e {
        ServeError::Host(e) => Failure::Host(e),
        other => Failure::Usage(other.to_string()),
    })
}

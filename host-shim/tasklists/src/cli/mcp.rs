//! `tasklists mcp`: the MCP server on stdio.

use super::{Failure, Globals};
use tasklists_host::HostConfig;

/// Serves MCP until stdin closes, with the global identity and database.
pub(crate) fn run(globals: &Globals) -> Result<(), Failure> {
    let config = HostConfig::new(globals.location()?);
    crate::mcp::serve_stdio(config, globals.ctx.clone())?;
    Ok(())
}

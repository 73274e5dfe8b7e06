//! `tasklists`: the command line, the MCP servers, the web board and the
//! notifier, over
//! the `tasklists-host` library. Everything lives in its modules; this
//! file only maps the outcome to an exit code.

mod cli;
mod error;
mod logging;
mod mcp;
mod notify;
mod serve;
mod web;

fn main() -> std::process::ExitCode {
    cli::run()
}

//! The MCP server's log: stderr only (stdout carries the protocol).
//!
//! rmcp reports what it drops or refuses (an oversized line, a broken
//! transport) through `tracing`; without a subscriber those reports would be
//! lost. `TASKLISTS_LOG` picks the level (`off`, `error`, `warn`, `info`,
//! `debug`, `trace`); the default is `warn`.

use tracing_subscriber::filter::LevelFilter;

/// The environment variable that sets the log level.
pub const LOG_ENV: &str = "TASKLISTS_LOG";

/// Sends rmcp's `tracing` events at or above the chosen level to stderr.
/// A second call (tests, embedding) leaves the first subscriber in place.
pub(super) fn init() {
    let level = std::env::var(LOG_ENV)
        .ok()
        .filter(|value| !value.trim().is_empty())
        .map(|value| {
            value.trim().parse::<LevelFilter>().unwrap_or_else(|_| {
                eprintln!(
                    "tasklists mcp: {LOG_ENV}={value:?} is not a level (off, error, warn, info, debug, trace); using warn"
                );
                LevelFilter::WARN
            })
        })
        .unwrap_or(LevelFilter::WARN);
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .with_target(false)
        .try_init();
}

//! The servers' log (`tasklists mcp`, `tasklists serve`): stderr only
//! (stdout carries the protocol, or the board's one line).
//!
//! The server's own lines (start, stop, refused input, a host that
//! panicked) are `info`/`warn`/`error`; rmcp reports what goes wrong in the
//! protocol through `tracing` too, and would be lost without a subscriber. `TASKLISTS_LOG` sets one level for
//! both (`off`, `error`, `warn`, `info`, `debug`, `trace`); by default the
//! server logs from `info` and rmcp from `warn`.

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::prelude::*;

/// The environment variable that sets the log level.
const LOG_ENV: &str = "TASKLISTS_LOG";

/// Sends `tracing` events to stderr. A second call (tests, embedding)
/// leaves the first subscriber in place.
pub(crate) fn init() {
    let (ours, rmcp) = match level_from_env() {
        Some(level) => (level, level),
        None => (LevelFilter::INFO, LevelFilter::WARN),
    };
    let filter = Targets::new()
        .with_target(env!("CARGO_CRATE_NAME"), ours)
        .with_default(rmcp);
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(false)
                .with_target(false),
        )
        .with(filter)
        .try_init();
}

/// The level `TASKLISTS_LOG` asks for; an unset or empty variable is none.
fn level_from_env() -> Option<LevelFilter> {
    let value = std::env::var(LOG_ENV).ok()?;
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    match value.parse::<LevelFilter>() {
        Ok(level) => Some(level),
        Err(_) => {
            eprintln!(
                "tasklists: {LOG_ENV}={value:?} is not a level (off, error, warn, info, debug, trace); using the defaults"
            );
            None
        }
    }
}

//! How a server's actor lays out its workers ([`super::actor`]: component
//! instances, each with its own store connection).
//!
//! On PostgreSQL a call spends most of its time waiting for round trips,
//! so many run at once, from one queue: the database serializes what must
//! be (one claim per task, by its row locks), as it does between
//! processes. On SQLite writers take the one file lock in turn, and one
//! waiting for it sleeps in the busy handler, so tool calls keep to one
//! worker, as before (no call waits on another's lock in this process),
//! while pages and the token lookup of each `/mcp` request (reads, which
//! WAL lets run beside a write) have workers of their own.

use super::actor::Shape;
use std::thread::available_parallelism;
use std::time::Duration;
use tasklists_host::HostConfig;

/// Workers per core on PostgreSQL.
const PER_CORE_NETWORKED: usize = 16;

/// At most this many workers in one queue: each holds an instance (up to
/// the memory limit of a call) and a connection.
const MAX_WORKERS: usize = 32;

/// Overrides the number of workers taking the calls (not a documented
/// option: for measuring, e.g. `1` for one worker doing everything, as
/// before the pool).
const OVERRIDE: &str = "TASKLISTS_SERVE_WORKERS";

/// The workers for a server on `config`'s store.
pub fn shape(config: &HostConfig) -> Shape {
    if let Some(n) = std::env::var(OVERRIDE)
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        return Shape::Shared(n.clamp(1, MAX_WORKERS));
    }
    let cores = available_parallelism().map_or(1, |n| n.get());
    match config.store.kind() {
        "postgres" => Shape::Shared((cores * PER_CORE_NETWORKED).clamp(8, MAX_WORKERS)),
        _ => Shape::OneCaller(cores.clamp(1, 4)),
    }
}

/// How long a stopping server waits for the calls it accepted: longer
/// than any call may run.
pub fn drain_limit(config: &HostConfig) -> Duration {
    config.call_timeout.saturating_add(Duration::from_secs(5))
}

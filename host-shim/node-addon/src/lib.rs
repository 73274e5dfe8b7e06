//! The native host shim as a Node addon (`tasklists.node`): what the
//! component imports besides its deny-all WASI, served by the very code the
//! wasmtime host uses.
//!
//! - [`Store`]: the `store` import over a `tasklists-store` backend, the
//!   very one the wasmtime host opens for the same location: SQLite (same
//!   pragmas, WAL switching, fair busy handler, deadline through the
//!   progress handler, ATTACH blocked, planner stability) for a file path,
//!   PostgreSQL for a connection string. It also tells the dialect and
//!   the store's own clock (a server's time).
//! - [`now_ms`]: the system clock, the `clock` import when the store has
//!   no clock of its own.
//! - [`ChangeWatch`]: the store's change check, for hosts with live views:
//!   each check runs on libuv's thread pool, bounded, so a server that does
//!   not answer never holds the caller's event loop.
//! - [`host_defaults`], [`resolve_database`], [`redact_location`],
//!   [`scrub_secrets`]: the per-call limits, which store a host opens, and
//!   how a location and messages about it are shown (never with a
//!   password), defined once for every host.
//!
//! The Node host library (`host-shim/node`) loads it in the worker thread
//! that runs the component, so a busy wait here never blocks the caller's
//! event loop. Values and errors cross in the shapes jco gives the WIT
//! types (`convert.rs`), so the library passes them through.

mod convert;
mod defaults;
mod store;
mod watch;

pub use convert::{SqlParam, SqlRows};
pub use defaults::{HostDefaults, host_defaults, redact_location, resolve_database, scrub_secrets};
pub use store::{Store, StoreOptions};
pub use watch::ChangeWatch;

use napi::bindgen_prelude::BigInt;
use napi_derive::napi;
use std::time::{SystemTime, UNIX_EPOCH};

/// The system clock: milliseconds since the Unix epoch (UTC), as the
/// BigInt jco expects for an `s64`. The `clock` import when the store has
/// no clock of its own (`Store.nowMs` is `null`).
#[napi]
pub fn now_ms() -> BigInt {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    BigInt::from(ms)
}

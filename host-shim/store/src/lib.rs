//! The store of the tasklists component, on the host side of the `store`
//! import (and, for its value types, inside the component too).
//!
//! - [`Value`], [`Rows`], [`StoreError`]: what crosses the `store`
//!   interface (`wit/store.wit`), as plain Rust. The component's domain code
//!   and every backend use these; each side of the WIT boundary converts
//!   them to its generated bindings in one place.
//! - [`Backend`]: one connection's worth of transactions, the seam every
//!   host serves the `store` import through (the wasmtime host, a Node
//!   addon), in the spirit of Spin's `factor-sqlite` `Connection`.
//! - [`limits`]: the per-call limits every host applies by default.
//! - [`Location`]: which store a host is pointed at (a file path today; a
//!   server URL will be one more variant).
//! - [`Watch`]: a cheap "did anything change?" check for hosts that show
//!   live views (a widget, `watch`), on a connection of its own.
//! - [`sqlite`]: the SQLite backend (feature `sqlite`, on by default).
//!
//! Nothing here depends on wasmtime.

mod backend;
mod deadline;
pub mod limits;
mod location;
mod open_error;
#[cfg(feature = "sqlite")]
pub mod sqlite;
mod value;
mod watch;

pub use backend::{Backend, BackendOptions, TxId};
pub use deadline::{Deadline, sql_budget};
pub use location::Location;
pub use open_error::OpenError;
pub use value::{Rows, StoreError, Value};
pub use watch::Watch;

/// Opens the backend for `location` (not connected yet: the first
/// transaction connects, or [`Backend::connect`] does it at once).
#[cfg(feature = "sqlite")]
pub fn open(location: &Location, options: BackendOptions) -> Box<dyn Backend> {
    match location {
        Location::SqliteFile(path) => Box::new(sqlite::SqliteBackend::new(path.clone(), options)),
    }
}

/// A change check on the store at `location` (opened when first read).
#[cfg(feature = "sqlite")]
pub fn watch(location: &Location) -> Box<dyn Watch> {
    match location {
        Location::SqliteFile(path) => Box::new(sqlite::SqliteWatch::new(path.clone())),
    }
}

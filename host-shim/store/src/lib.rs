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
//! - [`Location`]: which store a host is pointed at: an SQLite file, or a
//!   PostgreSQL database named by a libpq connection string
//!   ([`PgLocation`], shown without its password).
//! - [`WriteState`]: what a call's writes came to, for a host that could
//!   not finish it.
//! - [`Watch`]: a cheap "did anything change?" check for hosts that show
//!   live views (a widget, `watch`), on a connection of its own.
//! - [`sqlite`]: the SQLite backend (feature `sqlite`, on by default).
//! - [`postgres`]: the PostgreSQL backend (feature `postgres`, on by
//!   default; its connection strings are parsed in every build).
//!
//! [`open`] and [`watch`] pick the backend by location. Nothing here
//! depends on wasmtime.

mod backend;
mod deadline;
pub mod limits;
mod location;
mod open_error;
pub mod postgres;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod sql_text;
#[cfg(feature = "sqlite")]
pub mod sqlite;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
mod unavailable;
mod value;
mod watch;
mod write_state;

pub use backend::{Backend, BackendOptions, TxId};
pub use deadline::{Deadline, sql_budget};
pub use location::Location;
pub use open_error::OpenError;
pub use postgres::PgLocation;
pub use value::{Dialect, Rows, StoreError, Value};
pub use watch::Watch;
pub use write_state::WriteState;

/// Opens the backend for `location` (not connected yet: the first
/// transaction connects, or [`Backend::connect`] does it at once). A kind
/// of store this build left out opens as a backend whose every call says
/// so.
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub fn open(location: &Location, options: BackendOptions) -> Box<dyn Backend> {
    match location {
        #[cfg(feature = "sqlite")]
        Location::SqliteFile(path) => Box::new(sqlite::SqliteBackend::new(path.clone(), options)),
        #[cfg(feature = "postgres")]
        Location::Postgres(pg) => Box::new(postgres::PostgresBackend::new(pg.clone(), options)),
        #[allow(unreachable_patterns)]
        other => {
            let _ = options;
            Box::new(unavailable::Unavailable::new(other))
        }
    }
}

/// A change check on the store at `location` (opened when first read).
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub fn watch(location: &Location) -> Box<dyn Watch> {
    match location {
        #[cfg(feature = "sqlite")]
        Location::SqliteFile(path) => Box::new(sqlite::SqliteWatch::new(path.clone())),
        #[cfg(feature = "postgres")]
        Location::Postgres(pg) => Box::new(postgres::PostgresWatch::new(pg.clone())),
        #[allow(unreachable_patterns)]
        other => Box::new(unavailable::Unavailable::new(other)),
    }
}

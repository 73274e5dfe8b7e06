//! The store of the tasklists component, on the host side of the `store`
//! import: every host (the wasmtime library, the Node addon) serves the
//! import through it. The component itself does not use this crate (it
//! speaks the WIT's own store types); the guest's native unit tests run
//! its domain on these backends.
//!
//! - [`Value`], [`Rows`], [`StoreError`]: what crosses the `store`
//!   interface (`wit/store.wit`), as plain Rust; each side of the WIT
//!   boundary converts them to its generated bindings in one place, the
//!   WIT case names included ([`StoreError::wit_case`]).
//! - [`limits`]: the per-call limits every host applies by default.
//! - [`WriteState`]: what a call's writes came to, for a host that could
//!   not finish it.
//!
//! With the `backends` feature (every host's), the store itself:
//!
//! - [`Session`]: one connection's worth of transactions, the seam every
//!   host serves the `store` import through (the wasmtime host, a Node
//!   addon): transaction handles and the call lifecycle, written once.
//! - [`Backend`]: the SQL operations of one kind of store, under a session.
//! - [`Location`]: which store a host is pointed at; [`Location::open`]
//!   and [`Location::watch`] reach it through its kind's [`Descriptor`].
//! - [`Watch`]: a cheap "did anything change?" check for hosts that show
//!   live views (a widget, `watch`), on a connection of its own.
//! - The kinds, one folder each under `backends/`, registered in
//!   `backends/mod.rs`: [`sqlite`] (a file) and [`postgres`] (a server,
//!   named by a libpq connection string, shown without its password:
//!   [`PgLocation`]).
//!
//! Nothing here depends on wasmtime.

#[cfg(feature = "backends")]
mod backend;
#[cfg(feature = "backends")]
mod backends;
mod deadline;
#[cfg(feature = "backends")]
mod descriptor;
pub mod limits;
#[cfg(feature = "backends")]
mod location;
#[cfg(feature = "backends")]
mod open_error;
mod packed;
#[cfg(feature = "backends")]
mod session;
#[cfg(feature = "backends")]
mod sql_text;
mod value;
#[cfg(feature = "backends")]
mod watch;
mod write_state;

#[cfg(feature = "backends")]
pub use backend::{Backend, BackendOptions, CommitFailure, Tx};
#[cfg(feature = "backends")]
pub use backends::{postgres, sqlite};
pub use deadline::{Deadline, sql_budget};
#[cfg(feature = "backends")]
pub use descriptor::{Descriptor, no_problem, no_secrets};
#[cfg(feature = "backends")]
pub use location::Location;
#[cfg(feature = "backends")]
pub use open_error::OpenError;
pub use packed::Rows;
#[cfg(feature = "backends")]
pub use postgres::PgLocation;
#[cfg(feature = "backends")]
pub use session::{Session, TxId};
pub use value::{Dialect, StoreError, Value};
#[cfg(feature = "backends")]
pub use watch::Watch;
pub use write_state::WriteState;

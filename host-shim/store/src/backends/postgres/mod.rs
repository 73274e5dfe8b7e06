//! The PostgreSQL backend: a database on a server that several hosts (on
//! several machines) share, behind the same [`crate::Backend`] as SQLite.
//!
//! - `descriptor`: the kind of store the registry knows: which location
//!   texts are PostgreSQL's, how they are opened, watched and shown.
//! - `config`: libpq connection strings (URL or key/value), parsed and
//!   shown without their password.
//! - `session`: one connection, on a runtime of its own, every wait
//!   bounded by the call's deadline on both sides (the server's
//!   `statement_timeout` and `lock_timeout`, and the client's).
//! - `search_path`: every connection pinned to the schema the component
//!   owns, so no other schema's objects stand in for its own.
//! - `tls`: libpq's `sslmode` (`verify-ca` and `verify-full` included)
//!   on rustls.
//! - `statements`: the write lock (one writer at a time, as SQLite's
//!   `BEGIN IMMEDIATE`: an advisory lock every write transaction takes,
//!   shared with a list's own lock when the component says which list).
//! - `params`, `rows`: store values to parameters of the types PostgreSQL
//!   inferred, and columns back.
//! - `errors`: SQLSTATEs to store errors; which ones cost the connection.
//! - `watch`: the change check behind live views.
//!
//! The connection is opened when the component first needs it, and
//! dropped after it breaks (the server restarted, an administrator killed
//! it): the next transaction connects again, and the server has rolled
//! back whatever was open. Unlike SQLite, PostgreSQL aborts a transaction
//! at its first failed statement: later statements fail `invalid-state`,
//! and its commit rolls back and says why.

mod backend;
mod config;
mod descriptor;
mod errors;
mod params;
mod rows;
mod search_path;
mod session;
mod statements;
#[cfg(test)]
mod tests;
mod tls;
mod watch;

pub use backend::PostgresBackend;
pub use config::{ConnInfoError, PgLocation, SslMode};
pub use descriptor::DESCRIPTOR;
pub use statements::{SCOPED_LOCK, WRITE_LOCK_KEY};
pub use watch::PostgresWatch;

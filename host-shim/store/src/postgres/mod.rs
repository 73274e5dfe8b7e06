//! The PostgreSQL backend: a database on a server that several hosts (on
//! several machines) share, behind the same [`crate::Backend`] as SQLite.
//!
//! - `config`: libpq connection strings (URL or key/value), parsed and
//!   shown without their password; always built, so every host tells a
//!   server location from a file path.
//! - `session`: one connection, on a runtime of its own, every wait
//!   bounded by the call's deadline on both sides (the server's
//!   `statement_timeout` and `lock_timeout`, and the client's).
//! - `search_path`: every connection pinned to the schema the component
//!   owns, so no other schema's objects stand in for its own.
//! - `tls`: libpq's `sslmode` (`verify-ca` and `verify-full` included)
//!   on rustls.
//! - `statements`: the write lock (one writer at a time, as SQLite's
//!   `BEGIN IMMEDIATE`: an advisory lock every write transaction takes).
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

#[cfg(feature = "postgres")]
mod backend;
mod config;
#[cfg(feature = "postgres")]
mod errors;
#[cfg(feature = "postgres")]
mod params;
#[cfg(feature = "postgres")]
mod rows;
#[cfg(feature = "postgres")]
mod search_path;
#[cfg(feature = "postgres")]
mod session;
#[cfg(feature = "postgres")]
mod statements;
#[cfg(all(test, feature = "postgres"))]
mod tests;
#[cfg(feature = "postgres")]
mod tls;
#[cfg(feature = "postgres")]
mod watch;

#[cfg(feature = "postgres")]
pub use backend::PostgresBackend;
pub use config::{ConnInfoError, PgLocation, SslMode};
#[cfg(feature = "postgres")]
pub use statements::WRITE_LOCK_KEY;
#[cfg(feature = "postgres")]
pub use watch::PostgresWatch;

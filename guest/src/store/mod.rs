//! The SQL store the domain runs on, as plain Rust traits over the store's
//! own types ([`tasklists_store`]). `wit.rs` implements them over the WIT
//! `store` import; native unit tests over the host's SQLite backend itself
//! (`testing.rs`), so both run on the same store rules.

pub use tasklists_store::{Dialect, Rows, StoreError, Value};

#[cfg(target_arch = "wasm32")]
pub(crate) mod wit;

/// An open transaction. Implementations roll back when dropped unfinished.
pub trait Tx {
    /// The SQL dialect of the store (fixed for its lifetime).
    fn dialect(&self) -> Dialect;
    /// Runs a statement that returns no rows; returns rows changed.
    fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;
    /// Runs a statement that returns rows.
    fn query(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError>;
    /// Commits.
    fn commit(self: Box<Self>) -> Result<(), StoreError>;
}

/// A store that opens transactions (write = `BEGIN IMMEDIATE`).
pub trait Store {
    /// Opens a transaction.
    fn begin(&self, write: bool) -> Result<Box<dyn Tx + '_>, StoreError>;
}

/// Builds a parameter list from values convertible into [`Value`].
#[macro_export]
macro_rules! params {
    ($($v:expr),* $(,)?) => { &[$($crate::store::Value::from($v)),*] as &[$crate::store::Value] };
}

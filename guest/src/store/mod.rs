//! The SQL store the domain runs on: plain Rust traits over the WIT
//! `store` interface's own types (generated once from `wit/store.wit`, as
//! Spin's SDK re-exports its `sqlite` types; a query's rows, which cross
//! packed, unpacked by `packed.rs`), with the conversions the
//! [`params!`](crate::params) macro needs and the wording of a store error.
//! `wit.rs` implements the traits over the WIT import; native unit tests
//! over the host's SQLite backend itself (`testing.rs`), so both run on
//! the same store rules.

pub use crate::bindings::tasklists::component::store::{SqlDialect, StoreError, Value};
pub use packed::{PackedRow, PackedRows, unpack};

mod packed;
mod placeholders;
#[cfg(target_arch = "wasm32")]
pub(crate) mod wit;

impl Value {
    /// The text, if this is text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The text moved out, leaving NULL; None (and the value kept) if
    /// this is not text.
    pub fn take_text(&mut self) -> Option<String> {
        match std::mem::replace(self, Value::Null) {
            Value::Text(s) => Some(s),
            other => {
                *self = other;
                None
            }
        }
    }

    /// The integer, if this is an integer.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Integer(i) => Some(*i),
            _ => None,
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Text(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Text(s)
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Self {
        Value::Text(s.clone())
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Integer(i)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

impl StoreError {
    /// What failed, as an agent reads it: the kind, then the engine's own
    /// message (`database busy: …`). The generated `Display` is the
    /// variant's `Debug`, which is not for people.
    pub fn reason(&self) -> String {
        let (kind, message) = match self {
            StoreError::Busy(m) => ("database busy", m),
            StoreError::Constraint(m) => ("constraint violated", m),
            StoreError::InvalidState(m) => ("invalid store state", m),
            StoreError::Io(m) => ("I/O error", m),
            StoreError::Corrupt(m) => ("database corrupt", m),
            StoreError::Sql(m) => ("SQL error", m),
            StoreError::Other(m) => ("store error", m),
        };
        format!("{kind}: {message}")
    }
}

/// Rows a query returned, unpacked from the WIT `rows` record
/// ([`unpack`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rows {
    /// Each row's values, in the SELECT's column order.
    pub rows: Vec<Vec<Value>>,
}

/// An open transaction. Implementations roll back when dropped unfinished.
pub trait Tx {
    /// The SQL dialect of the store (fixed for its lifetime).
    fn dialect(&self) -> SqlDialect;
    /// Runs a statement that returns no rows; returns rows changed.
    fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;
    /// Runs a statement that returns rows.
    fn query(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError>;
    /// Runs a statement that returns rows, to be read in place.
    fn query_packed(&self, sql: &str, params: &[Value]) -> Result<PackedRows, StoreError>;
    /// Sends a statement whose answer the caller does not wait for: with
    /// the next statement or the commit, in the same round trip (the WIT
    /// `pipeline`); its failure fails that one, and the transaction.
    fn pipeline(&self, sql: &str, params: &[Value]) -> Result<(), StoreError>;
    /// Commits.
    fn commit(self: Box<Self>) -> Result<(), StoreError>;
    /// Runs a statement that returns rows, then commits, in one round
    /// trip (the WIT `query-then-commit`): the rows come back only if the
    /// commit succeeded. The transaction is finished after it, whatever
    /// the outcome: its owner drops it without committing.
    fn query_then_commit(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError>;
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

//! The values and errors of the `store` interface (`wit/store.wit`) as
//! plain Rust: SQL parameters and columns, result rows, typed failures.

use std::fmt;

/// A SQL value: a parameter or a column of a result row.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// A 64-bit signed integer.
    Integer(i64),
    /// A 64-bit float.
    Real(f64),
    /// UTF-8 text.
    Text(String),
    /// Raw bytes.
    Blob(Vec<u8>),
}

impl Value {
    /// The text, if this is text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
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

/// The SQL dialect a store speaks (`wit/store.wit`'s `dialect`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite 3 (`?` placeholders, `PRAGMA user_version`).
    Sqlite,
    /// PostgreSQL (`$n` placeholders, a version table, `plpgsql` triggers).
    Postgres,
}

impl Dialect {
    /// The WIT `sql-dialect` case (`sqlite`, `postgres`), as hosts that
    /// carry it by name (the Node addon) spell it.
    pub fn wit_case(self) -> &'static str {
        match self {
            Dialect::Sqlite => "sqlite",
            Dialect::Postgres => "postgres",
        }
    }
}

/// Why the store failed; each variant carries the engine's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// Locked by another writer past the busy timeout.
    Busy(String),
    /// A constraint (unique, foreign key, check) was violated.
    Constraint(String),
    /// The call is not valid now (second transaction, finished transaction).
    InvalidState(String),
    /// Disk or I/O failure (disk full, read-only file).
    Io(String),
    /// The database is damaged or not a database.
    Corrupt(String),
    /// The SQL was rejected (syntax, unknown table or column).
    Sql(String),
    /// Anything else the engine reported.
    Other(String),
}

impl StoreError {
    /// The WIT `store-error` case (`busy`, `invalid-state`, …): the one
    /// spelling hosts and tests that carry the case by name use.
    pub fn wit_case(&self) -> &'static str {
        match self {
            StoreError::Busy(_) => "busy",
            StoreError::Constraint(_) => "constraint",
            StoreError::InvalidState(_) => "invalid-state",
            StoreError::Io(_) => "io",
            StoreError::Corrupt(_) => "corrupt",
            StoreError::Sql(_) => "sql",
            StoreError::Other(_) => "other",
        }
    }

    /// The engine's message, without the kind.
    pub fn message(&self) -> &str {
        match self {
            StoreError::Busy(m)
            | StoreError::Constraint(m)
            | StoreError::InvalidState(m)
            | StoreError::Io(m)
            | StoreError::Corrupt(m)
            | StoreError::Sql(m)
            | StoreError::Other(m) => m,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, msg) = match self {
            StoreError::Busy(m) => ("database busy", m),
            StoreError::Constraint(m) => ("constraint violated", m),
            StoreError::InvalidState(m) => ("invalid store state", m),
            StoreError::Io(m) => ("I/O error", m),
            StoreError::Corrupt(m) => ("database corrupt", m),
            StoreError::Sql(m) => ("SQL error", m),
            StoreError::Other(m) => ("store error", m),
        };
        write!(f, "{kind}: {msg}")
    }
}

impl std::error::Error for StoreError {}

//! The WIT `store` and `clock` imports, seen through the domain's
//! [`Store`](super::Store) and [`Clock`](crate::clock::Clock) traits
//! (wasm only: natively the unit tests run on the host's own backend,
//! `testing.rs`).

use super::{Dialect, Rows, Store, StoreError, Tx, Value};
use crate::bindings::tasklists::component::{clock as wclock, store as wstore};
use crate::schema::dialect::DialectSql;

/// The WIT store, seen through the domain's [`Store`] trait.
pub(crate) struct WitStore;
/// An open WIT transaction, and the dialect its SQL is written in.
struct WitTx(wstore::Transaction, Dialect);
/// The WIT clock.
pub(crate) struct WitClock;

fn to_wit(v: &Value) -> wstore::Value {
    match v {
        Value::Null => wstore::Value::Null,
        Value::Integer(i) => wstore::Value::Integer(*i),
        Value::Real(f) => wstore::Value::Real(*f),
        Value::Text(s) => wstore::Value::Text(s.clone()),
        Value::Blob(b) => wstore::Value::Blob(b.clone()),
    }
}

fn from_wit(v: wstore::Value) -> Value {
    match v {
        wstore::Value::Null => Value::Null,
        wstore::Value::Integer(i) => Value::Integer(i),
        wstore::Value::Real(f) => Value::Real(f),
        wstore::Value::Text(s) => Value::Text(s),
        wstore::Value::Blob(b) => Value::Blob(b),
    }
}

fn err(e: wstore::StoreError) -> StoreError {
    match e {
        wstore::StoreError::Busy(m) => StoreError::Busy(m),
        wstore::StoreError::Constraint(m) => StoreError::Constraint(m),
        wstore::StoreError::InvalidState(m) => StoreError::InvalidState(m),
        wstore::StoreError::Io(m) => StoreError::Io(m),
        wstore::StoreError::Corrupt(m) => StoreError::Corrupt(m),
        wstore::StoreError::Sql(m) => StoreError::Sql(m),
        wstore::StoreError::Other(m) => StoreError::Other(m),
    }
}

/// The store's dialect, asked once: it is fixed for the store's lifetime.
fn dialect() -> Dialect {
    static DIALECT: std::sync::OnceLock<Dialect> = std::sync::OnceLock::new();
    *DIALECT.get_or_init(|| match wstore::dialect() {
        wstore::SqlDialect::Sqlite => Dialect::Sqlite,
        wstore::SqlDialect::Postgres => Dialect::Postgres,
    })
}

impl Store for WitStore {
    fn begin(&self, write: bool) -> Result<Box<dyn Tx + '_>, StoreError> {
        wstore::begin(write)
            .map(|t| Box::new(WitTx(t, dialect())) as Box<dyn Tx>)
            .map_err(err)
    }
}

impl Tx for WitTx {
    fn dialect(&self) -> Dialect {
        self.1
    }

    fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let params: Vec<wstore::Value> = params.iter().map(to_wit).collect();
        let sql = self.1.sql(sql);
        self.0.execute(&sql, &params).map_err(err)
    }

    fn query(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        let params: Vec<wstore::Value> = params.iter().map(to_wit).collect();
        let rows = self.0.query(&self.1.sql(sql), &params).map_err(err)?;
        Ok(Rows {
            columns: rows.columns,
            rows: rows
                .rows
                .into_iter()
                .map(|r| r.into_iter().map(from_wit).collect())
                .collect(),
        })
    }

    fn commit(self: Box<Self>) -> Result<(), StoreError> {
        self.0.commit().map_err(err)
    }
}

impl crate::clock::Clock for WitClock {
    fn now_ms(&self) -> i64 {
        wclock::now_ms()
    }
}

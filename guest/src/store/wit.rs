//! The WIT `store` and `clock` imports, seen through the domain's
//! [`Store`](super::Store) and [`Clock`](crate::clock::Clock) traits
//! (wasm only: natively the unit tests run on the host's own backend,
//! `testing.rs`). The values and errors are the WIT's own types: they
//! pass through unconverted; a query's rows arrive packed and are
//! unpacked here.

use super::{PackedRows, Rows, SqlDialect, Store, StoreError, Tx, Value, unpack};
use crate::bindings::tasklists::component::{clock as wclock, store as wstore};

/// The WIT store, seen through the domain's [`Store`] trait.
pub(crate) struct WitStore;
/// An open WIT transaction, and the dialect its SQL is written in.
struct WitTx(wstore::Transaction, SqlDialect);
/// The WIT clock.
pub(crate) struct WitClock;

/// The store's dialect, asked once: it is fixed for the store's lifetime.
fn dialect() -> SqlDialect {
    static DIALECT: std::sync::OnceLock<SqlDialect> = std::sync::OnceLock::new();
    *DIALECT.get_or_init(wstore::dialect)
}

impl Store for WitStore {
    fn begin(&self, write: bool) -> Result<Box<dyn Tx + '_>, StoreError> {
        wstore::begin(write).map(|t| Box::new(WitTx(t, dialect())) as Box<dyn Tx>)
    }
}

impl Tx for WitTx {
    fn dialect(&self) -> SqlDialect {
        self.1
    }

    fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        self.0.execute(&self.1.sql(sql), params)
    }

    fn query(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        self.0.query(&self.1.sql(sql), params).and_then(unpack)
    }

    fn query_packed(&self, sql: &str, params: &[Value]) -> Result<PackedRows, StoreError> {
        self.0
            .query(&self.1.sql(sql), params)
            .and_then(PackedRows::check)
    }

    fn pipeline(&self, sql: &str, params: &[Value]) -> Result<(), StoreError> {
        self.0.pipeline(&self.1.sql(sql), params)
    }

    fn commit(self: Box<Self>) -> Result<(), StoreError> {
        self.0.commit()
    }

    fn query_then_commit(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        self.0
            .query_then_commit(&self.1.sql(sql), params)
            .and_then(unpack)
    }
}

impl crate::clock::Clock for WitClock {
    fn now_ms(&self) -> i64 {
        wclock::now_ms()
    }

    fn store_clock(&self) -> bool {
        wclock::store_clock()
    }
}

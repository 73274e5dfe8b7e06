//! Native test doubles: an in-memory SQLite store and a settable clock, so the
//! domain is unit-tested with `cargo test` without wasm.

use std::cell::{Cell, RefCell};

use rusqlite::Connection;
use rusqlite::types::{Value as SqlValue, ValueRef};

use crate::clock::Clock;
use crate::context::CallContext;
use crate::error::ToolResult;
use crate::store::{Rows, Store, StoreError, Tx, Value};
use crate::tools::{Output, call_tool};

/// An in-memory SQLite database behind the [`Store`] trait.
pub struct MemStore {
    conn: RefCell<Connection>,
}

impl MemStore {
    /// A fresh, empty database.
    pub fn new() -> Self {
        let conn = Connection::open_in_memory().expect("in-memory sqlite");
        // As the real host does: foreign keys on.
        conn.execute_batch("PRAGMA foreign_keys = ON")
            .expect("pragma");
        MemStore {
            conn: RefCell::new(conn),
        }
    }
}

impl Default for MemStore {
    fn default() -> Self {
        Self::new()
    }
}

struct MemTx<'a> {
    store: &'a MemStore,
    done: Cell<bool>,
}

fn err(e: rusqlite::Error) -> StoreError {
    StoreError::Sql(e.to_string())
}

fn to_sql(v: &Value) -> SqlValue {
    match v {
        Value::Null => SqlValue::Null,
        Value::Integer(i) => SqlValue::Integer(*i),
        Value::Real(f) => SqlValue::Real(*f),
        Value::Text(s) => SqlValue::Text(s.clone()),
        Value::Blob(b) => SqlValue::Blob(b.clone()),
    }
}

impl Store for MemStore {
    fn begin(&self, write: bool) -> Result<Box<dyn Tx + '_>, StoreError> {
        let conn = self.conn.borrow();
        if !conn.is_autocommit() {
            return Err(StoreError::InvalidState(
                "a transaction is already open".into(),
            ));
        }
        conn.execute_batch(if write { "BEGIN IMMEDIATE" } else { "BEGIN" })
            .map_err(err)?;
        Ok(Box::new(MemTx {
            store: self,
            done: Cell::new(false),
        }))
    }
}

impl Tx for MemTx<'_> {
    fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let conn = self.store.conn.borrow();
        let mut stmt = conn.prepare_cached(sql).map_err(err)?;
        let n = stmt
            .execute(rusqlite::params_from_iter(params.iter().map(to_sql)))
            .map_err(err)?;
        Ok(n as u64)
    }

    fn query(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        let conn = self.store.conn.borrow();
        let mut stmt = conn.prepare_cached(sql).map_err(err)?;
        let columns: Vec<String> = stmt.column_names().map(|c| c.to_string()).collect();
        let n = columns.len();
        let mut rows = stmt
            .query(rusqlite::params_from_iter(params.iter().map(to_sql)))
            .map_err(err)?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(err)? {
            let mut vals = Vec::with_capacity(n);
            for i in 0..n {
                vals.push(match row.get_ref(i).map_err(err)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(i) => Value::Integer(i),
                    ValueRef::Real(f) => Value::Real(f),
                    ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Blob(b) => Value::Blob(b.to_vec()),
                });
            }
            out.push(vals);
        }
        Ok(Rows { columns, rows: out })
    }

    fn commit(self: Box<Self>) -> Result<(), StoreError> {
        self.done.set(true);
        self.store
            .conn
            .borrow()
            .execute_batch("COMMIT")
            .map_err(err)
    }
}

impl Drop for MemTx<'_> {
    fn drop(&mut self) {
        if !self.done.get() {
            let _ = self.store.conn.borrow().execute_batch("ROLLBACK");
        }
    }
}

/// A clock tests set by hand.
#[derive(Default)]
pub struct TestClock(pub Cell<i64>);

impl Clock for TestClock {
    fn now_ms(&self) -> i64 {
        self.0.get()
    }
}

/// A store, a clock and helpers to call tools as a given agent.
pub struct Harness {
    /// The database.
    pub store: MemStore,
    /// The clock (starts at 2026-11-30T12:00:00Z).
    pub clock: TestClock,
}

impl Default for Harness {
    fn default() -> Self {
        Harness {
            store: MemStore::new(),
            clock: TestClock(Cell::new(1_796_040_000_000)),
        }
    }
}

impl Harness {
    /// Calls `tool action params` as `agent` (None: anonymous).
    pub fn call(
        &self,
        agent: Option<&str>,
        tool: &str,
        action: &str,
        params: serde_json::Value,
    ) -> ToolResult<Output> {
        let ctx = CallContext {
            agent_id: agent.map(String::from),
            workspace: Some("/repo".into()),
            ..Default::default()
        };
        call_tool(
            tool,
            action,
            &params.to_string(),
            &ctx,
            &self.store,
            &self.clock,
        )
    }

    /// Like [`Harness::call`] but panics on error and returns the data.
    pub fn ok(
        &self,
        agent: &str,
        tool: &str,
        action: &str,
        params: serde_json::Value,
    ) -> serde_json::Value {
        match self.call(Some(agent), tool, action, params) {
            Ok(o) => o.data,
            Err(e) => panic!(
                "{tool} {action} failed: {} {} ({})",
                e.code.as_str(),
                e.message,
                e.hint
            ),
        }
    }

    /// Advances the clock.
    pub fn advance_secs(&self, s: i64) {
        self.clock.0.set(self.clock.0.get() + s * 1000);
    }
}

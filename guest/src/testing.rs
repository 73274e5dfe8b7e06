//! Native test harness: the host's SQLite backend on a temporary file and a
//! settable clock, so the domain is unit-tested with `cargo test` without
//! wasm, on the same store the component gets in production.

use std::cell::Cell;
use std::cell::RefCell;

use tasklists_store::{BackendOptions, Deadline, Location, Session, TxId};

use crate::actions::Output;
use crate::clock::Clock;
use crate::context::CallContext;
use crate::error::ToolResult;
use crate::registry::call_tool;
use crate::store::{Rows, Store, StoreError, Tx, Value};

/// A database file in a temporary directory, served by the same SQLite
/// backend the hosts use (pragmas, error mapping, read-only rules).
pub struct TestStore {
    backend: RefCell<Session>,
    /// Deleted with the store.
    _dir: tempfile::TempDir,
}

impl TestStore {
    /// A fresh, empty database.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let options = BackendOptions {
            busy_timeout: std::time::Duration::from_secs(5),
            deadline: Deadline::new(),
            max_result_bytes: 64 << 20,
        };
        let backend = Location::from(dir.path().join("tasks.db")).open(options);
        TestStore {
            backend: RefCell::new(backend),
            _dir: dir,
        }
    }
}

impl Default for TestStore {
    fn default() -> Self {
        Self::new()
    }
}

/// An open transaction of a [`TestStore`]; dropped unfinished, it rolls back.
struct TestTx<'a> {
    store: &'a TestStore,
    id: TxId,
}

impl Store for TestStore {
    fn begin(&self, write: bool) -> Result<Box<dyn Tx + '_>, StoreError> {
        let id = self.backend.borrow_mut().begin(write)?;
        Ok(Box::new(TestTx { store: self, id }))
    }
}

impl Tx for TestTx<'_> {
    fn dialect(&self) -> crate::store::Dialect {
        self.store.backend.borrow().dialect()
    }

    fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        self.store
            .backend
            .borrow_mut()
            .execute(self.id, sql, params)
    }

    fn query(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        self.store.backend.borrow_mut().query(self.id, sql, params)
    }

    fn commit(self: Box<Self>) -> Result<(), StoreError> {
        self.store.backend.borrow_mut().commit(self.id)
    }
}

impl Drop for TestTx<'_> {
    fn drop(&mut self) {
        // A no-op after commit: the handle is already finished.
        self.store.backend.borrow_mut().abandon(self.id);
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
    pub store: TestStore,
    /// The clock (starts at 2026-11-30T12:00:00Z).
    pub clock: TestClock,
}

impl Default for Harness {
    fn default() -> Self {
        Harness {
            store: TestStore::new(),
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

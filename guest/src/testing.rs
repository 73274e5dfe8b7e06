//! Native test harness: the host's SQLite backend on a temporary file and a
//! settable clock, so the domain is unit-tested with `cargo test` without
//! wasm, on the same store the component gets in production. The backend
//! speaks the host crate's values and errors; they are converted to the
//! WIT's here, the one place the component's code meets them.

use std::cell::Cell;
use std::cell::RefCell;

use tasklists_store::{BackendOptions, Deadline, Location, Session, TxId};

use crate::actions::Output;
use crate::bindings::tasklists::component::store::Rows as PackedRecord;
use crate::clock::Clock;
use crate::context::CallContext;
use crate::error::ToolResult;
use crate::registry::call_tool;
use crate::store::{PackedRows, Rows, SqlDialect, Store, StoreError, Tx, Value};

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
        let id = self.backend.borrow_mut().begin(write).map_err(error)?;
        Ok(Box::new(TestTx { store: self, id }))
    }
}

impl TestTx<'_> {
    /// A query's rows, as the WIT carries them.
    fn packed(&self, sql: &str, params: &[Value]) -> Result<PackedRecord, StoreError> {
        let params: Vec<_> = params.iter().map(to_backend).collect();
        let mut backend = self.store.backend.borrow_mut();
        let rows = backend.query(self.id, sql, &params).map_err(error)?;
        Ok(packed_as_sent(rows))
    }
}

impl Tx for TestTx<'_> {
    fn dialect(&self) -> SqlDialect {
        match self.store.backend.borrow().dialect() {
            tasklists_store::Dialect::Sqlite => SqlDialect::Sqlite,
            tasklists_store::Dialect::Postgres => SqlDialect::Postgres,
        }
    }

    fn execute(&self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let params: Vec<_> = params.iter().map(to_backend).collect();
        let mut backend = self.store.backend.borrow_mut();
        backend.execute(self.id, sql, &params).map_err(error)
    }

    fn query(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        crate::store::unpack(self.packed(sql, params)?)
    }

    fn query_packed(&self, sql: &str, params: &[Value]) -> Result<PackedRows, StoreError> {
        PackedRows::check(self.packed(sql, params)?)
    }

    fn pipeline(&self, sql: &str, params: &[Value]) -> Result<(), StoreError> {
        let params: Vec<_> = params.iter().map(to_backend).collect();
        let mut backend = self.store.backend.borrow_mut();
        backend.pipeline(self.id, sql, &params).map_err(error)
    }

    fn commit(self: Box<Self>) -> Result<(), StoreError> {
        self.store
            .backend
            .borrow_mut()
            .commit(self.id)
            .map_err(error)
    }

    fn query_then_commit(&self, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        let params: Vec<_> = params.iter().map(to_backend).collect();
        let mut backend = self.store.backend.borrow_mut();
        let rows = backend
            .query_then_commit(self.id, sql, &params)
            .map_err(error)?;
        crate::store::unpack(packed_as_sent(rows))
    }
}

/// A value as the host's backend takes it.
fn to_backend(value: &Value) -> tasklists_store::Value {
    match value.clone() {
        Value::Null => tasklists_store::Value::Null,
        Value::Integer(i) => tasklists_store::Value::Integer(i),
        Value::Real(f) => tasklists_store::Value::Real(f),
        Value::Text(s) => tasklists_store::Value::Text(s),
        Value::Blob(b) => tasklists_store::Value::Blob(b),
    }
}

/// Rows the host's backend read, packed as the hosts pack them, to be
/// checked and read as the component does: every native test crosses the
/// WIT's `rows` record as a call does.
fn packed_as_sent(rows: tasklists_store::Rows) -> PackedRecord {
    PackedRecord {
        width: u32::try_from(rows.width()).unwrap_or(u32::MAX),
        cells: rows.cells,
        integers: rows.integers,
        reals: rows.reals,
        text: rows.text,
        text_ends: rows.text_ends,
        blobs: rows.blobs,
    }
}

/// A failure of the host's backend.
fn error(e: tasklists_store::StoreError) -> StoreError {
    use tasklists_store::StoreError as E;
    match e {
        E::Busy(m) => StoreError::Busy(m),
        E::Constraint(m) => StoreError::Constraint(m),
        E::InvalidState(m) => StoreError::InvalidState(m),
        E::Io(m) => StoreError::Io(m),
        E::Corrupt(m) => StoreError::Corrupt(m),
        E::Sql(m) => StoreError::Sql(m),
        E::Other(m) => StoreError::Other(m),
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
            Ok(o) => o.json(),
            Err(e) => panic!(
                "{tool} {action} failed: {} {} ({})",
                e.code.as_str(),
                e.message,
                e.hint
            ),
        }
    }

    /// Creates a list as `agent` with `params` (`name` and the rest); its id.
    pub fn create_list(&self, agent: &str, params: serde_json::Value) -> String {
        let d = self.ok(agent, "task_lists", "create", params);
        d["list"]["id"].as_str().unwrap().to_string()
    }

    /// Adds `tasks` (task objects) to `list` as `planner`; their ids.
    pub fn add_many(&self, list: &str, tasks: serde_json::Value) -> Vec<String> {
        let d = self.ok(
            "planner",
            "task_items",
            "add_many",
            serde_json::json!({"list_id": list, "tasks": tasks}),
        );
        d["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect()
    }

    /// Adds one task per title to `list` as `planner`; their ids.
    pub fn add(&self, list: &str, titles: &[&str]) -> Vec<String> {
        let tasks: Vec<serde_json::Value> = titles
            .iter()
            .map(|t| serde_json::json!({"title": t}))
            .collect();
        self.add_many(list, tasks.into())
    }

    /// Advances the clock.
    pub fn advance_secs(&self, s: i64) {
        self.clock.0.set(self.clock.0.get() + s * 1000);
    }
}

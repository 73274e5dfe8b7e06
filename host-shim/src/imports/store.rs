//! The `store` import: the WIT interface mapped onto a [`Backend`], and
//! nothing else. The `transaction` resource holds only the backend's
//! transaction id; the backend outlives instances (a trapped instance is
//! discarded, its connection is kept).

use crate::bindings::tasklists::component::store as wit;
use crate::state::HostState;
use tasklists_store::{Backend, Rows, StoreError, TxId, Value};
use wasmtime::component::Resource;

#[cfg(any(test, feature = "fault-injection"))]
use super::faults::Faults;

/// The host side of a `transaction` resource: which transaction it is.
#[derive(Debug)]
pub struct Transaction {
    id: TxId,
}

/// The store a component instance reaches: a backend, and (in test
/// builds) the faults armed around it.
pub(crate) struct StoreImport {
    backend: Box<dyn Backend>,
    #[cfg(any(test, feature = "fault-injection"))]
    pub(crate) faults: Faults,
}

impl StoreImport {
    /// The import over `backend`.
    pub(crate) fn new(backend: Box<dyn Backend>) -> Self {
        StoreImport {
            backend,
            #[cfg(any(test, feature = "fault-injection"))]
            faults: Faults::default(),
        }
    }

    /// The backend, for what the host does around calls.
    pub(crate) fn backend(&mut self) -> &mut dyn Backend {
        &mut *self.backend
    }

    /// Starts a tool call.
    pub(crate) fn begin_call(&mut self) {
        #[cfg(any(test, feature = "fault-injection"))]
        self.faults.begin_call();
        self.backend.begin_call();
    }
}

fn to_value(v: wit::Value) -> Value {
    match v {
        wit::Value::Null => Value::Null,
        wit::Value::Integer(i) => Value::Integer(i),
        wit::Value::Real(f) => Value::Real(f),
        wit::Value::Text(s) => Value::Text(s),
        wit::Value::Blob(b) => Value::Blob(b),
    }
}

fn to_wit(v: Value) -> wit::Value {
    match v {
        Value::Null => wit::Value::Null,
        Value::Integer(i) => wit::Value::Integer(i),
        Value::Real(f) => wit::Value::Real(f),
        Value::Text(s) => wit::Value::Text(s),
        Value::Blob(b) => wit::Value::Blob(b),
    }
}

fn to_wit_rows(rows: Rows) -> wit::Rows {
    wit::Rows {
        columns: rows.columns,
        rows: rows
            .rows
            .into_iter()
            .map(|row| row.into_iter().map(to_wit).collect())
            .collect(),
    }
}

fn to_wit_error(e: StoreError) -> wit::StoreError {
    match e {
        StoreError::Busy(m) => wit::StoreError::Busy(m),
        StoreError::Constraint(m) => wit::StoreError::Constraint(m),
        StoreError::InvalidState(m) => wit::StoreError::InvalidState(m),
        StoreError::Io(m) => wit::StoreError::Io(m),
        StoreError::Corrupt(m) => wit::StoreError::Corrupt(m),
        StoreError::Sql(m) => wit::StoreError::Sql(m),
        StoreError::Other(m) => wit::StoreError::Other(m),
    }
}

fn params(values: Vec<wit::Value>) -> Vec<Value> {
    values.into_iter().map(to_value).collect()
}

impl wit::Host for HostState {
    fn dialect(&mut self) -> wasmtime::Result<wit::SqlDialect> {
        Ok(match self.store.backend.dialect() {
            tasklists_store::Dialect::Sqlite => wit::SqlDialect::Sqlite,
            tasklists_store::Dialect::Postgres => wit::SqlDialect::Postgres,
        })
    }

    fn begin(
        &mut self,
        write: bool,
    ) -> wasmtime::Result<Result<Resource<Transaction>, wit::StoreError>> {
        match self.store.backend.begin(write) {
            Ok(id) => Ok(Ok(self.table.push(Transaction { id })?)),
            Err(e) => Ok(Err(to_wit_error(e))),
        }
    }
}

impl wit::HostTransaction for HostState {
    fn execute(
        &mut self,
        tx: Resource<Transaction>,
        sql: String,
        values: Vec<wit::Value>,
    ) -> wasmtime::Result<Result<u64, wit::StoreError>> {
        let id = self.table.get(&tx)?.id;
        #[cfg(any(test, feature = "fault-injection"))]
        self.store.faults.on_execute()?;
        let result = self.store.backend.execute(id, &sql, &params(values));
        Ok(result.map_err(to_wit_error))
    }

    fn query(
        &mut self,
        tx: Resource<Transaction>,
        sql: String,
        values: Vec<wit::Value>,
    ) -> wasmtime::Result<Result<wit::Rows, wit::StoreError>> {
        let id = self.table.get(&tx)?.id;
        #[cfg(any(test, feature = "fault-injection"))]
        self.store.faults.on_query()?;
        #[cfg_attr(
            not(any(test, feature = "fault-injection")),
            expect(unused_mut, reason = "only a fault floods the rows")
        )]
        let mut result = self.store.backend.query(id, &sql, &params(values));
        #[cfg(any(test, feature = "fault-injection"))]
        if let Ok(rows) = &mut result {
            self.store.faults.on_rows(rows);
        }
        Ok(result.map(to_wit_rows).map_err(to_wit_error))
    }

    fn commit(
        &mut self,
        tx: Resource<Transaction>,
    ) -> wasmtime::Result<Result<(), wit::StoreError>> {
        let id = self.table.get(&tx)?.id;
        let result = self.store.backend.commit(id);
        #[cfg(any(test, feature = "fault-injection"))]
        std::thread::sleep(self.store.faults.on_commit(
            self.store.backend.write_state() != tasklists_store::WriteState::NotApplied,
        ));
        Ok(result.map_err(to_wit_error))
    }

    fn drop(&mut self, tx: Resource<Transaction>) -> wasmtime::Result<()> {
        let tx = self.table.delete(tx)?;
        self.store.backend.abandon(tx.id);
        Ok(())
    }
}

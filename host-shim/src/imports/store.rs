//! The `store` import: the WIT interface mapped onto the instance's
//! [`crate::state::store::StoreImport`] (a store session), and
//! the one place the wasmtime host converts the store's types to and from
//! their bindings (values, rows, errors, dialect, write state). The
//! `transaction` resource holds only the session's transaction id; the
//! session outlives instances (a trapped instance is discarded, its
//! connection is kept).

use crate::bindings::WriteState as WitWriteState;
use crate::bindings::tasklists::component::store as wit;
use crate::state::HostState;
use crate::state::store::Transaction;
use tasklists_store::{Dialect, Rows, StoreError, Value, WriteState};
use wasmtime::component::Resource;

impl From<wit::Value> for Value {
    fn from(v: wit::Value) -> Self {
        match v {
            wit::Value::Null => Value::Null,
            wit::Value::Integer(i) => Value::Integer(i),
            wit::Value::Real(f) => Value::Real(f),
            wit::Value::Text(s) => Value::Text(s),
            wit::Value::Blob(b) => Value::Blob(b),
        }
    }
}

impl From<Value> for wit::Value {
    fn from(v: Value) -> Self {
        match v {
            Value::Null => wit::Value::Null,
            Value::Integer(i) => wit::Value::Integer(i),
            Value::Real(f) => wit::Value::Real(f),
            Value::Text(s) => wit::Value::Text(s),
            Value::Blob(b) => wit::Value::Blob(b),
        }
    }
}

/// The lists move as they are: the store keeps its rows packed as the
/// WIT carries them.
impl From<Rows> for wit::Rows {
    fn from(rows: Rows) -> Self {
        wit::Rows {
            width: u32::try_from(rows.width()).unwrap_or(u32::MAX),
            cells: rows.cells,
            integers: rows.integers,
            reals: rows.reals,
            text: rows.text,
            text_ends: rows.text_ends,
            blobs: rows.blobs,
        }
    }
}

impl From<StoreError> for wit::StoreError {
    fn from(e: StoreError) -> Self {
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
}

impl From<Dialect> for wit::SqlDialect {
    fn from(dialect: Dialect) -> Self {
        match dialect {
            Dialect::Sqlite => wit::SqlDialect::Sqlite,
            Dialect::Postgres => wit::SqlDialect::Postgres,
        }
    }
}

/// What the session knows of a call's writes, as the component is told it.
impl From<WriteState> for WitWriteState {
    fn from(state: WriteState) -> Self {
        match state {
            WriteState::NotApplied => WitWriteState::NotApplied,
            WriteState::Applied => WitWriteState::Applied,
            WriteState::MayBeApplied => WitWriteState::MayBeApplied,
        }
    }
}

/// A statement's parameters.
fn params(values: Vec<wit::Value>) -> Vec<Value> {
    values.into_iter().map(Into::into).collect()
}

impl wit::Host for HostState {
    fn dialect(&mut self) -> wasmtime::Result<wit::SqlDialect> {
        Ok(self.store.session().dialect().into())
    }

    fn begin(
        &mut self,
        write: bool,
    ) -> wasmtime::Result<Result<Resource<Transaction>, wit::StoreError>> {
        match self.store.session().begin(write) {
            Ok(id) => Ok(Ok(self.table.push(Transaction { id })?)),
            Err(e) => Ok(Err(e.into())),
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
        let result = self.store.session().execute(id, &sql, &params(values));
        Ok(result.map_err(Into::into))
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
        let mut result = self.store.session().query(id, &sql, &params(values));
        #[cfg(any(test, feature = "fault-injection"))]
        if let Ok(rows) = &mut result {
            self.store.faults.on_rows(rows);
        }
        Ok(result.map(Into::into).map_err(Into::into))
    }

    fn pipeline(
        &mut self,
        tx: Resource<Transaction>,
        sql: String,
        values: Vec<wit::Value>,
    ) -> wasmtime::Result<Result<(), wit::StoreError>> {
        let id = self.table.get(&tx)?.id;
        // A statement that may write, as an `execute` is.
        #[cfg(any(test, feature = "fault-injection"))]
        self.store.faults.on_execute()?;
        let result = self.store.session().pipeline(id, &sql, &params(values));
        Ok(result.map_err(Into::into))
    }

    fn commit(
        &mut self,
        tx: Resource<Transaction>,
    ) -> wasmtime::Result<Result<(), wit::StoreError>> {
        let id = self.table.get(&tx)?.id;
        let result = self.store.session().commit(id);
        #[cfg(any(test, feature = "fault-injection"))]
        self.store.after_commit_fault();
        Ok(result.map_err(Into::into))
    }

    fn query_then_commit(
        &mut self,
        tx: Resource<Transaction>,
        sql: String,
        values: Vec<wit::Value>,
    ) -> wasmtime::Result<Result<wit::Rows, wit::StoreError>> {
        let id = self.table.get(&tx)?.id;
        #[cfg(any(test, feature = "fault-injection"))]
        self.store.faults.on_query()?;
        let result = self
            .store
            .session()
            .query_then_commit(id, &sql, &params(values));
        #[cfg(any(test, feature = "fault-injection"))]
        self.store.after_commit_fault();
        Ok(result.map(Into::into).map_err(Into::into))
    }

    fn drop(&mut self, tx: Resource<Transaction>) -> wasmtime::Result<()> {
        let tx = self.table.delete(tx)?;
        self.store.session().abandon(tx.id);
        Ok(())
    }
}

//! The `store` import: SQL transactions over the host's one rusqlite
//! connection. The `transaction` resource holds only an id; the connection
//! and the bookkeeping live in [`StoreCtx`], which outlives instances (a
//! trapped instance is discarded, the connection is kept).

use super::sql::{run_control, run_execute, run_query};
use crate::bindings::tasklists::component::store::{self as wit, Rows, StoreError, Value};
use crate::config::FaultInjection;
use crate::state::HostState;
use rusqlite::Connection;
use std::fmt;
use wasmtime::component::Resource;

/// The host side of a `transaction` resource: which transaction it is.
/// It is live only while it is the connection's open transaction.
#[derive(Debug)]
pub struct Transaction {
    id: u64,
}

/// The open transaction, as the host tracks it.
#[derive(Clone, Copy, Debug)]
struct OpenTx {
    id: u64,
    write: bool,
    /// A statement that may write ran in it.
    wrote: bool,
}

/// The store's state: the connection, which transaction is open, and the
/// test faults.
pub(crate) struct StoreCtx {
    conn: Connection,
    next_id: u64,
    open: Option<OpenTx>,
    /// Whether this connection already made sure the file is in WAL mode.
    wal: bool,
    fault: Option<FaultInjection>,
    executes: u32,
    queries: u32,
    /// A write was committed during the call in progress: a trap after it
    /// must not claim that nothing was changed.
    committed_write: bool,
    /// A query result larger than this is refused rather than buffered:
    /// it could never be copied into the component's capped memory anyway.
    max_result_bytes: usize,
}

/// The trap a [`FaultInjection`] raises (a host error, as a host bug would).
#[derive(Debug)]
pub(crate) struct InjectedFault(pub(crate) &'static str, pub(crate) u32);

impl fmt::Display for InjectedFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "injected host fault on {} #{}", self.0, self.1)
    }
}

impl std::error::Error for InjectedFault {}

impl StoreCtx {
    /// Wraps an open, configured connection.
    pub(crate) fn new(conn: Connection, max_result_bytes: usize) -> Self {
        StoreCtx {
            conn,
            next_id: 0,
            open: None,
            wal: false,
            fault: None,
            executes: 0,
            queries: 0,
            committed_write: false,
            max_result_bytes,
        }
    }

    /// Arms (or disarms) a test fault.
    pub(crate) fn set_fault(&mut self, fault: Option<FaultInjection>) {
        self.fault = fault;
    }

    /// Starts a tool call: fault counters count per call.
    pub(crate) fn begin_call(&mut self) {
        self.executes = 0;
        self.queries = 0;
        self.committed_write = false;
    }

    /// Whether the call in progress (or just ended) committed a write.
    pub(crate) fn committed_write(&self) -> bool {
        self.committed_write
    }

    /// Ends a tool call, whatever happened in it (success, error, trap):
    /// a transaction the component left open is rolled back, so a trap
    /// never leaves a half-done write. Returns what was left open:
    /// `Some(true)` for a write transaction, `Some(false)` for a read.
    pub(crate) fn end_call(&mut self) -> Option<bool> {
        let left_open = self.open.take().map(|tx| tx.write);
        if self.conn.is_autocommit() {
            return left_open;
        }
        // If even ROLLBACK fails, SQLite rolls back when the next BEGIN
        // fails or the connection closes; there is nothing better to do.
        let _ = self.conn.execute_batch("ROLLBACK");
        left_open.or(Some(true))
    }

    /// Opens a transaction: `BEGIN IMMEDIATE` for writes (the write lock
    /// is taken now, so a write never fails half-way on a lock), a deferred
    /// `BEGIN` for reads.
    pub(crate) fn begin(&mut self, write: bool) -> Result<u64, StoreError> {
        if self.open.is_some() || !self.conn.is_autocommit() {
            return Err(StoreError::InvalidState(
                "a transaction is already open; commit or roll it back first".into(),
            ));
        }
        let sql = if write {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN DEFERRED"
        };
        run_control(&self.conn, sql)?;
        self.next_id += 1;
        self.open = Some(OpenTx {
            id: self.next_id,
            write,
            wrote: false,
        });
        Ok(self.next_id)
    }

    /// Runs a statement; returns the rows it changed.
    pub(crate) fn execute(
        &mut self,
        id: u64,
        sql: &str,
        params: &[Value],
    ) -> wasmtime::Result<Result<u64, StoreError>> {
        let tx = match self.live(id) {
            Ok(tx) => tx,
            Err(e) => return Ok(Err(e)),
        };
        self.executes += 1;
        if let Some(fault) = self.fault.filter(|f| f.trap_on_execute == self.executes) {
            self.fault = None;
            return Err(InjectedFault("execute", fault.trap_on_execute).into());
        }
        let mut wrote = false;
        let result = run_execute(&self.conn, sql, params, tx.write, &mut wrote);
        Ok(self.after_statement(result, wrote))
    }

    /// Runs a statement that returns rows.
    pub(crate) fn query(
        &mut self,
        id: u64,
        sql: &str,
        params: &[Value],
    ) -> wasmtime::Result<Result<Rows, StoreError>> {
        let tx = match self.live(id) {
            Ok(tx) => tx,
            Err(e) => return Ok(Err(e)),
        };
        self.queries += 1;
        if let Some(fault) = self.fault.filter(|f| f.trap_on_query == self.queries) {
            self.fault = None;
            return Err(InjectedFault("query", fault.trap_on_query).into());
        }
        let mut wrote = false;
        let result = run_query(
            &self.conn,
            sql,
            params,
            tx.write,
            self.max_result_bytes,
            &mut wrote,
        );
        Ok(self.after_statement(result, wrote))
    }

    /// Commits and ends the transaction. A failed commit rolls back: the
    /// transaction is over either way.
    pub(crate) fn commit(&mut self, id: u64) -> Result<(), StoreError> {
        let tx = self.live(id)?;
        self.open = None;
        let result = run_control(&self.conn, "COMMIT");
        if result.is_err() && !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        // The first committed write switches the file to WAL. Not sooner:
        // a database the component refuses (a newer schema, checked inside
        // its first write transaction) must stay byte-identical. A failed
        // switch (busy) is retried after the next write.
        self.committed_write |= result.is_ok() && tx.wrote;
        if result.is_ok() && tx.wrote && !self.wal {
            self.wal = crate::db::enable_wal(&self.conn).is_ok();
        }
        result
    }

    /// Rolls back and ends the transaction.
    pub(crate) fn rollback(&mut self, id: u64) -> Result<(), StoreError> {
        self.live(id)?;
        self.open = None;
        if self.conn.is_autocommit() {
            // SQLite already rolled it back (after an I/O error, say).
            return Ok(());
        }
        run_control(&self.conn, "ROLLBACK")
    }

    /// The resource was dropped: an unfinished transaction rolls back.
    pub(crate) fn abandon(&mut self, id: u64) {
        if self.live(id).is_ok() {
            self.open = None;
            if !self.conn.is_autocommit() {
                let _ = self.conn.execute_batch("ROLLBACK");
            }
        }
    }

    /// The open transaction if `id` is it, else `invalid-state`.
    fn live(&self, id: u64) -> Result<OpenTx, StoreError> {
        match self.open {
            Some(tx) if tx.id == id => Ok(tx),
            _ => Err(StoreError::InvalidState(
                "this transaction is finished (committed, rolled back, or ended with its call)"
                    .into(),
            )),
        }
    }

    /// Records a write, and notices when SQLite ended the transaction by
    /// itself: some errors (disk full, I/O) roll it back, and the handle
    /// must not pretend it is still open.
    fn after_statement<T>(
        &mut self,
        result: Result<T, StoreError>,
        wrote: bool,
    ) -> Result<T, StoreError> {
        if let Some(tx) = &mut self.open {
            tx.wrote |= wrote;
            if self.conn.is_autocommit() {
                self.open = None;
            }
        }
        result
    }

    /// The connection, for host-side checks in tests.
    #[cfg(test)]
    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }
}

impl wit::Host for HostState {
    fn begin(
        &mut self,
        write: bool,
    ) -> wasmtime::Result<Result<Resource<Transaction>, StoreError>> {
        match self.store.begin(write) {
            Ok(id) => Ok(Ok(self.table.push(Transaction { id })?)),
            Err(e) => Ok(Err(e)),
        }
    }
}

impl wit::HostTransaction for HostState {
    fn execute(
        &mut self,
        tx: Resource<Transaction>,
        sql: String,
        params: Vec<Value>,
    ) -> wasmtime::Result<Result<u64, StoreError>> {
        let id = self.table.get(&tx)?.id;
        self.store.execute(id, &sql, &params)
    }

    fn query(
        &mut self,
        tx: Resource<Transaction>,
        sql: String,
        params: Vec<Value>,
    ) -> wasmtime::Result<Result<Rows, StoreError>> {
        let id = self.table.get(&tx)?.id;
        self.store.query(id, &sql, &params)
    }

    fn commit(&mut self, tx: Resource<Transaction>) -> wasmtime::Result<Result<(), StoreError>> {
        let id = self.table.get(&tx)?.id;
        Ok(self.store.commit(id))
    }

    fn rollback(&mut self, tx: Resource<Transaction>) -> wasmtime::Result<Result<(), StoreError>> {
        let id = self.table.get(&tx)?.id;
        Ok(self.store.rollback(id))
    }

    fn drop(&mut self, tx: Resource<Transaction>) -> wasmtime::Result<()> {
        let tx = self.table.delete(tx)?;
        self.store.abandon(tx.id);
        Ok(())
    }
}

//! The `store` import: SQL transactions over the host's one rusqlite
//! connection. The `transaction` resource holds only an id; the connection
//! and the bookkeeping live in [`StoreCtx`], which outlives instances (a
//! trapped instance is discarded, the connection is kept).
//!
//! The connection is opened when the component first needs it (`begin`),
//! so what needs no store (`task_help`, the catalogue, the renderers)
//! works whatever state the database file is in. A call that fails on an
//! I/O error (a read-only file or `-shm`, a full disk, a file that cannot
//! be opened) closes it: the next call opens it again and sees the file
//! as it is then, so fixing permissions needs no restart.

use super::sql::{run_control, run_execute, run_query};
use super::store_error::READ_ONLY;
use crate::bindings::tasklists::component::store::{self as wit, Rows, StoreError, Value};
use crate::config::FaultInjection;
use crate::deadline::Deadline;
use crate::error::HostError;
use crate::state::HostState;
use rusqlite::Connection;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;
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

/// How the connection is (re)opened: [`crate::db::open`] with these.
struct Source {
    path: PathBuf,
    busy_timeout: Duration,
    deadline: Deadline,
}

/// The store's state: the connection, which transaction is open, and the
/// test faults.
pub(crate) struct StoreCtx {
    conn: Option<Connection>,
    source: Source,
    /// An I/O error happened in this call: close the connection when the
    /// call ends.
    reconnect: bool,
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

/// The finished transaction error every late use of a handle gets.
fn finished() -> StoreError {
    StoreError::InvalidState(
        "this transaction is finished (committed, rolled back, or ended with its call)".into(),
    )
}

impl StoreCtx {
    /// A store on the database file at `path`, opened by the first call
    /// that needs it ([`crate::db::open`] with these settings).
    pub(crate) fn for_file(
        path: PathBuf,
        busy_timeout: Duration,
        deadline: Deadline,
        max_result_bytes: usize,
    ) -> Self {
        StoreCtx {
            conn: None,
            source: Source {
                path,
                busy_timeout,
                deadline,
            },
            reconnect: false,
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

    /// Opens the connection now if it is not open: a host that must fail
    /// at once on a bad file calls this before serving.
    pub(crate) fn connect(&mut self) -> Result<&Connection, HostError> {
        if self.conn.is_none() {
            let Source {
                path,
                busy_timeout,
                deadline,
            } = &self.source;
            self.conn = Some(crate::db::open(path, *busy_timeout, deadline)?);
            self.wal = false;
        }
        Ok(self.conn.as_ref().expect("just opened"))
    }

    /// The deadline SQLite's busy and progress handlers of this store obey.
    pub(crate) fn deadline(&self) -> Deadline {
        self.source.deadline.clone()
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
    /// never leaves a half-done write, and after an I/O error the
    /// connection is closed (the next call opens a fresh one). Returns
    /// what was left open: `Some(true)` for a write transaction,
    /// `Some(false)` for a read.
    pub(crate) fn end_call(&mut self) -> Option<bool> {
        let mut left_open = self.open.take().map(|tx| tx.write);
        if let Some(conn) = &self.conn
            && !conn.is_autocommit()
        {
            // If even ROLLBACK fails, SQLite rolls back when the next BEGIN
            // fails or the connection closes; there is nothing better to do.
            let _ = conn.execute_batch("ROLLBACK");
            left_open = left_open.or(Some(true));
        }
        if std::mem::take(&mut self.reconnect) {
            self.conn = None;
        }
        left_open
    }

    /// Opens a transaction: `BEGIN IMMEDIATE` for writes (the write lock
    /// is taken now, so a write never fails half-way on a lock), a deferred
    /// `BEGIN` for reads. Opens the connection first if need be.
    pub(crate) fn begin(&mut self, write: bool) -> Result<u64, StoreError> {
        if let Err(e) = self.connect() {
            self.reconnect = true;
            return Err(open_error(&e));
        }
        let conn = self.conn.as_ref().expect("connected");
        if self.open.is_some() || !conn.is_autocommit() {
            return Err(StoreError::InvalidState(
                "a transaction is already open; commit or roll it back first".into(),
            ));
        }
        let sql = if write {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN DEFERRED"
        };
        self.note(run_control(conn, sql))?;
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
        let Some(conn) = &self.conn else {
            return Ok(Err(finished()));
        };
        let mut wrote = false;
        let result = run_execute(conn, sql, params, tx.write, &mut wrote);
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
        let Some(conn) = &self.conn else {
            return Ok(Err(finished()));
        };
        let mut wrote = false;
        let result = run_query(
            conn,
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
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        let result = run_control(conn, "COMMIT");
        if result.is_err() && !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        // The first committed write switches the file to WAL. Not sooner:
        // a database the component refuses (a newer schema, checked inside
        // its first write transaction) must stay byte-identical. A failed
        // switch (busy) is retried after the next write.
        self.committed_write |= result.is_ok() && tx.wrote;
        if result.is_ok() && tx.wrote && !self.wal {
            self.wal = crate::db::enable_wal(conn).is_ok();
        }
        self.note(result)
    }

    /// Rolls back and ends the transaction.
    pub(crate) fn rollback(&mut self, id: u64) -> Result<(), StoreError> {
        self.live(id)?;
        self.open = None;
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        if conn.is_autocommit() {
            // SQLite already rolled it back (after an I/O error, say).
            return Ok(());
        }
        run_control(conn, "ROLLBACK")
    }

    /// The resource was dropped: an unfinished transaction rolls back.
    pub(crate) fn abandon(&mut self, id: u64) {
        if self.live(id).is_ok() {
            self.open = None;
            if let Some(conn) = &self.conn
                && !conn.is_autocommit()
            {
                let _ = conn.execute_batch("ROLLBACK");
            }
        }
    }

    /// The open transaction if `id` is it, else `invalid-state`.
    fn live(&self, id: u64) -> Result<OpenTx, StoreError> {
        match self.open {
            Some(tx) if tx.id == id => Ok(tx),
            _ => Err(finished()),
        }
    }

    /// Records a write, notes an I/O error, and notices when SQLite ended
    /// the transaction by itself: some errors (disk full, I/O) roll it
    /// back, and the handle must not pretend it is still open.
    fn after_statement<T>(
        &mut self,
        result: Result<T, StoreError>,
        wrote: bool,
    ) -> Result<T, StoreError> {
        let result = self.note(result);
        if let Some(tx) = &mut self.open {
            tx.wrote |= wrote;
            if self.conn.as_ref().is_none_or(Connection::is_autocommit) {
                self.open = None;
            }
        }
        result
    }

    /// An I/O error may be the connection's own state (SQLite keeps a
    /// file it opened read-only read-only): the call ends by closing it.
    /// A read-only database is told with the files SQLite needs to write:
    /// it creates `-wal` and `-shm` next to the database with the
    /// database's mode, so a file made read-only once leaves read-only
    /// companions behind.
    fn note<T>(&mut self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        match result {
            Err(StoreError::Io(message)) => {
                self.reconnect = true;
                let path = self.source.path.display();
                Err(StoreError::Io(if message.starts_with(READ_ONLY) {
                    format!(
                        "{message}: {path}, {path}-wal, {path}-shm and their directory must all be writable"
                    )
                } else {
                    message
                }))
            }
            other => other,
        }
    }

    /// The connection, for host-side checks in tests.
    #[cfg(test)]
    pub(crate) fn conn(&self) -> &Connection {
        self.conn.as_ref().expect("the connection is open")
    }
}

/// Why the database could not be opened, as the store error the component
/// reports (`storage`, with this message).
fn open_error(e: &HostError) -> StoreError {
    match e {
        HostError::NotADatabase { .. } => StoreError::Corrupt(e.to_string()),
        _ => StoreError::Io(e.to_string()),
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

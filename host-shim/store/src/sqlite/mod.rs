//! The SQLite backend: one rusqlite connection behind [`Backend`].
//!
//! The connection is opened when the component first needs it (`begin`),
//! so what needs no store (`task_help`, the catalogue, the renderers)
//! works whatever state the database file is in. A call that fails on an
//! I/O error (a read-only file or `-shm`, a full disk, a file that cannot
//! be opened) closes it: the next call opens it again and sees the file
//! as it is then, so fixing permissions needs no restart.

mod busy;
mod errors;
mod open;
mod statements;
#[cfg(test)]
mod tests;
mod watch;

pub use open::{enable_wal, open};
pub use watch::SqliteWatch;

use crate::{Backend, BackendOptions, OpenError, Rows, StoreError, TxId, Value};
use errors::READ_ONLY;
use rusqlite::Connection;
use statements::{run_control, run_execute, run_query};
use std::path::PathBuf;

/// The open transaction, as the backend tracks it.
#[derive(Clone, Copy, Debug)]
struct OpenTx {
    id: TxId,
    write: bool,
    /// A statement that may write ran in it.
    wrote: bool,
}

/// A store on one SQLite file: the connection (opened on demand), which
/// transaction is open, and what the call in progress did.
pub struct SqliteBackend {
    conn: Option<Connection>,
    path: PathBuf,
    options: BackendOptions,
    /// An I/O error happened in this call: close the connection when the
    /// call ends.
    reconnect: bool,
    next_id: TxId,
    open: Option<OpenTx>,
    /// Whether this connection already made sure the file is in WAL mode.
    wal: bool,
    /// A write was committed during the call in progress: a trap after it
    /// must not claim that nothing was changed.
    committed_write: bool,
}

/// The finished transaction error every late use of a handle gets.
fn finished() -> StoreError {
    StoreError::InvalidState(
        "this transaction is finished (committed, rolled back, or ended with its call)".into(),
    )
}

impl SqliteBackend {
    /// A store on the database file at `path`, opened by the first call
    /// that needs it ([`open`] with these options).
    pub fn new(path: PathBuf, options: BackendOptions) -> Self {
        SqliteBackend {
            conn: None,
            path,
            options,
            reconnect: false,
            next_id: 0,
            open: None,
            wal: false,
            committed_write: false,
        }
    }

    /// The connection, opening it if need be.
    fn connection(&mut self) -> Result<&Connection, OpenError> {
        if self.conn.is_none() {
            let options = &self.options;
            self.conn = Some(open(&self.path, options.busy_timeout, &options.deadline)?);
            self.wal = false;
        }
        Ok(self.conn.as_ref().expect("just opened"))
    }

    /// The open transaction if `id` is it, else `invalid-state`.
    fn live(&self, id: TxId) -> Result<OpenTx, StoreError> {
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
                let path = self.path.display();
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

    /// The connection, for checks in tests.
    #[cfg(test)]
    pub(crate) fn conn(&self) -> &Connection {
        self.conn.as_ref().expect("the connection is open")
    }
}

/// Why the database could not be opened, as the store error the component
/// reports (`storage`, with this message).
fn open_error(e: &OpenError) -> StoreError {
    match e {
        OpenError::NotADatabase { .. } => StoreError::Corrupt(e.to_string()),
        _ => StoreError::Io(e.to_string()),
    }
}

impl Backend for SqliteBackend {
    fn connect(&mut self) -> Result<(), OpenError> {
        self.connection().map(drop)
    }

    fn begin_call(&mut self) {
        self.committed_write = false;
    }

    fn committed_write(&self) -> bool {
        self.committed_write
    }

    fn end_call(&mut self) -> Option<bool> {
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

    /// `BEGIN IMMEDIATE` for writes (the write lock is taken now), a
    /// deferred `BEGIN` for reads. Opens the connection first if need be.
    fn begin(&mut self, write: bool) -> Result<TxId, StoreError> {
        if let Err(e) = self.connection() {
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
        let begun = run_control(conn, sql);
        self.note(begun)?;
        self.next_id += 1;
        self.open = Some(OpenTx {
            id: self.next_id,
            write,
            wrote: false,
        });
        Ok(self.next_id)
    }

    fn execute(&mut self, id: TxId, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let tx = self.live(id)?;
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        let mut wrote = false;
        let result = run_execute(conn, sql, params, tx.write, &mut wrote);
        self.after_statement(result, wrote)
    }

    fn query(&mut self, id: TxId, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        let tx = self.live(id)?;
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        let mut wrote = false;
        let max_bytes = self.options.max_result_bytes;
        let result = run_query(conn, sql, params, tx.write, max_bytes, &mut wrote);
        self.after_statement(result, wrote)
    }

    /// A failed commit rolls back: the transaction is over either way.
    fn commit(&mut self, id: TxId) -> Result<(), StoreError> {
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
            self.wal = enable_wal(conn).is_ok();
        }
        self.note(result)
    }

    fn rollback(&mut self, id: TxId) -> Result<(), StoreError> {
        self.live(id)?;
        self.open = None;
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        if conn.is_autocommit() {
            // SQLite already rolled it back (after an I/O error, say).
            return Ok(());
        }
        run_control(conn, "ROLLBACK")
    }

    fn abandon(&mut self, id: TxId) {
        if self.live(id).is_ok() {
            self.open = None;
            if let Some(conn) = &self.conn
                && !conn.is_autocommit()
            {
                let _ = conn.execute_batch("ROLLBACK");
            }
        }
    }
}

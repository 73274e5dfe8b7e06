//! The seam between the generic [`Session`](crate::Session) and a database
//! engine: the SQL operations of one connection, one transaction at a
//! time. Transaction handles, the call lifecycle and what a call's writes
//! came to are the session's; a backend only connects, begins, runs
//! statements and ends transactions, in the spirit of Spin's
//! `factor-sqlite` `Connection`.

use crate::{Deadline, Dialect, OpenError, Rows, StoreError, Value};
use std::time::Duration;

/// What every backend is opened with.
#[derive(Clone, Debug)]
pub struct BackendOptions {
    /// How long a transaction waits for another writer's lock before `busy`.
    pub busy_timeout: Duration,
    /// The deadline of the call in progress: waits and statements stop at it.
    pub deadline: Deadline,
    /// A query result larger than this is refused rather than buffered (it
    /// could never be copied into the component's capped memory anyway).
    pub max_result_bytes: usize,
}

/// The transaction a session has open, as its statements see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tx {
    /// Begun with `write: true`: it holds the write lock.
    pub write: bool,
    /// A statement that may write ran in it (set by the backend).
    pub wrote: bool,
}

/// Why a commit did not commit.
#[derive(Debug)]
pub enum CommitFailure {
    /// Nothing of the transaction was applied (refused, rolled back).
    Failed(StoreError),
    /// The outcome is unknown (the connection was lost during COMMIT) and
    /// the transaction wrote: its writes may stand.
    Unknown(StoreError),
}

/// One connection's worth of SQL: what a kind of store implements.
///
/// The connection is opened on demand (the first `begin`), so what needs
/// no store works whatever state the database is in, and a backend closes
/// it after an I/O failure so that the next call sees the database as it
/// is then. The session calls the statement methods only while it has a
/// transaction open, and `begin` only while it has none.
pub trait Backend: Send {
    /// The SQL dialect this backend's engine speaks (the component picks
    /// its migrations and the few statements that differ by it).
    fn dialect(&self) -> Dialect;

    /// The store's own clock, for a store that several machines share: the
    /// database server's time, so leases never depend on each machine's
    /// clock. `None` for a local store (the host's clock is the one).
    fn now_ms(&mut self) -> Option<i64> {
        None
    }

    /// Whether the store keeps the clock every host of it must read
    /// ([`Backend::now_ms`]): a server several machines share does; a
    /// local file does not. The component's `clock.store-clock` answers it.
    fn keeps_clock(&self) -> bool {
        false
    }

    /// Opens the connection now if it is closed: a host that must fail at
    /// once on a bad database calls this before serving.
    fn connect(&mut self) -> Result<(), OpenError>;

    /// A tool call starts (a backend's own per-call state starts again).
    fn begin_call(&mut self) {}

    /// Opens a transaction, connecting first if need be. `write: true`
    /// takes the write lock before any statement runs (PostgreSQL: with
    /// the first statement, in its round trip), so a write never fails
    /// half-way on a lock; `write: false` reads one consistent snapshot.
    fn begin(&mut self, write: bool) -> Result<(), StoreError>;

    /// Runs a statement in the open transaction; returns the rows it
    /// changed. Sets `tx.wrote` when the statement may write.
    fn execute(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<u64, StoreError>;

    /// Runs a statement that returns rows. Sets `tx.wrote` when the
    /// statement may write (`… RETURNING`).
    fn query(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<Rows, StoreError>;

    /// Sends a statement whose answer nobody waits for: with the next
    /// statement or the commit, in its round trip (the WIT `pipeline`).
    /// Its failure fails that statement or commit, and the transaction.
    /// By default (a local engine, where a round trip costs nothing) it
    /// runs at once, as `execute`.
    fn pipeline(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<(), StoreError> {
        self.execute(tx, sql, params).map(drop)
    }
    /// Whether the transaction is still open on the connection: an engine
    /// may end one by itself (SQLite after some I/O errors, a lost
    /// connection), and its handle must not pretend it is still open.
    fn in_transaction(&self) -> bool;

    /// Commits and ends the transaction (a failed commit rolls back).
    fn commit(&mut self, tx: Tx) -> Result<(), CommitFailure>;

    /// Runs a statement that returns rows, then commits and ends the
    /// transaction (the WIT `query-then-commit`); the rows, and the
    /// transaction as the statement left it. Any failure ends it too:
    /// `Failed` when nothing was applied, `Unknown` when the connection
    /// was lost while the commit may have run. By default (a local
    /// engine, where a round trip costs nothing) `query`, then `commit`.
    fn query_then_commit(
        &mut self,
        mut tx: Tx,
        sql: &str,
        params: &[Value],
    ) -> Result<(Rows, Tx), CommitFailure> {
        match self.query(&mut tx, sql, params) {
            Ok(rows) => self.commit(tx).map(|()| (rows, tx)),
            Err(e) => {
                self.abandon();
                Err(CommitFailure::Failed(e))
            }
        }
    }

    /// Rolls back and ends the transaction.
    fn rollback(&mut self) -> Result<(), StoreError>;

    /// Ends the open transaction quietly, rolling it back (a dropped
    /// handle, the end of a call).
    fn abandon(&mut self);

    /// The call ended: rolls back whatever the connection still has open
    /// (`true` if it had something) and does what waited for the end of
    /// the call (closing a connection an I/O error spoiled).
    fn end_call(&mut self) -> bool {
        false
    }
}

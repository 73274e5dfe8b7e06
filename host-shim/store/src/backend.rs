//! The seam between a host's `store` import and a database engine: one
//! connection, one transaction at a time, used by one tool call at a time.
//! The WIT `store` implementation of each host only maps its bindings onto
//! this trait; an engine (SQLite today) implements it.

use crate::{Deadline, Dialect, OpenError, Rows, StoreError, Value, WriteState};
use std::time::Duration;

/// Which transaction a handle names. Handles of finished transactions stay
/// dead: a later use is `invalid-state`, never a different transaction.
pub type TxId = u64;

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

/// One connection's worth of SQL transactions.
///
/// The connection is opened on demand (the first `begin`), so what needs no
/// store works whatever state the database is in, and a backend closes it
/// after an I/O failure so that the next call sees the database as it is
/// then.
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

    /// Opens the connection now if it is closed: a host that must fail at
    /// once on a bad database calls this before serving.
    fn connect(&mut self) -> Result<(), OpenError>;

    /// Starts a tool call (per-call bookkeeping starts again).
    fn begin_call(&mut self);

    /// Ends a tool call, whatever happened in it (success, error, trap): a
    /// transaction left open is rolled back, so a trap never leaves a
    /// half-done write. Returns what was left open: `Some(true)` for a
    /// write transaction, `Some(false)` for a read, `None` for nothing.
    fn end_call(&mut self) -> Option<bool>;

    /// What the writes of the call in progress (or just ended) came to.
    fn write_state(&self) -> WriteState;

    /// Opens a transaction. `write: true` takes the write lock at once, so
    /// a write never fails half-way on a lock; `write: false` reads one
    /// consistent snapshot.
    fn begin(&mut self, write: bool) -> Result<TxId, StoreError>;

    /// Runs a statement; returns the rows it changed.
    fn execute(&mut self, tx: TxId, sql: &str, params: &[Value]) -> Result<u64, StoreError>;

    /// Runs a statement that returns rows.
    fn query(&mut self, tx: TxId, sql: &str, params: &[Value]) -> Result<Rows, StoreError>;

    /// Commits and ends the transaction (a failed commit rolls back).
    fn commit(&mut self, tx: TxId) -> Result<(), StoreError>;

    /// Rolls back and ends the transaction.
    fn rollback(&mut self, tx: TxId) -> Result<(), StoreError>;

    /// The handle was dropped: an unfinished transaction rolls back.
    fn abandon(&mut self, tx: TxId);
}

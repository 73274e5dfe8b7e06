//! The session every host serves the `store` import through, written once
//! for every backend: transaction handles, one transaction at a time, the
//! call lifecycle, and what the writes of a call came to. The backend
//! under it only runs SQL.

use crate::backend::{Backend, CommitFailure, Tx};
use crate::{Dialect, OpenError, Rows, StoreError, Value, WriteState};

/// Which transaction a handle names. Handles of finished transactions stay
/// dead: a later use is `invalid-state`, never a different transaction.
pub type TxId = u64;

/// The open transaction, as the session tracks it.
#[derive(Clone, Copy, Debug)]
struct OpenTx {
    id: TxId,
    tx: Tx,
}

/// One connection's worth of transactions, used by one tool call at a
/// time: a [`Backend`] (the SQL) under the bookkeeping every host needs.
/// `B` is named by tests that reach into their engine; hosts use the
/// default, a boxed backend of any kind.
pub struct Session<B: Backend + ?Sized = dyn Backend> {
    next_id: TxId,
    open: Option<OpenTx>,
    /// What the writes of the call in progress came to: a trap after a
    /// commit must not claim that nothing was changed.
    write_state: WriteState,
    backend: Box<B>,
}

/// The error every late use of a handle gets: its transaction ended.
pub(crate) fn finished() -> StoreError {
    StoreError::InvalidState(
        "this transaction is finished (committed, rolled back, ended with its call, or ended \
         by the store after an error or a lost connection)"
            .into(),
    )
}

impl<B: Backend + ?Sized> Session<B> {
    /// A session over `backend` (not connected yet: the first transaction
    /// connects, or [`Session::connect`] does it at once).
    pub fn new(backend: Box<B>) -> Self {
        Session {
            next_id: 0,
            open: None,
            write_state: WriteState::NotApplied,
            backend,
        }
    }

    /// The backend, for tests that look at its engine.
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// The backend, for tests that act on its engine.
    pub fn backend_mut(&mut self) -> &mut B {
        &mut self.backend
    }

    /// The SQL dialect the store speaks.
    pub fn dialect(&self) -> Dialect {
        self.backend.dialect()
    }

    /// The store's own clock (a database server's), if it has one.
    pub fn now_ms(&mut self) -> Option<i64> {
        self.backend.now_ms()
    }

    /// Whether the store keeps the clock its hosts read
    /// ([`Backend::keeps_clock`]).
    pub fn keeps_clock(&self) -> bool {
        self.backend.keeps_clock()
    }

    /// Opens the connection now if it is closed.
    pub fn connect(&mut self) -> Result<(), OpenError> {
        self.backend.connect()
    }

    /// Starts a tool call (per-call bookkeeping starts again).
    pub fn begin_call(&mut self) {
        self.write_state = WriteState::NotApplied;
        self.backend.begin_call();
    }

    /// Ends a tool call, whatever happened in it (success, error, trap): a
    /// transaction left open is rolled back, so a trap never leaves a
    /// half-done write. Returns what was left open: `Some(true)` for a
    /// write transaction, `Some(false)` for a read, `None` for nothing.
    pub fn end_call(&mut self) -> Option<bool> {
        let left_open = self.open.take().map(|open| open.tx.write);
        if left_open.is_some() {
            self.backend.abandon();
        }
        // Something open on the connection that no handle knew of is
        // rolled back too, and counted as a write (the safe side).
        let stray = self.backend.end_call();
        left_open.or(stray.then_some(true))
    }

    /// What the writes of the call in progress (or just ended) came to.
    pub fn write_state(&self) -> WriteState {
        self.write_state
    }

    /// Opens a transaction. `write: true` takes the write lock before any
    /// statement runs (PostgreSQL: with the first statement, in its round
    /// trip), so a write never fails half-way on a lock; `write: false`
    /// reads one consistent snapshot.
    pub fn begin(&mut self, write: bool) -> Result<TxId, StoreError> {
        if self.open.is_some() {
            return Err(StoreError::InvalidState(
                "a transaction is already open; commit or roll it back first".into(),
            ));
        }
        self.backend.begin(write)?;
        self.next_id += 1;
        self.open = Some(OpenTx {
            id: self.next_id,
            tx: Tx {
                write,
                wrote: false,
            },
        });
        Ok(self.next_id)
    }

    /// Runs a statement; returns the rows it changed.
    pub fn execute(&mut self, id: TxId, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let mut tx = self.live(id)?;
        let result = self.backend.execute(&mut tx, sql, params);
        self.after_statement(tx);
        result
    }

    /// Runs a statement that returns rows.
    pub fn query(&mut self, id: TxId, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        let mut tx = self.live(id)?;
        let result = self.backend.query(&mut tx, sql, params);
        self.after_statement(tx);
        result
    }

    /// Sends a statement whose answer nobody waits for, with the next
    /// statement or the commit ([`Backend::pipeline`]).
    pub fn pipeline(&mut self, id: TxId, sql: &str, params: &[Value]) -> Result<(), StoreError> {
        let mut tx = self.live(id)?;
        let result = self.backend.pipeline(&mut tx, sql, params);
        self.after_statement(tx);
        result
    }

    /// Commits and ends the transaction (a failed commit rolls back). A
    /// commit whose outcome is unknown makes the call's writes
    /// [`WriteState::MayBeApplied`]: the host never repeats a call, and
    /// the agent is told to look first.
    pub fn commit(&mut self, id: TxId) -> Result<(), StoreError> {
        let tx = self.live(id)?;
        self.open = None;
        let ended = self.backend.commit(tx).map(|()| ((), tx));
        self.ended(ended)
    }

    /// Runs a statement that returns rows, then commits and ends the
    /// transaction, in one round trip where the engine can
    /// ([`Backend::query_then_commit`]); what the writes came to is kept
    /// as [`Session::commit`] keeps it.
    pub fn query_then_commit(
        &mut self,
        id: TxId,
        sql: &str,
        params: &[Value],
    ) -> Result<Rows, StoreError> {
        let tx = self.live(id)?;
        self.open = None;
        let ended = self.backend.query_then_commit(tx, sql, params);
        self.ended(ended)
    }

    /// Keeps what a commit of the transaction `tx` (as it ended) came to
    /// in the call's write state, and returns what it answered.
    fn ended<T>(&mut self, ended: Result<(T, Tx), CommitFailure>) -> Result<T, StoreError> {
        match ended {
            Ok((answer, tx)) => {
                if tx.write && tx.wrote {
                    self.write_state = self.write_state.then(WriteState::Applied);
                }
                Ok(answer)
            }
            Err(CommitFailure::Failed(e)) => Err(e),
            Err(CommitFailure::Unknown(e)) => {
                self.write_state = self.write_state.then(WriteState::MayBeApplied);
                Err(e)
            }
        }
    }

    /// Rolls back and ends the transaction.
    pub fn rollback(&mut self, id: TxId) -> Result<(), StoreError> {
        self.live(id)?;
        self.open = None;
        self.backend.rollback()
    }

    /// The handle was dropped: an unfinished transaction rolls back.
    pub fn abandon(&mut self, id: TxId) {
        if self.live(id).is_ok() {
            self.open = None;
            self.backend.abandon();
        }
    }

    /// The open transaction if `id` is it, else `invalid-state`.
    fn live(&self, id: TxId) -> Result<Tx, StoreError> {
        match self.open {
            Some(open) if open.id == id => Ok(open.tx),
            _ => Err(finished()),
        }
    }

    /// Records what the statement did, and notices when the engine ended
    /// the transaction by itself.
    fn after_statement(&mut self, tx: Tx) {
        if let Some(open) = &mut self.open {
            open.tx = tx;
            if !self.backend.in_transaction() {
                self.open = None;
            }
        }
    }
}

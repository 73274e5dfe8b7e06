//! A recording [`Backend`] wrapper (feature `statement-log`): every
//! transaction operation the component asks of the store (under the
//! session, so only those it lets through), with its SQL,
//! its parameters, what it returned and how long the backend took.
//!
//! The in-process benchmarks replay the log on raw rusqlite, so their
//! "identical statements" baseline follows whatever the guest runs today
//! instead of a hand-copied list, and they split a call's time into
//! SQLite (the backend) and everything else (sandbox, validation, JSON).

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tasklists_store::{Backend, CommitFailure, Dialect, OpenError, Rows, StoreError, Tx, Value};

/// One operation of the `store` import, as the component made it.
#[derive(Clone, Debug, PartialEq)]
pub enum LoggedOp {
    /// `begin(write)`: `BEGIN IMMEDIATE` for a write, deferred otherwise.
    Begin {
        /// Whether the write lock was asked for.
        write: bool,
    },
    /// `execute(sql, params)`.
    Execute {
        /// The statement text.
        sql: String,
        /// Its bound parameters.
        params: Vec<Value>,
    },
    /// `query(sql, params)`.
    Query {
        /// The statement text.
        sql: String,
        /// Its bound parameters.
        params: Vec<Value>,
    },
    /// `pipeline(sql, params)`: a statement whose outcome the component
    /// does not read (logged with 0 rows changed, as the component sees it).
    Pipeline {
        /// The statement text.
        sql: String,
        /// Its bound parameters.
        params: Vec<Value>,
    },
    /// `commit()`.
    Commit,
    /// `rollback()`.
    Rollback,
    /// The host rolled back a transaction the call left open (trap, early
    /// return), or a handle was dropped unfinished.
    Abandon,
}

/// A logged operation and what came of it.
#[derive(Clone, Debug)]
pub struct LoggedEntry {
    /// What was asked.
    pub op: LoggedOp,
    /// Rows changed (`execute`) or returned (`query`); 0 for the rest;
    /// `None` when the backend refused it.
    pub result: Option<u64>,
    /// Time spent in the backend (SQLite and value conversion).
    pub elapsed: Duration,
}

/// A shared handle on the log: give a clone to
/// [`crate::HostConfig::with_statement_log`], read it with
/// [`StatementLog::take`].
#[derive(Clone, Debug, Default)]
pub struct StatementLog {
    entries: Arc<Mutex<Vec<LoggedEntry>>>,
}

impl StatementLog {
    /// An empty log.
    pub fn new() -> Self {
        Self::default()
    }

    /// Everything logged since the last `take`, oldest first.
    pub fn take(&self) -> Vec<LoggedEntry> {
        std::mem::take(&mut *self.lock())
    }

    fn push(&self, op: LoggedOp, result: Option<u64>, elapsed: Duration) {
        self.lock().push(LoggedEntry {
            op,
            result,
            elapsed,
        });
    }

    fn lock(&self) -> MutexGuard<'_, Vec<LoggedEntry>> {
        // A panic while pushing leaves a valid Vec: keep using it.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `inner`, logging into `log`.
pub(crate) fn wrap(inner: Box<dyn Backend>, log: Option<StatementLog>) -> Box<dyn Backend> {
    match log {
        Some(log) => Box::new(Recording { inner, log }),
        None => inner,
    }
}

/// A backend that logs what the session asks of it. Under the session, it
/// sees only transactions that are open: a handle dropped unfinished, or
/// left open at the end of a call, is an `abandon`.
struct Recording {
    inner: Box<dyn Backend>,
    log: StatementLog,
}

impl Recording {
    /// Runs `f` on the backend, timed, and logs `op` with `count` of its
    /// result.
    fn logged<T, E>(
        &mut self,
        op: LoggedOp,
        f: impl FnOnce(&mut dyn Backend) -> Result<T, E>,
        count: impl FnOnce(&T) -> u64,
    ) -> Result<T, E> {
        let started = Instant::now();
        let result = f(&mut *self.inner);
        let elapsed = started.elapsed();
        self.log.push(op, result.as_ref().ok().map(count), elapsed);
        result
    }
}

impl Backend for Recording {
    fn dialect(&self) -> Dialect {
        self.inner.dialect()
    }

    fn now_ms(&mut self) -> Option<i64> {
        self.inner.now_ms()
    }

    fn keeps_clock(&self) -> bool {
        self.inner.keeps_clock()
    }

    fn connect(&mut self) -> Result<(), OpenError> {
        self.inner.connect()
    }

    fn begin_call(&mut self) {
        self.inner.begin_call();
    }

    fn begin(&mut self, write: bool) -> Result<(), StoreError> {
        self.logged(LoggedOp::Begin { write }, |b| b.begin(write), |_| 0)
    }

    fn execute(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let op = LoggedOp::Execute {
            sql: sql.to_owned(),
            params: params.to_vec(),
        };
        self.logged(op, |b| b.execute(tx, sql, params), |n| *n)
    }

    fn query(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        let op = LoggedOp::Query {
            sql: sql.to_owned(),
            params: params.to_vec(),
        };
        self.logged(op, |b| b.query(tx, sql, params), |r| r.len() as u64)
    }

    fn pipeline(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<(), StoreError> {
        let op = LoggedOp::Pipeline {
            sql: sql.to_owned(),
            params: params.to_vec(),
        };
        self.logged(op, |b| b.pipeline(tx, sql, params), |()| 0)
    }

    fn in_transaction(&self) -> bool {
        self.inner.in_transaction()
    }

    fn commit(&mut self, tx: Tx) -> Result<(), CommitFailure> {
        self.logged(LoggedOp::Commit, |b| b.commit(tx), |_| 0)
    }

    /// Logged as the query and the commit it is; the backend's own
    /// `query_then_commit` runs both.
    fn query_then_commit(
        &mut self,
        tx: Tx,
        sql: &str,
        params: &[Value],
    ) -> Result<(Rows, Tx), CommitFailure> {
        let op = LoggedOp::Query {
            sql: sql.to_owned(),
            params: params.to_vec(),
        };
        let started = Instant::now();
        let result = self.inner.query_then_commit(tx, sql, params);
        let rows = result.as_ref().ok().map(|(r, _)| r.len() as u64);
        self.log.push(op, rows, started.elapsed());
        self.log
            .push(LoggedOp::Commit, rows.map(|_| 0), Duration::ZERO);
        result
    }

    fn rollback(&mut self) -> Result<(), StoreError> {
        self.logged(LoggedOp::Rollback, |b| b.rollback(), |_| 0)
    }

    fn abandon(&mut self) {
        let started = Instant::now();
        self.inner.abandon();
        self.log.push(LoggedOp::Abandon, Some(0), started.elapsed());
    }

    fn end_call(&mut self) -> bool {
        self.inner.end_call()
    }
}

//! The PostgreSQL backend behind [`Backend`]: one connection (opened by the
//! first `begin`, or by `connect`), one transaction at a time.

use super::config::PgLocation;
use super::errors::{self, Failure};
use super::params::{self, Param};
use super::rows::{self, Cell, value_cost};
use super::session::{Queued, Session, Stage};
use super::statements::{
    SERVER_TIME, Timeouts, begin_sql, changes_schema, controls_transaction, may_write,
    narrows_write_lock,
};
use crate::session::finished;
use crate::{
    Backend, BackendOptions, CommitFailure, Dialect, OpenError, Rows, StoreError, Tx, Value,
};
use futures_util::StreamExt;
use std::future::Future;
use std::pin::{Pin, pin};
use std::time::{Duration, Instant};
use tokio_postgres::{Client, SimpleQueryMessage, Statement};

/// How much longer than the server's own timeout the client waits for an
/// answer: the server normally stops the statement first, with a clean
/// error on a connection that survives.
const GRACE: Duration = Duration::from_millis(250);

/// The time limit of what runs outside a call (a host's setup, tests).
const NO_CALL_LIMIT: Duration = Duration::from_secs(30);

/// COMMIT and ROLLBACK always get at least this long, even at the very
/// end of a call: cutting a COMMIT short only makes its outcome unknown.
const FINISH_FLOOR: Duration = Duration::from_secs(2);

/// How much past the call's time limit a session may sit idle inside a
/// transaction before the server ends it (and releases the write lock).
const IDLE_MARGIN: Duration = Duration::from_secs(5);

/// What PostgreSQL adds to the session's record of the open transaction.
#[derive(Clone, Debug, Default)]
struct TxState {
    /// A statement that changes the schema ran in it.
    schema: bool,
    /// A statement failed on the server: PostgreSQL aborted the
    /// transaction, so it can only roll back (its COMMIT would quietly
    /// roll back too; this says so instead).
    failed: Option<String>,
    /// Its BEGIN failed (why): nothing is open on the server, so no
    /// statement may run (it would run outside any transaction).
    not_begun: Option<String>,
    /// A queued statement failed, sent with the BEGIN when the clock was
    /// read: what every later statement and the commit return (the server
    /// would only say the transaction is aborted).
    queued_failed: Option<StoreError>,
}

/// A store on one PostgreSQL database: the connection (opened on demand),
/// the state of its transaction, and the server's clock.
pub struct PostgresBackend {
    location: PgLocation,
    options: BackendOptions,
    session: Option<Session>,
    /// The transaction begun last (only meaningful while one is open).
    tx: TxState,
    /// The server's clock (Unix ms) as last read, and when.
    clock: Option<(i64, Instant)>,
    /// The clock was read during the call in progress.
    clock_in_call: bool,
    /// The open transaction's BEGIN, not sent yet: it goes out with the
    /// transaction's first statement, pipelined (one round trip for both).
    pending: Option<Pending>,
    /// Statements sent with `pipeline`, not sent yet: they go out with the
    /// next statement or the COMMIT, in its round trip (prepared already,
    /// so that a bad statement is refused when it is queued).
    queued: Vec<(String, Vec<Value>)>,
}

/// A transaction begun but not yet sent to the server.
#[derive(Clone, Copy, Debug)]
struct Pending {
    /// A write transaction.
    write: bool,
    /// The connection was opened by this `begin`: a failure on it is not
    /// that of a connection that died while idle, so it is not retried.
    fresh: bool,
}

/// A statement's work on the server, given the client, the prepared
/// statement and the parameters (boxed: one type for `execute` and `query`).
type Work<'a, T> = Pin<Box<dyn Future<Output = Result<T, tokio_postgres::Error>> + 'a>>;

/// The first integer of the last row a simple query returned.
fn last_integer(messages: &[SimpleQueryMessage]) -> Option<i64> {
    messages.iter().rev().find_map(|m| match m {
        SimpleQueryMessage::Row(row) => row.get(0).and_then(|t| t.parse().ok()),
        _ => None,
    })
}

/// What committing a transaction whose statement failed (`why`) returns:
/// PostgreSQL aborted it, so it was rolled back.
fn rolled_back(why: &str) -> StoreError {
    StoreError::InvalidState(format!(
        "the transaction was rolled back, not committed: a statement in it failed ({why})"
    ))
}

/// What a store call that could not connect returns.
fn cannot_connect(e: &OpenError) -> StoreError {
    StoreError::Io(e.to_string())
}

impl PostgresBackend {
    /// A store on the database at `location`, connected by the first call
    /// that needs it.
    pub fn new(location: PgLocation, options: BackendOptions) -> Self {
        PostgresBackend {
            location,
            options,
            session: None,
            tx: TxState::default(),
            clock: None,
            clock_in_call: false,
            pending: None,
            queued: Vec::new(),
        }
    }

    /// Where the store is.
    pub fn location(&self) -> &PgLocation {
        &self.location
    }

    /// The client-side limit of one round trip: what is left of the call
    /// plus [`GRACE`].
    fn limit(&self) -> Duration {
        self.options
            .deadline
            .remaining()
            .map_or(NO_CALL_LIMIT, |left| left + GRACE)
    }

    /// The server-side timeouts of a transaction begun now.
    fn timeouts(&self) -> Timeouts {
        let left = self.options.deadline.remaining().unwrap_or(NO_CALL_LIMIT);
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1);
        Timeouts {
            statement_ms: ms(left),
            lock_ms: ms(self.options.busy_timeout.min(left)),
            idle_ms: ms(left + IDLE_MARGIN),
        }
    }

    /// Connects if there is no connection. `true` if it connected now.
    fn ensure_session(&mut self) -> Result<bool, OpenError> {
        if self.session.is_some() {
            return Ok(false);
        }
        let session = Session::open(&self.location, self.options.deadline.remaining())
            .map_err(|e| e.error)?;
        self.session = Some(session);
        Ok(true)
    }

    /// Maps a failure and acts on it: a lost connection is dropped (the
    /// server rolls back what it had open, which ends the session's
    /// transaction; the next `begin` connects anew), a server error marks
    /// the open transaction failed.
    fn fail(&mut self, failure: Failure, sql: Option<&str>) -> StoreError {
        let closed = self.session.as_ref().and_then(Session::closed_reason);
        let mapped = errors::map(&failure, closed.as_deref(), &self.location);
        if mapped.lost {
            if let (Failure::TimedOut, Some(session)) = (&failure, &self.session) {
                // It may still be running, holding the write lock.
                session.cancel();
            }
            self.session = None;
        } else if let Some(code) = failure.code() {
            // A changed table under a cached plan: prepare it again next time.
            if let (Some(sql), Some(session), "0A000") = (sql, &mut self.session, code) {
                session.forget(sql);
            }
            self.tx
                .failed
                .get_or_insert_with(|| mapped.error.message().to_string());
        }
        mapped.error
    }

    /// Ends the transaction on the server, whatever state it is in;
    /// failing that, drops the connection (which ends it too).
    fn roll_back_quietly(&mut self) {
        self.queued.clear();
        if self.pending.take().is_some() {
            // Nothing was sent: nothing is open on the server.
            return;
        }
        let limit = self.limit().max(FINISH_FLOOR);
        if let Some(session) = &self.session
            && let Err(failure) = session.simple("ROLLBACK", limit)
        {
            let _ = self.fail(failure, None);
            self.session = None;
        }
    }

    /// What a COMMIT that failed with `error` came to. On a connection
    /// still open the server refused it (a lock's wait, a constraint, a
    /// failed statement before it) and rolled back: nothing is left open.
    /// On a lost one, a transaction that `wrote` may have been applied.
    fn not_committed(&mut self, error: StoreError, wrote: bool) -> CommitFailure {
        if self.session.is_some() {
            self.roll_back_quietly();
            return CommitFailure::Failed(error);
        }
        if !wrote {
            return CommitFailure::Failed(error);
        }
        CommitFailure::Unknown(StoreError::Io(format!(
            "the connection was lost while committing: the write may or may not have \
             been applied; read it back before repeating it ({})",
            error.message()
        )))
    }

    /// A transaction could not begin: says why, and ends whatever part of
    /// it the server began.
    fn begin_failed(&mut self, failure: Failure, write: bool) -> StoreError {
        let timed_out = failure.timed_out();
        let error = self.fail(failure, None);
        self.roll_back_quietly();
        match error {
            // The lock wait ran into the call's own deadline: as on SQLite,
            // that is `busy` (another writer held it too long).
            StoreError::Other(m) if write && timed_out => StoreError::Busy(format!(
                "another writer held the database until the call's time limit ({m})"
            )),
            other => other,
        }
    }

    /// The prepared statement for `sql` in the open transaction.
    fn prepared(&mut self, sql: &str) -> Result<Statement, StoreError> {
        if controls_transaction(sql) {
            return Err(StoreError::InvalidState(
                "transactions are controlled with begin / commit / rollback, not SQL".into(),
            ));
        }
        let limit = self.limit();
        let session = self.session.as_mut().ok_or_else(finished)?;
        match session.prepare(sql, limit) {
            Ok(statement) => Ok(statement),
            Err(failure) => Err(self.fail(failure, Some(sql))),
        }
    }

    /// Records what a statement that ran may have done.
    fn ran(&mut self, tx: &mut Tx, sql: &str) {
        if tx.write {
            tx.wrote |= may_write(sql);
            self.tx.schema |= changes_schema(sql);
        }
    }

    /// Sends a begun transaction's BEGIN on its own (something needs the
    /// server's clock before any statement ran): one round trip.
    fn send_begin(&mut self, pending: Pending) -> Result<(), StoreError> {
        let mut fresh = pending.fresh;
        let mut retried = false;
        let messages = loop {
            let sql = begin_sql(pending.write, false, self.timeouts());
            let session = self.session.as_ref().ok_or_else(finished)?;
            match session.simple(&sql, self.limit()) {
                Ok(messages) => break messages,
                Err(failure) => {
                    if self.idle_death(&failure, fresh, retried) {
                        fresh = self.reconnect()?;
                        retried = true;
                        continue;
                    }
                    return Err(self.begin_failed(failure, pending.write));
                }
            }
        };
        self.began(&messages, Instant::now())
    }

    /// Sends a begun transaction's BEGIN with the statements queued so far,
    /// in one round trip (something needs the server's clock before the
    /// next statement). A failure is kept for the next statement or the
    /// commit to return.
    fn send_begin_queued(&mut self, pending: Pending) {
        let queued = std::mem::take(&mut self.queued);
        let prepared = queued
            .iter()
            .map(|(q, _)| self.prepared(q))
            .collect::<Result<Vec<_>, _>>();
        let statements = match prepared {
            Ok(statements) => statements,
            Err(error) => {
                self.tx.not_begun = Some(error.message().to_string());
                return;
            }
        };
        let scoped = narrows_write_lock(&queued[0].0);
        let begin = begin_sql(pending.write, scoped, self.timeouts());
        let limit = self.limit();
        let Some(session) = self.session.as_ref() else {
            self.tx.not_begun = Some(finished().message().to_string());
            return;
        };
        let client = session.client();
        let queued_work: Vec<Queued> = statements
            .iter()
            .zip(&queued)
            .map(|(st, (_, values))| {
                Box::pin(client.execute_raw(st, values.iter().map(Param))) as Queued
            })
            .collect();
        let sent = Instant::now();
        let outcome = session.run_after(limit, Some(&begin), queued_work, async { Ok(()) });
        match outcome {
            Ok((messages, ())) => {
                let read_at = if scoped { sent } else { Instant::now() };
                if let Err(error) = self.began(&messages.unwrap_or_default(), read_at) {
                    self.tx.not_begun = Some(error.message().to_string());
                }
            }
            Err((Stage::Begin, failure)) => {
                let error = self.begin_failed(failure, pending.write);
                self.tx.queued_failed = Some(error);
            }
            Err((_, failure)) => {
                let error = self.fail(failure, Some(&queued[0].0));
                self.tx.queued_failed = Some(error);
            }
        }
    }

    /// Whether `failure`, on a connection this transaction did not open,
    /// is that of a connection that died while idle (a server restart, an
    /// administrator's kill): nothing was begun, so one more try on a new
    /// connection is safe.
    fn idle_death(&self, failure: &Failure, fresh: bool, retried: bool) -> bool {
        let Some(session) = &self.session else {
            return false;
        };
        let closed = session.closed_reason();
        let lost = !matches!(failure, Failure::TimedOut)
            && errors::map(failure, closed.as_deref(), &self.location).lost;
        lost && !fresh && !retried
    }

    /// Drops the connection and opens a new one.
    fn reconnect(&mut self) -> Result<bool, StoreError> {
        self.session = None;
        self.ensure_session().map_err(|e| cannot_connect(&e))
    }

    /// The BEGIN's answer arrived: keeps the server's clock it read, as of
    /// `read_at` (when the server read it, as near as the host can tell).
    fn began(
        &mut self,
        messages: &[SimpleQueryMessage],
        read_at: Instant,
    ) -> Result<(), StoreError> {
        let Some(now) = last_integer(messages) else {
            self.roll_back_quietly();
            return Err(StoreError::Other(
                "the server did not report its clock when the transaction began".into(),
            ));
        };
        self.clock = Some((now, read_at));
        self.clock_in_call = true;
        Ok(())
    }

    /// Runs one statement of the open transaction: prepared (or from the
    /// cache), its parameters and columns checked (`check`), then `work`.
    /// The transaction's first statement carries its BEGIN: both are sent
    /// at once (tokio-postgres pipelines requests made together) and cost
    /// one round trip. Should the BEGIN fail (the write lock's wait ran
    /// out), the statement sent after it fails too: PostgreSQL aborted the
    /// transaction block, so it ran nothing.
    fn run_statement<T>(
        &mut self,
        sql: &str,
        params: &[Value],
        mut check: impl FnMut(&Statement) -> Result<(), StoreError>,
        work: impl for<'a> Fn(&'a Client, &'a Statement, &'a [Value]) -> Work<'a, T>,
    ) -> Result<T, StoreError> {
        let mut retried = false;
        if let Some(why) = &self.tx.not_begun {
            return Err(StoreError::InvalidState(format!(
                "the transaction could not begin ({why}); begin another"
            )));
        }
        if let Some(error) = &self.tx.queued_failed {
            return Err(error.clone());
        }
        loop {
            // Left pending until it is sent: a statement refused before
            // that (its SQL, its parameters) leaves the BEGIN (and the
            // queued statements) for the next.
            let pending = self.pending;
            let queued = self.queued.clone();
            let prepared = queued
                .iter()
                .map(|(q, _)| self.prepared(q))
                .collect::<Result<Vec<_>, _>>()
                .and_then(|q| Ok((q, self.prepared(sql)?)));
            let (queued_statements, statement) = match prepared {
                Ok(both) => both,
                Err(e) => {
                    // A connection that died while idle shows first here,
                    // before anything of the transaction was sent.
                    if let Some(p) = pending
                        && !p.fresh
                        && !retried
                        && self.session.is_none()
                    {
                        let fresh = self.reconnect()?;
                        self.pending = Some(Pending { fresh, ..p });
                        retried = true;
                        continue;
                    }
                    if self.session.is_none() {
                        // The connection is gone, and with it the transaction.
                        self.pending = None;
                        self.queued.clear();
                    }
                    return Err(e);
                }
            };
            check(&statement)?;
            params::check(params, statement.params())?;
            let limit = self.limit();
            // The transaction's first statement says which lock it takes.
            let first = queued.first().map_or(sql, |(q, _)| q.as_str());
            let scoped = narrows_write_lock(first);
            let begin = pending.map(|p| begin_sql(p.write, scoped, self.timeouts()));
            self.pending = None;
            self.queued.clear();
            let session = self.session.as_ref().ok_or_else(finished)?;
            let client = session.client();
            let queued_work: Vec<Queued> = queued_statements
                .iter()
                .zip(&queued)
                .map(|(st, (_, values))| {
                    Box::pin(client.execute_raw(st, values.iter().map(Param))) as Queued
                })
                .collect();
            // A narrowed write's BEGIN reads the clock before its first
            // statement waits for the list's lock: the reading belongs to
            // the moment it was sent, so that the clock runs on through the
            // wait (paired with the answer's arrival it would lag by the
            // whole wait: a lease cut short, a time before a writer's that
            // committed first). A whole-database write reads it after its
            // lock, as the answer comes back.
            let sent = Instant::now();
            let outcome = session.run_after(
                limit,
                begin.as_deref(),
                queued_work,
                work(client, &statement, params),
            );
            match outcome {
                Ok((messages, value)) => {
                    if let Some(messages) = messages {
                        let read_at = if scoped { sent } else { Instant::now() };
                        self.began(&messages, read_at)?;
                    }
                    return Ok(value);
                }
                Err((Stage::Begin, failure)) => {
                    let p = pending.expect("only a BEGIN sent fails as one");
                    if self.idle_death(&failure, p.fresh, retried) {
                        let fresh = self.reconnect()?;
                        self.pending = Some(Pending { fresh, ..p });
                        self.queued = queued;
                        retried = true;
                        continue;
                    }
                    let error = self.begin_failed(failure, p.write);
                    self.tx.not_begun = Some(error.message().to_string());
                    return Err(error);
                }
                // A queued statement's error is the cause: the statement
                // sent after it only found the transaction aborted.
                Err((Stage::Queued, failure)) => {
                    return Err(self.fail(failure, queued.first().map(|(q, _)| q.as_str())));
                }
                Err((Stage::Work, failure)) => return Err(self.fail(failure, Some(sql))),
            }
        }
    }

    /// Commits with the queued statements in the same round trip (and the
    /// BEGIN, when nothing else was sent): BEGIN, the statements and COMMIT
    /// go out together. A statement that fails aborts the transaction on
    /// the server, which then answers the COMMIT by rolling back: nothing
    /// is applied. A connection lost in that round trip leaves the outcome
    /// unknown (the server may have run all of it), whichever answer was
    /// missing first.
    fn commit_queued(&mut self, tx: Tx, state: TxState) -> Result<(), CommitFailure> {
        let pending = self.pending.take();
        let queued = std::mem::take(&mut self.queued);
        let prepared = queued
            .iter()
            .map(|(q, _)| self.prepared(q))
            .collect::<Result<Vec<_>, _>>();
        let statements = match prepared {
            Ok(statements) => statements,
            Err(error) => {
                if pending.is_none() {
                    self.roll_back_quietly();
                }
                return Err(CommitFailure::Failed(error));
            }
        };
        let begin =
            pending.map(|p| begin_sql(p.write, narrows_write_lock(&queued[0].0), self.timeouts()));
        let limit = self.limit().max(FINISH_FLOOR);
        let session = self
            .session
            .as_ref()
            .ok_or_else(|| CommitFailure::Failed(finished()))?;
        let client = session.client();
        let queued_work: Vec<Queued> = statements
            .iter()
            .zip(&queued)
            .map(|(st, (_, values))| {
                Box::pin(client.execute_raw(st, values.iter().map(Param))) as Queued
            })
            .collect();
        let outcome = session.run_after(
            limit,
            begin.as_deref(),
            queued_work,
            client.simple_query("COMMIT"),
        );
        match outcome {
            Ok(_) => {
                if state.schema
                    && let Some(session) = &mut self.session
                {
                    // Cached plans may now return other columns.
                    session.forget_all();
                }
                Ok(())
            }
            Err((_, failure)) => {
                let error = self.fail(failure, None);
                Err(self.not_committed(error, tx.write && tx.wrote))
            }
        }
    }

    /// The backend's process id on the server, for tests that kill it.
    #[cfg(test)]
    pub(crate) fn server_pid(&mut self) -> i32 {
        self.ensure_session().unwrap();
        let session = self.session.as_ref().unwrap();
        let messages = session
            .simple("SELECT pg_backend_pid()", NO_CALL_LIMIT)
            .unwrap();
        i32::try_from(last_integer(&messages).unwrap()).unwrap()
    }
}

impl Backend for PostgresBackend {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    /// The server's clock: as the call's latest `begin` (or clock read)
    /// saw it, plus the time elapsed since; read now if nothing in this
    /// call read it yet. `None` (the host's clock then) when the server
    /// cannot be asked.
    fn keeps_clock(&self) -> bool {
        true
    }

    fn now_ms(&mut self) -> Option<i64> {
        if self.clock_in_call
            && let Some((ms, at)) = self.clock
        {
            return Some(ms + i64::try_from(at.elapsed().as_millis()).unwrap_or(i64::MAX));
        }
        if let Some(pending) = self.pending.take() {
            // A transaction is begun but not sent: its BEGIN reads the
            // clock, with the statements queued so far (a list's lock: the
            // BEGIN must not take the whole database's instead).
            if !self.queued.is_empty() {
                self.send_begin_queued(pending);
                return self.clock.filter(|_| self.clock_in_call).map(|(ms, at)| {
                    ms + i64::try_from(at.elapsed().as_millis()).unwrap_or(i64::MAX)
                });
            }
            return match self.send_begin(pending) {
                Ok(()) => self.clock.map(|(ms, _)| ms),
                Err(error) => {
                    self.tx.not_begun = Some(error.message().to_string());
                    None
                }
            };
        }
        self.ensure_session().ok()?;
        let session = self.session.as_ref()?;
        match session.simple(SERVER_TIME, self.limit()) {
            Ok(messages) => {
                let ms = last_integer(&messages)?;
                self.clock = Some((ms, Instant::now()));
                self.clock_in_call = true;
                Some(ms)
            }
            Err(failure) => {
                let _ = self.fail(failure, None);
                None
            }
        }
    }

    fn connect(&mut self) -> Result<(), OpenError> {
        self.ensure_session().map(drop)
    }

    fn begin_call(&mut self) {
        self.clock_in_call = false;
    }

    /// Nothing is sent yet (connecting aside): BEGIN with the call's
    /// timeouts, the write lock for a writer (see `statements.rs`) and the
    /// server's clock go out with the first statement, pipelined, so they
    /// cost no round trip of their own.
    fn begin(&mut self, write: bool) -> Result<(), StoreError> {
        let fresh = self.ensure_session().map_err(|e| cannot_connect(&e))?;
        self.tx = TxState::default();
        self.queued.clear();
        self.pending = Some(Pending { write, fresh });
        Ok(())
    }

    fn execute(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let changed = self.run_statement(
            sql,
            params,
            |_| Ok(()),
            |client, statement, params| {
                Box::pin(client.execute_raw(statement, params.iter().map(Param)))
            },
        )?;
        self.ran(tx, sql);
        // The count of a read is of rows returned, not changed (as on
        // SQLite, a SELECT changes none).
        Ok(if may_write(sql) { changed } else { 0 })
    }

    fn query(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        let max_bytes = self.options.max_result_bytes;
        let (rows, bytes) = self.run_statement(
            sql,
            params,
            |statement| rows::check_columns(statement.columns()),
            |client, statement, params| Box::pin(read_rows(client, statement, params, max_bytes)),
        )?;
        if bytes > max_bytes {
            return Err(StoreError::Other(format!(
                "the query result exceeds {} KiB, more than the component may hold",
                max_bytes >> 10
            )));
        }
        self.ran(tx, sql);
        Ok(rows)
    }

    /// Queued, prepared now (a bad statement or parameter is refused at
    /// once, and nothing is queued), sent with the next statement or the
    /// COMMIT.
    fn pipeline(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<(), StoreError> {
        if let Some(why) = &self.tx.not_begun {
            return Err(StoreError::InvalidState(format!(
                "the transaction could not begin ({why}); begin another"
            )));
        }
        let statement = match self.prepared(sql) {
            Ok(statement) => statement,
            Err(e) => {
                if self.session.is_none() {
                    self.pending = None;
                    self.queued.clear();
                }
                return Err(e);
            }
        };
        params::check(params, statement.params())?;
        self.queued.push((sql.to_string(), params.to_vec()));
        self.ran(tx, sql);
        Ok(())
    }

    /// A lost connection ends the transaction (the server rolls it back).
    fn in_transaction(&self) -> bool {
        self.session.is_some()
    }

    /// A failed commit rolls back. A connection lost during COMMIT leaves
    /// its outcome unknown, and says so: the host never repeats a call, so
    /// nothing is ever applied twice, and the agent is told to look first.
    fn commit(&mut self, tx: Tx) -> Result<(), CommitFailure> {
        let state = std::mem::take(&mut self.tx);
        if let Some(error) = state.queued_failed {
            self.roll_back_quietly();
            return Err(CommitFailure::Failed(error));
        }
        if !self.queued.is_empty() && state.failed.is_none() {
            return self.commit_queued(tx, state);
        }
        if self.pending.take().is_some() {
            // No statement ran: nothing was begun on the server.
            self.queued.clear();
            return Ok(());
        }
        if let Some(why) = state.failed {
            self.roll_back_quietly();
            return Err(CommitFailure::Failed(rolled_back(&why)));
        }
        let limit = self.limit().max(FINISH_FLOOR);
        let session = self
            .session
            .as_mut()
            .ok_or_else(|| CommitFailure::Failed(finished()))?;
        match session.simple("COMMIT", limit) {
            Ok(_) => {
                if state.schema {
                    // Cached plans may now return other columns.
                    session.forget_all();
                }
                Ok(())
            }
            Err(failure) => {
                let error = self.fail(failure, None);
                Err(self.not_committed(error, tx.write && tx.wrote))
            }
        }
    }

    /// The statement and COMMIT go out together (with the BEGIN and the
    /// queued statements when those are not sent yet): one round trip. A
    /// statement that fails aborts the transaction, which the COMMIT then
    /// rolls back; a connection lost in that round trip leaves the
    /// outcome unknown for a statement that may write.
    fn query_then_commit(
        &mut self,
        mut tx: Tx,
        sql: &str,
        params: &[Value],
    ) -> Result<(Rows, Tx), CommitFailure> {
        if let Some(why) = self.tx.failed.take() {
            self.tx = TxState::default();
            self.roll_back_quietly();
            return Err(CommitFailure::Failed(rolled_back(&why)));
        }
        let max_bytes = self.options.max_result_bytes;
        let outcome = self.run_statement(
            sql,
            params,
            |statement| rows::check_columns(statement.columns()),
            |client, statement, params| {
                Box::pin(async move {
                    // `join` polls in order: the statement's request is
                    // made first, the COMMIT's right after it.
                    let (rows, commit) = futures_util::future::join(
                        read_rows(client, statement, params, max_bytes),
                        client.simple_query("COMMIT"),
                    )
                    .await;
                    Ok((rows?, commit))
                })
            },
        );
        // Refused before it was sent, failed (the COMMIT then rolled it
        // back), or the COMMIT refused or lost.
        let may_have_written = tx.write && may_write(sql);
        let ((rows, bytes), commit) = match outcome {
            Ok(answers) => answers,
            Err(error) => return Err(self.not_committed(error, may_have_written)),
        };
        if let Err(e) = commit {
            let error = self.fail(Failure::Pg(e), None);
            return Err(self.not_committed(error, may_have_written));
        }
        self.ran(&mut tx, sql);
        if std::mem::take(&mut self.tx).schema
            && let Some(session) = &mut self.session
        {
            session.forget_all();
        }
        if bytes > max_bytes {
            // Committed: only its answer is lost.
            return Err(CommitFailure::Unknown(StoreError::Io(format!(
                "the query result exceeds {} KiB, more than the component may hold; its \
                 transaction was committed",
                max_bytes >> 10
            ))));
        }
        Ok((rows, tx))
    }

    fn rollback(&mut self) -> Result<(), StoreError> {
        self.queued.clear();
        if self.pending.take().is_some() {
            return Ok(());
        }
        let limit = self.limit().max(FINISH_FLOOR);
        let Some(session) = &self.session else {
            return Ok(());
        };
        match session.simple("ROLLBACK", limit) {
            Ok(_) => Ok(()),
            Err(failure) => {
                let error = self.fail(failure, None);
                // A lost connection rolled it back just as well.
                if self.session.is_none() {
                    Ok(())
                } else {
                    Err(error)
                }
            }
        }
    }

    fn abandon(&mut self) {
        self.roll_back_quietly();
    }
}

/// Reads a query's rows, keeping at most `max_bytes` of values (past that
/// the rest is still read, not kept, so an error later in the statement is
/// seen, not lost); the rows and the bytes the values would take.
async fn read_rows(
    client: &Client,
    statement: &Statement,
    params: &[Value],
    max_bytes: usize,
) -> Result<(Rows, usize), tokio_postgres::Error> {
    let width = statement.columns().len();
    let stream = client
        .query_raw(statement, params.iter().map(Param))
        .await?;
    let mut stream = pin!(stream);
    // Packed as read.
    let mut out = Rows::new(width);
    let mut bytes = 0usize;
    while let Some(row) = stream.next().await {
        let row = row?;
        if bytes > max_bytes {
            continue;
        }
        for i in 0..width {
            let Cell(value) = row.try_get(i)?;
            bytes += value_cost(&value);
            out.push(value);
        }
    }
    Ok((out, bytes))
}

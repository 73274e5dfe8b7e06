//! Replays the statements the component ran (the host's statement log) on
//! a raw rusqlite connection: the same SQL, the same parameters, the same
//! transaction boundaries, through `prepare_cached` as the store does.
//! Run on a database in the same state, it is the "identical statements"
//! baseline, and it keeps a mirror database in step during setup.

use rusqlite::types::{ToSqlOutput, Value as SqlValue, ValueRef};
use rusqlite::{Connection, ToSql, params_from_iter};
use std::path::Path;
use std::time::{Duration, Instant};
use tasklists_host::{DEFAULT_BUSY_TIMEOUT, LoggedEntry, LoggedOp};
use tasklists_store::sqlite::SqliteBackend;
use tasklists_store::{Backend, BackendOptions, Deadline, Tx, Value};

/// A database the log is replayed on.
pub struct Replayer {
    target: Target,
    /// Statements whose outcome (rows changed or returned, success)
    /// differed from the component's: non-zero means the mirror drifted.
    pub mismatches: usize,
}

/// How the log reaches the database.
enum Target {
    /// A raw rusqlite connection.
    Raw(Connection),
    /// The host's own SQLite store backend: the same code the component's
    /// statements go through, without the component (`BENCH_PER_OP=backend`).
    Backend(Box<SqliteBackend>, Tx),
}

impl Replayer {
    /// Replays on `conn`.
    pub fn new(conn: Connection) -> Self {
        Replayer {
            target: Target::Raw(conn),
            mismatches: 0,
        }
    }

    /// Replays through the store backend, on the database at `path`.
    pub fn through_backend(path: &Path) -> Self {
        let options = BackendOptions {
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
            deadline: Deadline::new(),
            max_result_bytes: usize::MAX,
        };
        let mut backend = SqliteBackend::new(path.to_path_buf(), options);
        backend.connect().expect("the backend's database opens");
        Replayer {
            target: Target::Backend(Box::new(backend), Tx::default()),
            mismatches: 0,
        }
    }

    /// The raw connection (the minimal transactions run on it).
    pub fn conn(&self) -> &Connection {
        match &self.target {
            Target::Raw(conn) => conn,
            Target::Backend(..) => panic!("this replica is replayed through the store backend"),
        }
    }

    /// Replays one call's entries; returns the wall time they took.
    pub fn run(&mut self, entries: &[LoggedEntry]) -> Duration {
        self.run_each(entries).iter().sum()
    }

    /// Replays one call's entries; returns the wall time of each, the
    /// last one with the rollback of what the call left open (timed, as
    /// the whole call's replay always was).
    pub fn run_each(&mut self, entries: &[LoggedEntry]) -> Vec<Duration> {
        let mut took = Vec::with_capacity(entries.len());
        for entry in entries {
            let started = Instant::now();
            let got = match &mut self.target {
                Target::Raw(conn) => step(conn, &entry.op),
                Target::Backend(backend, tx) => through(backend, tx, &entry.op),
            };
            took.push(started.elapsed());
            if got != entry.result {
                self.mismatches += 1;
                if std::env::var_os("BENCH_DEBUG").is_some() {
                    eprintln!(
                        "replay mismatch: {got:?} != {:?} for {:?}",
                        entry.result, entry.op
                    );
                }
            }
        }
        // A handle the component dropped unfinished was rolled back by the
        // backend without a log entry: do the same.
        let started = Instant::now();
        match &mut self.target {
            Target::Raw(conn) if !conn.is_autocommit() => {
                let _ = conn.execute_batch("ROLLBACK");
            }
            Target::Raw(_) => {}
            // As the session ends a call (rolling back what is left open).
            Target::Backend(backend, _) => {
                backend.end_call();
            }
        }
        let ending = started.elapsed();
        match took.last_mut() {
            Some(last) => *last += ending,
            None => took.push(ending),
        }
        took
    }
}

/// [`step`] through the store backend, as the host's session drives it.
fn through(backend: &mut SqliteBackend, tx: &mut Tx, op: &LoggedOp) -> Option<u64> {
    match op {
        LoggedOp::Begin { write } => {
            backend.begin(*write).ok()?;
            *tx = Tx {
                write: *write,
                wrote: false,
            };
            Some(0)
        }
        LoggedOp::Commit => backend.commit(*tx).ok().map(|()| 0),
        LoggedOp::Rollback => backend.rollback().ok().map(|()| 0),
        LoggedOp::Abandon => {
            backend.abandon();
            Some(0)
        }
        LoggedOp::Execute { sql, params } => backend.execute(tx, sql, params).ok(),
        LoggedOp::Query { sql, params } => {
            backend.query(tx, sql, params).ok().map(|r| r.len() as u64)
        }
        LoggedOp::Pipeline { sql, params } => backend.pipeline(tx, sql, params).ok().map(|()| 0),
    }
}

/// Runs one operation; its outcome as the log records it.
fn step(conn: &Connection, op: &LoggedOp) -> Option<u64> {
    match op {
        LoggedOp::Begin { write } => control(
            conn,
            if *write {
                "BEGIN IMMEDIATE"
            } else {
                "BEGIN DEFERRED"
            },
        ),
        LoggedOp::Commit => control(conn, "COMMIT"),
        LoggedOp::Rollback => control(conn, "ROLLBACK"),
        LoggedOp::Abandon => {
            if !conn.is_autocommit() {
                control(conn, "ROLLBACK")?;
            }
            Some(0)
        }
        LoggedOp::Execute { sql, params } => execute(conn, sql, params).ok(),
        LoggedOp::Query { sql, params } => query(conn, sql, params).ok(),
        // The component does not learn what a pipelined statement changed.
        LoggedOp::Pipeline { sql, params } => execute(conn, sql, params).ok().map(|_| 0),
    }
}

fn control(conn: &Connection, sql: &str) -> Option<u64> {
    conn.prepare_cached(sql)
        .and_then(|mut s| s.execute([]))
        .ok()?;
    Some(0)
}

/// Steps to the end, as the store does (a statement may return rows).
fn execute(conn: &Connection, sql: &str, params: &[Value]) -> rusqlite::Result<u64> {
    let mut stmt = conn.prepare_cached(sql)?;
    let before = conn.total_changes();
    let mut rows = stmt.query(params_from_iter(params.iter().map(Param)))?;
    while rows.next()?.is_some() {}
    Ok(if conn.total_changes() == before {
        0
    } else {
        conn.changes()
    })
}

/// Collects every row into owned values, as the store does.
fn query(conn: &Connection, sql: &str, params: &[Value]) -> rusqlite::Result<u64> {
    let mut stmt = conn.prepare_cached(sql)?;
    let width = stmt.column_count();
    let mut rows = stmt.query(params_from_iter(params.iter().map(Param)))?;
    let mut out: Vec<Vec<SqlValue>> = Vec::new();
    while let Some(row) = rows.next()? {
        let mut values = Vec::with_capacity(width);
        for i in 0..width {
            values.push(SqlValue::try_from(row.get_ref(i)?).expect("UTF-8 text"));
        }
        out.push(values);
    }
    Ok(out.len() as u64)
}

/// Binds a logged value without copying it.
struct Param<'a>(&'a Value);

impl ToSql for Param<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self.0 {
            Value::Null => ValueRef::Null,
            Value::Integer(i) => ValueRef::Integer(*i),
            Value::Real(f) => ValueRef::Real(*f),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
            Value::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

//! Replays the statements the component ran (the host's statement log) on
//! a raw rusqlite connection: the same SQL, the same parameters, the same
//! transaction boundaries, through `prepare_cached` as the store does.
//! Run on a database in the same state, it is the "identical statements"
//! baseline, and it keeps a mirror database in step during setup.

use rusqlite::types::{ToSqlOutput, Value as SqlValue, ValueRef};
use rusqlite::{Connection, ToSql, params_from_iter};
use std::time::{Duration, Instant};
use tasklists_host::{LoggedEntry, LoggedOp};
use tasklists_store::Value;

/// A connection the log is replayed on.
pub struct Replayer {
    /// The raw connection.
    pub conn: Connection,
    /// Statements whose outcome (rows changed or returned, success)
    /// differed from the component's: non-zero means the mirror drifted.
    pub mismatches: usize,
}

impl Replayer {
    /// Replays on `conn`.
    pub fn new(conn: Connection) -> Self {
        Replayer {
            conn,
            mismatches: 0,
        }
    }

    /// Replays one call's entries; returns the wall time they took.
    pub fn run(&mut self, entries: &[LoggedEntry]) -> Duration {
        let started = Instant::now();
        for entry in entries {
            let got = step(&self.conn, &entry.op);
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
        if !self.conn.is_autocommit() {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
        started.elapsed()
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

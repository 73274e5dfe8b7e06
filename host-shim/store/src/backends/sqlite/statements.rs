//! Running one statement: preparing through the
//! cache, the transaction rules (no writes in a read transaction, no
//! transaction control through SQL), and converting values both ways.

use super::errors::{Phase, map_error};
use crate::{Rows, StoreError, Value};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{CachedStatement, Connection, ToSql, params_from_iter};

/// Runs BEGIN / COMMIT / ROLLBACK through the statement cache.
pub(crate) fn run_control(conn: &Connection, sql: &str) -> Result<(), StoreError> {
    let mut stmt = conn
        .prepare_cached(sql)
        .map_err(|e| map_error(e, Phase::Prepare))?;
    stmt.execute([]).map_err(|e| map_error(e, Phase::Run))?;
    Ok(())
}

/// Runs a statement to completion; returns the rows it changed. Sets
/// `wrote` if the statement may write.
pub(crate) fn run_execute(
    conn: &Connection,
    sql: &str,
    params: &[Value],
    write: bool,
    wrote: &mut bool,
) -> Result<u64, StoreError> {
    let mut stmt = prepare(conn, sql, write)?;
    *wrote |= !stmt.readonly();
    let before = conn.total_changes();
    // Stepped to the end rather than `Statement::execute`, so a statement
    // that happens to return rows (a PRAGMA, `… RETURNING`) still runs.
    let mut rows = stmt
        .query(params_from_iter(params.iter().map(Param)))
        .map_err(|e| map_error(e, Phase::Run))?;
    while rows.next().map_err(|e| map_error(e, Phase::Run))?.is_some() {}
    // `changes()` keeps the count of the last INSERT/UPDATE/DELETE, even
    // after DDL; only trust it when this statement changed something.
    Ok(if conn.total_changes() == before {
        0
    } else {
        conn.changes()
    })
}

/// Runs a statement and collects its rows, up to `max_bytes` of values.
/// Sets `wrote` if the statement may write (`… RETURNING`).
pub(crate) fn run_query(
    conn: &Connection,
    sql: &str,
    params: &[Value],
    write: bool,
    max_bytes: usize,
    wrote: &mut bool,
) -> Result<Rows, StoreError> {
    let mut stmt = prepare(conn, sql, write)?;
    *wrote |= !stmt.readonly();
    let width = stmt.column_count();
    let mut out = Rows::new(width);
    let mut rows = stmt
        .query(params_from_iter(params.iter().map(Param)))
        .map_err(|e| map_error(e, Phase::Run))?;
    let mut bytes = 0usize;
    while let Some(row) = rows.next().map_err(|e| map_error(e, Phase::Run))? {
        for i in 0..width {
            let value = row.get_ref(i).map_err(|e| map_error(e, Phase::Run))?;
            bytes += 16 + value_len(value);
            push(&mut out, value);
        }
        if bytes > max_bytes {
            return Err(StoreError::Other(format!(
                "the query result exceeds {} KiB, more than the component may hold",
                max_bytes >> 10
            )));
        }
    }
    Ok(out)
}

/// Prepares through the cache and applies the transaction rules.
fn prepare<'c>(
    conn: &'c Connection,
    sql: &str,
    write: bool,
) -> Result<CachedStatement<'c>, StoreError> {
    let stmt = conn
        .prepare_cached(sql)
        .map_err(|e| map_error(e, Phase::Prepare))?;
    if stmt.readonly() && ends_transaction(sql) {
        return Err(StoreError::InvalidState(
            "transactions are controlled with begin / commit / rollback, not SQL".into(),
        ));
    }
    if !write && !stmt.readonly() {
        return Err(StoreError::InvalidState(
            "this statement writes, but the transaction was opened with begin(write: false)".into(),
        ));
    }
    Ok(stmt)
}

/// Whether `sql` is BEGIN / COMMIT / END / ROLLBACK (not `ROLLBACK TO`
/// a savepoint), which would desynchronize the transaction handles.
fn ends_transaction(sql: &str) -> bool {
    // Runs for every read-only statement: no allocation.
    let mut words = crate::sql_text::strip_comments(sql)
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty());
    let is = |word: &str, keyword: &str| word.eq_ignore_ascii_case(keyword);
    match words.next() {
        Some(w) if is(w, "BEGIN") || is(w, "COMMIT") || is(w, "END") => true,
        Some(w) if is(w, "ROLLBACK") => !words.take(2).any(|w| is(w, "TO")),
        _ => false,
    }
}

/// A store value as a SQLite parameter, without copying text or blobs.
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

/// Appends a cell as read, without an allocation of its own.
fn push(rows: &mut Rows, value: ValueRef<'_>) {
    match value {
        ValueRef::Null => rows.push_null(),
        ValueRef::Integer(i) => rows.push_integer(i),
        ValueRef::Real(f) => rows.push_real(f),
        // SQLite does not check that TEXT is UTF-8; never fail a read on
        // it. Valid text (all of it, in practice) is checked at full speed.
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(text) => rows.push_text(text),
            Err(_) => rows.push_text(&String::from_utf8_lossy(t)),
        },
        ValueRef::Blob(b) => rows.push_blob(b),
    }
}

fn value_len(value: ValueRef<'_>) -> usize {
    match value {
        ValueRef::Text(b) | ValueRef::Blob(b) => b.len(),
        _ => 8,
    }
}

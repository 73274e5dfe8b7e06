//! The database schema, owned by the component: numbered migrations tracked
//! with `PRAGMA user_version`. A database newer than this component is
//! refused untouched, never downgraded or damaged.

use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::store::Store;

/// The migrations, in order; migration `i` brings the schema to version `i + 1`.
pub const MIGRATIONS: &[&str] = &[include_str!("migrations/0001_init.sql")];

/// The schema version this component writes.
pub const LATEST: i64 = MIGRATIONS.len() as i64;

/// Brings the database to [`LATEST`], or refuses a newer one. Safe when
/// several processes start at once: the version is re-read under the write lock.
pub fn ensure(store: &dyn Store) -> ToolResult<()> {
    let tx = store.begin(false)?;
    let version = read_version(&*tx)?;
    drop(tx);
    check_not_newer(version)?;
    if version == LATEST {
        return Ok(());
    }
    let tx = store.begin(true)?;
    let version = read_version(&*tx)?;
    check_not_newer(version)?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        for statement in sql
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty() && !is_comment_only(s))
        {
            tx.execute(statement, &[])?;
        }
        tx.execute(&format!("PRAGMA user_version = {}", i + 1), &[])?;
    }
    tx.commit()?;
    Ok(())
}

fn is_comment_only(statement: &str) -> bool {
    statement
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with("--"))
}

fn read_version(tx: &dyn crate::store::Tx) -> ToolResult<i64> {
    let rows = tx.query("PRAGMA user_version", &[])?;
    Ok(rows
        .rows
        .first()
        .and_then(|r| r.first())
        .and_then(|v| v.as_i64())
        .unwrap_or(0))
}

fn check_not_newer(version: i64) -> ToolResult<()> {
    if version > LATEST {
        return Err(ToolError::new(
            ErrorCode::Storage,
            format!(
                "the database has schema version {version}, newer than this tasklists ({LATEST}); nothing was changed"
            ),
            "upgrade tasklists, or point --db / TASKLISTS_DB at another database",
        ));
    }
    Ok(())
}

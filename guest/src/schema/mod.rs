//! The database schema, owned by the component: numbered migrations per
//! SQL dialect ([`dialect`]), tracked by a version stamp. A database newer
//! than this component is refused untouched, never downgraded or damaged.

pub mod dialect;

use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::store::{Store, Value};

/// The schema version this component writes (the same in every dialect).
pub const LATEST: i64 = dialect::STEPS as i64;

/// Brings the database to [`LATEST`], or refuses a newer one. Safe when
/// several processes start at once: the version is re-read under the write lock.
pub fn ensure(store: &dyn Store) -> ToolResult<()> {
    let tx = store.begin(false)?;
    let version = read_version(&*tx)?;
    check_not_newer(version)?;
    if version == LATEST {
        return Ok(());
    }
    if version == 0 {
        check_empty(&*tx)?;
    }
    drop(tx);
    let tx = store.begin(true)?;
    let version = read_version(&*tx)?;
    check_not_newer(version)?;
    if version == 0 {
        check_empty(&*tx)?;
    }
    let dialect = tx.dialect();
    for (i, sql) in dialect
        .migrations()
        .iter()
        .enumerate()
        .skip(version as usize)
    {
        for statement in statements(sql) {
            tx.execute(&statement, &[])?;
        }
        tx.execute(&dialect.set_version(i as i64 + 1), &[])?;
    }
    tx.commit()?;
    Ok(())
}

/// The statements of a migration file: `--` comment lines dropped (they
/// may contain semicolons), then split on `;`, except inside a SQLite
/// trigger's `BEGIN … END` body, whose statements stay with their `CREATE
/// TRIGGER`, and inside a PostgreSQL function's `$$ … $$` body. Migrations
/// hold no string literals with semicolons, which keeps this simple.
pub fn statements(sql: &str) -> Vec<String> {
    let code: String = sql
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out: Vec<String> = Vec::new();
    let mut trigger: Option<String> = None;
    for piece in code.split(';').map(str::trim).filter(|s| !s.is_empty()) {
        let piece = match trigger.take() {
            Some(open) => format!("{open};\n{piece}"),
            None => piece.to_string(),
        };
        let upper = piece.to_ascii_uppercase();
        let open_body = piece.matches("$$").count() % 2 == 1;
        let open_trigger = upper.starts_with("CREATE TRIGGER")
            && upper.contains("BEGIN")
            && !upper.ends_with("END");
        if open_body || open_trigger {
            trigger = Some(piece);
        } else {
            out.push(piece);
        }
    }
    out.extend(trigger);
    out
}

/// The schema version stamped in the database (0 for a new one).
pub fn read_version(tx: &dyn crate::store::Tx) -> ToolResult<i64> {
    let rows = tx.query(tx.dialect().read_version(), &[])?;
    version_of(rows.rows.first().and_then(|r| r.first()))
}

/// Takes the lock of a write confined to `scope` ([`SqlDialect::scoped_lock`])
/// and reads the schema version with it; `Ok(None)` where the dialect has
/// no narrower lock (nothing was run). A store error is returned as is:
/// on a database not migrated yet the statement fails (no `tasks` table).
pub fn lock_scope(
    tx: &dyn crate::store::Tx,
    scope: dialect::WriteScope,
) -> Result<Option<ToolResult<i64>>, crate::store::StoreError> {
    let Some((sql, params)) = tx.dialect().scoped_lock(scope) else {
        return Ok(None);
    };
    let rows = tx.query(&sql, &params)?;
    Ok(Some(version_of(rows.rows.first().and_then(|r| r.last()))))
}

/// The schema version of a stamp as read (see [`read_version`]).
fn version_of(stamp: Option<&Value>) -> ToolResult<i64> {
    Ok(match stamp {
        Some(Value::Integer(v)) => *v,
        // PostgreSQL's stamp is text; one that is not a number is not ours.
        Some(Value::Text(v)) => v.trim().parse().map_err(|_| {
            ToolError::new(
                ErrorCode::Storage,
                format!(
                    "the database's schema stamp {} is not a tasklists version; nothing was changed",
                    crate::text::quote(v)
                ),
                "point --db / TASKLISTS_DB at a tasklists database or at a new one",
            )
        })?,
        _ => 0,
    })
}

/// A database without our version stamp must be empty: tables of another
/// application mean `--db` points at the wrong file, which is left alone.
fn check_empty(tx: &dyn crate::store::Tx) -> ToolResult<()> {
    let rows = tx.query(tx.dialect().foreign_tables(), &[])?;
    let names: Vec<&str> = rows
        .rows
        .iter()
        .filter_map(|r| r.first().and_then(|v| v.as_str()))
        .collect();
    if names.is_empty() {
        return Ok(());
    }
    Err(ToolError::new(
        ErrorCode::Storage,
        format!(
            "this database is not a tasklists database (it holds {}); nothing was changed",
            names.join(", ")
        ),
        "point --db / TASKLISTS_DB at a tasklists database or at a new one",
    ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Value;
    use crate::testing::Harness;

    #[test]
    fn comments_may_hold_semicolons() {
        let sql = "-- a; b\nCREATE TABLE x (a INT);\n-- c;\nCREATE INDEX y ON x (a);\n";
        assert_eq!(
            statements(sql),
            ["CREATE TABLE x (a INT)", "CREATE INDEX y ON x (a)"]
        );
    }

    #[test]
    fn a_trigger_body_stays_one_statement() {
        let sql = "CREATE TABLE x (a INT);\nCREATE TRIGGER t AFTER INSERT ON x\nBEGIN\n    UPDATE x SET a = 1;\n    UPDATE x SET a = 2;\nEND;\nCREATE INDEX y ON x (a);\n";
        assert_eq!(
            statements(sql),
            [
                "CREATE TABLE x (a INT)",
                "CREATE TRIGGER t AFTER INSERT ON x\nBEGIN\n    UPDATE x SET a = 1;\nUPDATE x SET a = 2;\nEND",
                "CREATE INDEX y ON x (a)"
            ]
        );
    }

    #[test]
    fn every_migration_applies_to_the_previous_version_and_keeps_data() {
        for from in 0..LATEST {
            let h = Harness::default();
            let tx = h.store.begin(true).unwrap();
            for sql in &crate::store::SqlDialect::Sqlite.migrations()[..from as usize] {
                for s in statements(sql) {
                    tx.execute(&s, &[]).unwrap();
                }
            }
            tx.execute(&format!("PRAGMA user_version = {from}"), &[])
                .unwrap();
            if from >= 1 {
                tx.execute(
                    "INSERT INTO lists (id, name, name_fold, scope_type, visibility, created_by_agent_id, created_at, \
                     updated_at) VALUES ('list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B', 'Old', 'old', 'custom', 'shared', 'a', 0, 0)",
                    &[],
                )
                .unwrap();
            }
            tx.commit().unwrap();
            let found = h.ok("a", "task_lists", "find", serde_json::json!({}));
            assert_eq!(
                found["lists"].as_array().unwrap().len(),
                usize::from(from >= 1),
                "from v{from}"
            );
            let tx = h.store.begin(false).unwrap();
            let v = tx.query("PRAGMA user_version", &[]).unwrap().rows[0][0].clone();
            assert_eq!(v, Value::Integer(LATEST), "from v{from}");
        }
    }

    #[test]
    fn another_applications_database_is_refused_untouched() {
        let h = Harness::default();
        let tx = h.store.begin(true).unwrap();
        tx.execute("CREATE TABLE notes (x)", &[]).unwrap();
        tx.commit().unwrap();
        let e = h
            .call(Some("a"), "task_lists", "find", serde_json::json!({}))
            .unwrap_err();
        assert_eq!(e.code, crate::error::ErrorCode::Storage);
        assert!(
            e.message.contains("not a tasklists database") && e.message.contains("notes"),
            "{}",
            e.message
        );
        let tx = h.store.begin(false).unwrap();
        let tables = tx
            .query("SELECT COUNT(*) FROM sqlite_master", &[])
            .unwrap()
            .rows[0][0]
            .clone();
        assert_eq!(tables, Value::Integer(1));
        let v = tx.query("PRAGMA user_version", &[]).unwrap().rows[0][0].clone();
        assert_eq!(v, Value::Integer(0));
    }

    #[test]
    fn a_newer_database_is_refused_untouched() {
        let h = Harness::default();
        let tx = h.store.begin(true).unwrap();
        tx.execute(&format!("PRAGMA user_version = {}", LATEST + 1), &[])
            .unwrap();
        tx.commit().unwrap();
        let e = h
            .call(
                Some("a"),
                "task_lists",
                "create",
                serde_json::json!({"name": "x"}),
            )
            .unwrap_err();
        assert_eq!(e.code, crate::error::ErrorCode::Storage);
        assert!(e.message.contains("newer"), "{}", e.message);
        let tx = h.store.begin(false).unwrap();
        let tables = tx
            .query("SELECT COUNT(*) FROM sqlite_master", &[])
            .unwrap()
            .rows[0][0]
            .clone();
        assert_eq!(tables, Value::Integer(0));
    }
}

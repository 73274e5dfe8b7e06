//! Opening the SQLite file: refuse what is not a database without touching
//! it, then configure the one connection a backend uses (pragmas, a fair
//! busy handler, statement cache, SQL-level sandboxing; WAL on the first
//! write).

mod permissions;

use super::busy::fair_busy_handler;
use crate::{Deadline, OpenError};
use permissions::{create_private_dirs, create_private_file, warn_once_if_exposed};
use rusqlite::config::DbConfig;
use rusqlite::limits::Limit;
use rusqlite::{Connection, OpenFlags};
use std::fs;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

/// Prepared statements kept per connection; the component uses a few dozen
/// distinct statements, so they are all parsed once per process.
const STATEMENT_CACHE_CAPACITY: usize = 128;

/// Every SQLite 3 file starts with these 16 bytes.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Opens (creating if needed) the database at `path` and configures it.
///
/// A file that exists but is not an SQLite database is refused before
/// SQLite opens it in read-write mode or creates `-wal`/`-shm` files next
/// to it, so a mistyped `--db` never damages anything. What this creates
/// is the user's alone (`permissions.rs`): directories 0700, the database
/// 0600, and so its `-wal` and `-shm`.
pub fn open(
    path: &Path,
    busy_timeout: Duration,
    deadline: &Deadline,
) -> Result<Connection, OpenError> {
    // SQLite is built with URI filenames on: `file:x?mode=memory` would be
    // parsed as options (lost writes, no locking). An absolute path never
    // starts with `file:`, so it is always just a file.
    let absolute = std::path::absolute(path).map_err(|source| OpenError::ReadDatabase {
        path: path.to_path_buf(),
        source,
    })?;
    let path = absolute.as_path();
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_private_dirs(parent).map_err(|source| OpenError::CreateDir {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    check_header(path)?;
    create_private_file(path);

    let db_err = |source: rusqlite::Error| OpenError::Database {
        path: path.to_path_buf(),
        source: Box::new(source),
    };
    // No SQLITE_OPEN_URI: a path is a path, never `file:…?mode=…` options.
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags).map_err(db_err)?;
    conn.busy_handler(Some(fair_busy_handler(busy_timeout, deadline.clone())))
        .map_err(db_err)?;
    // A statement that runs past the call's deadline is interrupted (the
    // component gets a `storage` error and rolls back) instead of running on
    // while holding the write lock. Checked every few thousand VM steps.
    let running = deadline.clone();
    conn.progress_handler(4096, Some(move || running.passed()))
        .map_err(db_err)?;

    // The component reaches SQLite only through SQL, but SQL can open other
    // files: ATTACH and VACUUM INTO would be a way around the WASI sandbox.
    // Allowing zero attached databases shuts both; DEFENSIVE forbids the
    // pragmas that can corrupt a database (writable_schema, …).
    conn.set_limit(Limit::SQLITE_LIMIT_ATTACHED, 0)
        .map_err(db_err)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)
        .map_err(db_err)?;
    // Query-planner stability: a cached statement keeps its plan instead
    // of being re-prepared whenever its bindings were cleared (rusqlite
    // clears them when a statement goes back into its cache, and SQLite
    // then expires any plan that looked at a bound value), so the claim
    // queries are planned once per connection. Plans stay the ones the
    // schema's indexes give.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)
        .map_err(db_err)?;

    // Reading the schema is what makes SQLite notice a damaged or foreign
    // file; do it before switching to WAL, which writes.
    if let Err(e) = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
        r.get::<_, i64>(0)
    }) {
        return Err(match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt) => {
                OpenError::NotADatabase {
                    path: path.to_path_buf(),
                    reason: e.to_string(),
                }
            }
            _ => db_err(e),
        });
    }

    // WAL is switched on after the first committed write (`enable_wal`),
    // not here: a database the component refuses (newer schema) must stay
    // byte-identical, journal mode included. These two only configure the
    // connection.
    conn.execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
        .map_err(db_err)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE_CAPACITY);
    warn_once_if_exposed(path);
    Ok(conn)
}

/// Switches the database to WAL, so readers never block the writer and
/// any number of processes share the file. The mode is stored in the file:
/// once a database is in WAL this is a no-op that takes no lock.
/// `journal_mode` answers with the mode it got (some file systems cannot do
/// WAL); the store works without, with less concurrency, so it is not
/// checked. Fails only when the switch could not take its lock (busy).
pub fn enable_wal(conn: &Connection) -> rusqlite::Result<()> {
    conn.query_row("PRAGMA journal_mode=WAL", [], |_| Ok(()))
}

/// Refuses a non-empty file that does not start with the SQLite header.
fn check_header(path: &Path) -> Result<(), OpenError> {
    // Only a regular file can be a database: opening a FIFO would block
    // forever, and a device is no place for one.
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(OpenError::NotADatabase {
                path: path.to_path_buf(),
                reason: "it is not a regular file".to_string(),
            });
        }
        _ => {}
    }
    let mut file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(OpenError::ReadDatabase {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let mut header = Vec::with_capacity(SQLITE_HEADER.len());
    file.by_ref()
        .take(SQLITE_HEADER.len() as u64)
        .read_to_end(&mut header)
        .map_err(|source| OpenError::ReadDatabase {
            path: path.to_path_buf(),
            source,
        })?;
    // An empty file is a valid, empty database (SQLite writes the header
    // on the first write).
    if header.is_empty() || header == SQLITE_HEADER {
        return Ok(());
    }
    Err(OpenError::NotADatabase {
        path: path.to_path_buf(),
        reason: "it does not start with the SQLite header".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_text_file_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        fs::write(&path, "hello, this is not a database\n").unwrap();
        let err = open(&path, Duration::from_secs(1), &Deadline::new()).unwrap_err();
        assert!(matches!(err, OpenError::NotADatabase { .. }), "{err}");
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "hello, this is not a database\n"
        );
        assert!(!dir.path().join("notes.txt-wal").exists());
    }

    #[test]
    fn refuses_a_damaged_database_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.db");
        // A valid header followed by garbage.
        let mut bytes = SQLITE_HEADER.to_vec();
        bytes.extend(std::iter::repeat_n(0xAB, 4096));
        fs::write(&path, &bytes).unwrap();
        let err = open(&path, Duration::from_secs(1), &Deadline::new()).unwrap_err();
        assert!(matches!(err, OpenError::NotADatabase { .. }), "{err}");
        assert_eq!(fs::read(&path).unwrap(), bytes);
    }

    #[test]
    fn creates_parents_and_switches_to_wal_on_demand() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/tasks.db");
        let conn = open(&path, Duration::from_secs(1), &Deadline::new()).unwrap();
        let mode = || -> String {
            conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!(mode(), "delete", "opening alone changes nothing");
        enable_wal(&conn).unwrap();
        assert_eq!(mode(), "wal");
        let fk: i64 = conn
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        assert_eq!(fk, 1);
        // Reopening an existing database works.
        drop(conn);
        open(&path, Duration::from_secs(1), &Deadline::new()).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_database_and_its_wal_and_shm_are_the_users_alone() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new/tasks.db");
        let conn = open(&path, Duration::from_secs(1), &Deadline::new()).unwrap();
        enable_wal(&conn).unwrap();
        conn.execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            .unwrap();
        assert_eq!(mode(&dir.path().join("new")), 0o700);
        for name in ["tasks.db", "tasks.db-wal", "tasks.db-shm"] {
            assert_eq!(mode(&dir.path().join("new").join(name)), 0o600, "{name}");
        }
    }

    #[test]
    fn a_file_uri_is_just_a_file_name() {
        // Opened relative to the current directory, `file:…` stays a name:
        // `std::path::absolute` puts the directory in front of it.
        let name = Path::new("file:x.db?mode=memory");
        let plain = std::path::absolute(name).unwrap();
        assert!(plain.is_absolute() && !plain.to_string_lossy().starts_with("file:"));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        let conn = open(&path, Duration::from_secs(1), &Deadline::new()).unwrap();
        conn.execute_batch("CREATE TABLE t(x)").unwrap();
        assert!(path.exists(), "a real file, not an in-memory database");
    }

    #[test]
    fn only_regular_files_are_databases() {
        let err = open(
            Path::new("/dev/null"),
            Duration::from_secs(1),
            &Deadline::new(),
        )
        .unwrap_err();
        assert!(matches!(err, OpenError::NotADatabase { .. }), "{err}");
    }

    #[test]
    fn sql_cannot_open_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(
            &dir.path().join("t.db"),
            Duration::from_secs(1),
            &Deadline::new(),
        )
        .unwrap();
        let other = dir.path().join("other.db");
        let attach = format!("ATTACH DATABASE '{}' AS other", other.display());
        assert!(conn.execute_batch(&attach).is_err());
        let vacuum = format!("VACUUM INTO '{}'", other.display());
        assert!(conn.execute_batch(&vacuum).is_err());
        assert!(!other.exists());
    }
}

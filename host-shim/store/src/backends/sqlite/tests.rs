//! Tests of the SQLite backend: transaction rules, value round trips and
//! error mapping, on real SQLite files.

use super::SqliteBackend;
use super::errors::{Phase, map_error};
use crate::{BackendOptions, Deadline, Session, StoreError, Value};
use rusqlite::ffi;
use std::path::Path;
use std::time::Duration;

/// A session on an SQLite file, as every host has one.
type Ctx = Session<SqliteBackend>;

impl Ctx {
    /// The connection, for checks.
    fn conn(&self) -> &rusqlite::Connection {
        self.backend().conn()
    }

    /// How many `begin`s checked the files the full way so far.
    fn full_checks(&self) -> usize {
        self.backend().full_checks
    }
}

fn open_ctx(path: &Path, busy: Duration) -> Ctx {
    open_with(path, busy, &Deadline::new())
}

/// A store on `path`, connected now.
fn open_with(path: &Path, busy: Duration, deadline: &Deadline) -> Ctx {
    let options = BackendOptions {
        busy_timeout: busy,
        deadline: deadline.clone(),
        max_result_bytes: 1 << 20,
    };
    let mut ctx = Session::new(Box::new(SqliteBackend::new(path.to_path_buf(), options)));
    ctx.connect().unwrap();
    ctx
}

fn setup() -> (tempfile::TempDir, Ctx) {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = open_ctx(&dir.path().join("t.db"), Duration::from_millis(100));
    let tx = ctx.begin(true).unwrap();
    ctx.execute(
        tx,
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, x)",
        &[],
    )
    .unwrap();
    ctx.commit(tx).unwrap();
    (dir, ctx)
}

fn count(ctx: &Ctx) -> i64 {
    ctx.conn()
        .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn only_a_committed_write_switches_to_wal() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = open_ctx(&dir.path().join("t.db"), Duration::from_millis(100));
    let mode = |ctx: &Ctx| -> String {
        ctx.conn()
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap()
    };
    // A write transaction that only reads, or that rolls back, changes nothing.
    let tx = ctx.begin(true).unwrap();
    ctx.query(tx, "PRAGMA user_version", &[]).unwrap();
    ctx.commit(tx).unwrap();
    let tx = ctx.begin(true).unwrap();
    ctx.execute(tx, "CREATE TABLE x(a)", &[]).unwrap();
    ctx.rollback(tx).unwrap();
    assert_eq!(mode(&ctx), "delete");
    let tx = ctx.begin(true).unwrap();
    ctx.execute(tx, "CREATE TABLE x(a)", &[]).unwrap();
    ctx.commit(tx).unwrap();
    assert_eq!(mode(&ctx), "wal");
}

#[test]
fn values_round_trip() {
    let (_dir, mut ctx) = setup();
    let tx = ctx.begin(true).unwrap();
    let values = [
        Value::Null,
        Value::Integer(-7),
        Value::Real(1.5),
        Value::Text("héllo".into()),
        Value::Blob(vec![0, 1, 255]),
    ];
    for (i, v) in values.iter().enumerate() {
        let name = Value::Text(format!("n{i}"));
        let changed = ctx.execute(
            tx,
            "INSERT INTO t(name, x) VALUES (?1, ?2)",
            &[name, v.clone()],
        );
        assert_eq!(changed, Ok(1));
    }
    let rows = ctx
        .query(tx, "SELECT x AS value FROM t ORDER BY id", &[])
        .unwrap();
    assert_eq!(rows.width, 1);
    let got: Vec<Value> = rows.values().into_iter().map(|mut r| r.remove(0)).collect();
    assert_eq!(got, values);
    ctx.commit(tx).unwrap();
}

#[test]
fn execute_counts_only_its_own_changes() {
    let (_dir, mut ctx) = setup();
    let tx = ctx.begin(true).unwrap();
    ctx.execute(tx, "INSERT INTO t(name) VALUES ('a'), ('b')", &[])
        .unwrap();
    // DDL after an INSERT must not report the INSERT's count.
    assert_eq!(ctx.execute(tx, "CREATE TABLE u(x)", &[]), Ok(0));
    assert_eq!(ctx.execute(tx, "UPDATE t SET x = 1", &[]), Ok(2));
    // A statement returning rows still runs to completion.
    assert_eq!(
        ctx.execute(tx, "DELETE FROM t WHERE name = 'a' RETURNING id", &[]),
        Ok(1)
    );
    ctx.commit(tx).unwrap();
    assert_eq!(count(&ctx), 1);
}

#[test]
fn one_transaction_at_a_time_and_finished_ones_are_dead() {
    let (_dir, mut ctx) = setup();
    let tx = ctx.begin(false).unwrap();
    assert!(matches!(ctx.begin(true), Err(StoreError::InvalidState(_))));
    ctx.rollback(tx).unwrap();
    assert!(matches!(ctx.commit(tx), Err(StoreError::InvalidState(_))));
    assert!(matches!(
        ctx.query(tx, "SELECT 1", &[]),
        Err(StoreError::InvalidState(_))
    ));
    // A new transaction works after the old one ended.
    let tx2 = ctx.begin(true).unwrap();
    assert_ne!(tx, tx2);
    ctx.commit(tx2).unwrap();
}

#[test]
fn dropping_an_unfinished_transaction_rolls_back() {
    let (_dir, mut ctx) = setup();
    let tx = ctx.begin(true).unwrap();
    ctx.execute(tx, "INSERT INTO t(name) VALUES ('x')", &[])
        .unwrap();
    ctx.abandon(tx);
    assert!(ctx.conn().is_autocommit());
    assert_eq!(count(&ctx), 0);
    // Dropping a finished handle later is harmless.
    let tx2 = ctx.begin(true).unwrap();
    ctx.execute(tx2, "INSERT INTO t(name) VALUES ('y')", &[])
        .unwrap();
    ctx.commit(tx2).unwrap();
    ctx.abandon(tx2);
    assert_eq!(count(&ctx), 1);
}

#[test]
fn end_of_call_rolls_back_what_was_left_open() {
    let (_dir, mut ctx) = setup();
    ctx.begin_call();
    let tx = ctx.begin(true).unwrap();
    ctx.execute(tx, "INSERT INTO t(name) VALUES ('x')", &[])
        .unwrap();
    assert_eq!(ctx.end_call(), Some(true));
    assert_eq!(count(&ctx), 0);
    assert!(matches!(ctx.commit(tx), Err(StoreError::InvalidState(_))));
    assert_eq!(ctx.end_call(), None);
    ctx.begin(false).unwrap();
    assert_eq!(ctx.end_call(), Some(false));
}

#[test]
fn read_transactions_refuse_writes_and_sql_cannot_end_transactions() {
    let (_dir, mut ctx) = setup();
    let tx = ctx.begin(false).unwrap();
    let err = ctx.execute(tx, "INSERT INTO t(name) VALUES ('x')", &[]);
    assert!(matches!(err, Err(StoreError::InvalidState(_))), "{err:?}");
    for sql in ["COMMIT", "  -- c\n end", "/* x */ ROLLBACK", "BEGIN"] {
        let err = ctx.execute(tx, sql, &[]);
        assert!(
            matches!(err, Err(StoreError::InvalidState(_))),
            "{sql}: {err:?}"
        );
    }
    assert!(!ctx.conn().is_autocommit(), "the transaction is still open");
    ctx.rollback(tx).unwrap();
}

#[test]
fn errors_are_typed() {
    let (_dir, mut ctx) = setup();
    let tx = ctx.begin(true).unwrap();
    ctx.execute(tx, "INSERT INTO t(name) VALUES ('a')", &[])
        .unwrap();
    let dup = ctx.execute(tx, "INSERT INTO t(name) VALUES ('a')", &[]);
    assert!(matches!(dup, Err(StoreError::Constraint(_))), "{dup:?}");
    let syntax = ctx.query(tx, "SELEC 1", &[]);
    assert!(matches!(syntax, Err(StoreError::Sql(_))), "{syntax:?}");
    let table = ctx.query(tx, "SELECT * FROM missing", &[]);
    assert!(matches!(table, Err(StoreError::Sql(_))), "{table:?}");
    let column = ctx.query(tx, "SELECT nope FROM t", &[]);
    assert!(matches!(column, Err(StoreError::Sql(_))), "{column:?}");
    let arity = ctx.execute(tx, "INSERT INTO t(name) VALUES (?1)", &[]);
    assert!(matches!(arity, Err(StoreError::Sql(_))), "{arity:?}");
    // The transaction survives statement errors.
    ctx.commit(tx).unwrap();
    assert_eq!(count(&ctx), 1);
}

#[test]
fn a_held_write_lock_is_busy_after_the_budget() {
    let (dir, mut holder) = setup();
    let mut waiter = open_ctx(&dir.path().join("t.db"), Duration::from_millis(50));
    let held = holder.begin(true).unwrap();
    let started = std::time::Instant::now();
    let err = waiter.begin(true);
    assert!(matches!(err, Err(StoreError::Busy(_))), "{err:?}");
    assert!(started.elapsed() >= Duration::from_millis(50));
    // Readers are not blocked by a writer in WAL mode.
    let read = waiter.begin(false).unwrap();
    assert_eq!(
        waiter
            .query(read, "SELECT count(*) FROM t", &[])
            .unwrap()
            .values()
            .len(),
        1
    );
    waiter.commit(read).unwrap();
    holder.commit(held).unwrap();
    waiter.begin(true).unwrap();
}

fn kind(e: &StoreError) -> &'static str {
    e.wit_case()
}

#[test]
fn engine_codes_map_to_variants() {
    let failure = |code| rusqlite::Error::SqliteFailure(ffi::Error::new(code), Some("m".into()));
    let cases = [
        (ffi::SQLITE_BUSY, Phase::Run, "busy"),
        (ffi::SQLITE_LOCKED, Phase::Run, "busy"),
        (ffi::SQLITE_CONSTRAINT, Phase::Run, "constraint"),
        (ffi::SQLITE_IOERR, Phase::Run, "io"),
        (ffi::SQLITE_FULL, Phase::Run, "io"),
        (ffi::SQLITE_READONLY, Phase::Run, "io"),
        (ffi::SQLITE_CANTOPEN, Phase::Run, "io"),
        (ffi::SQLITE_CORRUPT, Phase::Run, "corrupt"),
        (ffi::SQLITE_NOTADB, Phase::Run, "corrupt"),
        (ffi::SQLITE_ERROR, Phase::Prepare, "sql"),
        (ffi::SQLITE_ERROR, Phase::Run, "other"),
        (ffi::SQLITE_NOMEM, Phase::Run, "other"),
    ];
    for (code, phase, expected) in cases {
        let mapped = map_error(failure(code), phase);
        assert_eq!(kind(&mapped), expected, "{code}: {mapped:?}");
    }
}

#[test]
fn a_statement_past_the_calls_deadline_is_interrupted_and_rolled_back() {
    let dir = tempfile::tempdir().unwrap();
    let deadline = Deadline::new();
    let mut ctx = open_with(
        &dir.path().join("t.db"),
        Duration::from_millis(100),
        &deadline,
    );
    let tx = ctx.begin(true).unwrap();
    ctx.execute(tx, "CREATE TABLE t(x)", &[]).unwrap();
    deadline.start(Duration::from_millis(50));
    let started = std::time::Instant::now();
    // Never ends on its own.
    let endless =
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n";
    let err = ctx.query(tx, endless, &[]).unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(
        matches!(&err, StoreError::Other(m) if m.contains("interrupted")),
        "{err:?}"
    );
    deadline.clear();
    ctx.rollback(tx).unwrap();
    let tables: i64 = ctx
        .conn()
        .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))
        .unwrap();
    assert_eq!(tables, 0);
}

#[test]
fn the_busy_wait_stops_at_the_calls_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder
        .execute_batch("BEGIN IMMEDIATE; CREATE TABLE t(x);")
        .unwrap();
    let deadline = Deadline::new();
    let mut ctx = open_with(&path, Duration::from_secs(30), &deadline);
    deadline.start(Duration::from_millis(100));
    let started = std::time::Instant::now();
    let err = ctx.begin(true).unwrap_err();
    assert!(matches!(err, StoreError::Busy(_)), "{err:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn the_change_check_moves_on_every_commit_and_never_creates_the_file() {
    use crate::Watch;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("watched.db");
    let mut watch = super::SqliteWatch::new(path.clone());
    assert_eq!(watch.version().unwrap(), None);
    assert!(!path.exists(), "a check must not create the database");

    let mut backend = open_ctx(&path, Duration::from_millis(100));
    let write = |backend: &mut Ctx, n: i64| {
        backend.begin_call();
        let tx = backend.begin(true).unwrap();
        backend
            .execute(tx, "CREATE TABLE IF NOT EXISTS t (n INTEGER)", &[])
            .unwrap();
        backend
            .execute(tx, "INSERT INTO t VALUES (?1)", &[Value::Integer(n)])
            .unwrap();
        backend.commit(tx).unwrap();
        backend.end_call();
    };
    write(&mut backend, 1);
    let first = watch.version().unwrap().expect("the file exists now");
    assert_eq!(watch.version().unwrap(), Some(first), "nothing changed");
    write(&mut backend, 2);
    let second = watch.version().unwrap().unwrap();
    assert_ne!(second, first, "a commit moves it");

    // A read-only transaction moves nothing.
    backend.begin_call();
    let tx = backend.begin(false).unwrap();
    backend.query(tx, "SELECT n FROM t", &[]).unwrap();
    backend.commit(tx).unwrap();
    backend.end_call();
    assert_eq!(watch.version().unwrap(), Some(second));
}

/// A database renamed over the path (a restored backup) while the backend
/// has the old file open: the next transaction serves the new file, and
/// writes land in it, not in the unlinked old one.
#[test]
fn a_file_replaced_under_the_connection_is_reopened_at_the_next_begin() {
    let (dir, mut ctx) = setup();
    let path = dir.path().join("t.db");
    let tx = ctx.begin(true).unwrap();
    ctx.execute(tx, "INSERT INTO t(name) VALUES ('old')", &[])
        .unwrap();
    ctx.commit(tx).unwrap();
    let backup = dir.path().join("backup.db");
    let conn = rusqlite::Connection::open(&backup).unwrap();
    conn.execute_batch(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, x); INSERT INTO t(name) VALUES ('restored');",
    )
    .unwrap();
    drop(conn);
    std::fs::rename(&backup, &path).unwrap();

    let tx = ctx.begin(true).unwrap();
    let rows = ctx
        .query(tx, "SELECT name FROM t ORDER BY id", &[])
        .unwrap();
    assert_eq!(rows.values(), vec![vec![Value::Text("restored".into())]]);
    ctx.execute(tx, "INSERT INTO t(name) VALUES ('after')", &[])
        .unwrap();
    ctx.commit(tx).unwrap();
    let other = rusqlite::Connection::open(&path).unwrap();
    let names: Vec<String> = other
        .prepare("SELECT name FROM t ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(names, ["restored", "after"]);
}

/// The names in `t`, read through `ctx` in a read transaction.
fn names(ctx: &mut Ctx) -> Vec<String> {
    ctx.begin_call();
    let tx = ctx.begin(false).unwrap();
    let rows = ctx
        .query(tx, "SELECT name FROM t ORDER BY id", &[])
        .unwrap();
    ctx.commit(tx).unwrap();
    ctx.end_call();
    rows.values()
        .into_iter()
        .map(|mut r| match r.remove(0) {
            Value::Text(name) => name,
            other => panic!("{other:?}"),
        })
        .collect()
}

/// The names in `t`, read by a connection of its own.
fn raw_names(path: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.prepare("SELECT name FROM t ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

fn insert(ctx: &mut Ctx, name: &str) -> Result<(), StoreError> {
    ctx.begin_call();
    let result = (|| {
        let tx = ctx.begin(true)?;
        ctx.execute(
            tx,
            "INSERT INTO t(name) VALUES (?1)",
            &[Value::Text(name.into())],
        )?;
        ctx.commit(tx)
    })();
    ctx.end_call();
    result
}

/// `rm t.db-wal` while two connections have it open: each notices at its
/// next `begin`; the first copies what the removed file holds (both
/// connections' writes) into the database and reopens, the second finds
/// a new `-wal` already in use and just reopens. Nothing acknowledged is
/// lost, before or after, and a new connection sees it all.
#[test]
fn a_removed_wal_is_copied_into_the_database_and_reopened_at_the_next_begin() {
    let (dir, mut one) = setup();
    let path = dir.path().join("t.db");
    let wal = dir.path().join("t.db-wal");
    let mut two = open_ctx(&path, Duration::from_millis(100));
    insert(&mut one, "a").unwrap();
    insert(&mut two, "b").unwrap();
    assert!(wal.exists(), "in WAL mode");
    std::fs::remove_file(&wal).unwrap();
    insert(&mut one, "c").unwrap();
    assert!(wal.exists(), "reopened: a new -wal");
    insert(&mut two, "d").unwrap();
    insert(&mut one, "e").unwrap();
    let all = ["a", "b", "c", "d", "e"];
    assert_eq!(raw_names(&path), all, "a new connection misses writes");
    assert_eq!(names(&mut one), all);
    assert_eq!(names(&mut two), all);

    // A reader notices too, and the copy happens before it reads.
    insert(&mut one, "f").unwrap();
    std::fs::remove_file(&wal).unwrap();
    assert_eq!(names(&mut two), ["a", "b", "c", "d", "e", "f"]);
    assert_eq!(names(&mut one), ["a", "b", "c", "d", "e", "f"]);
    drop((one, two));
    assert_eq!(raw_names(&path), ["a", "b", "c", "d", "e", "f"]);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let ok: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
}

/// The removed `-wal` cannot be copied while a reader holds an old
/// snapshot: a typed I/O error, the connection (the only way left to its
/// frames) is kept, and the next call, once the reader is done, copies,
/// reopens and loses nothing.
#[test]
fn a_removed_wal_that_cannot_be_copied_yet_is_an_io_error_until_it_can() {
    let (dir, mut ctx) = setup();
    let path = dir.path().join("t.db");
    insert(&mut ctx, "a").unwrap();
    let reader = rusqlite::Connection::open(&path).unwrap();
    reader.execute_batch("BEGIN").unwrap();
    let n: i64 = reader
        .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 1);
    std::fs::remove_file(dir.path().join("t.db-wal")).unwrap();
    let e = insert(&mut ctx, "refused").unwrap_err();
    assert!(
        matches!(&e, StoreError::Io(m) if m.contains("-wal")),
        "{e:?}"
    );
    reader.execute_batch("COMMIT").unwrap();
    drop(reader);
    insert(&mut ctx, "b").unwrap();
    assert_eq!(names(&mut ctx), ["a", "b"]);
    assert_eq!(raw_names(&path), ["a", "b"]);
}

/// Sets the modification time of the directory `dir` an hour back, as if
/// none of its entries had changed lately.
fn settle(dir: &Path) {
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::open(dir)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
}

/// While the directory holding the database is as it was when its two
/// files were last checked (a directory whose last change is old enough),
/// a call looks only at the directory. A file renamed over the path, or a
/// removed `-wal`, changes the directory: the next call, read or write,
/// checks the files the full way and follows them, as without the
/// shortcut, and nothing is lost.
#[test]
fn a_quiet_directory_stands_for_the_file_checks_until_an_entry_in_it_changes() {
    let (dir, mut ctx) = setup();
    let path = dir.path().join("t.db");
    let wal = dir.path().join("t.db-wal");
    insert(&mut ctx, "a").unwrap();
    assert!(wal.exists(), "in WAL mode");

    // A directory changed just now is not trusted: every call checks.
    let before = ctx.full_checks();
    assert_eq!(names(&mut ctx), ["a"]);
    insert(&mut ctx, "b").unwrap();
    assert_eq!(ctx.full_checks(), before + 2, "a fresh directory");

    // Settled: one full check records it, then reads and writes trust it.
    settle(dir.path());
    assert_eq!(names(&mut ctx), ["a", "b"]);
    let trusted = ctx.full_checks();
    insert(&mut ctx, "c").unwrap();
    assert_eq!(names(&mut ctx), ["a", "b", "c"]);
    assert_eq!(ctx.full_checks(), trusted, "a quiet directory");

    // A restored backup renamed over the path, prepared elsewhere so that
    // the rename is the directory's only change: a write notices it once
    // it holds the lock, and lands in the new file.
    let elsewhere = tempfile::tempdir().unwrap();
    let backup = elsewhere.path().join("backup.db");
    let conn = rusqlite::Connection::open(&backup).unwrap();
    conn.execute_batch(
        "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, x); \
         INSERT INTO t(name) VALUES ('restored');",
    )
    .unwrap();
    drop(conn);
    std::fs::rename(&backup, &path).unwrap();
    insert(&mut ctx, "after").unwrap();
    assert_eq!(ctx.full_checks(), trusted + 1, "the rename was seen");
    assert_eq!(raw_names(&path), ["restored", "after"]);

    // A removed `-wal`, once the directory settled again: a read notices
    // it before it starts and copies what it held into the database.
    settle(dir.path());
    assert_eq!(names(&mut ctx), ["restored", "after"]);
    insert(&mut ctx, "held").unwrap();
    let trusted = ctx.full_checks();
    std::fs::remove_file(&wal).unwrap();
    assert_eq!(names(&mut ctx), ["restored", "after", "held"]);
    assert_eq!(ctx.full_checks(), trusted + 1, "the removal was seen");
    assert_eq!(raw_names(&path), ["restored", "after", "held"]);
}

/// A database reached through a symbolic link lives in another directory,
/// whose changes the link's directory does not show: it is checked the
/// full way on every call, however quiet its directory.
#[cfg(unix)]
#[test]
fn a_database_behind_a_symbolic_link_is_always_checked_the_full_way() {
    let (dir, ctx) = setup();
    drop(ctx);
    let links = tempfile::tempdir().unwrap();
    let link = links.path().join("t.db");
    std::os::unix::fs::symlink(dir.path().join("t.db"), &link).unwrap();
    let mut ctx = open_ctx(&link, Duration::from_millis(100));
    insert(&mut ctx, "a").unwrap();
    settle(links.path());
    settle(dir.path());
    let before = ctx.full_checks();
    assert_eq!(names(&mut ctx), ["a"]);
    assert_eq!(names(&mut ctx), ["a"]);
    insert(&mut ctx, "b").unwrap();
    assert_eq!(ctx.full_checks(), before + 3);
}

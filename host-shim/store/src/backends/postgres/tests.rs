//! Tests of the PostgreSQL backend on a real server: value round trips,
//! error mapping, the write lock, snapshots, deadlines, killed and
//! unreachable connections, the server's clock, the change check, TLS.
//!
//! They need `TASKLISTS_TEST_PG`, the URL of a role that may CREATE
//! DATABASE (`postgresql://postgres@127.0.0.1:54329/postgres`); each test
//! creates a database of its own and drops it at the end. Without it each
//! test says it was skipped. The TLS tests also need
//! `TASKLISTS_TEST_PG_TLS_ROOT`, the CA certificate of that server, whose
//! certificate names `localhost`; `TASKLISTS_TEST_PG_TLS_NAME_ONLY=1`
//! says it names no IP address (then verify-full to 127.0.0.1 must fail).

use super::config::PgLocation;
use super::{PostgresBackend, PostgresWatch};
use crate::{BackendOptions, Deadline, OpenError, Session, StoreError, Value, Watch, WriteState};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

mod search_path;

/// A session on a PostgreSQL database, as every host has one.
type Pg = Session<PostgresBackend>;

impl Pg {
    /// The backend's process id on the server, for tests that kill it.
    fn server_pid(&mut self) -> i32 {
        self.backend_mut().server_pid()
    }
}

/// A session on the database at `location`, not connected yet.
fn open(location: PgLocation, options: BackendOptions) -> Pg {
    Session::new(Box::new(PostgresBackend::new(location, options)))
}

const SECRET: &str = "n0t-the-Pa55word";

/// The admin URL, or `None` (and a note on stderr) when the run has no
/// server.
fn admin() -> Option<String> {
    match std::env::var("TASKLISTS_TEST_PG") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!("skipped: TASKLISTS_TEST_PG is not set");
            None
        }
    }
}

/// `location` as key/value words with some settings replaced (`None`
/// removes one), password and TLS settings included.
fn rewrite(location: &str, changes: &[(&str, Option<&str>)]) -> String {
    let location = PgLocation::parse(location);
    let info = location.info().expect("a usable test URL");
    let mut pairs: Vec<(String, String)> = info.settings.clone();
    if let Some(p) = &info.password {
        pairs.push(("password".into(), p.clone()));
    }
    pairs.push(("sslmode".into(), info.ssl_mode.name().into()));
    if let Some(root) = &info.ssl_root_cert {
        pairs.push(("sslrootcert".into(), root.clone()));
    }
    for (key, value) in changes {
        pairs.retain(|(k, _)| k != key);
        if let Some(value) = value {
            pairs.push((key.to_string(), value.to_string()));
        }
    }
    let quote = |v: &str| v.replace('\\', "\\\\").replace('\'', "\\'");
    pairs
        .iter()
        .map(|(k, v)| format!("{k}='{}'", quote(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A sync client on `url` (test setup, and "another program").
fn client(url: &str) -> postgres::Client {
    // The sync client knows no verify-* modes and needs no TLS here.
    let plain = rewrite(url, &[("sslmode", Some("prefer")), ("sslrootcert", None)]);
    postgres::Client::connect(&plain, postgres::NoTls).expect("connect to the test server")
}

/// A fresh database, dropped (`WITH (FORCE)`: whatever is still
/// connected) when this is.
struct TestDb {
    admin: String,
    name: String,
    url: String,
}

impl TestDb {
    fn create() -> Option<TestDb> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let admin = admin()?;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!(
            "tl_store_{}_{}_{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        client(&admin)
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create the test database");
        let url = rewrite(&admin, &[("dbname", Some(&name))]);
        Some(TestDb { admin, name, url })
    }

    fn location(&self) -> PgLocation {
        PgLocation::parse(&self.url)
    }

    /// A backend on the database, not connected yet.
    fn backend(&self, busy: Duration, deadline: &Deadline) -> Pg {
        open(self.location(), options(busy, deadline))
    }

    fn client(&self) -> postgres::Client {
        client(&self.url)
    }

    fn count(&self, table: &str) -> i64 {
        self.client()
            .query_one(&format!("SELECT count(*) FROM {table}"), &[])
            .unwrap()
            .get(0)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Ok(mut admin) = std::panic::catch_unwind(|| client(&self.admin)) {
            let _ = admin.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

fn options(busy: Duration, deadline: &Deadline) -> BackendOptions {
    BackendOptions {
        busy_timeout: busy,
        deadline: deadline.clone(),
        max_result_bytes: 1 << 20,
    }
}

/// A database with `t(id bigserial, name text unique, i bigint, x text,
/// b bytea, d float8)`, and a backend on it.
fn setup() -> Option<(TestDb, Pg)> {
    let db = TestDb::create()?;
    db.client()
        .batch_execute(
            "CREATE TABLE t (id bigserial PRIMARY KEY, name text UNIQUE, i bigint, x text, \
             b bytea, d double precision)",
        )
        .unwrap();
    let backend = db.backend(Duration::from_millis(300), &Deadline::new());
    Some((db, backend))
}

fn kind(e: &StoreError) -> &'static str {
    e.wit_case()
}

/// Waits until the server has no session with `pid` any more.
fn wait_gone(admin: &str, pid: i32) {
    let mut conn = client(admin);
    for _ in 0..100 {
        let n: i64 = conn
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
                &[&pid],
            )
            .unwrap()
            .get(0);
        if n == 0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("backend {pid} is still there");
}

fn terminate(admin: &str, pid: i32) {
    let killed: bool = client(admin)
        .query_one("SELECT pg_terminate_backend($1)", &[&pid])
        .unwrap()
        .get(0);
    assert!(killed);
    wait_gone(admin, pid);
}

#[test]
fn values_round_trip() {
    let Some((_db, mut pg)) = setup() else { return };
    let rows: Vec<[Value; 4]> = vec![
        [
            Value::Integer(i64::MIN),
            Value::Text("héllo ✓ 🚀".into()),
            Value::Blob(vec![0, 1, 255]),
            Value::Real(1.5),
        ],
        [
            Value::Integer(i64::MAX),
            Value::Text("'; DROP TABLE t; -- $1 ? %s \\".into()),
            Value::Blob(vec![]),
            Value::Real(-1e300),
        ],
        [
            Value::Integer(0),
            Value::Text(String::new()),
            Value::Blob((0..=255).collect()),
            Value::Real(f64::MIN_POSITIVE),
        ],
        [Value::Null, Value::Null, Value::Null, Value::Null],
    ];
    let tx = pg.begin(true).unwrap();
    for (n, row) in rows.iter().enumerate() {
        let mut params = vec![Value::Text(format!("n{n}"))];
        params.extend(row.iter().cloned());
        let changed = pg.execute(
            tx,
            "INSERT INTO t (name, i, x, b, d) VALUES ($1, $2, $3, $4, $5)",
            &params,
        );
        assert_eq!(changed, Ok(1));
    }
    pg.commit(tx).unwrap();
    let tx = pg.begin(false).unwrap();
    let got = pg
        .query(tx, "SELECT i, x AS text, b, d FROM t ORDER BY id", &[])
        .unwrap();
    assert_eq!(got.width, 4);
    let want: Vec<Vec<Value>> = rows.iter().map(|r| r.to_vec()).collect();
    assert_eq!(got.values(), want);
    // Parameters are typed by where they go: an integer into a real, a
    // text compared with text.
    let found = pg
        .query(
            tx,
            "SELECT count(*) FROM t WHERE d > $1 AND x LIKE $2",
            &[Value::Integer(1), Value::Text("h%".into())],
        )
        .unwrap();
    assert_eq!(found.values(), [[Value::Integer(1)]]);
    pg.commit(tx).unwrap();
}

#[test]
fn every_returned_type_maps_to_a_store_value() {
    let Some((_db, mut pg)) = setup() else { return };
    let tx = pg.begin(false).unwrap();
    let got = pg
        .query(
            tx,
            "SELECT 7::int2, 8::int4, 9::oid, 10::numeric, 1.25::numeric, \
             12345678901234567890::numeric, 2.5::float4, true, false, 'v'::varchar, \
             'c'::char(2), 'n'::name, '{\"a\": 1}'::jsonb, NULL::int8, pg_sleep(0)",
            &[],
        )
        .unwrap();
    use Value::*;
    assert_eq!(
        got.values(),
        [[
            Integer(7),
            Integer(8),
            Integer(9),
            Integer(10),
            Real(1.25),
            Real(12345678901234567890.0),
            Real(2.5),
            Integer(1),
            Integer(0),
            Text("v".into()),
            Text("c ".into()),
            Text("n".into()),
            Text("{\"a\": 1}".into()),
            Null,
            Null,
        ]]
    );
    // Small integer parameters are range-checked against their column.
    let e = pg
        .query(tx, "SELECT $1::int2", &[Value::Integer(1 << 20)])
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Sql(m) if m.contains("$1") && m.contains("int2")),
        "{e:?}"
    );
    let e = pg.query(tx, "SELECT now()", &[]).unwrap_err();
    assert!(
        matches!(&e, StoreError::Sql(m) if m.contains("unsupported column type timestamptz")),
        "{e:?}"
    );
    // Neither was sent: the transaction is intact.
    let one = pg
        .query(tx, "SELECT $1::bool", &[Value::Integer(1)])
        .unwrap();
    assert_eq!(one.values(), [[Integer(1)]]);
    pg.commit(tx).unwrap();
}

#[test]
fn a_mismatched_parameter_is_a_typed_sql_error_before_anything_is_sent() {
    let Some((db, mut pg)) = setup() else { return };
    let tx = pg.begin(true).unwrap();
    let e = pg
        .execute(
            tx,
            "INSERT INTO t (name, i) VALUES ($1, $2)",
            &[Value::Text("a".into()), Value::Text("not a number".into())],
        )
        .unwrap_err();
    assert_eq!(
        e,
        StoreError::Sql("parameter $2: text cannot be bound where PostgreSQL expects int8".into())
    );
    let e = pg
        .execute(tx, "INSERT INTO t (b) VALUES ($1)", &[Value::Integer(3)])
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Sql(m) if m.contains("bytea")),
        "{e:?}"
    );
    let e = pg
        .execute(tx, "INSERT INTO t (name) VALUES ($1)", &[])
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Sql(m) if m.contains("takes 1 parameter")),
        "{e:?}"
    );
    // Still usable, and it commits.
    pg.execute(
        tx,
        "INSERT INTO t (name) VALUES ($1)",
        &[Value::Text("a".into())],
    )
    .unwrap();
    pg.commit(tx).unwrap();
    assert_eq!(db.count("t"), 1);
}

#[test]
fn errors_are_typed_and_a_failed_transaction_only_rolls_back() {
    let Some((db, mut pg)) = setup() else { return };
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('a')", &[])
        .unwrap();
    let e = pg
        .execute(tx, "INSERT INTO t (name) VALUES ('a')", &[])
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Constraint(m) if m.contains("23505") && m.contains("t_name_key")),
        "{e:?}"
    );
    // PostgreSQL aborted the transaction: the rest fails, and so does the
    // commit, which says why instead of quietly rolling back.
    let e = pg.query(tx, "SELECT 1", &[]).unwrap_err();
    assert!(
        matches!(&e, StoreError::InvalidState(m) if m.contains("25P02")),
        "{e:?}"
    );
    let e = pg.commit(tx).unwrap_err();
    assert!(
        matches!(&e, StoreError::InvalidState(m) if m.contains("rolled back") && m.contains("23505")),
        "{e:?}"
    );
    assert_eq!(db.count("t"), 0);
    assert_eq!(pg.write_state(), WriteState::NotApplied);

    let tx = pg.begin(false).unwrap();
    let e = pg.query(tx, "SELEC 1", &[]).unwrap_err();
    assert!(
        matches!(&e, StoreError::Sql(m) if m.contains("42601")),
        "{e:?}"
    );
    pg.rollback(tx).unwrap();
    let tx = pg.begin(false).unwrap();
    let e = pg.query(tx, "SELECT nope FROM t", &[]).unwrap_err();
    assert_eq!(kind(&e), "sql", "{e:?}");
    pg.rollback(tx).unwrap();
    // A read transaction refuses writes (the server says so).
    let tx = pg.begin(false).unwrap();
    let e = pg
        .execute(tx, "INSERT INTO t (name) VALUES ('r')", &[])
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::InvalidState(m) if m.contains("25006")),
        "{e:?}"
    );
    pg.rollback(tx).unwrap();
    // Transactions are not controlled through SQL.
    let tx = pg.begin(true).unwrap();
    for sql in ["COMMIT", "rollback", "BEGIN", "start transaction"] {
        let e = pg.execute(tx, sql, &[]).unwrap_err();
        assert_eq!(kind(&e), "invalid-state", "{sql}: {e:?}");
    }
    pg.execute(tx, "INSERT INTO t (name) VALUES ('ok')", &[])
        .unwrap();
    pg.commit(tx).unwrap();
    assert_eq!(pg.write_state(), WriteState::Applied);
    assert_eq!(db.count("t"), 1);
}

#[test]
fn a_commit_the_server_refuses_is_typed_and_rolled_back() {
    let Some((db, mut pg)) = setup() else { return };
    db.client()
        .batch_execute(
            "CREATE TABLE p (id int PRIMARY KEY); \
             CREATE TABLE c (p int REFERENCES p DEFERRABLE INITIALLY DEFERRED)",
        )
        .unwrap();
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO c VALUES (1)", &[]).unwrap();
    let e = pg.commit(tx).unwrap_err();
    assert!(
        matches!(&e, StoreError::Constraint(m) if m.contains("23503")),
        "{e:?}"
    );
    assert_eq!(db.count("c"), 0);
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO p VALUES (1)", &[]).unwrap();
    pg.commit(tx).unwrap();
}

/// `pipeline`: a statement sent with the next one, or with the COMMIT,
/// runs before it in order; one that fails fails what it went with, and
/// nothing of the transaction is applied; a bad one is refused when
/// queued, and nothing is queued.
#[test]
fn pipelined_statements_run_in_order_and_fail_the_whole() {
    let Some((db, mut pg)) = setup() else { return };
    pg.begin_call();
    // With the next statement (and the BEGIN): it sees the queued row.
    let tx = pg.begin(true).unwrap();
    pg.pipeline(
        tx,
        "INSERT INTO t (name) VALUES ($1)",
        &[Value::Text("a".into())],
    )
    .unwrap();
    let rows = pg.query(tx, "SELECT count(*) FROM t", &[]).unwrap();
    assert_eq!(rows.values(), vec![vec![Value::Integer(1)]]);
    // With the COMMIT.
    pg.pipeline(tx, "INSERT INTO t (name) VALUES ('b')", &[])
        .unwrap();
    pg.commit(tx).unwrap();
    assert_eq!(pg.write_state(), WriteState::Applied);
    assert_eq!(db.count("t"), 2);

    // A queued statement that fails fails the COMMIT it rode with: the
    // transaction is rolled back, the statement before it too.
    pg.begin_call();
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('c')", &[])
        .unwrap();
    pg.pipeline(tx, "INSERT INTO t (name) VALUES ('a')", &[])
        .unwrap();
    let e = pg.commit(tx).unwrap_err();
    assert_eq!(kind(&e), "constraint", "{e:?}");
    assert_eq!(pg.write_state(), WriteState::NotApplied);
    assert_eq!(db.count("t"), 2);

    // ... or the statement it went with, whose error is the queued one's.
    let tx = pg.begin(true).unwrap();
    pg.pipeline(tx, "INSERT INTO t (name) VALUES ('a')", &[])
        .unwrap();
    let e = pg
        .execute(tx, "INSERT INTO t (name) VALUES ('d')", &[])
        .unwrap_err();
    assert_eq!(kind(&e), "constraint", "{e:?}");
    assert!(
        pg.commit(tx).is_err(),
        "a failed transaction only rolls back"
    );
    assert_eq!(db.count("t"), 2);

    // Refused when queued: bad SQL, a wrong parameter, transaction control.
    let tx = pg.begin(true).unwrap();
    assert_eq!(
        kind(
            &pg.pipeline(tx, "INSERT INTO nope VALUES (1)", &[])
                .unwrap_err()
        ),
        "sql"
    );
    assert!(
        pg.pipeline(tx, "INSERT INTO t (i) VALUES ($1)", &[])
            .is_err()
    );
    assert_eq!(
        kind(&pg.pipeline(tx, "COMMIT", &[]).unwrap_err()),
        "invalid-state"
    );
    pg.rollback(tx).ok();
    assert_eq!(db.count("t"), 2);
    pg.end_call();
}

#[test]
fn calls_and_handles_follow_the_sqlite_rules() {
    let Some((db, mut pg)) = setup() else { return };
    pg.begin_call();
    let tx = pg.begin(true).unwrap();
    assert_eq!(kind(&pg.begin(false).unwrap_err()), "invalid-state");
    pg.execute(tx, "INSERT INTO t (name) VALUES ('x')", &[])
        .unwrap();
    assert_eq!(pg.end_call(), Some(true), "a write was left open");
    assert_eq!(db.count("t"), 0, "and rolled back");
    assert_eq!(kind(&pg.commit(tx).unwrap_err()), "invalid-state");
    assert_eq!(
        kind(&pg.query(tx, "SELECT 1", &[]).unwrap_err()),
        "invalid-state"
    );

    pg.begin_call();
    let read = pg.begin(false).unwrap();
    assert!(read > tx, "ids are never reused");
    assert_eq!(pg.end_call(), Some(false));
    pg.begin_call();
    assert_eq!(pg.end_call(), None);

    // A dropped handle rolls back; a finished one stays dead.
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('y')", &[])
        .unwrap();
    pg.abandon(tx);
    assert_eq!(db.count("t"), 0);
    assert_eq!(kind(&pg.rollback(tx).unwrap_err()), "invalid-state");
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('z')", &[])
        .unwrap();
    pg.rollback(tx).unwrap();
    assert_eq!(db.count("t"), 0);

    pg.begin_call();
    let tx = pg.begin(true).unwrap();
    pg.query(tx, "SELECT 1", &[]).unwrap();
    pg.commit(tx).unwrap();
    assert_eq!(
        pg.write_state(),
        WriteState::NotApplied,
        "a write transaction that only read"
    );
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('w')", &[])
        .unwrap();
    pg.commit(tx).unwrap();
    assert_eq!(pg.write_state(), WriteState::Applied);
    pg.end_call();
    pg.begin_call();
    assert_eq!(
        pg.write_state(),
        WriteState::NotApplied,
        "a new call starts over"
    );
}

#[test]
fn writers_wait_for_each_other_and_are_busy_after_the_busy_timeout() {
    let Some((db, mut a)) = setup() else { return };
    let mut b = db.backend(Duration::from_millis(300), &Deadline::new());
    let tx = a.begin(true).unwrap();
    a.execute(tx, "INSERT INTO t (name) VALUES ('a')", &[])
        .unwrap();
    // The lock is taken with the first statement (its BEGIN is sent with
    // it): the wait, and the error, are that statement's, before it ran.
    let waiting = b.begin(true).unwrap();
    let started = Instant::now();
    let e = b
        .execute(waiting, "INSERT INTO t (name) VALUES ('b')", &[])
        .unwrap_err();
    let waited = started.elapsed();
    assert!(
        matches!(&e, StoreError::Busy(m) if m.contains("another writer held the database past the busy timeout")),
        "{e:?}"
    );
    assert!(
        waited >= Duration::from_millis(250) && waited < Duration::from_secs(3),
        "{waited:?}"
    );
    b.rollback(waiting).unwrap();
    // Readers do not wait.
    let read = b.begin(false).unwrap();
    b.query(read, "SELECT name FROM t", &[]).unwrap();
    b.rollback(read).unwrap();
    a.commit(tx).unwrap();
    let tx = b.begin(true).unwrap();
    let seen = b.query(tx, "SELECT name FROM t", &[]).unwrap();
    assert_eq!(seen.values(), [[Value::Text("a".into())]]);
    b.commit(tx).unwrap();
}

#[test]
fn the_write_lock_serializes_read_modify_write() {
    let Some((db, _)) = setup() else { return };
    db.client()
        .batch_execute("CREATE TABLE counter (n bigint); INSERT INTO counter VALUES (0)")
        .unwrap();
    // Each worker reads the counter and writes it back plus one: without
    // the lock, READ COMMITTED would lose updates.
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let mut pg = db.backend(Duration::from_secs(10), &Deadline::new());
            std::thread::spawn(move || {
                for _ in 0..15 {
                    let tx = pg.begin(true).unwrap();
                    let n = pg.query(tx, "SELECT n FROM counter", &[]).unwrap().values()[0][0]
                        .as_i64()
                        .unwrap();
                    pg.execute(tx, "UPDATE counter SET n = $1", &[Value::Integer(n + 1)])
                        .unwrap();
                    pg.commit(tx).unwrap();
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let n: i64 = db
        .client()
        .query_one("SELECT n FROM counter", &[])
        .unwrap()
        .get(0);
    assert_eq!(n, 60);
}

#[test]
fn a_read_transaction_sees_one_snapshot() {
    let Some((db, mut pg)) = setup() else { return };
    let tx = pg.begin(false).unwrap();
    let count = |pg: &mut Pg, tx| {
        pg.query(tx, "SELECT count(*) FROM t", &[])
            .unwrap()
            .values()
    };
    assert_eq!(count(&mut pg, tx), [[Value::Integer(0)]]);
    db.client()
        .batch_execute("INSERT INTO t (name) VALUES ('later')")
        .unwrap();
    assert_eq!(
        count(&mut pg, tx),
        [[Value::Integer(0)]],
        "the same snapshot"
    );
    pg.commit(tx).unwrap();
    let tx = pg.begin(false).unwrap();
    assert_eq!(count(&mut pg, tx), [[Value::Integer(1)]]);
    pg.commit(tx).unwrap();
}

#[test]
fn the_calls_deadline_bounds_a_statement() {
    let Some((db, _)) = setup() else { return };
    let deadline = Deadline::new();
    let mut pg = db.backend(Duration::from_secs(5), &deadline);
    pg.connect().unwrap();
    pg.begin_call();
    deadline.start(Duration::from_millis(500));
    let tx = pg.begin(true).unwrap();
    let started = Instant::now();
    let e = pg.query(tx, "SELECT pg_sleep(5)", &[]).unwrap_err();
    let took = started.elapsed();
    assert!(
        matches!(&e, StoreError::Other(m) if m.starts_with("interrupted: the statement ran past the call's time limit")),
        "{e:?}"
    );
    assert!(took < Duration::from_millis(1500), "{took:?}");
    deadline.clear();
    pg.end_call();
    // The next call works on the same connection.
    pg.begin_call();
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('after')", &[])
        .unwrap();
    pg.commit(tx).unwrap();
    pg.end_call();
    assert_eq!(db.count("t"), 1);
}

#[test]
fn the_lock_wait_stops_at_the_calls_deadline() {
    let Some((db, mut a)) = setup() else { return };
    let deadline = Deadline::new();
    let mut b = db.backend(Duration::from_secs(30), &deadline);
    let held = a.begin(true).unwrap();
    // The lock is taken with the transaction's first statement.
    a.query(held, "SELECT 1", &[]).unwrap();
    deadline.start(Duration::from_millis(400));
    let started = Instant::now();
    let waiting = b.begin(true).unwrap();
    let e = b.query(waiting, "SELECT 1", &[]).unwrap_err();
    assert_eq!(kind(&e), "busy", "{e:?}");
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
    deadline.clear();
    b.rollback(waiting).unwrap();
    a.rollback(held).unwrap();
    let tx = b.begin(true).unwrap();
    b.query(tx, "SELECT 1", &[]).unwrap();
    b.commit(tx).unwrap();
}

#[test]
fn a_connection_killed_mid_transaction_loses_nothing_and_reconnects() {
    let Some((db, mut pg)) = setup() else { return };
    pg.connect().unwrap();
    let pid = pg.server_pid();
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('lost')", &[])
        .unwrap();
    terminate(&db.admin, pid);
    let e = pg
        .execute(tx, "INSERT INTO t (name) VALUES ('lost too')", &[])
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Io(m) if m.contains("57P01") || m.contains("lost")),
        "{e:?}"
    );
    assert_eq!(kind(&pg.commit(tx).unwrap_err()), "invalid-state");
    assert_eq!(pg.end_call(), None, "the server rolled it back");
    assert_eq!(db.count("t"), 0, "nothing of it is visible");
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('new')", &[])
        .unwrap();
    pg.commit(tx).unwrap();
    assert_eq!(db.count("t"), 1);
    assert_ne!(pg.server_pid(), pid, "a new connection");
}

#[test]
fn a_connection_killed_between_calls_is_replaced_at_the_next_begin() {
    let Some((db, mut pg)) = setup() else { return };
    pg.connect().unwrap();
    terminate(&db.admin, pg.server_pid());
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('fine')", &[])
        .unwrap();
    pg.commit(tx).unwrap();
    assert_eq!(db.count("t"), 1);
}

#[test]
fn a_connection_lost_while_committing_says_the_outcome_is_unknown() {
    let Some((db, mut pg)) = setup() else { return };
    pg.connect().unwrap();
    let pid = pg.server_pid();
    pg.begin_call();
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO t (name) VALUES ('maybe')", &[])
        .unwrap();
    terminate(&db.admin, pid);
    let e = pg.commit(tx).unwrap_err();
    assert!(
        matches!(&e, StoreError::Io(m) if m.contains("may or may not have been applied")
            && m.contains("read it back before repeating it")),
        "{e:?}"
    );
    assert_eq!(
        pg.write_state(),
        WriteState::MayBeApplied,
        "a trap must not claim nothing changed, nor that it was saved"
    );
    pg.end_call();
}

#[test]
fn unreachable_servers_and_bad_strings_are_typed_errors_without_the_password() {
    let Some(_) = admin() else { return };
    let texts = [
        format!("postgresql://agent:{SECRET}@127.0.0.1:1/tasks"),
        format!("host=127.0.0.1 port=1 dbname=tasks user=agent password={SECRET}"),
        format!("postgresql://agent@127.0.0.1:1/tasks?password={SECRET}&connect_timeout=2"),
    ];
    for text in &texts {
        let location = PgLocation::parse(text);
        let mut pg = open(location, options(Duration::from_secs(1), &Deadline::new()));
        for _ in 0..2 {
            let e = pg.begin(true).unwrap_err();
            assert!(
                matches!(&e, StoreError::Io(m) if m.starts_with("cannot connect to postgresql://agent@127.0.0.1:1/tasks")),
                "{e:?}"
            );
            assert!(!format!("{e:?}").contains(SECRET), "{e:?}");
        }
        let e = pg.connect().unwrap_err();
        assert!(matches!(e, OpenError::Server { .. }), "{e:?}");
        assert!(!e.to_string().contains(SECRET), "{e}");
        assert_eq!(pg.now_ms(), None, "the host's clock then");
    }
    let mut pg = open(
        PgLocation::parse("host=h user=u sslmode=verify"),
        options(Duration::from_secs(1), &Deadline::new()),
    );
    let e = pg.connect().unwrap_err();
    assert!(
        matches!(&e, OpenError::ConnectionString { reason, .. } if reason.contains("verify-full")),
        "{e:?}"
    );
    assert_eq!(kind(&pg.begin(false).unwrap_err()), "io");
}

#[test]
fn a_missing_database_and_a_wrong_password_are_explained() {
    let Some(admin) = admin() else { return };
    let name = format!("tl_store_missing_{}", std::process::id());
    let url = rewrite(&admin, &[("dbname", Some(&name))]);
    let mut pg = open(
        PgLocation::parse(&url),
        options(Duration::from_secs(1), &Deadline::new()),
    );
    let e = pg.begin(true).unwrap_err();
    assert!(
        matches!(&e, StoreError::Io(m) if m.contains(&name) && m.contains("3D000") && m.contains("CREATE DATABASE")),
        "{e:?}"
    );
    let mut watch = PostgresWatch::new(PgLocation::parse(&url));
    assert_eq!(watch.version(), Ok(None), "nothing to watch yet");

    // A wrong password, where the server checks passwords on this route.
    let wrong = rewrite(&admin, &[("password", Some(SECRET))]);
    let mut pg = open(
        PgLocation::parse(&wrong),
        options(Duration::from_secs(1), &Deadline::new()),
    );
    // Each try is the same typed error.
    for _ in 0..2 {
        match pg.begin(false) {
            Ok(_) => {
                eprintln!(
                    "note: the test server does not check passwords; wrong-password case skipped"
                );
                break;
            }
            Err(e) => {
                assert!(
                    matches!(&e, StoreError::Io(m) if m.contains("28P01") && m.contains("password")),
                    "{e:?}"
                );
                assert!(!format!("{e:?}").contains(SECRET), "{e:?}");
            }
        }
    }
}

#[test]
fn the_clock_is_the_servers() {
    let Some((db, mut pg)) = setup() else { return };
    let server_ms = || -> i64 {
        db.client()
            .query_one(
                "SELECT (extract(epoch from clock_timestamp()) * 1000)::int8",
                &[],
            )
            .unwrap()
            .get(0)
    };
    let local_ms = || {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64
    };
    pg.begin_call();
    // No transaction yet: asked of the server.
    let now = pg.now_ms().unwrap();
    assert!((now - local_ms()).abs() < 5_000, "{now} vs {}", local_ms());
    let before = server_ms();
    let tx = pg.begin(false).unwrap();
    let after = server_ms();
    let at_begin = pg.now_ms().unwrap();
    assert!(
        at_begin >= before && at_begin <= after + 50,
        "{at_begin} not within the server's [{before}, {after}]"
    );
    std::thread::sleep(Duration::from_millis(200));
    let later = pg.now_ms().unwrap();
    assert!(
        later - at_begin >= 200 && later - at_begin < 2_000,
        "{at_begin} → {later}"
    );
    pg.commit(tx).unwrap();
    pg.end_call();
}

#[test]
fn the_change_number_moves_on_every_event() {
    let Some(db) = TestDb::create() else { return };
    let mut watch = PostgresWatch::new(db.location());
    assert_eq!(watch.version(), Ok(None), "no events table yet");
    db.client()
        .batch_execute("CREATE TABLE events (seq bigserial PRIMARY KEY, what text)")
        .unwrap();
    let first = watch.version().unwrap().unwrap();
    let mut pg = db.backend(Duration::from_secs(1), &Deadline::new());
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "INSERT INTO events (what) VALUES ('x')", &[])
        .unwrap();
    pg.commit(tx).unwrap();
    let second = watch.version().unwrap().unwrap();
    assert_ne!(first, second);
    assert_eq!(
        watch.version().unwrap().unwrap(),
        second,
        "unchanged without a write"
    );
    // A broken connection is an error once, then the check reconnects.
    let pid: i32 = client(&db.admin)
        .query_one(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'tasklists' \
             AND backend_type = 'client backend' ORDER BY backend_start LIMIT 1",
            &[&db.name],
        )
        .unwrap()
        .get(0);
    drop(pg);
    terminate(&db.admin, pid);
    let e = watch.version().unwrap_err();
    assert_eq!(kind(&e), "io", "{e:?}");
    assert_eq!(watch.version(), Ok(Some(second)), "connected again");
}

#[test]
fn an_oversized_result_is_refused_and_the_transaction_goes_on() {
    let Some(db) = TestDb::create() else { return };
    let mut pg = open(
        db.location(),
        BackendOptions {
            max_result_bytes: 4 << 10,
            ..options(Duration::from_secs(1), &Deadline::new())
        },
    );
    let tx = pg.begin(false).unwrap();
    let e = pg
        .query(
            tx,
            "SELECT repeat('x', 100) FROM generate_series(1, 1000)",
            &[],
        )
        .unwrap_err();
    assert!(
        matches!(&e, StoreError::Other(m) if m.contains("exceeds 4 KiB")),
        "{e:?}"
    );
    let ok = pg.query(tx, "SELECT 1", &[]).unwrap();
    assert_eq!(ok.values(), [[Value::Integer(1)]]);
    pg.commit(tx).unwrap();
}

#[test]
fn cached_statements_follow_a_schema_change() {
    let Some((_db, mut pg)) = setup() else { return };
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "CREATE TABLE s (a int)", &[]).unwrap();
    pg.execute(tx, "INSERT INTO s VALUES (1)", &[]).unwrap();
    assert_eq!(pg.query(tx, "SELECT * FROM s", &[]).unwrap().width, 1);
    pg.commit(tx).unwrap();
    let tx = pg.begin(true).unwrap();
    pg.execute(tx, "ALTER TABLE s ADD COLUMN b text", &[])
        .unwrap();
    pg.commit(tx).unwrap();
    let tx = pg.begin(false).unwrap();
    let grown = pg.query(tx, "SELECT * FROM s", &[]).unwrap();
    assert_eq!(grown.values(), [[Value::Integer(1), Value::Null]]);
    pg.commit(tx).unwrap();
}

#[test]
fn the_connection_is_named_for_the_server() {
    let Some((db, mut pg)) = setup() else { return };
    let tx = pg.begin(false).unwrap();
    let name = pg
        .query(tx, "SELECT current_setting('application_name')", &[])
        .unwrap();
    assert_eq!(name.values(), [[Value::Text("tasklists".into())]]);
    pg.commit(tx).unwrap();
    let mine = rewrite(&db.url, &[("application_name", Some("mine"))]);
    let mut pg = open(
        PgLocation::parse(&mine),
        options(Duration::from_secs(1), &Deadline::new()),
    );
    let tx = pg.begin(false).unwrap();
    let name = pg
        .query(tx, "SELECT current_setting('application_name')", &[])
        .unwrap();
    assert_eq!(name.values(), [[Value::Text("mine".into())]]);
    pg.commit(tx).unwrap();
}

/// The CA of the test server, when the run has a TLS server.
fn tls_root() -> Option<String> {
    match std::env::var("TASKLISTS_TEST_PG_TLS_ROOT") {
        Ok(path) if !path.is_empty() => Some(path),
        _ => {
            eprintln!("skipped: TASKLISTS_TEST_PG_TLS_ROOT is not set");
            None
        }
    }
}

/// Whether the backend on `url` is on TLS (`pg_stat_ssl`), or its error.
fn on_tls(url: &str) -> Result<bool, StoreError> {
    let mut pg = open(
        PgLocation::parse(url),
        options(Duration::from_secs(1), &Deadline::new()),
    );
    let tx = pg.begin(false)?;
    let rows = pg.query(
        tx,
        "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
        &[],
    )?;
    pg.commit(tx)?;
    Ok(rows.values() == [[Value::Integer(1)]])
}

#[test]
fn tls_is_verified_as_sslmode_says() {
    let Some(db) = TestDb::create() else { return };
    let Some(root) = tls_root() else { return };
    let at = |host: &str, mode: &str, root: Option<&str>| {
        rewrite(
            &db.url,
            &[
                ("host", Some(host)),
                ("sslmode", Some(mode)),
                ("sslrootcert", root),
            ],
        )
    };
    assert_eq!(
        on_tls(&at("localhost", "verify-full", Some(&root))),
        Ok(true)
    );
    assert_eq!(on_tls(&at("localhost", "require", None)), Ok(true));
    assert_eq!(on_tls(&at("localhost", "prefer", None)), Ok(true));
    assert_eq!(
        on_tls(&at("127.0.0.1", "verify-ca", Some(&root))),
        Ok(true),
        "no host name check"
    );
    assert_ne!(on_tls(&at("localhost", "disable", None)), Ok(true));
    if std::env::var("TASKLISTS_TEST_PG_TLS_NAME_ONLY").as_deref() == Ok("1") {
        let e = on_tls(&at("127.0.0.1", "verify-full", Some(&root))).unwrap_err();
        assert!(
            matches!(&e, StoreError::Io(m) if m.contains("cannot connect")),
            "{e:?}"
        );
    }
    // A CA that did not sign the server's certificate is refused.
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.pem");
    std::fs::write(&other, OTHER_CA).unwrap();
    let e = on_tls(&at("localhost", "verify-full", other.to_str())).unwrap_err();
    assert!(
        matches!(&e, StoreError::Io(m) if m.contains("certificate")),
        "{e:?}"
    );
    let e = on_tls(&at("localhost", "require", other.to_str())).unwrap_err();
    assert_eq!(
        kind(&e),
        "io",
        "require with a root checks the chain: {e:?}"
    );
}

/// A self-signed CA certificate (the key was thrown away) that signed
/// nothing of the test server's.
const OTHER_CA: &str = "-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUNelKsbdPFa+x2FyfP5I3l8q/e+gwCgYIKoZIzj0EAwIw
IjEgMB4GA1UEAwwXdGFza2xpc3RzLW90aGVyLXRlc3QtY2EwIBcNMjYxMjAyMTQ1
NTA2WhgPMjEyNjExMDgxNDU1MDZaMCIxIDAeBgNVBAMMF3Rhc2tsaXN0cy1vdGhl
ci10ZXN0LWNhMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEXPmtJiO5rmEHxAEt
cqrfwWq8R+5ilsRk7Sx9FRgbqDq5AGzL01ZDwwSyPY3yT9F/57Tx289Ttr4maNa0
El8sRqNTMFEwHQYDVR0OBBYEFDClXJEOPvNxToqoiQ2qjK1Vfv+bMB8GA1UdIwQY
MBaAFDClXJEOPvNxToqoiQ2qjK1Vfv+bMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZI
zj0EAwIDSAAwRQIhAIGqYxFQQzKEY5rkAEzZoCDoCGRgJTyFpgY2gXyzLvhOAiBI
8Y8kf9LRnemy8NByP55BEjw54vIfOzlISSbzTqv+9A==
-----END CERTIFICATE-----
";

#[test]
fn a_server_that_never_answers_costs_the_call_its_deadline_not_a_hang() {
    // Accepts connections and says nothing: no server is needed.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let silent = std::thread::spawn(move || {
        let held: Vec<_> = listener.incoming().take(2).collect();
        std::thread::sleep(Duration::from_secs(2));
        drop(held);
    });
    let deadline = Deadline::new();
    let location = PgLocation::parse(&format!(
        "postgresql://agent:{SECRET}@127.0.0.1:{port}/tasks"
    ));
    let mut pg = open(location, options(Duration::from_secs(5), &deadline));
    deadline.start(Duration::from_millis(300));
    let started = Instant::now();
    let e = pg.begin(true).unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(
        matches!(&e, StoreError::Io(m) if m.contains("did not answer within") && m.contains("call's time limit")),
        "{e:?}"
    );
    deadline.clear();
    // Outside a call, the connect timeout (here libpq's floor, 2 s) bounds it.
    let location = PgLocation::parse(&format!(
        "postgresql://agent@127.0.0.1:{port}/tasks?connect_timeout=1"
    ));
    let mut pg = open(location, options(Duration::from_secs(5), &deadline));
    let started = Instant::now();
    let e = pg.connect().unwrap_err();
    assert!(matches!(e, OpenError::Server { .. }), "{e:?}");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    silent.join().unwrap();
}

#[test]
fn a_stopped_server_process_costs_the_statement_its_deadline_not_a_hang() {
    let Some((db, _)) = setup() else { return };
    let deadline = Deadline::new();
    let mut pg2 = db.backend(Duration::from_secs(5), &deadline);
    pg2.connect().unwrap();
    let pid = pg2.server_pid();
    let signal = |sig: &str| {
        std::process::Command::new("kill")
            .args([sig, &pid.to_string()])
            .status()
            .is_ok_and(|s| s.success())
    };
    deadline.start(Duration::from_millis(400));
    let tx = pg2.begin(true).unwrap();
    // The transaction is open on the server (its BEGIN went with this).
    pg2.query(tx, "SELECT 1", &[]).unwrap();
    // Only where the server runs on this machine (the pid is a postgres
    // process here, not some other program) and may be signalled (root).
    let here = std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .is_ok_and(|comm| comm.trim() == "postgres");
    if !here || !signal("-STOP") {
        eprintln!("skipped: cannot stop the server's process {pid}");
        return;
    }
    let started = Instant::now();
    let e = pg2.query(tx, "SELECT 1", &[]);
    let took = started.elapsed();
    signal("-CONT");
    let e = e.unwrap_err();
    assert!(
        matches!(&e, StoreError::Other(m) if m.starts_with("interrupted") && m.contains("did not answer")),
        "{e:?}"
    );
    assert!(took < Duration::from_millis(1200), "{took:?}");
    deadline.clear();
    // The next transaction is on a new connection.
    let tx = pg2.begin(true).unwrap();
    pg2.commit(tx).unwrap();
    assert_ne!(pg2.server_pid(), pid);
}

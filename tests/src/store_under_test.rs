//! The backend parameter of the test suite: which store the tests run on.
//!
//! `TASKLISTS_TEST_STORE=postgres` runs them on PostgreSQL, each test on a
//! fresh database created through `TASKLISTS_TEST_PG` (a URL of a role that
//! may `CREATE DATABASE`; `scripts/pg-cluster` starts a throwaway server and
//! writes both) and dropped at the end. Anything else, or nothing, runs them
//! on a fresh SQLite file in a temporary directory. The tests themselves
//! are the same code for both.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use tasklists_guest::store::SqlDialect;
use tasklists_host::Location;

/// The store kind the suite runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreKind {
    /// An SQLite file per test.
    Sqlite,
    /// A PostgreSQL database per test, created through this admin URL.
    Postgres(String),
}

impl StoreKind {
    /// The kind this run was asked for (`TASKLISTS_TEST_STORE`).
    pub fn current() -> StoreKind {
        match std::env::var("TASKLISTS_TEST_STORE").as_deref() {
            Ok("postgres") => {
                let admin = std::env::var("TASKLISTS_TEST_PG").expect(
                    "TASKLISTS_TEST_STORE=postgres needs TASKLISTS_TEST_PG, an admin URL \
                     (scripts/pg-cluster start DIR writes it to DIR/env)",
                );
                StoreKind::Postgres(admin)
            }
            _ => StoreKind::Sqlite,
        }
    }

    /// Whether the suite runs on PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        matches!(self, StoreKind::Postgres(_))
    }
}

/// Whether the test `test` skips itself because the suite runs on
/// PostgreSQL (`true`, after printing `reason`): for tests that are
/// SQLite's by nature, or that run the same either way and so have run in
/// the SQLite pass already. The reason goes straight to stderr, past the
/// harness's capture, so that every run's log says what was skipped.
pub fn skip_on_postgres(test: &str, reason: &str) -> bool {
    if !StoreKind::current().is_postgres() {
        return false;
    }
    let _ = writeln!(std::io::stderr(), "skipped on PostgreSQL: {test}: {reason}");
    true
}

/// A fresh, empty store for one test, removed when dropped.
pub struct FreshStore {
    /// Where it is, for hosts.
    pub location: Location,
    /// The same as text, password included: what a worker process is given.
    pub spec: String,
    /// The SQLite file (`None` on PostgreSQL).
    pub file: Option<PathBuf>,
    /// The temporary directory (the SQLite file's, and scratch space).
    pub dir: tempfile::TempDir,
    database: Option<(String, String)>,
}

impl FreshStore {
    /// A new SQLite file, whatever the suite's backend (for what only a
    /// file has: copies, damage, file-system faults).
    pub fn sqlite() -> FreshStore {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("tasks.db");
        FreshStore {
            location: Location::from(file.as_path()),
            spec: file.display().to_string(),
            file: Some(file),
            dir,
            database: None,
        }
    }

    /// A new store of the current [`StoreKind`].
    pub fn new() -> FreshStore {
        match StoreKind::current() {
            StoreKind::Sqlite => FreshStore::sqlite(),
            StoreKind::Postgres(admin) => FreshStore::postgres(&admin),
        }
    }

    /// A new PostgreSQL database, created through the admin URL `admin`.
    pub fn postgres(admin: &str) -> FreshStore {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "tl_test_{}_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        );
        let mut conn = connect(admin);
        conn.batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create the test database");
        let spec = with_database(admin, &name);
        FreshStore {
            location: Location::from(spec.as_str()),
            spec,
            file: None,
            dir: tempfile::tempdir().expect("temp dir"),
            database: Some((admin.to_string(), name)),
        }
    }

    /// The database's name (PostgreSQL only).
    pub fn database(&self) -> Option<&str> {
        self.database.as_ref().map(|(_, name)| name.as_str())
    }

    /// Every row of every table of the store, in a stable order, plus the
    /// schema version: two equal dumps mean nothing was changed.
    pub fn dump(&self) -> String {
        match &self.file {
            // No file yet: an empty store, as a fresh database is.
            Some(file) if !file.exists() => "user_version=0\n".to_string(),
            Some(file) => crate::dump(file),
            None => dump_postgres(&self.spec),
        }
    }

    /// Runs `sql` on the store outside any host (a raw write, as another
    /// program or a person with a SQL shell would make): `?N` placeholders
    /// (`$N` on PostgreSQL), text parameters.
    pub fn raw_execute(&self, sql: &str, params: &[&str]) {
        match &self.file {
            Some(file) => {
                let conn = rusqlite::Connection::open(file).expect("open raw");
                conn.execute(sql, rusqlite::params_from_iter(params.iter()))
                    .expect("raw execute");
            }
            None => {
                let mut conn = connect(&self.spec);
                let params: Vec<&(dyn postgres::types::ToSql + Sync)> = params
                    .iter()
                    .map(|p| p as &(dyn postgres::types::ToSql + Sync))
                    .collect();
                conn.execute(&sql.replace('?', "$"), &params)
                    .expect("raw execute");
            }
        }
    }
}

/// A write lock held outside any host ([`FreshStore::hold_write_lock`]),
/// released when dropped.
pub enum WriteLock {
    /// An SQLite connection inside `BEGIN IMMEDIATE`.
    Sqlite(rusqlite::Connection),
    /// A PostgreSQL session inside a transaction holding the store's
    /// advisory write lock.
    Postgres(postgres::Client),
}

impl FreshStore {
    /// Takes the store's write lock as another writer would, and keeps it
    /// until the guard is dropped (which rolls back).
    pub fn hold_write_lock(&self) -> WriteLock {
        match &self.file {
            Some(file) => {
                let conn = rusqlite::Connection::open(file).expect("open raw");
                conn.execute_batch("BEGIN IMMEDIATE")
                    .expect("take the write lock");
                WriteLock::Sqlite(conn)
            }
            None => {
                let mut conn = connect(&self.spec);
                conn.batch_execute(&format!(
                    "BEGIN; SELECT pg_advisory_xact_lock({})",
                    tasklists_store::postgres::WRITE_LOCK_KEY
                ))
                .expect("take the write lock");
                WriteLock::Postgres(conn)
            }
        }
    }
}

impl Default for FreshStore {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for FreshStore {
    fn drop(&mut self) {
        if let Some((admin, name)) = self.database.take() {
            let mut conn = connect(&admin);
            // FORCE: a worker process that has not exited yet keeps no
            // test database alive.
            if let Err(e) =
                conn.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            {
                eprintln!("could not drop the test database {name}: {e}");
            }
        }
    }
}

/// A plain client on `url` (the test cluster runs without TLS on loopback).
pub fn connect(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).expect("connect to the test PostgreSQL")
}

/// The URL `url` with its database name replaced by `name`.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let mut out = format!("{}/{name}", &base[..path_start]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// [`FreshStore::dump`] for PostgreSQL: the version stamp, then each table
/// of the schema with its rows as PostgreSQL's text form of a row, sorted.
fn dump_postgres(url: &str) -> String {
    let mut conn = connect(url);
    let mut out = String::new();
    // The stamp as the component reads it (one definition of where it is).
    let version: Option<String> = conn
        .query_opt(SqlDialect::Postgres.read_version(), &[])
        .expect("version stamp")
        .and_then(|row| row.get(0));
    writeln!(out, "user_version={}", version.as_deref().unwrap_or("0")).unwrap();
    let tables: Vec<String> = conn
        .query(
            "SELECT c.relname::text FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace \
             AND c.relkind = 'r' ORDER BY 1",
            &[],
        )
        .expect("tables")
        .iter()
        .map(|r| r.get(0))
        .collect();
    for table in tables {
        writeln!(out, "[{table}]").unwrap();
        let rows = conn
            .query(
                &format!("SELECT t::text FROM \"{table}\" t ORDER BY 1"),
                &[],
            )
            .expect("rows");
        for row in rows {
            writeln!(out, "{}", row.get::<_, String>(0)).unwrap();
        }
    }
    out
}

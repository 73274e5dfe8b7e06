//! Which schema a connection's unqualified names resolve in: the one the
//! component owns, and no other.
//!
//! The component's SQL names its tables unqualified and creates them in
//! the first schema of the role's `search_path` that exists
//! (`current_schema()`: `public` by default; a connection string picks
//! another with `options=-c search_path=…`). Left as the role has it, the
//! rest of that path takes part too: a table the store's schema does not
//! have yet (before the first migration, say) is found in a later schema,
//! another application's, and functions or operators anyone may create in
//! `public` (before PostgreSQL 15) can stand in for the catalogue's. So
//! every connection, right after it is made, pins its `search_path` to
//! that one schema for the whole session: `pg_catalog` before it (as
//! always), `pg_temp` last (so no temporary object shadows a name).

use super::errors::{Failure, chain};
use super::session::Session;
use std::time::Duration;
use tokio_postgres::SimpleQueryMessage;

/// Sets the session's `search_path` to its current schema alone; no row
/// when the role's path names no schema that exists (and it may use).
const PIN: &str = "SELECT pg_catalog.set_config('search_path', \
     pg_catalog.quote_ident(own) || ', pg_temp', false) \
     FROM (SELECT pg_catalog.current_schema() AS own) AS s WHERE own IS NOT NULL";

/// Pins the search path of a new connection; why not, when it could not.
pub(super) fn pin(session: &Session, limit: Duration) -> Result<(), String> {
    let messages = session
        .simple(PIN, limit)
        .map_err(|failure| match failure {
            Failure::Pg(e) => match e.as_db_error() {
                Some(db) => format!(
                    "cannot set the search_path: {} (SQLSTATE {})",
                    db.message(),
                    db.code().code()
                ),
                None => format!("cannot set the search_path: {}", chain(&e)),
            },
            Failure::TimedOut => format!(
                "the server did not answer within {} ms (setting the search_path)",
                limit.as_millis()
            ),
        })?;
    if messages
        .iter()
        .any(|m| matches!(m, SimpleQueryMessage::Row(_)))
    {
        Ok(())
    } else {
        Err(
            "the role's search_path names no schema that exists and it may use: create one, \
             or name one with options=-c search_path=…"
                .into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::config::PgLocation;
    use super::super::{PostgresBackend, PostgresWatch};
    use crate::{Backend, BackendOptions, Deadline, OpenError, Value, Watch};
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    /// The admin URL of the test server, or `None` (skipped).
    fn admin() -> Option<String> {
        match std::env::var("TASKLISTS_TEST_PG") {
            Ok(url) if !url.is_empty() => Some(url),
            _ => {
                eprintln!("skipped: TASKLISTS_TEST_PG is not set");
                None
            }
        }
    }

    /// `url` on another database, as key/value words.
    fn on_database(url: &str, dbname: &str) -> String {
        let location = PgLocation::parse(url);
        let info = location.info().expect("a usable test URL");
        let quote = |v: &str| v.replace('\\', "\\\\").replace('\'', "\\'");
        let mut words: Vec<String> = info
            .settings
            .iter()
            .filter(|(k, _)| k != "dbname")
            .map(|(k, v)| format!("{k}='{}'", quote(v)))
            .collect();
        words.push(format!("dbname='{dbname}'"));
        if let Some(password) = &info.password {
            words.push(format!("password='{}'", quote(password)));
        }
        words.push("sslmode=disable".into());
        words.join(" ")
    }

    fn client(url: &str) -> postgres::Client {
        postgres::Client::connect(url, postgres::NoTls).expect("connect to the test server")
    }

    /// A fresh database whose default `search_path` is
    /// `"$user", tl_own, tl_other`, with both schemas; dropped after.
    struct Db {
        admin: String,
        name: String,
        url: String,
    }

    impl Db {
        fn create() -> Option<Db> {
            let admin = admin()?;
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos());
            let name = format!("tl_path_{}_{nanos}", std::process::id());
            let admin = on_database(&admin, "postgres");
            let mut setup = client(&admin);
            // One statement each: CREATE DATABASE runs in no transaction.
            setup
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .unwrap();
            setup
                .batch_execute(&format!(
                    "ALTER DATABASE {name} SET search_path = \"$user\", tl_own, tl_other"
                ))
                .unwrap();
            let url = on_database(&admin, &name);
            client(&url)
                .batch_execute("CREATE SCHEMA tl_own; CREATE SCHEMA tl_other")
                .unwrap();
            Some(Db { admin, name, url })
        }

        fn backend(&self) -> PostgresBackend {
            PostgresBackend::new(
                PgLocation::parse(&self.url),
                BackendOptions {
                    busy_timeout: Duration::from_secs(1),
                    deadline: Deadline::new(),
                    max_result_bytes: 1 << 20,
                },
            )
        }
    }

    impl Drop for Db {
        fn drop(&mut self) {
            let _ = client(&self.admin).batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }

    /// The one text value `sql` returns, on a fresh backend.
    fn one(pg: &mut PostgresBackend, sql: &str) -> Value {
        let tx = pg.begin(false).unwrap();
        let rows = pg.query(tx, sql, &[]).unwrap();
        pg.commit(tx).unwrap();
        rows.rows[0][0].clone()
    }

    #[test]
    fn a_connection_sees_only_the_schema_it_owns() {
        let Some(db) = Db::create() else { return };
        // Another application's table, further down the role's path.
        client(&db.url)
            .batch_execute(
                "CREATE TABLE tl_other.events (seq bigint); \
                 INSERT INTO tl_other.events VALUES (42); \
                 CREATE TABLE tl_other.lists (id text); \
                 INSERT INTO tl_other.lists VALUES ('not ours')",
            )
            .unwrap();
        let mut pg = db.backend();
        // The store's schema has no `lists` yet: the other one's is not
        // taken for it.
        let tx = pg.begin(false).unwrap();
        let found = pg.query(tx, "SELECT id FROM lists", &[]);
        assert!(
            matches!(&found, Err(e) if e.to_string().contains("42P01")),
            "{found:?}"
        );
        pg.rollback(tx).unwrap();
        // Nor by the change check, whose `events` is not there yet.
        let mut watch = PostgresWatch::new(PgLocation::parse(&db.url));
        assert_eq!(watch.version(), Ok(None));
        assert_eq!(
            one(&mut pg, "SHOW search_path"),
            Value::Text("tl_own, pg_temp".into())
        );
        // Made by the component, the tables are in its schema.
        let tx = pg.begin(true).unwrap();
        pg.execute(tx, "CREATE TABLE events (seq bigint)", &[])
            .unwrap();
        pg.execute(tx, "INSERT INTO events VALUES (7)", &[])
            .unwrap();
        pg.commit(tx).unwrap();
        assert_eq!(watch.version(), Ok(Some(7)));
        assert_eq!(
            one(&mut pg, "SELECT count(*)::text FROM tl_own.events"),
            Value::Text("1".into())
        );
    }

    #[test]
    fn the_connection_string_picks_the_schema() {
        let Some(db) = Db::create() else { return };
        let url = format!("{} options='-c search_path=tl_other'", db.url);
        let mut pg = PostgresBackend::new(
            PgLocation::parse(&url),
            BackendOptions {
                busy_timeout: Duration::from_secs(1),
                deadline: Deadline::new(),
                max_result_bytes: 1 << 20,
            },
        );
        assert_eq!(
            one(&mut pg, "SHOW search_path"),
            Value::Text("tl_other, pg_temp".into())
        );
        // A path that names no schema that exists: said at connect.
        let url = format!("{} options='-c search_path=tl_nowhere'", db.url);
        let mut pg = PostgresBackend::new(
            PgLocation::parse(&url),
            BackendOptions {
                busy_timeout: Duration::from_secs(1),
                deadline: Deadline::new(),
                max_result_bytes: 1 << 20,
            },
        );
        let e = pg.connect().unwrap_err();
        assert!(
            matches!(&e, OpenError::Server { reason, .. } if reason.contains("search_path")),
            "{e:?}"
        );
    }
}

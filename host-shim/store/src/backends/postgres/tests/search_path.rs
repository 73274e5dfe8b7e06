//! The pinned `search_path` (`postgres/search_path.rs`) on a real server:
//! a database whose default path is `"$user", tl_own, tl_other`, both
//! schemas made, so that another schema could stand in for the store's.

use super::{Pg, TestDb, client, open, options};
use crate::postgres::PostgresWatch;
use crate::postgres::config::PgLocation;
use crate::{Deadline, OpenError, Value, Watch};
use std::time::Duration;

/// A fresh database with both schemas and that default path.
fn with_two_schemas() -> Option<TestDb> {
    let db = TestDb::create()?;
    // One statement each: ALTER DATABASE runs in no transaction.
    client(&db.admin)
        .batch_execute(&format!(
            "ALTER DATABASE {} SET search_path = \"$user\", tl_own, tl_other",
            db.name
        ))
        .unwrap();
    db.client()
        .batch_execute("CREATE SCHEMA tl_own; CREATE SCHEMA tl_other")
        .unwrap();
    Some(db)
}

/// A backend on `url`, not connected yet.
fn backend(url: &str) -> Pg {
    open(
        PgLocation::parse(url),
        options(Duration::from_secs(1), &Deadline::new()),
    )
}

/// The one text value `sql` returns, on a fresh backend.
fn one(pg: &mut Pg, sql: &str) -> Value {
    let tx = pg.begin(false).unwrap();
    let rows = pg.query(tx, sql, &[]).unwrap();
    pg.commit(tx).unwrap();
    rows.values()[0][0].clone()
}

#[test]
fn a_connection_sees_only_the_schema_it_owns() {
    let Some(db) = with_two_schemas() else { return };
    // Another application's table, further down the role's path.
    client(&db.url)
        .batch_execute(
            "CREATE TABLE tl_other.events (seq bigint); \
             INSERT INTO tl_other.events VALUES (42); \
             CREATE TABLE tl_other.lists (id text); \
             INSERT INTO tl_other.lists VALUES ('not ours')",
        )
        .unwrap();
    let mut pg = backend(&db.url);
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
    // Its one event, numbered 7 (not the other schema's 42).
    assert_eq!(
        watch.version(),
        Ok(Some(super::super::watch::version_of(7, 1)))
    );
    assert_eq!(
        one(&mut pg, "SELECT count(*)::text FROM tl_own.events"),
        Value::Text("1".into())
    );
}

#[test]
fn the_connection_string_picks_the_schema() {
    let Some(db) = with_two_schemas() else { return };
    let url = format!("{} options='-c search_path=tl_other'", db.url);
    let mut pg = backend(&url);
    assert_eq!(
        one(&mut pg, "SHOW search_path"),
        Value::Text("tl_other, pg_temp".into())
    );
    // A path that names no schema that exists: said at connect.
    let url = format!("{} options='-c search_path=tl_nowhere'", db.url);
    let mut pg = backend(&url);
    let e = pg.connect().unwrap_err();
    assert!(
        matches!(&e, OpenError::Server { reason, .. } if reason.contains("search_path")),
        "{e:?}"
    );
}

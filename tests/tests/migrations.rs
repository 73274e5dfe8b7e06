//! The schema steps, on the suite's backend (SQLite, or PostgreSQL with
//! `TASKLISTS_TEST_STORE=postgres`): a database left at every earlier
//! version (the component's own steps up to it, applied raw, with a list
//! in it) is brought to the latest version by the real component's first
//! call, and keeps its data.

use tasklists_guest::schema::{LATEST, statements};
use tasklists_guest::store::SqlDialect;
use tasklists_tests::*;

/// The dialect of the suite's backend.
fn dialect() -> SqlDialect {
    if StoreKind::current().is_postgres() {
        SqlDialect::Postgres
    } else {
        SqlDialect::Sqlite
    }
}

/// The version line of a dump.
fn version(dump: &str) -> &str {
    dump.lines().next().unwrap_or_default()
}

#[test]
fn every_earlier_version_is_migrated_in_place_keeping_its_data() {
    let dialect = dialect();
    for from in 0..LATEST {
        let store = FreshStore::new();
        for step in &dialect.migrations()[..from as usize] {
            for statement in statements(step) {
                store.raw_execute(&statement, &[]);
            }
        }
        if from >= 1 {
            store.raw_execute(&dialect.set_version(from), &[]);
            store.raw_execute(
                "INSERT INTO lists (id, name, name_fold, scope_type, visibility, created_by_agent_id, created_at, \
                 updated_at) VALUES ('list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B', 'Old', 'old', 'custom', 'shared', 'a', 0, 0)",
                &[],
            );
        }
        assert_eq!(version(&store.dump()), format!("user_version={from}"));
        let db = TestDb::on(store, |c| c);
        let found = db.ok("a", "task_lists", "find", json!({}));
        let lists = found["lists"].as_array().unwrap();
        assert_eq!(lists.len(), usize::from(from >= 1), "from v{from}: {found}");
        if from >= 1 {
            assert_eq!(lists[0]["name"], json!("Old"), "from v{from}");
            // The counters of step 4 count what was there.
            let ids = db.add("list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B", &["new"]);
            let got = db.get("a", "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B");
            assert_eq!(got["counts"]["todo"], json!(1), "from v{from}: {got}");
            assert_eq!(s(&got, "/tasks/0/id"), ids[0]);
        }
        assert_eq!(
            version(&db.dump()),
            format!("user_version={LATEST}"),
            "from v{from}"
        );
    }
}

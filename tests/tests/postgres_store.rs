//! What only a PostgreSQL store has, through the real component and the
//! real `tasklists` binary: a connection killed mid-transaction leaves
//! nothing half-applied, an unreachable or missing database is a typed
//! `storage` error the next call retries, credentials are never printed, a
//! foreign or newer database is refused untouched, and leases come from the
//! server's clock. The contract itself runs on PostgreSQL from the same
//! test code as on SQLite (`TASKLISTS_TEST_STORE=postgres`, see `.ci/run`).
//!
//! Needs `TASKLISTS_TEST_PG` (an admin URL; `scripts/pg-cluster start DIR`
//! writes it): without it each test says it was skipped.

use std::process::Command;
use std::time::{Duration, Instant};
use tasklists_tests::*;

/// Why this file's tests skip themselves on PostgreSQL.
const ON_POSTGRES: &str = "these tests open PostgreSQL themselves (TASKLISTS_TEST_PG) whatever the store under test: they ran in the SQLite pass";

const A: &str = "builder-1";

/// The admin URL, or `None` (and a note) when the run has no server.
fn admin() -> Option<String> {
    match std::env::var("TASKLISTS_TEST_PG") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!(
                "skipped: TASKLISTS_TEST_PG is not set (scripts/pg-cluster start DIR writes it)"
            );
            None
        }
    }
}

/// A fresh PostgreSQL database with a host on it (the clock set by hand).
fn pg_db(admin: &str) -> TestDb {
    TestDb::on(FreshStore::postgres(admin), |c| c)
}

/// The pids of the test database's client connections (the hosts').
fn backends(admin: &str, database: &str) -> Vec<i32> {
    pg_connect(admin)
        .query(
            "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' \
             AND pid <> pg_backend_pid()",
            &[&database],
        )
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

/// Rows of a one-column count query on the test database.
fn count(db: &TestDb, sql: &str) -> i64 {
    pg_connect(&db.store.spec)
        .query_one(sql, &[])
        .unwrap()
        .get(0)
}

#[test]
fn a_connection_killed_mid_transaction_leaves_nothing_half_applied() {
    if skip_on_postgres(
        "postgres_store::a_connection_killed_mid_transaction_leaves_nothing_half_applied",
        ON_POSTGRES,
    ) {
        return;
    }
    let Some(admin) = admin() else { return };
    let db = pg_db(&admin);
    let list = db.list("planner", "Killed");
    let database = db.store.database().unwrap().to_string();
    let mut killed = 0;
    let mut whole = 0;
    for round in 0..12u64 {
        // A batch of 400 tasks is some 800 statements in one transaction:
        // the killer, on its own connection, terminates the host's backend
        // while it runs, at a different moment each round.
        let before = count(&db, "SELECT COUNT(*) FROM tasks");
        let tasks: Vec<Value> = (0..400)
            .map(|i| json!({"title": format!("r{round} t{i}")}))
            .collect();
        let killer = {
            let (admin, database) = (admin.clone(), database.clone());
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(5 + round * 7));
                for pid in backends(&admin, &database) {
                    pg_connect(&admin)
                        .execute("SELECT pg_terminate_backend($1)", &[&pid])
                        .unwrap();
                }
            })
        };
        let result = db.call(
            &ctx("planner"),
            "task_items",
            "add_many",
            &json!({"list_id": list, "tasks": tasks}),
        );
        killer.join().unwrap();
        let after = count(&db, "SELECT COUNT(*) FROM tasks");
        match result {
            Ok(_) => {
                assert_eq!(after - before, 400, "round {round}: acknowledged, so whole");
                whole += 1;
            }
            Err(e) => {
                assert_eq!(e.code, ErrorCode::Storage, "round {round}: {e:?}");
                assert!(
                    after == before || after - before == 400,
                    "round {round}: half applied: {before} -> {after}"
                );
                if after == before {
                    killed += 1;
                }
            }
        }
        // The counters agree with the rows, and the same host serves the
        // next call on a new connection.
        let counted = count(&db, "SELECT COUNT(*) FROM tasks WHERE deleted_at IS NULL");
        let counters = count(&db, "SELECT todo_count FROM lists");
        assert_eq!(counters, counted, "round {round}: counters");
        let found = db.ok(A, "task_lists", "find", json!({}));
        assert_eq!(
            found["lists"][0]["counts"]["todo"],
            json!(counted),
            "round {round}"
        );
    }
    eprintln!("{killed} batches killed mid-transaction, {whole} committed before the kill");
    assert!(
        killed >= 3,
        "the kill never landed mid-transaction ({killed})"
    );
    let positions = count(
        &db,
        "SELECT COUNT(*) FROM (SELECT position, ROW_NUMBER() OVER (ORDER BY position) AS rn FROM tasks \
         WHERE deleted_at IS NULL) p WHERE position <> rn",
    );
    assert_eq!(positions, 0, "positions stay dense");
}

#[test]
fn a_missing_database_is_a_storage_error_until_it_exists_then_the_same_host_serves() {
    if skip_on_postgres(
        "postgres_store::a_missing_database_is_a_storage_error_until_it_exists_then_the_same_host_serves",
        ON_POSTGRES,
    ) {
        return;
    }
    let Some(admin) = admin() else { return };
    let name = format!("tl_test_missing_{}", std::process::id());
    let url = with_database(&admin, &name);
    let mut host = Host::open_lazily(config(Location::from(url.as_str()))).unwrap();
    let e = host
        .call("task_lists", "find", "{}", &ctx(A))
        .expect_err("no database yet");
    assert_eq!(e.code, ErrorCode::Storage, "{e:?}");
    assert!(e.message.contains(&name), "{}", e.message);
    assert!(!e.hint.is_empty());
    // Help needs no store.
    host.call("task_help", "workflow", "", &ctx(A)).unwrap();
    let mut conn = pg_connect(&admin);
    conn.batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    let result = host.call("task_lists", "create", r#"{"name":"Now"}"#, &ctx(A));
    drop(host);
    conn.batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .unwrap();
    result.expect("the next call connected");
}

#[test]
fn credentials_are_never_printed() {
    if skip_on_postgres("postgres_store::credentials_are_never_printed", ON_POSTGRES) {
        return;
    }
    if admin().is_none() {
        return;
    }
    const SECRET: &str = "s3cret-Pa55word";
    // A port nobody listens on, in both forms, and (on the test cluster,
    // which checks passwords on TCP) a refused password.
    let mut candidates = vec![
        format!("postgresql://agent:{SECRET}@127.0.0.1:1/tasks"),
        format!("host=127.0.0.1 port=1 dbname=tasks user=agent password={SECRET}"),
    ];
    if let Ok(port) = std::env::var("TASKLISTS_TEST_PG_PORT") {
        candidates.push(format!(
            "postgresql://tasklists:{SECRET}@127.0.0.1:{port}/postgres?sslmode=disable"
        ));
    }
    for url in &candidates {
        let location = Location::from(url.as_str());
        assert!(!location.to_string().contains(SECRET), "{location}");
        assert!(!format!("{location:?}").contains(SECRET), "{location:?}");
        let mut host = Host::open_lazily(config(location)).unwrap();
        let e = host
            .call("task_lists", "find", "{}", &ctx(A))
            .expect_err("cannot connect");
        assert_eq!(e.code, ErrorCode::Storage, "{e:?}");
        assert!(!format!("{e:?}").contains(SECRET), "{e:?}");
        // The CLI and what it prints on stderr.
        let out = Command::new(tasklists_binary())
            .args([
                "--db",
                url,
                "--agent-id",
                A,
                "call",
                "task_lists",
                r#"{"action":"find"}"#,
            ])
            .env("TASKLISTS_CACHE_DIR", cache_dir())
            .output()
            .unwrap();
        assert!(!out.status.success());
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(printed.contains("storage"), "{printed}");
        assert!(!printed.contains(SECRET), "{printed}");
    }
}

#[test]
fn another_applications_database_is_refused_untouched() {
    if skip_on_postgres(
        "postgres_store::another_applications_database_is_refused_untouched",
        ON_POSTGRES,
    ) {
        return;
    }
    let Some(admin) = admin() else { return };
    let store = FreshStore::postgres(&admin);
    store.raw_execute("CREATE TABLE notes (body text)", &[]);
    store.raw_execute("INSERT INTO notes VALUES (?1)", &["keep me"]);
    let before = store.dump();
    let mut host = Host::open_lazily(config(store.location.clone())).unwrap();
    let e = host
        .call("task_lists", "create", r#"{"name":"x"}"#, &ctx(A))
        .expect_err("refused");
    assert_eq!(e.code, ErrorCode::Storage, "{e:?}");
    assert!(
        e.message.contains("not a tasklists database") && e.message.contains("notes"),
        "{}",
        e.message
    );
    drop(host);
    assert_eq!(store.dump(), before, "untouched");
}

#[test]
fn a_newer_database_is_refused_untouched() {
    if skip_on_postgres(
        "postgres_store::a_newer_database_is_refused_untouched",
        ON_POSTGRES,
    ) {
        return;
    }
    let Some(admin) = admin() else { return };
    let db = pg_db(&admin);
    let list = db.list("planner", "Future");
    db.add(&list, &["one"]);
    db.store
        .raw_execute("COMMENT ON TABLE tasklists_schema IS '99'", &[]);
    let before = db.dump();
    let e = db.err(A, "task_claims", "claim_next", json!({"list_id": list}));
    expect(&e, ErrorCode::Storage, &["newer", "99"]);
    assert!(e.hint.contains("upgrade"), "{}", e.hint);
    assert_eq!(db.dump(), before, "untouched");
}

#[test]
fn leases_come_from_the_database_servers_clock() {
    if skip_on_postgres(
        "postgres_store::leases_come_from_the_database_servers_clock",
        ON_POSTGRES,
    ) {
        return;
    }
    let Some(admin) = admin() else { return };
    // No injected clock: the host reads the store's clock, the server's.
    let store = FreshStore::postgres(&admin);
    let mut host = Host::open(config(store.location.clone())).unwrap();
    let planner = ctx("planner");
    let list = s(
        &host
            .call("task_lists", "create", r#"{"name":"Clock"}"#, &planner)
            .unwrap()
            .data,
        "/list/id",
    );
    host.call(
        "task_items",
        "create",
        &json!({"list_id": list, "title": "t"}).to_string(),
        &planner,
    )
    .unwrap();
    let server_ms = |conn: &mut postgres::Client| -> i64 {
        conn.query_one(
            "SELECT (extract(epoch from clock_timestamp()) * 1000)::int8",
            &[],
        )
        .unwrap()
        .get(0)
    };
    let mut conn = pg_connect(&admin);
    let before = server_ms(&mut conn);
    let claimed = host
        .call(
            "task_claims",
            "claim_next",
            &json!({"list_id": list, "lease_seconds": 600}).to_string(),
            &ctx(A),
        )
        .unwrap()
        .data;
    let after = server_ms(&mut conn);
    let expires: i64 = pg_connect(&store.spec)
        .query_one("SELECT claim_expires_at FROM tasks", &[])
        .unwrap()
        .get(0);
    assert!(
        expires >= before + 600_000 && expires <= after + 600_000,
        "lease end {expires} not within server time [{before}, {after}] + 600 s ({claimed})"
    );
}

#[test]
fn the_mcp_server_serves_a_postgres_list_another_host_writes() {
    if skip_on_postgres(
        "postgres_store::the_mcp_server_serves_a_postgres_list_another_host_writes",
        ON_POSTGRES,
    ) {
        return;
    }
    let Some(admin) = admin() else { return };
    let db = pg_db(&admin);
    let list = db.list("planner", "Shared over MCP");
    let ids = db.add(&list, &["first", "second"]);
    // The real CLI claims on the same database...
    let out = Command::new(tasklists_binary())
        .args([
            "--db",
            &db.store.spec,
            "--agent-id",
            "cli-agent",
            "call",
            "task_claims",
            &json!({"action": "claim_next", "params": {"list_id": list}}).to_string(),
            "--json",
        ])
        .env("TASKLISTS_CACHE_DIR", cache_dir())
        .output()
        .unwrap();
    let started = Instant::now();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // ...and this host sees the claim (the CLI used the server's clock,
    // this host a manual one: only the claimer is compared).
    let task = db.task("planner", &list, &ids[0]);
    assert_eq!(task["status"], json!("in_progress"), "{task}");
    assert_eq!(task["claimed_by_agent_id"], json!("cli-agent"), "{task}");
    let next = db.claim(A, &list);
    assert_eq!(s(&next, "/task/id"), ids[1]);
    assert!(started.elapsed() < Duration::from_secs(60));
}

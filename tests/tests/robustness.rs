//! The host around the component: traps (injected host faults, timeouts)
//! roll back and the next call works; damaged, foreign or newer database
//! files are refused untouched; data persists across hosts; a locked
//! database is a `storage` error that changes nothing.

use std::fs;
use std::path::Path;
use std::time::Duration;
use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";

/// A deterministic pseudo-random byte stream (no dependency needed).
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

fn sidecars(path: &Path) -> Vec<String> {
    ["-wal", "-shm", "-journal"]
        .iter()
        .map(|s| format!("{}{s}", path.display()))
        .filter(|p| Path::new(p).exists())
        .collect()
}

/// Arms a host fault on the n-th execute (or query), runs `call`, and
/// checks that a trapped call is an `internal` error that changed nothing.
/// Returns true once `n` is past the call's last statement (the call then
/// succeeded and the fault is disarmed).
fn run_with_fault(
    db: &TestDb,
    fault: FaultInjection,
    call: &dyn Fn(&TestDb) -> Result<ToolOutput, ToolError>,
) -> bool {
    let before = db.dump();
    db.host().set_fault_injection(Some(fault));
    let result = call(db);
    // A fault that did not fire stays armed: disarm before anything else.
    db.host().set_fault_injection(None);
    match result {
        Ok(_) => true,
        Err(e) => {
            expect(
                &e,
                ErrorCode::Internal,
                &["injected host fault", "nothing was changed"],
            );
            assert!(!e.hint.is_empty());
            assert_eq!(
                db.dump(),
                before,
                "{fault:?}: the trapped call left changes behind"
            );
            false
        }
    }
}

/// Every statement of several writing calls is, in turn, the one where the
/// host fails: each time the call is an `internal` error, the database is
/// exactly as before, and the next call succeeds on a fresh instance.
#[test]
fn a_host_trap_at_any_statement_rolls_the_call_back() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let seed = db.add(&list, &["seed-1", "seed-2"]);
    let list2 = db.list(A, "Doomed");
    db.add(&list2, &["x", "y"]);

    type Call = Box<dyn Fn(&TestDb) -> Result<ToolOutput, ToolError>>;
    let l = list.clone();
    let l2 = list2.clone();
    let s0 = seed[0].clone();
    let s1 = seed[1].clone();
    let calls: Vec<(&str, Call)> = vec![
        (
            "add_many with refs",
            Box::new(move |db| {
                db.call(&ctx(A), "task_items", "add_many", &json!({"list_id": l, "position": 1, "tasks": [
                    {"ref": "r1", "title": "one"}, {"title": "two", "depends_on": ["r1"]}, {"title": "three", "depends_on": ["r1"]}
                ]}))
            }),
        ),
        ("claim_next", {
            let l = list.clone();
            Box::new(move |db| {
                db.call(&ctx(B), "task_claims", "claim_next", &json!({"list_id": l}))
            })
        }),
        ("update done", {
            Box::new(move |db| {
                db.call(
                    &ctx(B),
                    "task_items",
                    "update",
                    &json!({"task_id": s0, "status": "done", "outcome": "ok", "notes": "n"}),
                )
            })
        }),
        ("reorder", {
            let l = list.clone();
            let s1 = s1.clone();
            Box::new(move |db| {
                db.call(
                    &ctx(A),
                    "task_items",
                    "reorder",
                    &json!({"list_id": l, "task_ids": [s1], "position": 1}),
                )
            })
        }),
        (
            "delete task",
            Box::new(move |db| db.call(&ctx(A), "task_items", "delete", &json!({"task_id": s1}))),
        ),
        (
            "delete list",
            Box::new(move |db| db.call(&ctx(A), "task_lists", "delete", &json!({"list_id": l2}))),
        ),
    ];
    for (name, call) in &calls {
        // On PostgreSQL a claim is one statement that returns rows (a
        // query: the claim and its audit row), its lock sent with it (a
        // `pipeline`, trapped as an execute): the traps go at every query
        // there; at every execute elsewhere.
        let postgres = StoreKind::current().is_postgres();
        let claim_query = postgres && *name == "claim_next";
        let trap: fn(u32) -> FaultInjection = if claim_query {
            FaultInjection::trap_on_query
        } else {
            FaultInjection::trap_on_execute
        };
        let mut fired = 0;
        for n in 1..200 {
            if run_with_fault(&db, trap(n), call.as_ref()) {
                break;
            }
            fired += 1;
            // The next call works at once, on a fresh instance.
            db.ok(A, "task_lists", "find", json!({}));
        }
        // On PostgreSQL a change of one task writes its audit row in the
        // same statement (a data-modifying WITH): one write statement,
        // after the reads that precede it.
        let one_statement = postgres && *name == "update done" || claim_query;
        let least = if one_statement { 1 } else { 2 };
        assert!(
            fired >= least,
            "{name}: expected {least} statement(s) or more, the fault fired {fired} times"
        );
    }
    // The calls did happen, exactly once each.
    let g = db.get(A, &list);
    assert_eq!(g["counts"]["done"], 1);
    assert_eq!(
        g["tasks"].as_array().unwrap().len(),
        4,
        "3 added + seed-1; seed-2 deleted"
    );
    let e = db.err(A, "task_lists", "get", json!({"list_id": list2}));
    expect(&e, ErrorCode::NotFound, &[]);
}

#[test]
fn a_host_trap_on_a_query_rolls_back_too() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    db.add(&list, &["a", "b"]);
    let l = list.clone();
    let call =
        move |db: &TestDb| db.call(&ctx(A), "task_claims", "claim_next", &json!({"list_id": l}));
    let mut fired = 0;
    for n in 1..100 {
        if run_with_fault(&db, FaultInjection::trap_on_query(n), &call) {
            break;
        }
        fired += 1;
    }
    assert!(fired >= 2, "{fired}");
    let g = db.get(B, &list);
    assert_eq!(g["counts"]["in_progress"], 1, "claimed exactly once");
}

#[test]
fn a_fault_armed_in_the_config_fires_once_then_calls_work() {
    let db = TestDb::with_config(|c| c.with_fault_injection(FaultInjection::trap_on_execute(1)));
    // The first call migrates the schema: its first execute traps, and the
    // database stays empty.
    let e = db.err(A, "task_lists", "create", json!({"name": "x"}));
    expect(&e, ErrorCode::Internal, &["injected host fault"]);
    assert_eq!(db.dump(), "user_version=0\n");
    let list = db.list(A, "Work");
    assert_eq!(db.get(A, &list)["list"]["name"], "Work");
}

#[test]
fn a_zero_call_timeout_traps_cleanly_and_the_host_recovers() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let before = db.snapshot(A, &list);
    db.host().set_call_timeout(Duration::ZERO);
    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "never"}),
    );
    expect(&e, ErrorCode::Internal, &["time limit"]);
    assert!(!e.hint.is_empty());
    let e = db.err(A, "task_lists", "find", json!({}));
    expect(&e, ErrorCode::Internal, &[]);
    db.host().set_call_timeout(Duration::from_secs(10));
    assert_eq!(db.snapshot(A, &list), before);
    db.add(&list, &["after"]);
    assert_eq!(db.get(A, &list)["tasks"].as_array().unwrap().len(), 1);
}

#[test]
fn a_zero_call_timeout_from_the_config_fails_every_call_typed() {
    let db = TestDb::with_config(|c| c.with_call_timeout(Duration::ZERO));
    let e = db.err(A, "task_lists", "create", json!({"name": "x"}));
    expect(&e, ErrorCode::Internal, &["time limit"]);
    assert!(db.host().catalogue().is_err());
    db.host().set_call_timeout(Duration::from_secs(10));
    assert_eq!(db.host().catalogue().unwrap().len(), 5);
    db.list(A, "now it works");
}

#[test]
fn a_file_of_random_bytes_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("random.db");
    let bytes = noise(64 * 1024, 0x5eed);
    fs::write(&path, &bytes).unwrap();
    let err = Host::open(config(&path))
        .err()
        .expect("a random file must be refused");
    assert!(
        matches!(err, HostError::Store(OpenError::NotADatabase { .. })),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("random.db") && text.contains("untouched"),
        "{text}"
    );
    assert_eq!(fs::read(&path).unwrap(), bytes, "byte-identical");
    assert!(sidecars(&path).is_empty(), "{:?}", sidecars(&path));
}

#[test]
fn a_text_file_and_a_damaged_header_are_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.md");
    fs::write(&text, "# not a database\n").unwrap();
    let err = Host::open(config(&text)).err().expect("refused");
    assert!(
        matches!(err, HostError::Store(OpenError::NotADatabase { .. })),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&text).unwrap(), "# not a database\n");

    let damaged = dir.path().join("damaged.db");
    let mut bytes = b"SQLite format 3\0".to_vec();
    bytes.extend(noise(8192, 42));
    fs::write(&damaged, &bytes).unwrap();
    let err = Host::open(config(&damaged)).err().expect("refused");
    assert!(
        matches!(err, HostError::Store(OpenError::NotADatabase { .. })),
        "{err}"
    );
    assert_eq!(fs::read(&damaged).unwrap(), bytes);
    assert!(sidecars(&damaged).is_empty(), "{:?}", sidecars(&damaged));
}

/// A real tasklists database whose data pages were overwritten: either the
/// host refuses to open it or the calls fail with `storage`; never a
/// success on garbage, never a trap.
#[test]
fn damaged_data_pages_give_a_typed_storage_error() {
    // Pages of a file: an SQLite test whatever the suite's backend.
    let db = TestDb::sqlite();
    let list = db.list(A, "Work");
    let titles: Vec<String> = (0..400)
        .map(|i| format!("task number {i} with a reasonably long title"))
        .collect();
    let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
    db.add(&list, &refs);
    // Close the host's connection so the WAL is checkpointed into the file.
    let (dir, path, clock) = db.close();
    let mut bytes = fs::read(&path).unwrap();
    assert!(
        sidecars(&path).is_empty(),
        "the WAL was not checkpointed: {:?}",
        sidecars(&path)
    );
    let page = 4096;
    assert!(bytes.len() > 8 * page, "{} bytes", bytes.len());
    let garbage = noise(bytes.len() - 2 * page, 7);
    bytes[2 * page..].copy_from_slice(&garbage);
    fs::write(&path, &bytes).unwrap();

    match Host::open(config(&path).with_clock(clock.shared())) {
        Err(e) => assert!(
            matches!(
                e,
                HostError::Store(OpenError::NotADatabase { .. })
                    | HostError::Store(OpenError::Database { .. })
            ),
            "{e}"
        ),
        Ok(mut host) => {
            eprintln!("damaged database opened; calls must fail with storage");
            for (tool, action, params) in [
                ("task_lists", "get", json!({"list_id": list})),
                (
                    "task_items",
                    "create",
                    json!({"list_id": list, "title": "x"}),
                ),
            ] {
                let e = host
                    .call(tool, action, &params.to_string(), &ctx(A))
                    .err()
                    .unwrap_or_else(|| panic!("{tool} {action} succeeded on a damaged database"));
                expect(&e, ErrorCode::Storage, &[]);
                assert!(!e.hint.is_empty(), "{}", e.message);
            }
        }
    }
    drop(dir);
}

fn newer_database(path: &Path, wal: bool) -> Vec<u8> {
    let conn = rusqlite::Connection::open(path).unwrap();
    if wal {
        let mode: String = conn
            .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }
    conn.execute_batch(
        "CREATE TABLE lists (id TEXT PRIMARY KEY, future_column BLOB);
         INSERT INTO lists VALUES ('list_from_the_future', x'00ff');
         PRAGMA user_version = 99;",
    )
    .unwrap();
    drop(conn);
    fs::read(path).unwrap()
}

fn assert_still_newer(path: &Path) {
    let conn = rusqlite::Connection::open(path).unwrap();
    let v: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, 99);
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(tables, ["lists"], "no table was added or dropped");
    let id: String = conn
        .query_row("SELECT id FROM lists", [], |r| r.get(0))
        .unwrap();
    assert_eq!(id, "list_from_the_future");
}

fn refuse_newer(path: &Path) {
    let mut host = Host::open(config(path)).expect("the file is a valid SQLite database");
    for (tool, action, params) in [
        ("task_lists", "find", json!({})),
        ("task_lists", "create", json!({"name": "x"})),
        ("task_claims", "release_expired", json!({})),
    ] {
        let e = host
            .call(tool, action, &params.to_string(), &ctx(A))
            .unwrap_err();
        expect(&e, ErrorCode::Storage, &["99", "newer"]);
        assert!(e.hint.contains("upgrade"), "{}", e.hint);
    }
    // Help does not touch the store.
    host.call("task_help", "workflow", "", &ctx(A)).unwrap();
}

#[test]
fn a_newer_schema_is_refused_and_left_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("future.db");
    let bytes = newer_database(&path, true);
    refuse_newer(&path);
    assert_eq!(fs::read(&path).unwrap(), bytes, "byte-identical");
    assert_still_newer(&path);
}

/// The same with a database in SQLite's default rollback-journal mode: the
/// host must not convert it (to WAL) before the component has refused it.
#[test]
fn a_newer_rollback_journal_database_is_left_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("future-rollback.db");
    let bytes = newer_database(&path, false);
    refuse_newer(&path);
    assert_still_newer(&path);
    let after = fs::read(&path).unwrap();
    let changed: Vec<usize> = bytes
        .iter()
        .zip(&after)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| i)
        .collect();
    assert!(
        after.len() == bytes.len() && changed.is_empty(),
        "the refused database was modified: {} -> {} bytes, changed header offsets {:?} (18/19 = journal mode switched to WAL)",
        bytes.len(),
        after.len(),
        &changed[..changed.len().min(16)]
    );
}

#[test]
fn data_persists_across_host_instances() {
    let db = TestDb::new();
    let list = db.list(A, "Durable");
    let ids = db.add(&list, &["a", "b"]);
    let c = db.claim(A, &list);
    db.update(
        A,
        json!({"task_id": ids[0], "notes": "context to remember"}),
    );
    let before = db.snapshot(A, &list);
    db.reopen();
    assert_eq!(db.snapshot(A, &list), before);
    // The agent that lost its context gets its task back, notes included.
    let again = db.claim(A, &list);
    assert_eq!(again["resumed"], true);
    assert_eq!(again["claim"]["token"], c["claim"]["token"]);
    assert_eq!(again["task"]["notes"], "context to remember");
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[1]);
}

#[test]
fn two_hosts_on_one_file_see_each_others_writes() {
    let db = TestDb::new();
    let list = db.list(A, "Shared");
    let mut other = db.open_another();
    let out = other
        .call(
            "task_items",
            "create",
            &json!({"list_id": list, "title": "from the other host"}).to_string(),
            &ctx(B),
        )
        .unwrap();
    let id = s(&out.data, "/task/id");
    assert_eq!(
        strs(&db.get(A, &list), "/tasks", "id"),
        std::slice::from_ref(&id)
    );
    let c = db.claim(A, &list);
    assert_eq!(s(&c, "/task/id"), id);
    let got = other
        .call(
            "task_claims",
            "claim_next",
            &json!({"list_id": list}).to_string(),
            &ctx(B),
        )
        .unwrap();
    assert_eq!(
        got.data["task"],
        Value::Null,
        "the other host sees the claim"
    );
}

#[test]
fn a_locked_database_is_a_storage_error_that_changes_nothing() {
    let db = TestDb::with_config(|c| c.with_busy_timeout(Duration::from_millis(200)));
    let list = db.list(A, "Work");
    let before = db.snapshot(A, &list);
    let locker = db.store.hold_write_lock();
    let started = std::time::Instant::now();
    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "blocked"}),
    );
    let waited = started.elapsed();
    expect(&e, ErrorCode::Storage, &["nothing was changed"]);
    assert!(e.hint.contains("retry"), "{}", e.hint);
    assert!(
        waited >= Duration::from_millis(150) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    // Readers are not blocked by a writer (WAL; snapshots on PostgreSQL).
    db.get(B, &list);
    drop(locker);
    assert_eq!(db.snapshot(A, &list), before);
    db.add(&list, &["now"]);
}

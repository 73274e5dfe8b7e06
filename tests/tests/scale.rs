//! Lists that grew: 100,000 tasks in one dependency chain, 260 tasks with
//! 64 KiB notes, hundreds of expired claims. Every call still answers
//! within the component's default limits (64 MiB of memory, 10 s), with a
//! bounded result, through the real component.

use std::path::PathBuf;
use std::sync::OnceLock;
use tasklists_tests::*;

/// Why the tests on the chain fixture skip themselves on PostgreSQL.
const ON_POSTGRES: &str =
    "the 100,000-task fixture is an SQLite file, copied per test: it ran in the SQLite pass";

/// Tasks in the chain fixture.
const CHAIN: usize = 100_000;
/// The contract's bound on one result's text.
const MIB: usize = 1 << 20;

/// The chain fixture: one list of [`CHAIN`] tasks where task `i` depends
/// on task `i - 1`, built once per test process through `add_many`
/// (batches of 500) and copied for each test.
struct Chain {
    /// Keeps the fixture's directory alive.
    _dir: FreshStore,
    path: PathBuf,
    list: String,
    /// The task ids in position order.
    ids: Vec<String>,
}

fn chain() -> &'static Chain {
    static FIXTURE: OnceLock<Chain> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let db = TestDb::sqlite();
        let list = db.list("planner", "Long chain");
        let mut ids: Vec<String> = Vec::with_capacity(CHAIN);
        for batch in 0..CHAIN / 500 {
            let tasks: Vec<Value> = (0..500)
                .map(|i| {
                    let n = batch * 500 + i;
                    let mut t = json!({"ref": format!("r{i}"), "title": format!("step {n}")});
                    if i > 0 {
                        t["depends_on"] = json!([format!("r{}", i - 1)]);
                    } else if let Some(last) = ids.last() {
                        t["depends_on"] = json!([last]);
                    }
                    t
                })
                .collect();
            let d = db.ok(
                "planner",
                "task_items",
                "add_many",
                json!({"list_id": list, "tasks": tasks}),
            );
            ids.extend(strs(&d, "/tasks", "id"));
        }
        let (dir, path, _) = db.close();
        Chain {
            _dir: dir,
            path,
            list,
            ids,
        }
    })
}

/// A fresh copy of the chain fixture, its list id and task ids.
fn chain_db() -> (TestDb, &'static str, &'static [String]) {
    let c = chain();
    (TestDb::copy_of(&c.path, T0), &c.list, &c.ids)
}

/// The contract's text of a result: summary, newline, JSON.
fn text_len(out: &ToolOutput) -> usize {
    out.to_content_text().len()
}

#[test]
fn a_100000_task_chain_is_checked_for_cycles_without_recursion() {
    let _cores = whole_machine();
    if skip_on_postgres(
        "scale::a_100000_task_chain_is_checked_for_cycles_without_recursion",
        ON_POSTGRES,
    ) {
        return;
    }
    let (db, list, ids) = chain_db();
    let last = &ids[CHAIN - 1];
    // A legitimate dependency whose check walks the whole chain.
    let extra = db.add(list, &["after everything"]);
    let d = db.update(
        "planner",
        json!({"task_id": extra[0], "depends_on": [last]}),
    );
    assert_eq!(d["task"]["depends_on"], json!([last]));

    // The head depending on the tail closes a cycle of 100,000 tasks: it
    // is refused as a cycle, named by its two ends, and changes nothing.
    let before = db.dump();
    let e = db.err(
        "planner",
        "task_items",
        "update",
        json!({"task_id": ids[0], "depends_on": [last]}),
    );
    expect(
        &e,
        ErrorCode::Cycle,
        &[&ids[0], last, &ids[CHAIN - 2], "more"],
    );
    assert!(e.message.len() < 1000, "{}", e.message);
    assert_eq!(db.dump(), before);
}

#[test]
fn get_pages_through_100000_tasks_with_counts_for_the_whole_list() {
    let _cores = whole_machine();
    if skip_on_postgres(
        "scale::get_pages_through_100000_tasks_with_counts_for_the_whole_list",
        ON_POSTGRES,
    ) {
        return;
    }
    let (db, list, ids) = chain_db();
    // Only the head is ready; one agent holds it.
    db.claim("builder-1", list);
    let out = db.out("reader", "task_lists", "get", json!({"list_id": list}));
    assert_eq!(out.data["counts"]["todo"], CHAIN as i64 - 1);
    assert_eq!(out.data["counts"]["in_progress"], 1);
    let tasks = out.data["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 100, "the default page");
    assert_eq!(tasks[0]["id"], ids[0]);
    assert_eq!(tasks[99]["id"], ids[99]);
    assert!(tasks[0].get("list_id").is_none(), "the list gives it");
    assert!(
        out.summary
            .contains("100 tasks shown (more: pass next_cursor)"),
        "{}",
        out.summary
    );
    // The second page starts right after the first.
    let cursor = s(&out.data, "/next_cursor");
    let next = db.ok(
        "reader",
        "task_lists",
        "get",
        json!({"list_id": list, "cursor": cursor, "limit": 500}),
    );
    assert_eq!(next["tasks"][0]["id"], ids[100]);
    assert_eq!(next["tasks"][499]["id"], ids[599]);
    // The status filter pages too.
    let todo = db.ok(
        "reader",
        "task_lists",
        "get",
        json!({"list_id": list, "status": "in_progress"}),
    );
    assert_eq!(strs(&todo, "/tasks", "id"), [ids[0].clone()]);
    assert!(todo["next_cursor"].is_null());
    // The last page says so.
    let every = db.all_tasks("reader", list, json!({}));
    assert_eq!(every.len(), CHAIN);
    assert_eq!(every[CHAIN - 1]["id"], ids[CHAIN - 1]);
    assert!(text_len(&out) < MIB);
}

#[test]
fn nothing_ready_in_a_100000_task_list_says_why() {
    let _cores = whole_machine();
    if skip_on_postgres(
        "scale::nothing_ready_in_a_100000_task_list_says_why",
        ON_POSTGRES,
    ) {
        return;
    }
    let (db, list, _) = chain_db();
    db.claim("builder-1", list);
    let d = db.claim("builder-2", list);
    assert_eq!(d["task"], Value::Null);
    assert_eq!(
        d["waiting"],
        json!({"claimed_by_others": 1, "waiting_on_dependencies": CHAIN - 1, "assigned_to_others": 0, "blocked": 0})
    );
}

#[test]
fn reorder_in_a_100000_task_list() {
    let _cores = whole_machine();
    if skip_on_postgres("scale::reorder_in_a_100000_task_list", ON_POSTGRES) {
        return;
    }
    let (db, list, ids) = chain_db();
    // The last task to the top: every other task shifts by one.
    let d = db.ok(
        "planner",
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[CHAIN - 1]]}),
    );
    assert_eq!(
        d,
        json!({"tasks": [{"id": ids[CHAIN - 1], "position": 1}], "shifted": CHAIN - 1})
    );
    // 10,000 tasks from the head, reversed, after the first 50,000 others.
    let moved: Vec<String> = ids[..10_000].iter().rev().cloned().collect();
    let out = db.out(
        "planner",
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": moved, "position": 50_001}),
    );
    assert_eq!(
        out.data["tasks"][0],
        json!({"id": ids[9_999], "position": 50_001})
    );
    assert_eq!(
        out.data["tasks"][9_999],
        json!({"id": ids[0], "position": 60_000})
    );
    assert!(text_len(&out) < MIB);
    let order = db.order(list);
    let mut want: Vec<String> = vec![ids[CHAIN - 1].clone()];
    want.extend(ids[10_000..CHAIN - 1].iter().cloned());
    want.splice(50_000..50_000, moved);
    assert_eq!(order.len(), CHAIN);
    assert!(order == want, "the order after both moves");
}

#[test]
fn deleting_a_100000_task_list_audits_every_task() {
    let _cores = whole_machine();
    if skip_on_postgres(
        "scale::deleting_a_100000_task_list_audits_every_task",
        ON_POSTGRES,
    ) {
        return;
    }
    let (db, list, _) = chain_db();
    let d = db.ok("planner", "task_lists", "delete", json!({"list_id": list}));
    assert_eq!(d["deleted_tasks"], CHAIN as i64);
    let conn = rusqlite::Connection::open(&db.path).unwrap();
    let deleted: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM events WHERE kind = 'deleted' AND task_id IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(deleted, CHAIN as i64);
    let live: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM tasks WHERE deleted_at IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(live, 0);
}

#[test]
fn long_notes_page_by_size_and_every_task_stays_reachable() {
    let _cores = whole_machine();
    let db = TestDb::new();
    let list = db.list("planner", "Wordy");
    // 260 tasks, each with 64 KiB of notes (the field's limit): 16 MiB in all.
    let notes = "n".repeat(65_536);
    let tasks: Vec<Value> = (0..260)
        .map(|i| json!({"title": format!("task {i}"), "notes": notes}))
        .collect();
    db.add_tasks(&list, &tasks);
    let pages = db.pages(
        "reader",
        "task_lists",
        "get",
        json!({"list_id": list, "status": ["todo"], "limit": 500}),
    );
    let mut seen = 0;
    for out in &pages {
        let n = out.data["tasks"].as_array().unwrap().len();
        assert!(n >= 1);
        assert!(text_len(out) < MIB, "page of {} bytes", text_len(out));
        assert_eq!(
            out.data["tasks"][0]["notes"].as_str().unwrap().len(),
            65_536
        );
        seen += n;
    }
    let pages = pages.len();
    assert_eq!(seen, 260);
    assert!(pages >= 60, "{pages} pages of at most ~256 KiB");
}

#[test]
fn release_expired_releases_at_most_500_a_call_and_says_what_is_left() {
    let _cores = whole_machine();
    let db = TestDb::new();
    let list = db.list("planner", "Many agents");
    let tasks: Vec<Value> = (0..600)
        .map(|i| json!({"title": format!("task {i}")}))
        .collect();
    db.add_tasks(&list, &tasks);
    for i in 0..600 {
        db.claim_lease(&format!("agent-{i}"), &list, 30);
    }
    db.advance(31);
    let out = db.out("sweeper", "task_claims", "release_expired", json!({}));
    assert_eq!(out.data["released"].as_array().unwrap().len(), 500);
    assert_eq!(out.data["remaining"], 100);
    assert!(
        out.summary.contains("(490 more)") && out.summary.contains("100 more expired"),
        "{}",
        out.summary
    );
    assert!(out.summary.len() < 1000, "{}", out.summary);
    let again = db.ok("sweeper", "task_claims", "release_expired", json!({}));
    assert_eq!(again["released"].as_array().unwrap().len(), 100);
    assert_eq!(again["remaining"], 0);
    let g = db.get("reader", &list);
    assert_eq!(g["counts"]["todo"], 600);
    assert_eq!(
        db.events_with("reader", json!({"list_id": list, "kinds": "released"}))
            .len(),
        600
    );
}

#[test]
fn audit_pages_stay_bounded_even_with_large_old_events() {
    let _cores = whole_machine();
    // Before reorder events were capped, one listed every id it moved:
    // 10,000 ids are 320 KiB of data. 300 of them in the log.
    let db = TestDb::new();
    let list = db.list("planner", "Old log");
    let ids: Vec<String> = (0..10_000).map(|i| format!("task_{i:026}")).collect();
    let data = json!({"task_ids": ids, "position": 1}).to_string();
    // Written raw, on the suite's store (SQLite or PostgreSQL).
    for i in 0..300 {
        db.store.raw_execute(
            &format!(
                "INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) VALUES (?1, {}, 'old', 'reordered', ?2, NULL, ?3)",
                T0 + i
            ),
            &[&format!("evt_{i:026}"), &list, &data],
        );
    }
    let pages = db.pages(
        "reader",
        "task_audit",
        "get",
        json!({"list_id": list, "limit": 200, "kinds": "reordered"}),
    );
    for out in &pages {
        assert!(text_len(out) < MIB, "{} bytes", text_len(out));
    }
    let seen: usize = pages
        .iter()
        .map(|p| p.data["events"].as_array().unwrap().len())
        .sum();
    assert_eq!(seen, 300);
}

#[test]
fn tasks_with_their_texts_at_the_limit_page_one_at_a_time() {
    let _cores = whole_machine();
    // 64K characters of 4-byte emoji in each of the three long texts:
    // 768 KiB of UTF-8 a task, 45 MiB for 60 of them, more than the
    // component could hold twice if a page read them in one go.
    let db = TestDb::new();
    let list = db.list("planner", "Heavy");
    let text = "😀".repeat(65_536);
    let tasks: Vec<Value> = (0..60)
        .map(|i| json!({"title": format!("heavy {i}"), "description": text, "notes": text}))
        .collect();
    let ids = db.add_tasks(&list, &tasks);
    for id in &ids {
        db.update("planner", json!({"task_id": id, "outcome": text}));
    }
    let pages = db.pages(
        "reader",
        "task_lists",
        "get",
        json!({"list_id": list, "include_times": true, "limit": 500}),
    );
    for out in &pages {
        // One task always fits in a result (768 KiB of texts at most).
        assert!(text_len(out) < MIB, "{} bytes", text_len(out));
        assert_eq!(out.data["tasks"].as_array().unwrap().len(), 1);
    }
    let seen = pages.len();
    assert_eq!(seen, 60);
}

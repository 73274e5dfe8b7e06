//! `task_audit get`: every change recorded in its own transaction, newest
//! first, with kinds / since / task / limit / cursor filters; failed calls
//! and reads leave no event.

use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";
const C: &str = "builder-3";

/// One expected event: kind, agent, task index (None for list events),
/// seconds after T0.
type Expected = (&'static str, &'static str, Option<usize>, i64);

/// Runs a whole life cycle, one step per second; returns the list id, the
/// task ids, and the expected events newest first as (kind, agent, task
/// index or None for list events, seconds after T0).
fn life_cycle(db: &TestDb) -> (String, Vec<String>, Vec<Expected>) {
    let list = db.list(A, "Audited"); // t=0
    db.advance(1);
    let ids = db.add(&list, &["t1", "t2", "t3"]); // t=1
    db.advance(1);
    db.update(A, json!({"task_id": ids[2], "notes": "first"})); // t=2
    db.advance(1);
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[2]], "position": 1}),
    ); // t=3
    db.advance(1);
    db.claim(A, &list); // t=4, t3
    db.advance(1);
    db.ok(A, "task_claims", "refresh", json!({"task_id": ids[2]})); // t=5
    db.advance(1);
    db.update(
        A,
        json!({"task_id": ids[2], "status": "done", "outcome": "ok"}),
    ); // t=6
    db.advance(1);
    db.claim_lease(B, &list, 30); // t=7, t1
    db.advance(31);
    db.claim_lease(C, &list, 30); // t=38, takes t1
    db.advance(31);
    db.ok(
        A,
        "task_claims",
        "release_expired",
        json!({"list_id": list}),
    ); // t=69, t1
    db.advance(1);
    db.ok(A, "task_items", "delete", json!({"task_id": ids[1]})); // t=70
    db.advance(1);
    db.ok(A, "task_lists", "delete", json!({"list_id": list})); // t=71
    let expected = vec![
        ("deleted", A, None, 71),
        // Deleting the list records each active task it deletes.
        ("deleted", A, Some(0), 71),
        ("deleted", A, Some(1), 70),
        ("released", A, Some(0), 69),
        ("claimed", C, Some(0), 38),
        ("expired", C, Some(0), 38),
        ("claimed", B, Some(0), 7),
        // One event per change: the close names the outcome it set.
        ("status_changed", A, Some(2), 6),
        ("refreshed", A, Some(2), 5),
        ("claimed", A, Some(2), 4),
        ("reordered", A, None, 3),
        ("updated", A, Some(2), 2),
        ("created", "planner", Some(2), 1),
        ("created", "planner", Some(1), 1),
        ("created", "planner", Some(0), 1),
        ("created", A, None, 0),
    ];
    (list, ids, expected)
}

#[test]
fn every_change_is_recorded_newest_first() {
    let db = TestDb::new();
    let (list, ids, expected) = life_cycle(&db);
    let events = db.events(B, &list);
    assert_eq!(events.len(), expected.len(), "{:#?}", kinds(&events));
    let mut seqs = std::collections::HashSet::new();
    for (e, (kind, agent, task, secs)) in events.iter().zip(&expected) {
        let what = format!("{kind} at +{secs}s: {e}");
        assert_eq!(e["kind"], *kind, "{what}");
        assert_eq!(e["agent_id"], *agent, "{what}");
        assert_eq!(e["list_id"], list.as_str(), "{what}");
        match task {
            Some(i) => assert_eq!(e["task_id"], ids[*i].as_str(), "{what}"),
            None => assert_eq!(e["task_id"], Value::Null, "{what}"),
        }
        assert_eq!(e["at"], fmt_ms(T0 + secs * 1000), "{what}");
        assert!(e["data"].is_object(), "{what}");
        assert!(s(e, "/id").starts_with("evt_"), "{what}");
        assert!(seqs.insert(s(e, "/id")));
    }
    // A few payloads worth checking.
    assert_eq!(
        events[7]["data"],
        json!({"from": "in_progress", "to": "done", "fields": ["outcome"]})
    );
    assert_eq!(events[5]["data"]["claimed_by"], B);
    assert_eq!(events[3]["data"]["claimed_by"], C);
    assert_eq!(events[0]["data"]["deleted_tasks"], 1);
    assert_eq!(events[1]["data"]["title"], "t1");
    assert_eq!(events[12]["data"]["title"], "t3");
    assert_eq!(events[11]["data"]["fields"], json!(["notes"]));
}

#[test]
fn events_filter_by_kind_since_and_task() {
    let db = TestDb::new();
    let (list, ids, expected) = life_cycle(&db);
    let only = |p: Value| {
        let mut p = p;
        p["list_id"] = json!(list);
        kinds(&db.events_with(C, p))
    };
    assert_eq!(
        only(json!({"kinds": "claimed"})),
        ["claimed", "claimed", "claimed"]
    );
    assert_eq!(
        only(json!({"kinds": ["expired", "released"]})),
        ["released", "expired"]
    );
    assert_eq!(
        only(json!({"kinds": ["private_bypass"]})),
        Vec::<String>::new()
    );
    // `since` is inclusive.
    let since = fmt_ms(T0 + 38_000);
    assert_eq!(
        only(json!({"since": since})),
        [
            "deleted", "deleted", "deleted", "released", "claimed", "expired"
        ]
    );
    assert_eq!(
        only(json!({"since": "2026-11-30T13:00:38.000+01:00", "kinds": "claimed"})),
        ["claimed"],
        "any offset is accepted"
    );
    let t1 = db.events_with(C, json!({"task_id": ids[0]}));
    assert_eq!(
        kinds(&t1),
        [
            "deleted", "released", "claimed", "expired", "claimed", "created"
        ]
    );
    assert!(t1.iter().all(|e| e["task_id"] == ids[0].as_str()));
    let t3 = db.events_with(
        C,
        json!({"task_id": ids[2], "list_id": list, "kinds": ["updated"]}),
    );
    // The notes update; the close is one `status_changed` event.
    assert_eq!(t3.len(), 1);
    // A task of another list than the given one is refused.
    let other = db.list(A, "Other");
    let e = db.err(
        C,
        "task_audit",
        "get",
        json!({"task_id": ids[0], "list_id": other}),
    );
    expect(&e, ErrorCode::InvalidParams, &[&ids[0], &other]);
    assert_eq!(expected.len(), db.events(C, &list).len());
}

#[test]
fn events_page_with_limit_and_cursor() {
    let db = TestDb::new();
    let (list, _, expected) = life_cycle(&db);
    let all = db.events(B, &list);
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut p = json!({"list_id": list, "limit": 5});
        if let Some(c) = &cursor {
            p["cursor"] = json!(c);
        }
        let d = db.ok(B, "task_audit", "get", p);
        let events = d["events"].as_array().unwrap();
        assert!(events.len() <= 5);
        paged.extend(events.iter().cloned());
        pages += 1;
        match d["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(pages, expected.len().div_ceil(5));
    assert_eq!(paged, all, "pages concatenate to the whole log, in order");
    // Default page size is 50: the whole (short) log in one page.
    let d = db.ok(B, "task_audit", "get", json!({"list_id": list}));
    assert_eq!(d["events"].as_array().unwrap().len(), expected.len());
    assert_eq!(d["next_cursor"], Value::Null);
    // Cursor and filters combine.
    let d = db.ok(
        B,
        "task_audit",
        "get",
        json!({"list_id": list, "kinds": "claimed", "limit": 2}),
    );
    let d2 = db.ok(
        B,
        "task_audit",
        "get",
        json!({"list_id": list, "kinds": "claimed", "limit": 2, "cursor": s(&d, "/next_cursor")}),
    );
    assert_eq!(d2["events"].as_array().unwrap().len(), 1);
    assert_eq!(d2["events"][0]["agent_id"], A);
    assert_eq!(d2["next_cursor"], Value::Null);
}

#[test]
fn failed_calls_and_reads_leave_no_event() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b"]);
    db.claim(A, &list);
    let before = db.events(A, &list);
    // Failures of every kind.
    db.err(
        B,
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "x"}),
    );
    db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done"}),
    );
    db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[1], "depends_on": [ids[1]]}),
    );
    db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "x", "position": 9}),
    );
    db.err(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[0]], "before_task_id": ids[0]}),
    );
    db.err(B, "task_claims", "refresh", json!({"task_id": ids[0]}));
    db.err(B, "task_items", "delete", json!({"task_id": ids[0]}));
    db.err_ctx(
        &anon(),
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    // Reads.
    db.ok(B, "task_lists", "find", json!({}));
    db.ok(B, "task_lists", "get", json!({"list_id": list}));
    db.ok(B, "task_audit", "get", json!({"list_id": list}));
    db.ok(B, "task_help", "all", Value::Null);
    db.ok(A, "task_claims", "release_expired", json!({}));
    // A no-op update is not a change.
    db.update(B, json!({"task_id": ids[1], "title": "b"}));
    assert_eq!(db.events(A, &list), before);
}

#[test]
fn the_log_of_deleted_tasks_and_lists_stays_readable() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a"]);
    db.ok(A, "task_items", "delete", json!({"task_id": ids[0]}));
    let t = db.events_with(B, json!({"task_id": ids[0]}));
    assert_eq!(kinds(&t), ["deleted", "created"]);
    db.ok(A, "task_lists", "delete", json!({"list_id": list}));
    let l = db.events(B, &list);
    assert_eq!(kinds(&l), ["deleted", "deleted", "created", "created"]);
}

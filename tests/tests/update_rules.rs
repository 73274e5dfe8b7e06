//! `task_items update`: status transitions, outcomes, claims ending,
//! blocked/todo assignment rules, lease renewal, conflicts, reopening.

use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";
const C: &str = "builder-3";

fn setup(titles: &[&str]) -> (TestDb, String, Vec<String>) {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, titles);
    (db, list, ids)
}

#[test]
fn in_progress_is_refused_with_a_claim_next_hint() {
    let (db, list, ids) = setup(&["a"]);
    db.claim(A, &list);
    let before = db.snapshot(A, &list);
    // Even the holder cannot set it (it already is), nor anyone on a todo task.
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "in_progress", "notes": "x"}),
    );
    expect(&e, ErrorCode::Conflict, &["in_progress"]);
    assert!(e.hint.contains("claim_next"), "{}", e.hint);
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn done_and_canceled_need_a_non_empty_outcome() {
    let (db, list, ids) = setup(&["a", "b"]);
    db.claim(A, &list);
    let before = db.snapshot(A, &list);
    for status in ["done", "canceled"] {
        for outcome in [None, Some(""), Some("   "), Some("\n\t ")] {
            let mut p =
                json!({"task_id": ids[0], "status": status, "notes": "should not be saved"});
            if let Some(o) = outcome {
                p["outcome"] = json!(o);
            }
            let e = db.err(A, "task_items", "update", p);
            expect(&e, ErrorCode::OutcomeRequired, &[&ids[0], status]);
            assert!(e.hint.contains("outcome"), "{}", e.hint);
        }
    }
    // A todo task too: the rule is about closing, not about claims.
    let e = db.err(
        B,
        "task_items",
        "update",
        json!({"task_id": ids[1], "status": "canceled"}),
    );
    expect(&e, ErrorCode::OutcomeRequired, &[&ids[1]]);
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn closing_sets_completed_at_and_ends_the_claim() {
    let (db, list, ids) = setup(&["a", "b", "c"]);
    db.claim(A, &list);
    db.advance(30);
    let out = db.out(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "outcome": "Parser merged; 12 tests"}),
    );
    let t = &out.data["task"];
    assert_eq!(t["status"], "done");
    assert_eq!(t["outcome"], "Parser merged; 12 tests");
    assert_eq!(t["completed_at"], db.now());
    assert_eq!(t["updated_at"], db.now());
    for gone in ["claimed_by_agent_id", "claim_expires_at"] {
        assert!(t.get(gone).is_none(), "{gone} must be cleared: {t}");
    }
    assert!(
        out.summary.contains(&ids[0]) && out.summary.contains("done"),
        "{}",
        out.summary
    );
    // The claim is over: claim_next hands out the next task, not a resume.
    let next = db.claim(A, &list);
    assert_eq!(s(&next, "/task/id"), ids[1]);
    assert!(next.get("resumed").is_none());
    db.advance(5);
    let d = db.update(
        A,
        json!({"task_id": ids[1], "status": "canceled", "outcome": "duplicate of a"}),
    );
    assert_eq!(d["task"]["status"], "canceled");
    assert_eq!(d["task"]["completed_at"], db.now());
    // Closing a task nobody holds works too.
    let d = db.update(
        B,
        json!({"task_id": ids[2], "status": "canceled", "outcome": "out of scope"}),
    );
    assert_eq!(d["task"]["completed_at"], db.now());
    let events = db.events(A, &list);
    let changes: Vec<&Value> = events
        .iter()
        .filter(|e| e["kind"] == "status_changed")
        .map(|e| &e["data"])
        .collect();
    // One event per close: the status change names the outcome it set.
    let closed = |from: &str, to: &str| json!({"from": from, "to": to, "fields": ["outcome"]});
    assert_eq!(changes[0], &closed("todo", "canceled"));
    assert_eq!(changes[1], &closed("in_progress", "canceled"));
    assert_eq!(changes[2], &closed("in_progress", "done"));
}

#[test]
fn blocked_keeps_the_task_assigned_to_whoever_paused_it() {
    let (db, list, ids) = setup(&["a", "b"]);
    db.claim(A, &list);
    let d = db.update(
        A,
        json!({"task_id": ids[0], "status": "blocked", "notes": "waiting for the user"}),
    );
    let t = &d["task"];
    assert_eq!(t["status"], "blocked");
    assert_eq!(t["assigned_to_agent_id"], A);
    assert!(
        t.get("claimed_by_agent_id").is_none(),
        "blocked ends the claim: {t}"
    );
    assert!(t.get("completed_at").is_none());
    // Back to todo: still A's.
    db.update(A, json!({"task_id": ids[0], "status": "todo"}));
    assert_eq!(db.task(A, &list, &ids[0])["assigned_to_agent_id"], A);
    assert_eq!(
        s(&db.claim(B, &list), "/task/id"),
        ids[1],
        "B skips A's paused task"
    );
    db.update(
        B,
        json!({"task_id": ids[1], "status": "done", "outcome": "ok"}),
    );
    let w = db.claim(B, &list);
    assert_eq!(w["task"], Value::Null);
    assert_eq!(w["waiting"]["assigned_to_others"], 1);
    assert_eq!(s(&db.claim(A, &list), "/task/id"), ids[0]);
}

#[test]
fn blocking_an_unclaimed_task_assigns_it_to_the_caller() {
    let (db, _list, ids) = setup(&["a"]);
    let d = db.update(B, json!({"task_id": ids[0], "status": "blocked"}));
    assert_eq!(d["task"]["assigned_to_agent_id"], B);
    let d = db.update(
        C,
        json!({"task_id": ids[0], "status": "blocked", "notes": "me too"}),
    );
    // "A paused task stays assigned to whoever paused it unless released or
    // transferred explicitly": pausing it again does not take it.
    assert_eq!(
        d["task"]["assigned_to_agent_id"], B,
        "stays with who paused it"
    );
    assert_eq!(d["task"]["notes"], "me too");
    let d = db.update(
        C,
        json!({"task_id": ids[0], "status": "blocked", "assigned_to_agent_id": C}),
    );
    assert_eq!(
        d["task"]["assigned_to_agent_id"], C,
        "an explicit transfer works"
    );
}

#[test]
fn blocked_with_null_assignment_releases_the_task_to_everyone() {
    let (db, list, ids) = setup(&["a"]);
    db.claim(A, &list);
    let d = db.update(
        A,
        json!({"task_id": ids[0], "status": "blocked", "assigned_to_agent_id": null}),
    );
    assert!(d["task"].get("assigned_to_agent_id").is_none(), "{d}");
    db.update(A, json!({"task_id": ids[0], "status": "todo"}));
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[0]);
}

#[test]
fn blocked_with_another_id_transfers_the_task() {
    let (db, list, ids) = setup(&["a"]);
    db.claim(A, &list);
    let d = db.update(
        A,
        json!({"task_id": ids[0], "status": "blocked", "assigned_to_agent_id": C}),
    );
    assert_eq!(d["task"]["assigned_to_agent_id"], C);
    db.update(A, json!({"task_id": ids[0], "status": "todo"}));
    assert_eq!(
        db.task(B, &list, &ids[0])["assigned_to_agent_id"],
        C,
        "todo keeps the assignment"
    );
    assert_eq!(db.claim(A, &list)["task"], Value::Null, "not A's any more");
    assert_eq!(db.claim(B, &list)["task"], Value::Null);
    assert_eq!(s(&db.claim(C, &list), "/task/id"), ids[0]);
}

#[test]
fn todo_ends_the_claim_and_keeps_the_assignment() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let d = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "for A", "assigned_to_agent_id": A}),
    );
    let id = s(&d, "/task/id");
    let c = db.claim(A, &list);
    assert_eq!(s(&c, "/task/id"), id);
    let d = db.update(
        A,
        json!({"task_id": id, "status": "todo", "notes": "giving it back"}),
    );
    let t = &d["task"];
    assert_eq!(t["status"], "todo");
    assert_eq!(t["assigned_to_agent_id"], A);
    assert!(
        t.get("claimed_by_agent_id").is_none() && t.get("claim_expires_at").is_none(),
        "{t}"
    );
    assert_eq!(
        db.claim(B, &list)["task"],
        Value::Null,
        "still reserved for A"
    );
    // A todo update may change the assignment explicitly.
    db.update(
        A,
        json!({"task_id": id, "status": "todo", "assigned_to_agent_id": B}),
    );
    assert_eq!(s(&db.claim(B, &list), "/task/id"), id);
    // An unassigned task given back stays unassigned.
    let list2 = db.list(A, "Other");
    let free = db.add(&list2, &["free"]).remove(0);
    db.claim(A, &list2);
    let d = db.update(A, json!({"task_id": free, "status": "todo"}));
    assert!(d["task"].get("assigned_to_agent_id").is_none(), "{d}");
}

#[test]
fn assignment_can_be_changed_and_cleared_without_a_status() {
    let (db, list, ids) = setup(&["a"]);
    let d = db.update(A, json!({"task_id": ids[0], "assigned_to_agent_id": C}));
    assert_eq!(d["task"]["assigned_to_agent_id"], C);
    assert_eq!(db.claim(B, &list)["task"], Value::Null);
    let d = db.update(A, json!({"task_id": ids[0], "assigned_to_agent_id": null}));
    assert!(d["task"].get("assigned_to_agent_id").is_none());
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[0]);
}

#[test]
fn an_update_by_the_holder_renews_its_lease() {
    let (db, list, ids) = setup(&["a"]);
    let c = db.claim_lease(A, &list, 60);
    assert_eq!(c["claim"]["expires_at"], fmt_ms(T0 + 60_000));
    db.advance(50);
    let d = db.update(A, json!({"task_id": ids[0], "notes": "still on it"}));
    assert_eq!(
        d["task"]["claim_expires_at"],
        db.now_plus(60),
        "renewed by the claim's lease length"
    );
    assert_eq!(d["task"]["status"], "in_progress");
    db.advance(30); // past the original expiry
    assert_eq!(
        db.claim(B, &list)["task"],
        Value::Null,
        "the renewed lease still holds"
    );
    db.advance(31);
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[0]);
}

#[test]
fn updates_while_another_agent_holds_the_task_are_conflicts() {
    let (db, list, ids) = setup(&["a"]);
    db.claim_lease(A, &list, 300);
    let until = db.now_plus(300);
    let before = db.snapshot(A, &list);
    for p in [
        json!({"task_id": ids[0], "notes": "hijack"}),
        json!({"task_id": ids[0], "title": "renamed"}),
        json!({"task_id": ids[0], "status": "todo"}),
        json!({"task_id": ids[0], "status": "done", "outcome": "stolen"}),
        json!({"task_id": ids[0], "assigned_to_agent_id": B}),
        json!({"task_id": ids[0], "depends_on": []}),
    ] {
        let e = db.err(B, "task_items", "update", p.clone());
        expect(&e, ErrorCode::Conflict, &[&ids[0], A, &until]);
        assert!(e.hint.contains("claim_next"), "{}", e.hint);
    }
    assert_eq!(db.snapshot(A, &list), before);
    // After the lease ran out, the task is fair game again.
    db.advance(300);
    let d = db.update(
        B,
        json!({"task_id": ids[0], "status": "todo", "notes": "A vanished"}),
    );
    assert_eq!(d["task"]["status"], "todo");
    assert!(d["task"].get("claimed_by_agent_id").is_none());
}

#[test]
fn a_closed_task_can_only_be_reopened_as_todo() {
    let (db, list, ids) = setup(&["a"]);
    db.claim(A, &list);
    db.update(
        A,
        json!({"task_id": ids[0], "status": "done", "outcome": "first try"}),
    );
    let before = db.snapshot(A, &list);
    for status in ["blocked", "canceled"] {
        let mut p = json!({"task_id": ids[0], "status": status});
        if status == "canceled" {
            p["outcome"] = json!("changed my mind");
        }
        let e = db.err(A, "task_items", "update", p);
        expect(&e, ErrorCode::Conflict, &[&ids[0], "done", "todo"]);
    }
    assert_eq!(db.snapshot(A, &list), before);
    db.advance(10);
    let d = db.update(
        A,
        json!({"task_id": ids[0], "status": "todo", "notes": "regression found"}),
    );
    assert_eq!(d["task"]["status"], "todo");
    assert!(
        d["task"].get("completed_at").is_none(),
        "reopening clears completed_at: {d}"
    );
    let c = db.claim(B, &list);
    assert_eq!(s(&c, "/task/id"), ids[0]);
    assert_eq!(
        c["task"]["started_at"],
        fmt_ms(T0),
        "started_at stays the first start"
    );
}

#[test]
fn plain_field_updates_are_saved_and_recorded() {
    let (db, list, ids) = setup(&["a"]);
    db.advance(2);
    let out = db.out(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "title": "a, renamed", "description": "longer text", "notes": "memo"}),
    );
    let t = &out.data["task"];
    assert_eq!(t["title"], "a, renamed");
    assert_eq!(t["description"], "longer text");
    assert_eq!(t["notes"], "memo");
    assert_eq!(t["status"], "todo");
    assert_eq!(t["updated_at"], db.now());
    assert_eq!(db.task(B, &list, &ids[0]), *t);
    let events = db.events(A, &list);
    assert_eq!(events[0]["kind"], "updated");
    let mut fields: Vec<String> = events[0]["data"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    fields.sort();
    assert_eq!(fields, ["description", "notes", "title"]);
}

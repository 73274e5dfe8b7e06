//! `task_claims`: claim_next (order, exclusivity, assignment, dependencies,
//! resume, waiting reasons, expiry takeover), refresh, release_expired,
//! lease bounds.

use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";
const C: &str = "builder-3";

#[test]
fn claim_next_takes_the_first_todo_task_by_position() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b", "c"]);
    db.ok(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[2]], "position": 1}),
    );
    db.advance(7);
    let out = db.out(A, "task_claims", "claim_next", json!({"list_id": list}));
    let d = &out.data;
    assert_eq!(
        s(d, "/task/id"),
        ids[2],
        "first by position, not by creation"
    );
    assert_eq!(d["task"]["status"], "in_progress");
    assert_eq!(d["task"]["claimed_by_agent_id"], A);
    assert_eq!(d["task"]["started_at"], db.now());
    assert_eq!(
        d["task"]["claim_expires_at"],
        db.now_plus(900),
        "default lease 900 s"
    );
    assert_eq!(d["claim"]["expires_at"], db.now_plus(900));
    assert!(s(d, "/claim/token").starts_with("claim_"));
    assert!(d.get("resumed").is_none(), "{d}");
    assert!(out.summary.contains(&ids[2]), "{}", out.summary);
    // As stored.
    let t = db.task(B, &list, &ids[2]);
    assert_eq!(t["status"], "in_progress");
    assert_eq!(t["claimed_by_agent_id"], A);
    assert!(
        t.get("claim_token").is_none(),
        "the token is only handed to the claimer: {t}"
    );
}

#[test]
fn two_agents_never_hold_the_same_task() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b"]);
    let a = db.claim(A, &list);
    let b = db.claim(B, &list);
    assert_eq!(s(&a, "/task/id"), ids[0]);
    assert_eq!(s(&b, "/task/id"), ids[1]);
    assert_ne!(s(&a, "/claim/token"), s(&b, "/claim/token"));
    let c = db.claim(C, &list);
    assert_eq!(c["task"], Value::Null);
    assert_eq!(
        c["waiting"],
        json!({"claimed_by_others": 2, "waiting_on_dependencies": 0, "assigned_to_others": 0, "blocked": 0})
    );
    // Several lists: an agent may hold one task in each.
    let other = db.list(A, "Other");
    let o = db.add(&other, &["x"]).remove(0);
    assert_eq!(s(&db.claim(A, &other), "/task/id"), o);
}

#[test]
fn claim_next_again_resumes_the_held_task_with_its_notes() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b"]);
    let first = db.claim_lease(A, &list, 600);
    let token = s(&first, "/claim/token");
    db.advance(100);
    db.update(A, json!({"task_id": ids[0], "notes": "halfway: parser done, next the tests", "claim_token": token}));
    db.advance(100);
    let again = db.out(
        A,
        "task_claims",
        "claim_next",
        json!({"list_id": list, "lease_seconds": 600}),
    );
    let d = &again.data;
    assert_eq!(s(d, "/task/id"), ids[0], "the same task, not a second one");
    assert_eq!(d["resumed"], true);
    assert_eq!(s(d, "/claim/token"), token, "the same token");
    assert_eq!(
        d["claim"]["expires_at"],
        db.now_plus(600),
        "a renewed lease"
    );
    assert_eq!(d["task"]["notes"], "halfway: parser done, next the tests");
    assert_eq!(
        d["task"]["started_at"],
        fmt_ms(T0),
        "started_at is the first start"
    );
    assert!(again.summary.contains("resumed"), "{}", again.summary);
    // Still only one task held: b is free for others.
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[1]);
    let events = db.events(A, &list);
    let resumed = events
        .iter()
        .find(|e| e["kind"] == "claimed" && e["agent_id"] == A)
        .unwrap();
    assert_eq!(resumed["data"]["resumed"], true);
}

#[test]
fn an_expired_claim_nobody_took_is_resumed() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b"]);
    let first = db.claim_lease(A, &list, 30);
    db.advance(45);
    let again = db.claim(A, &list);
    assert_eq!(s(&again, "/task/id"), ids[0]);
    assert_eq!(again["resumed"], true);
    assert_eq!(again["claim"]["token"], first["claim"]["token"]);
    // Renewed by the claim's own lease length (30 s), not the default.
    assert_eq!(again["claim"]["expires_at"], db.now_plus(30));
    // lease_seconds on the retry sets a new length.
    let longer = db.claim_lease(A, &list, 7200);
    assert_eq!(longer["claim"]["expires_at"], db.now_plus(7200));
    let retry = db.claim(A, &list);
    assert_eq!(
        retry["claim"]["expires_at"],
        db.now_plus(7200),
        "a retry keeps a long lease"
    );
}

#[test]
fn assigned_tasks_go_only_to_their_assignee() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "for B", "assigned_to_agent_id": B}, {"title": "anyone"}]}),
    );
    let ids = strs(&d, "/tasks", "id");
    assert_eq!(
        s(&db.claim(A, &list), "/task/id"),
        ids[1],
        "A skips B's task"
    );
    let c = db.claim(C, &list);
    assert_eq!(c["task"], Value::Null);
    assert_eq!(c["waiting"]["assigned_to_others"], 1);
    assert_eq!(c["waiting"]["claimed_by_others"], 1);
    let b = db.claim(B, &list);
    assert_eq!(s(&b, "/task/id"), ids[0]);
    assert_eq!(b["task"]["assigned_to_agent_id"], B);
}

#[test]
fn a_dependent_task_waits_until_its_dependencies_are_closed() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"ref": "one", "title": "one"},
            {"ref": "two", "title": "two"},
            {"title": "after both", "depends_on": ["one", "two"]},
        ]}),
    );
    let ids = strs(&d, "/tasks", "id");
    assert_eq!(s(&db.claim(A, &list), "/task/id"), ids[0]);
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[1]);
    let c = db.claim(C, &list);
    assert_eq!(c["task"], Value::Null);
    assert_eq!(
        c["waiting"],
        json!({"claimed_by_others": 2, "waiting_on_dependencies": 1, "assigned_to_others": 0, "blocked": 0})
    );
    db.update(
        A,
        json!({"task_id": ids[0], "status": "done", "outcome": "ok"}),
    );
    assert_eq!(
        db.claim(C, &list)["task"],
        Value::Null,
        "one dependency is still open"
    );
    db.update(
        B,
        json!({"task_id": ids[1], "status": "canceled", "outcome": "not needed"}),
    );
    assert_eq!(
        s(&db.claim(C, &list), "/task/id"),
        ids[2],
        "canceled counts as closed"
    );
}

#[test]
fn a_blocked_dependency_still_blocks_and_a_deleted_one_does_not() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["dep", "dependent"]);
    db.update(A, json!({"task_id": ids[1], "depends_on": [ids[0]]}));
    db.update(
        A,
        json!({"task_id": ids[0], "status": "blocked", "assigned_to_agent_id": null}),
    );
    let c = db.claim(B, &list);
    assert_eq!(c["task"], Value::Null);
    assert_eq!(c["waiting"]["blocked"], 1);
    assert_eq!(c["waiting"]["waiting_on_dependencies"], 1);
    db.ok(A, "task_items", "delete", json!({"task_id": ids[0]}));
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[1]);
}

#[test]
fn nothing_left_to_do_reports_zero_waiting() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let out = db.out(A, "task_claims", "claim_next", json!({"list_id": list}));
    assert_eq!(out.data["task"], Value::Null);
    assert_eq!(
        out.data["waiting"],
        json!({"claimed_by_others": 0, "waiting_on_dependencies": 0, "assigned_to_others": 0, "blocked": 0})
    );
    assert!(out.summary.contains(&list), "{}", out.summary);
    // Nothing was claimed, so nothing was recorded.
    assert_eq!(kinds(&db.events(A, &list)), ["created"]);
}

#[test]
fn an_expired_lease_lets_another_agent_take_over() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a"]);
    let a = db.claim_lease(A, &list, 60);
    let a_token = s(&a, "/claim/token");
    db.advance(59);
    assert_eq!(db.claim(B, &list)["task"], Value::Null, "not expired yet");
    db.advance(1);
    let b = db.claim(B, &list);
    assert_eq!(
        s(&b, "/task/id"),
        ids[0],
        "expired exactly at claim_expires_at"
    );
    assert_eq!(b["task"]["claimed_by_agent_id"], B);
    assert_ne!(s(&b, "/claim/token"), a_token);
    assert!(b.get("resumed").is_none());
    assert_eq!(
        b["task"]["started_at"],
        fmt_ms(T0),
        "started_at is kept from the first start"
    );
    let events = db.events(C, &list);
    assert_eq!(kinds(&events[..2]), ["claimed", "expired"]);
    assert_eq!(events[1]["agent_id"], B);
    assert_eq!(events[1]["task_id"], ids[0].as_str());
    assert_eq!(events[1]["data"]["claimed_by"], A);
    assert_eq!(events[1]["data"]["expired_at"], fmt_ms(T0 + 60_000));
    // A's claim is lost: its token and its updates are refused.
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "mine", "claim_token": a_token}),
    );
    expect(&e, ErrorCode::Conflict, &[&ids[0]]);
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "outcome": "mine"}),
    );
    expect(&e, ErrorCode::Conflict, &[B]);
    let e = db.err(A, "task_claims", "refresh", json!({"task_id": ids[0]}));
    expect(&e, ErrorCode::Conflict, &[B]);
    // And A does not get it back by claiming again.
    assert_eq!(db.claim(A, &list)["task"], Value::Null);
}

#[test]
fn refresh_extends_the_holders_lease() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a"]);
    let c = db.claim_lease(A, &list, 300);
    let token = s(&c, "/claim/token");
    db.advance(200);
    let out = db.out(
        A,
        "task_claims",
        "refresh",
        json!({"task_id": ids[0], "lease_seconds": 1800, "claim_token": token}),
    );
    assert_eq!(out.data["claim"]["expires_at"], db.now_plus(1800));
    assert_eq!(out.data["claim"]["token"], token.as_str());
    assert_eq!(out.data["task"]["claim_expires_at"], db.now_plus(1800));
    assert!(out.summary.contains(&ids[0]));
    // Without lease_seconds, the claim's own lease length is reused.
    db.advance(1000);
    let d = db.ok(A, "task_claims", "refresh", json!({"task_id": ids[0]}));
    assert_eq!(d["claim"]["expires_at"], db.now_plus(1800));
    // The extended lease holds off B past the original expiry.
    db.advance(1700);
    assert_eq!(db.claim(B, &list)["task"], Value::Null);
    let events = db.events(A, &list);
    assert_eq!(kinds(&events[..2]), ["refreshed", "refreshed"]);
    assert_eq!(events[1]["data"]["lease_seconds"], 1800);
}

#[test]
fn refresh_after_expiry_works_until_someone_takes_over_or_releases() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b"]);
    db.claim_lease(A, &list, 30);
    db.advance(40);
    let d = db.ok(
        A,
        "task_claims",
        "refresh",
        json!({"task_id": ids[0], "lease_seconds": 60}),
    );
    assert_eq!(
        d["claim"]["expires_at"],
        db.now_plus(60),
        "nobody took it: the lease is extended"
    );
    db.advance(61);
    db.ok(
        B,
        "task_claims",
        "release_expired",
        json!({"list_id": list}),
    );
    let e = db.err(A, "task_claims", "refresh", json!({"task_id": ids[0]}));
    expect(&e, ErrorCode::Conflict, &[&ids[0], "todo"]);
}

#[test]
fn refresh_by_anyone_but_the_holder_is_a_conflict() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b"]);
    db.claim(A, &list);
    let before = db.snapshot(A, &list);
    let e = db.err(B, "task_claims", "refresh", json!({"task_id": ids[0]}));
    expect(&e, ErrorCode::Conflict, &[&ids[0], A]);
    assert!(e.hint.contains("claim_next"), "{}", e.hint);
    // Nobody holds b.
    let e = db.err(A, "task_claims", "refresh", json!({"task_id": ids[1]}));
    expect(&e, ErrorCode::Conflict, &[&ids[1], "todo"]);
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn a_stale_claim_token_is_refused() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a"]);
    let old = s(&db.claim(A, &list), "/claim/token");
    db.update(A, json!({"task_id": ids[0], "status": "todo"}));
    let new = s(&db.claim(A, &list), "/claim/token");
    assert_ne!(old, new, "a new claim gets a new token");
    let before = db.snapshot(A, &list);
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "stale", "claim_token": old}),
    );
    expect(&e, ErrorCode::Conflict, &[&old, &ids[0]]);
    let e = db.err(
        A,
        "task_claims",
        "refresh",
        json!({"task_id": ids[0], "claim_token": old}),
    );
    expect(&e, ErrorCode::Conflict, &[&old]);
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "outcome": "x", "claim_token": old}),
    );
    expect(&e, ErrorCode::Conflict, &[&old]);
    assert_eq!(db.snapshot(A, &list), before);
    // The current token works.
    db.ok(
        A,
        "task_claims",
        "refresh",
        json!({"task_id": ids[0], "claim_token": new}),
    );
    db.update(
        A,
        json!({"task_id": ids[0], "status": "done", "outcome": "x", "claim_token": new}),
    );
    // Once the task is closed, even the last token is stale.
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "late", "claim_token": new}),
    );
    expect(&e, ErrorCode::Conflict, &[&new]);
}

#[test]
fn release_expired_returns_expired_claims_to_todo_keeping_assignment() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "mine", "assigned_to_agent_id": A}, {"title": "free"}, {"title": "long"}]}),
    );
    let ids = strs(&d, "/tasks", "id");
    db.claim_lease(A, &list, 30);
    db.claim_lease(B, &list, 30);
    db.claim_lease(C, &list, 3600);
    db.advance(31);
    let out = db.out(
        C,
        "task_claims",
        "release_expired",
        json!({"list_id": list}),
    );
    assert_eq!(
        out.data,
        json!({"released": [ids[0], ids[1]], "remaining": 0})
    );
    assert!(
        out.summary.contains(&ids[0]) && out.summary.contains(&ids[1]),
        "{}",
        out.summary
    );
    let mine = db.task(C, &list, &ids[0]);
    assert_eq!(mine["status"], "todo");
    assert_eq!(mine["assigned_to_agent_id"], A, "assignment kept");
    assert!(
        mine.get("claimed_by_agent_id").is_none() && mine.get("claim_expires_at").is_none(),
        "{mine}"
    );
    assert_eq!(
        db.task(C, &list, &ids[2])["status"],
        "in_progress",
        "unexpired claims stay"
    );
    let events = db.events(C, &list);
    assert_eq!(kinds(&events[..2]), ["released", "released"]);
    assert_eq!(events[0]["agent_id"], C);
    let released_by: Vec<&Value> = events[..2]
        .iter()
        .map(|e| &e["data"]["claimed_by"])
        .collect();
    assert!(
        released_by.contains(&&json!(A)) && released_by.contains(&&json!(B)),
        "{released_by:?}"
    );

    // Idempotent: nothing left to release, nothing recorded.
    let before = db.snapshot(A, &list);
    let again = db.ok(
        C,
        "task_claims",
        "release_expired",
        json!({"list_id": list}),
    );
    assert_eq!(again, json!({"released": [], "remaining": 0}));
    assert_eq!(db.snapshot(A, &list), before);

    // The released task is claimable again, still only by its assignee.
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[1]);
    assert_eq!(s(&db.claim(A, &list), "/task/id"), ids[0]);
}

#[test]
fn release_expired_without_a_list_covers_the_lists_the_caller_can_see() {
    let db = TestDb::new();
    let shared1 = db.list(A, "one");
    let shared2 = db.list(A, "two");
    let private = db.private_list(B, "B's");
    let t1 = db.add(&shared1, &["x"]).remove(0);
    let t2 = db.add(&shared2, &["y"]).remove(0);
    let tp = s(
        &db.ok(
            B,
            "task_items",
            "create",
            json!({"list_id": private, "title": "z"}),
        ),
        "/task/id",
    );
    for list in [&shared1, &shared2] {
        db.claim_lease(A, list, 30);
    }
    db.claim_lease(B, &private, 30);
    db.advance(60);
    let d = db.ok(C, "task_claims", "release_expired", json!({}));
    let mut got = d["released"].as_array().unwrap().clone();
    got.sort_by_key(|v| v.as_str().unwrap().to_string());
    let mut want = vec![json!(t1), json!(t2)];
    want.sort_by_key(|v| v.as_str().unwrap().to_string());
    assert_eq!(got, want, "B's private list is not C's business");
    assert_eq!(db.task(B, &private, &tp)["status"], "in_progress");
    let d = db.ok(B, "task_claims", "release_expired", json!({}));
    assert_eq!(d["released"], json!([tp]));
}

#[test]
fn lease_seconds_must_be_between_30_and_86400() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b"]);
    let before = db.snapshot(A, &list);
    for bad in [29, 86_401, 0, -5] {
        let e = db.err(
            A,
            "task_claims",
            "claim_next",
            json!({"list_id": list, "lease_seconds": bad}),
        );
        expect(
            &e,
            ErrorCode::InvalidParams,
            &["lease_seconds", "30", "86400"],
        );
    }
    assert_eq!(db.snapshot(A, &list), before);
    let d = db.claim_lease(A, &list, 30);
    assert_eq!(d["claim"]["expires_at"], db.now_plus(30));
    let d = db.claim_lease(B, &list, 86_400);
    assert_eq!(d["claim"]["expires_at"], db.now_plus(86_400));
    for bad in [29, 86_401] {
        let e = db.err(
            A,
            "task_claims",
            "refresh",
            json!({"task_id": ids[0], "lease_seconds": bad}),
        );
        expect(&e, ErrorCode::InvalidParams, &["lease_seconds"]);
    }
}

#[test]
fn claim_next_is_the_only_way_to_start_a_task() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a"]);
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "in_progress"}),
    );
    expect(&e, ErrorCode::Conflict, &[&ids[0], "in_progress"]);
    assert!(e.hint.contains("claim_next"), "{}", e.hint);
    assert_eq!(db.task(A, &list, &ids[0])["status"], "todo");
}

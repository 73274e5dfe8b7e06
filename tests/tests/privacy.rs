//! Private lists: owner only, `forbidden` with a bypass hint, audited
//! bypass with a reason, and who may read the bypass events.

use tasklists_tests::*;

const OWNER: &str = "owner-agent";
const OTHER: &str = "other-agent";
const THIRD: &str = "third-agent";

fn private_list(db: &TestDb) -> (String, Vec<String>) {
    let list = db.private_list(OWNER, "Private plan");
    let d = db.ok(
        OWNER,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "one"}, {"title": "two"}]}),
    );
    (list, strs(&d, "/tasks", "id"))
}

#[test]
fn the_owner_uses_a_private_list_normally() {
    let db = TestDb::new();
    let (list, ids) = private_list(&db);
    let c = db.claim(OWNER, &list);
    assert_eq!(s(&c, "/task/id"), ids[0]);
    db.update(
        OWNER,
        json!({"task_id": ids[0], "status": "done", "outcome": "ok"}),
    );
    let f = db.ok(OWNER, "task_lists", "find", json!({}));
    assert_eq!(strs(&f, "/lists", "id"), std::slice::from_ref(&list));
    assert!(
        db.events(OWNER, &list)
            .iter()
            .all(|e| e["kind"] != "private_bypass")
    );
}

#[test]
fn other_agents_are_forbidden_with_a_hint_about_bypass() {
    let db = TestDb::new();
    let (list, ids) = private_list(&db);
    let before = db.snapshot(OWNER, &list);
    let calls = [
        ("task_lists", "get", json!({"list_id": list})),
        ("task_lists", "delete", json!({"list_id": list})),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": "sneaky"}),
        ),
        (
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "sneaky"}]}),
        ),
        (
            "task_items",
            "update",
            json!({"task_id": ids[0], "notes": "sneaky"}),
        ),
        (
            "task_items",
            "reorder",
            json!({"list_id": list, "task_ids": [ids[1]]}),
        ),
        ("task_items", "delete", json!({"task_id": ids[0]})),
        ("task_claims", "claim_next", json!({"list_id": list})),
        ("task_claims", "refresh", json!({"task_id": ids[0]})),
        ("task_claims", "release_expired", json!({"list_id": list})),
        ("task_audit", "get", json!({"list_id": list})),
        ("task_audit", "get", json!({"task_id": ids[0]})),
    ];
    for (tool, action, params) in calls {
        let e = db.err(OTHER, tool, action, params.clone());
        assert_eq!(
            e.code,
            ErrorCode::Forbidden,
            "{tool} {action}: {:?} {}",
            e.code,
            e.message
        );
        assert!(e.message.contains(&list), "{tool} {action}: {}", e.message);
        assert!(
            e.hint.contains("bypass_private") && e.hint.contains("bypass_reason"),
            "{tool} {action}: {}",
            e.hint
        );
    }
    // find simply does not return it.
    let f = db.ok(
        OTHER,
        "task_lists",
        "find",
        json!({"visibility": "private"}),
    );
    assert_eq!(f["lists"], json!([]));
    // get_or_create does not hand it out either.
    let d = db.ok(
        OTHER,
        "task_lists",
        "create",
        json!({"name": "Private plan", "get_or_create": true}),
    );
    assert_eq!(d["created"], true);
    assert_ne!(s(&d, "/list/id"), list);
    let mut after = db.snapshot(OWNER, &list);
    // The new shared list shows up in find; everything else is as before.
    after["find"] = before["find"].clone();
    after["raw"] = before["raw"].clone();
    assert_eq!(after, before);
}

#[test]
fn a_bypass_needs_a_non_empty_reason() {
    let db = TestDb::new();
    let (list, _) = private_list(&db);
    let before = db.snapshot(OWNER, &list);
    for params in [
        json!({"list_id": list, "bypass_private": true}),
        json!({"list_id": list, "bypass_private": true, "bypass_reason": ""}),
        json!({"list_id": list, "bypass_private": true, "bypass_reason": "   "}),
    ] {
        let e = db.err(OTHER, "task_lists", "get", params.clone());
        expect(&e, ErrorCode::InvalidParams, &["bypass_reason"]);
    }
    // A reason without the flag is no bypass.
    let e = db.err(
        OTHER,
        "task_lists",
        "get",
        json!({"list_id": list, "bypass_reason": "please"}),
    );
    expect(&e, ErrorCode::Forbidden, &[&list]);
    let e = db.err(
        OTHER,
        "task_lists",
        "get",
        json!({"list_id": list, "bypass_private": false, "bypass_reason": "please"}),
    );
    expect(&e, ErrorCode::Forbidden, &[&list]);
    assert_eq!(db.snapshot(OWNER, &list), before);
}

#[test]
fn a_bypass_works_and_is_audited() {
    let db = TestDb::new();
    let (list, ids) = private_list(&db);
    db.advance(3);
    let bypass = |reason: &str| json!({"bypass_private": true, "bypass_reason": reason});
    let mut p = bypass("owner is offline; release blocker");
    p["list_id"] = json!(list);
    let g = db.ok(OTHER, "task_lists", "get", p);
    assert_eq!(strs(&g, "/tasks", "id"), ids);

    let mut p = bypass("take over task one");
    p["list_id"] = json!(list);
    let c = db.ok(OTHER, "task_claims", "claim_next", p);
    assert_eq!(s(&c, "/task/id"), ids[0]);
    assert_eq!(c["task"]["claimed_by_agent_id"], OTHER);

    let mut p = bypass("record the result");
    p["task_id"] = json!(ids[0]);
    p["status"] = json!("done");
    p["outcome"] = json!("fixed while the owner was away");
    db.update(OTHER, p);

    let events = db.events(OWNER, &list);
    let bypasses: Vec<&Value> = events
        .iter()
        .filter(|e| e["kind"] == "private_bypass")
        .collect();
    assert_eq!(
        bypasses.len(),
        3,
        "one event per bypassing call: {events:?}"
    );
    let newest = bypasses[0];
    assert_eq!(newest["agent_id"], OTHER);
    assert_eq!(newest["list_id"], list.as_str());
    assert_eq!(newest["at"], db.now());
    assert_eq!(newest["data"]["tool"], "task_items");
    assert_eq!(newest["data"]["action"], "update");
    assert_eq!(newest["data"]["reason"], "record the result");
    assert_eq!(bypasses[1]["data"]["action"], "claim_next");
    assert_eq!(bypasses[1]["data"]["reason"], "take over task one");
    assert_eq!(bypasses[2]["data"]["tool"], "task_lists");
    assert_eq!(bypasses[2]["data"]["action"], "get");
    assert_eq!(
        bypasses[2]["data"]["reason"],
        "owner is offline; release blocker"
    );
    // The bypass event and the change it allowed (one event) are in the
    // same transaction.
    assert_eq!(kinds(&events[..2]), ["status_changed", "private_bypass"]);
    assert!(events[..2].iter().all(|e| e["agent_id"] == OTHER));
}

#[test]
fn a_failed_bypassing_call_changes_nothing_but_its_bypass_event() {
    let db = TestDb::new();
    let (list, ids) = private_list(&db);
    let before = db.snapshot(OWNER, &list);
    // The bypass is allowed, but the update itself fails: the change is
    // rolled back, the bypass is not (the caller did reach the list).
    let e = db.err(
        OTHER,
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "bypass_private": true, "bypass_reason": "close it"}),
    );
    expect(&e, ErrorCode::OutcomeRequired, &[&ids[0]]);
    let after = db.snapshot(OWNER, &list);
    assert_eq!(after["get"], before["get"]);
    assert_eq!(after["find"], before["find"]);
    let audit = after["audit"].as_array().unwrap();
    assert_eq!(&audit[1..], before["audit"].as_array().unwrap().as_slice());
    assert_eq!(audit[0]["kind"], "private_bypass");
    assert_eq!(audit[0]["agent_id"], OTHER);
    assert_eq!(audit[0]["data"]["action"], "update");
    assert_eq!(audit[0]["data"]["reason"], "close it");
}

/// With a bypass on, `params` as sent by `reason`'s caller.
fn bypassing(reason: &str, mut params: Value) -> Value {
    params["bypass_private"] = json!(true);
    params["bypass_reason"] = json!(reason);
    params
}

/// `told` appears in neither the message nor the hint of `e`.
#[track_caller]
fn untold(e: &ToolError, told: &[&str]) {
    for t in told {
        assert!(
            !e.message.contains(t) && !e.hint.contains(t),
            "{t:?} told: {} / {}",
            e.message,
            e.hint
        );
    }
}

/// A private list of three tasks, the first claimed by its owner; another
/// agent bypasses with calls that then fail. Each attempt leaves its
/// event, and the errors say no more than the bypass shows.
#[test]
fn every_bypass_is_audited_even_when_the_call_fails() {
    let db = TestDb::new();
    let list = db.private_list(OWNER, "Private plan");
    let d = db.ok(
        OWNER,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "one"}, {"title": "two"}, {"title": "three"}]}),
    );
    let ids = strs(&d, "/tasks", "id");
    let c = db.claim_lease(OWNER, &list, 600);
    assert_eq!(s(&c, "/task/id"), ids[0]);
    let lease_end = db.now_plus(600);
    let before = db.get(OWNER, &list);
    db.advance(1);

    // Past the end: the list's length is not told.
    let e = db.err(
        OTHER,
        "task_items",
        "create",
        bypassing(
            "add a step",
            json!({"list_id": list, "title": "x", "position": 1_000_000}),
        ),
    );
    expect(&e, ErrorCode::InvalidParams, &["1000000", "past the end"]);
    untold(&e, &["3 tasks", "1 to 4", "(3"]);
    // A claimed task: neither the claimer nor the lease end.
    let e = db.err(
        OTHER,
        "task_items",
        "delete",
        bypassing("clean up", json!({"task_id": ids[0]})),
    );
    expect(&e, ErrorCode::Conflict, &[&ids[0], "claimed"]);
    untold(&e, &[OWNER, &lease_end]);

    let events = db.events_with(OWNER, json!({}));
    assert_eq!(kinds(&events), ["private_bypass"; 2], "{events:?}");
    let actions: Vec<(&Value, &Value)> = events
        .iter()
        .map(|e| (&e["data"]["action"], &e["data"]["reason"]))
        .collect();
    assert_eq!(
        actions,
        [
            (&json!("delete"), &json!("clean up")),
            (&json!("create"), &json!("add a step")),
        ]
    );
    for e in &events {
        assert_eq!(e["agent_id"], OTHER);
        assert_eq!(e["list_id"], list.as_str());
        assert_eq!(e["at"], db.now());
        assert_eq!(e["data"]["owner_agent_id"], OWNER);
    }
    assert_eq!(db.events_with(OTHER, json!({})), events);
    // Nothing else was kept: the tasks are as they were.
    assert_eq!(db.get(OWNER, &list)["tasks"], before["tasks"]);
}

#[test]
fn a_cycle_or_a_bad_read_after_a_bypass_is_audited_and_tells_little() {
    let db = TestDb::new();
    let list = db.private_list(OWNER, "Private plan");
    let d = db.ok(
        OWNER,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"ref": "a", "title": "one"},
            {"ref": "b", "title": "two", "depends_on": ["a"]},
            {"title": "three", "depends_on": ["b"]},
        ]}),
    );
    let ids = strs(&d, "/tasks", "id");
    let before = db.get(OWNER, &list);
    // A cycle: the ids the call named, not the chain between them.
    let e = db.err(
        OTHER,
        "task_items",
        "update",
        bypassing(
            "reorder the work",
            json!({"task_id": ids[0], "depends_on": [ids[2]]}),
        ),
    );
    expect(&e, ErrorCode::Cycle, &[&ids[0], &ids[2]]);
    untold(&e, &[&ids[1]]);
    // The owner still sees the whole chain.
    let e = db.err(
        OWNER,
        "task_items",
        "update",
        json!({"task_id": ids[0], "depends_on": [ids[2]]}),
    );
    expect(&e, ErrorCode::Cycle, &[&ids[0], &ids[1], &ids[2]]);
    // A read that fails after its bypass (a read runs in a write
    // transaction when it bypasses, and its event outlives the failure).
    let e = db.err(
        OTHER,
        "task_audit",
        "get",
        bypassing(
            "look at the log",
            json!({"list_id": list, "cursor": "nope"}),
        ),
    );
    expect(&e, ErrorCode::InvalidParams, &["cursor"]);
    let events = db.events_with(OWNER, json!({}));
    let actions: Vec<&Value> = events.iter().map(|e| &e["data"]["action"]).collect();
    assert_eq!(actions, [&json!("get"), &json!("update")], "{events:?}");
    assert_eq!(db.get(OWNER, &list)["tasks"], before["tasks"]);
}

#[test]
fn bypass_events_are_visible_to_the_owner_and_the_bypasser_only() {
    let db = TestDb::new();
    let (list, _) = private_list(&db);
    db.ok(
        OTHER,
        "task_lists",
        "get",
        json!({"list_id": list, "bypass_private": true, "bypass_reason": "audit check"}),
    );
    let for_owner = db.events_with(OWNER, json!({}));
    let for_other = db.events_with(OTHER, json!({}));
    let for_third = db.events_with(THIRD, json!({}));
    assert_eq!(kinds(&for_owner), ["private_bypass"]);
    assert_eq!(for_owner, for_other);
    assert_eq!(for_owner[0]["agent_id"], OTHER);
    assert_eq!(for_owner[0]["data"]["reason"], "audit check");
    assert!(for_third.is_empty(), "{for_third:?}");
    // Without list_id only bypasses are listed, never the other events.
    assert!(db.events(OWNER, &list).len() > 1);
    // The third agent cannot read the list's log without its own bypass...
    let e = db.err(THIRD, "task_audit", "get", json!({"list_id": list}));
    expect(&e, ErrorCode::Forbidden, &[&list]);
    // ...and with one, that read is itself recorded.
    let d = db.ok(
        THIRD,
        "task_audit",
        "get",
        json!({"list_id": list, "bypass_private": true, "bypass_reason": "security review"}),
    );
    let newest = &d["events"][0];
    assert_eq!(newest["kind"], "private_bypass");
    assert_eq!(newest["agent_id"], THIRD);
    assert_eq!(newest["data"]["tool"], "task_audit");
    assert_eq!(db.events_with(THIRD, json!({})).len(), 1);
    assert_eq!(db.events_with(OWNER, json!({})).len(), 2);
    assert_eq!(db.events_with(OTHER, json!({})).len(), 1);
}

#[test]
fn shared_lists_need_no_bypass() {
    let db = TestDb::new();
    let list = db.list(OWNER, "Shared");
    let ids = db.add(&list, &["a"]);
    let c = db.claim(OTHER, &list);
    assert_eq!(s(&c, "/task/id"), ids[0]);
    // A useless bypass on a shared list records nothing.
    db.ok(
        OTHER,
        "task_lists",
        "get",
        json!({"list_id": list, "bypass_private": true, "bypass_reason": "habit"}),
    );
    assert!(
        db.events(OWNER, &list)
            .iter()
            .all(|e| e["kind"] != "private_bypass")
    );
}

#[test]
fn that_a_private_list_or_task_was_deleted_is_told_only_to_who_may_see_it() {
    let db = TestDb::new();
    let (list, ids) = private_list(&db);
    db.ok(OWNER, "task_items", "delete", json!({"task_id": ids[0]}));
    // A deleted task of a live private list, then the deleted list.
    for (tool, action, params) in [
        (
            "task_items",
            "update",
            json!({"task_id": ids[0], "notes": "x"}),
        ),
        ("task_claims", "refresh", json!({"task_id": ids[0]})),
    ] {
        let e = db.err(OTHER, tool, action, params.clone());
        assert_eq!(
            e.code,
            ErrorCode::Forbidden,
            "{tool} {action}: {}",
            e.message
        );
        assert!(!e.message.contains("deleted"), "{}", e.message);
        let own = db.err(OWNER, tool, action, params);
        assert!(own.message.contains("was deleted"), "{}", own.message);
    }
    db.ok(OWNER, "task_lists", "delete", json!({"list_id": list}));
    let params = json!({"list_id": list});
    let e = db.err(OTHER, "task_lists", "get", params.clone());
    assert_eq!(e.code, ErrorCode::Forbidden, "{}", e.message);
    assert!(!e.message.contains("deleted"), "{}", e.message);
    let own = db.err(OWNER, "task_lists", "get", params);
    assert!(own.message.contains("was deleted"), "{}", own.message);
}

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
fn a_failed_bypassing_call_records_no_bypass() {
    let db = TestDb::new();
    let (list, ids) = private_list(&db);
    let before = db.snapshot(OWNER, &list);
    // The bypass is allowed, but the update itself fails: nothing is kept,
    // not even the private_bypass event.
    let e = db.err(
        OTHER,
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "bypass_private": true, "bypass_reason": "close it"}),
    );
    expect(&e, ErrorCode::OutcomeRequired, &[&ids[0]]);
    assert_eq!(db.snapshot(OWNER, &list), before);
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

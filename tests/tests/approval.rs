//! Plans a person approves, through the real component on the suite's
//! store: nothing is handed out from a plan before a person approves it
//! (`waiting.approval` says why, with the hint naming the person's
//! commands), a rejection's reason reaches the agent in `get`, `find` and
//! `claim_next`, a task added after approval waits for its own (or for the
//! list's approval again), what changed since approval, and every
//! approval and rejection in the audit log under the person. Approval is
//! reached only through `ui.person-act`; that no tool call can approve is
//! fuzzed in `fuzz.rs`.

use tasklists_tests::*;

const AGENT: &str = "planner";

fn gated(db: &TestDb) -> String {
    s(
        &db.ok(
            AGENT,
            "task_lists",
            "create",
            json!({"name": "Plan", "requires_approval": true}),
        ),
        "/list/id",
    )
}

fn ana() -> CallContext {
    person_ctx(AGENT, Some("ana"))
}

#[test]
fn nothing_is_handed_out_before_a_person_approves() {
    let db = TestDb::new();
    let list = gated(&db);
    let ids = db.add(&list, &["One", "Two"]);
    assert_eq!(
        db.get(AGENT, &list)["list"]["approval"],
        json!({"state": "pending"})
    );
    let out = db.out(
        "builder-1",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(out.data["task"], Value::Null, "{}", out.data);
    assert_eq!(out.data["waiting"]["approval"]["state"], "pending");
    let hint = out.data["waiting"]["hint"].as_str().expect("a hint");
    assert!(hint.contains(&format!("/task-approve {list}")), "{hint}");
    assert!(
        hint.contains(&format!("tasklists approve {list}")),
        "{hint}"
    );
    assert!(
        out.summary.contains("awaits a person's approval"),
        "{}",
        out.summary
    );
    // Agents still add and edit its tasks freely.
    db.update(AGENT, json!({"task_id": ids[1], "title": "Two, split"}));

    let d = db.person_ok(&ana(), "approve", &list, json!({"note": "go"}));
    assert_eq!(d["list"]["approval"]["state"], "approved", "{d}");
    assert_eq!(d["list"]["approval"]["by"], "ana");
    assert_eq!(d["list"]["approval"]["note"], "go");
    let c = db.claim("builder-1", &list);
    assert_eq!(c["task"]["id"], ids[0].as_str());
}

#[test]
fn a_rejections_reason_reaches_the_agent() {
    let db = TestDb::new();
    let list = gated(&db);
    db.add(&list, &["One"]);
    let reason = "split step one into two";
    let e = db.person_err(&ana(), "reject", &list, json!({"reason": " "}));
    assert_eq!(e.code, ErrorCode::InvalidParams, "{e:?}");
    db.person_ok(&ana(), "reject", &list, json!({"reason": reason}));

    let got = db.get(AGENT, &list);
    assert_eq!(got["list"]["approval"]["state"], "rejected");
    assert_eq!(got["list"]["approval"]["reason"], reason);
    assert_eq!(got["list"]["approval"]["by"], "ana");
    let found = db.ok(AGENT, "task_lists", "find", json!({}));
    let entry = found["lists"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == list.as_str())
        .expect("the list is found");
    assert_eq!(entry["approval"]["reason"], reason);
    let out = db.out(
        "builder-1",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(out.data["task"], Value::Null);
    assert_eq!(out.data["waiting"]["approval"]["reason"], reason);
    assert!(out.summary.contains(reason), "{}", out.summary);
}

#[test]
fn a_task_added_after_approval_waits_for_its_own() {
    let db = TestDb::new();
    let list = gated(&db);
    let ids = db.add(&list, &["One"]);
    db.person_ok(&ana(), "approve", &list, json!(null));
    db.advance(1);
    let late = db.add(&list, &["Late"]);
    assert_eq!(db.task(AGENT, &list, &late[0])["awaits_approval"], true);
    assert_eq!(db.claim("builder-1", &list)["task"]["id"], ids[0].as_str());
    let c = db.ok(
        "builder-2",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(c["task"], Value::Null, "{c}");
    assert_eq!(c["waiting"]["awaiting_approval"], 1);
    // The person approves that task alone: it is handed out.
    let d = db.person_ok(&ana(), "approve", &late[0], json!(null));
    assert_eq!(d["approved_tasks"], json!([late[0]]));
    assert_eq!(db.claim("builder-2", &list)["task"]["id"], late[0].as_str());
    // Another one waits until the list is approved again.
    let later = db.add(&list, &["Later"]);
    let c = db.ok(
        "builder-3",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(c["waiting"]["awaiting_approval"], 1, "{c}");
    db.person_ok(&ana(), "approve", &list, json!(null));
    assert!(
        db.task(AGENT, &list, &later[0])
            .get("awaits_approval")
            .is_none()
    );
    assert_eq!(
        db.claim("builder-3", &list)["task"]["id"],
        later[0].as_str()
    );
}

#[test]
fn get_says_what_changed_since_approval() {
    let db = TestDb::new();
    let list = gated(&db);
    let ids = db.add(&list, &["One", "Two", "Three"]);
    db.person_ok(&ana(), "approve", &list, json!(null));
    assert!(
        db.get(AGENT, &list)["list"]["approval"]
            .get("changes")
            .is_none()
    );
    db.advance(1);
    db.add(&list, &["Four"]);
    db.ok(AGENT, "task_items", "delete", json!({"task_id": ids[1]}));
    db.update(AGENT, json!({"task_id": ids[2], "title": "Three, renamed"}));
    let out = db.out(AGENT, "task_lists", "get", json!({"list_id": list}));
    assert_eq!(
        out.data["list"]["approval"]["changes"],
        json!({"added": 1, "removed": 1, "retitled": 1})
    );
    assert!(out.summary.contains("since approval"), "{}", out.summary);
}

#[test]
fn every_decision_is_audited_under_the_person() {
    let db = TestDb::new();
    let list = gated(&db);
    db.add(&list, &["One"]);
    db.person_ok(&ana(), "reject", &list, json!({"reason": "too vague"}));
    db.advance(1);
    db.person_ok(&ana(), "approve", &list, json!({"note": "better"}));
    let events = db.events_with(
        AGENT,
        json!({"list_id": list, "kinds": ["approved", "rejected"]}),
    );
    assert_eq!(kinds(&events), ["approved", "rejected"]);
    for e in &events {
        assert_eq!(e["agent_id"], "ana", "{e}");
        assert_eq!(e["data"]["by"], "person", "{e}");
    }
    assert_eq!(events[1]["data"]["reason"], "too vague");
    assert_eq!(events[0]["data"]["note"], "better");
    // Approval needs a list that asks for it.
    let plain = db.list(AGENT, "Plain");
    let e = db.person_err(&ana(), "approve", &plain, json!(null));
    expect(&e, ErrorCode::Conflict, &["needs no approval"]);
}

#[test]
fn an_agent_cannot_close_as_done_what_a_person_has_not_approved() {
    let db = TestDb::new();
    let list = gated(&db);
    let ids = db.add(&list, &["One", "Two"]);
    let done = |id: &str| json!({"task_id": id, "status": "done", "outcome": "did it anyway"});
    let before = db.snapshot(AGENT, &list);
    let e = db.err(AGENT, "task_items", "update", done(&ids[0]));
    expect(&e, ErrorCode::Conflict, &[&ids[0], &list, "pending"]);
    assert!(e.hint.contains("/task-approve"), "{}", e.hint);
    assert_eq!(db.snapshot(AGENT, &list), before);
    // Revising the plan stays free: a step is canceled.
    db.update(
        AGENT,
        json!({"task_id": ids[1], "status": "canceled", "outcome": "not needed"}),
    );
    db.person_ok(&ana(), "approve", &list, json!(null));
    let late = db.add(&list, &["Late"]);
    let e = db.err(AGENT, "task_items", "update", done(&late[0]));
    expect(
        &e,
        ErrorCode::Conflict,
        &[&late[0], "after the plan's approval"],
    );
    db.update(AGENT, done(&ids[0]));
    // A person may close it: the person is who approves.
    db.person_ok(&ana(), "done", &late[0], json!({"outcome": "done by hand"}));
    assert_eq!(db.task(AGENT, &list, &late[0])["status"], "done");
}

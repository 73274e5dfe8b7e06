//! "A failed call changes nothing: every action is one transaction."
//! Each failing call below is checked against the full observable state
//! (task_lists get with deleted tasks, the whole audit log, find) and the
//! raw rows of every table, before and after.

use tasklists_tests::*;

const OWNER: &str = "owner";
const A: &str = "builder-1";
const B: &str = "builder-2";

struct World {
    db: TestDb,
    list: String,
    private: String,
    /// todo, held by A, done, blocked (B), todo depending on #0
    ids: Vec<String>,
    foreign: String,
    a_token: String,
}

fn world() -> World {
    let db = TestDb::new();
    let list = db.list(OWNER, "Main");
    let other = db.list(OWNER, "Other");
    let foreign = db.add(&other, &["foreign"]).remove(0);
    let private = db.private_list(OWNER, "Private");
    db.ok(
        OWNER,
        "task_items",
        "create",
        json!({"list_id": private, "title": "secret"}),
    );
    let d = db.ok(
        OWNER,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"ref": "held", "title": "held by A"},
            {"title": "to finish"},
            {"title": "to block"},
            {"title": "free"},
            {"title": "after held", "depends_on": ["held"]},
        ]}),
    );
    let ids = strs(&d, "/tasks", "id");
    let c = db.claim_lease(A, &list, 600);
    let a_token = s(&c, "/claim/token");
    db.update(
        OWNER,
        json!({"task_id": ids[1], "status": "done", "outcome": "ok"}),
    );
    db.update(B, json!({"task_id": ids[2], "status": "blocked"}));
    db.advance(10);
    // Order: held(0), done(1), blocked(2), free(3), dependent(4).
    World {
        db,
        list,
        private,
        ids,
        foreign,
        a_token,
    }
}

#[test]
fn failed_calls_change_nothing() {
    let w = world();
    let (db, list, ids) = (&w.db, &w.list, &w.ids);
    let pinned = CallContext {
        agent_id: Some(A.into()),
        agent_pinned: true,
        ..CallContext::default()
    };
    let cases: Vec<(&str, CallContext, &str, &str, Value, ErrorCode)> = vec![
        (
            "update by non-holder",
            ctx(B),
            "task_items",
            "update",
            json!({"task_id": ids[0], "notes": "mine", "title": "t"}),
            ErrorCode::Conflict,
        ),
        (
            "done without outcome",
            ctx(A),
            "task_items",
            "update",
            json!({"task_id": ids[0], "status": "done", "notes": "n"}),
            ErrorCode::OutcomeRequired,
        ),
        (
            "in_progress",
            ctx(OWNER),
            "task_items",
            "update",
            json!({"task_id": ids[3], "status": "in_progress", "notes": "n"}),
            ErrorCode::Conflict,
        ),
        (
            "reopen as blocked",
            ctx(OWNER),
            "task_items",
            "update",
            json!({"task_id": ids[1], "status": "blocked"}),
            ErrorCode::Conflict,
        ),
        (
            "stale token",
            ctx(A),
            "task_items",
            "update",
            json!({"task_id": ids[0], "notes": "n", "claim_token": "claim_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}),
            ErrorCode::Conflict,
        ),
        (
            "cycle",
            ctx(A),
            "task_items",
            "update",
            json!({"task_id": ids[0], "depends_on": [ids[4]], "notes": "n"}),
            ErrorCode::Cycle,
        ),
        (
            "foreign dependency",
            ctx(OWNER),
            "task_items",
            "update",
            json!({"task_id": ids[3], "depends_on": [w.foreign], "title": "t"}),
            ErrorCode::InvalidParams,
        ),
        (
            "delete many, last held",
            ctx(B),
            "task_items",
            "delete",
            json!({"task_ids": [ids[3], ids[1], ids[0]]}),
            ErrorCode::Conflict,
        ),
        (
            "add_many bad ref at the end",
            ctx(OWNER),
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "1"}, {"title": "2"}, {"title": "3", "depends_on": ["nope"]}]}),
            ErrorCode::InvalidParams,
        ),
        (
            "add_many cycle",
            ctx(OWNER),
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": [{"ref": "x", "title": "1", "depends_on": ["y"]}, {"ref": "y", "title": "2", "depends_on": ["x"]}]}),
            ErrorCode::Cycle,
        ),
        (
            "add_many past the end",
            ctx(OWNER),
            "task_items",
            "add_many",
            json!({"list_id": list, "position": 7, "tasks": [{"title": "1"}]}),
            ErrorCode::InvalidParams,
        ),
        (
            "create past the end",
            ctx(OWNER),
            "task_items",
            "create",
            json!({"list_id": list, "position": 7, "title": "x"}),
            ErrorCode::InvalidParams,
        ),
        (
            "reorder anchor moved",
            ctx(OWNER),
            "task_items",
            "reorder",
            json!({"list_id": list, "task_ids": [ids[3], ids[4]], "after_task_id": ids[4]}),
            ErrorCode::InvalidParams,
        ),
        (
            "claim with bad lease",
            ctx(B),
            "task_claims",
            "claim_next",
            json!({"list_id": list, "lease_seconds": 29}),
            ErrorCode::InvalidParams,
        ),
        (
            "refresh by non-holder",
            ctx(B),
            "task_claims",
            "refresh",
            json!({"task_id": ids[0]}),
            ErrorCode::Conflict,
        ),
        (
            "private list",
            ctx(B),
            "task_claims",
            "claim_next",
            json!({"list_id": w.private}),
            ErrorCode::Forbidden,
        ),
        (
            "anonymous write",
            anon(),
            "task_lists",
            "delete",
            json!({"list_id": list}),
            ErrorCode::AgentRequired,
        ),
        (
            "pinned mismatch",
            pinned,
            "task_lists",
            "delete",
            json!({"list_id": list, "agent_id": B}),
            ErrorCode::Forbidden,
        ),
        (
            "unknown key",
            ctx(OWNER),
            "task_lists",
            "delete",
            json!({"list_id": list, "force": true}),
            ErrorCode::InvalidParams,
        ),
        (
            "unknown action",
            ctx(OWNER),
            "task_lists",
            "purge",
            json!({"list_id": list}),
            ErrorCode::UnknownAction,
        ),
        (
            "global with key",
            ctx(OWNER),
            "task_lists",
            "create",
            json!({"name": "g", "scope_type": "global", "scope_key": "k"}),
            ErrorCode::InvalidParams,
        ),
        (
            "missing list",
            ctx(OWNER),
            "task_lists",
            "delete",
            json!({"list_id": "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}),
            ErrorCode::NotFound,
        ),
    ];
    for (name, context, tool, action, params, code) in cases {
        let before = db.snapshot(OWNER, list);
        let private_before = db.snapshot(OWNER, &w.private);
        let e = db.err_ctx(&context, tool, action, params);
        assert_eq!(e.code, code, "{name}: {:?} {}", e.code, e.message);
        assert_eq!(db.snapshot(OWNER, list), before, "{name} changed something");
        assert_eq!(
            db.snapshot(OWNER, &w.private),
            private_before,
            "{name} changed the private list"
        );
    }
    // A bypass, then a failure: the change is rolled back, the bypass is
    // still audited (alone, after the rollback).
    let before = db.snapshot(OWNER, &w.private);
    let e = db.err(
        B,
        "task_items",
        "create",
        json!({"list_id": w.private, "title": "x", "position": 5, "bypass_private": true, "bypass_reason": "r"}),
    );
    assert_eq!(e.code, ErrorCode::InvalidParams, "{}", e.message);
    let after = db.snapshot(OWNER, &w.private);
    assert_eq!(
        (&after["get"], &after["find"]),
        (&before["get"], &before["find"])
    );
    let audit = after["audit"].as_array().unwrap();
    assert_eq!(&audit[1..], before["audit"].as_array().unwrap().as_slice());
    assert_eq!(kinds(&audit[..1]), ["private_bypass"]);
    // Raw requests that never reach an action.
    let before = db.dump();
    for (tool, params) in [("task_items", "{\"list_id\": "), ("task_items", "[]")] {
        db.call_raw(&ctx(OWNER), tool, "create", params)
            .unwrap_err();
    }
    db.call_json(
        &ctx(OWNER),
        "task_lists",
        r#"{"action":"delete","list_id":"x"}"#,
    )
    .unwrap_err();
    assert_eq!(db.dump(), before);
    // And the world still works: the holder finishes its task with its token.
    db.update(
        A,
        json!({"task_id": ids[0], "status": "done", "outcome": "ok", "claim_token": w.a_token}),
    );
}

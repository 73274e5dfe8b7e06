//! Edge cases found in review: each pins a rule where an agent could
//! otherwise lose work, leak another agent's private data, or be misled.

use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";
const C: &str = "builder-3";

#[test]
fn a_ref_named_twice_in_depends_on_is_one_dependency() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let d = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"ref": "a", "title": "x"},
            {"title": "y", "depends_on": ["a", "a"]}]}),
    );
    assert_eq!(d["tasks"][1]["depends_on"], json!([s(&d, "/tasks/0/id")]));
}

#[test]
fn a_ref_shaped_like_a_task_id_is_refused() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let real = db.add(&list, &["real"]).remove(0);
    let before = db.snapshot(A, &list);
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"ref": real, "title": "x"},
            {"title": "y", "depends_on": [real]}]}),
    );
    expect(&e, ErrorCode::InvalidParams, &["tasks[0].ref", &real]);
    assert_eq!(db.snapshot(A, &list), before);
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "y", "depends_on": [list]}]}),
    );
    expect(&e, ErrorCode::InvalidParams, &["is a list id"]);
}

#[test]
fn an_update_that_only_renews_the_lease_is_audited_as_refreshed() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let id = db.add(&list, &["a"]).remove(0);
    db.claim_lease(A, &list, 60);
    db.advance(30);
    let out = db.out(A, "task_items", "update", json!({"task_id": id}));
    assert_eq!(out.data["task"]["claim_expires_at"], db.now_plus(60));
    assert!(
        out.summary.contains("lease renewed until"),
        "{}",
        out.summary
    );
    let events = db.events(A, &list);
    assert_eq!(events[0]["kind"], "refreshed");
    assert_eq!(events[0]["task_id"], id.as_str());
}

#[test]
fn a_closed_tasks_outcome_cannot_be_blanked() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let id = db.add(&list, &["a"]).remove(0);
    db.update(
        A,
        json!({"task_id": id, "status": "done", "outcome": "shipped"}),
    );
    let before = db.snapshot(A, &list);
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": id, "outcome": "  "}),
    );
    expect(&e, ErrorCode::OutcomeRequired, &[&id]);
    assert_eq!(db.snapshot(A, &list), before);
    let d = db.update(A, json!({"task_id": id, "outcome": "shipped v2"}));
    assert_eq!(d["task"]["outcome"], "shipped v2");
}

#[test]
fn refusals_tell_nothing_about_private_lists() {
    let db = TestDb::new();
    let private = db.private_list(B, "B's");
    let secret = s(
        &db.ok(
            B,
            "task_items",
            "create",
            json!({"list_id": private, "title": "secret"}),
        ),
        "/task/id",
    );
    let mine = db.list(C, "Mine");
    let e = db.err(
        C,
        "task_items",
        "update",
        json!({"task_id": secret, "notes": "x"}),
    );
    expect(&e, ErrorCode::Forbidden, &["private"]);
    assert!(!e.message.contains(B), "owner leaked: {}", e.message);
    // A mismatching list_id is not checked before access to the task's list.
    let e = db.err(
        C,
        "task_audit",
        "get",
        json!({"task_id": secret, "list_id": mine}),
    );
    assert_eq!(e.code, ErrorCode::Forbidden, "{}", e.message);
    // depends_on on a private task reads like a missing one.
    let e = db.err(
        C,
        "task_items",
        "create",
        json!({"list_id": mine, "title": "t", "depends_on": [secret]}),
    );
    let ghost = "task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B";
    let e2 = db.err(
        C,
        "task_items",
        "create",
        json!({"list_id": mine, "title": "t", "depends_on": [ghost]}),
    );
    assert_eq!(
        e.message.replace(&secret, "ID"),
        e2.message.replace(ghost, "ID")
    );
}

#[test]
fn a_host_pinned_without_identity_refuses_any_agent_id() {
    let db = TestDb::new();
    let pinned = CallContext {
        agent_pinned: true,
        ..anon()
    };
    let e = db.err_ctx(
        &pinned,
        "task_lists",
        "create",
        json!({"name": "x", "agent_id": A}),
    );
    expect(&e, ErrorCode::Forbidden, &["pinned"]);
}

#[test]
fn blank_agent_ids_are_no_identity() {
    let db = TestDb::new();
    let e = db.err_ctx(
        &anon(),
        "task_lists",
        "create",
        json!({"name": "x", "agent_id": "   "}),
    );
    expect(&e, ErrorCode::InvalidParams, &["agent_id"]);
    let e = db.err_ctx(&ctx("  "), "task_lists", "create", json!({"name": "x"}));
    assert_eq!(e.code, ErrorCode::AgentRequired, "{}", e.message);
}

#[test]
fn only_canonical_ids_are_ids() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let lower = format!("list_{}", list[5..].to_lowercase());
    let e = db.err(A, "task_lists", "get", json!({"list_id": lower}));
    expect(&e, ErrorCode::InvalidParams, &["not a valid list id"]);
    let e = db.err(
        A,
        "task_lists",
        "get",
        json!({"list_id": "list_8ZZZZZZZZZZZZZZZZZZZZZZZZZ"}),
    );
    assert_eq!(e.code, ErrorCode::InvalidParams);
}

#[test]
fn a_reorder_that_moves_nothing_records_nothing() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b"]);
    let before = db.snapshot(A, &list);
    let out = db.out(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [ids[0]], "position": 1}),
    );
    assert!(out.summary.contains("unchanged"), "{}", out.summary);
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn workspace_lists_need_a_real_scope_key() {
    let db = TestDb::new();
    let e = db.err(
        A,
        "task_lists",
        "create",
        json!({"name": "x", "scope_type": "workspace", "scope_key": ""}),
    );
    expect(&e, ErrorCode::InvalidParams, &["scope_key"]);
}

#[test]
fn pausing_a_paused_task_again_keeps_its_assignee() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let id = db.add(&list, &["a"]).remove(0);
    db.update(A, json!({"task_id": id, "status": "blocked"}));
    let d = db.update(C, json!({"task_id": id, "status": "blocked"}));
    assert_eq!(d["task"]["assigned_to_agent_id"], A);
    let w = db.claim(C, &list);
    assert_eq!(w["task"], Value::Null);
}

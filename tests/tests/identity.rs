//! Identity (`agent_id`): host default, params override, pinned hosts,
//! `agent_required` for state changes, anonymous reads.

use tasklists_tests::*;

fn pinned(agent: &str) -> CallContext {
    CallContext {
        agent_id: Some(agent.into()),
        agent_pinned: true,
        ..CallContext::default()
    }
}

#[test]
fn params_agent_id_overrides_the_host_default() {
    let db = TestDb::new();
    let d = db.ok_ctx(
        &ctx("host-default"),
        "task_lists",
        "create",
        json!({"name": "W", "agent_id": "explicit"}),
    );
    assert_eq!(s(&d, "/list/created_by_agent_id"), "explicit");
    let list = s(&d, "/list/id");
    db.add(&list, &["one"]);
    let c = db.ok_ctx(
        &ctx("host-default"),
        "task_claims",
        "claim_next",
        json!({"list_id": list, "agent_id": "explicit"}),
    );
    assert_eq!(s(&c, "/task/claimed_by_agent_id"), "explicit");
    let events = db.events("x", &list);
    assert_eq!(events[0]["kind"], "claimed");
    assert_eq!(events[0]["agent_id"], "explicit");
    // The host default would have been refused as the holder's twin: the
    // override really changed who acted.
    let e = db.err_ctx(
        &ctx("host-default"),
        "task_items",
        "update",
        json!({"task_id": s(&c, "/task/id"), "notes": "mine?"}),
    );
    expect(&e, ErrorCode::Conflict, &["explicit"]);
}

#[test]
fn params_agent_id_works_without_a_host_default() {
    let db = TestDb::new();
    let d = db.ok_ctx(
        &anon(),
        "task_lists",
        "create",
        json!({"name": "W", "agent_id": "only-param"}),
    );
    assert_eq!(s(&d, "/list/created_by_agent_id"), "only-param");
    let list = s(&d, "/list/id");
    db.add(&list, &["one"]);
    let c = db.ok_ctx(
        &anon(),
        "task_claims",
        "claim_next",
        json!({"list_id": list, "agent_id": "only-param"}),
    );
    assert_eq!(s(&c, "/task/claimed_by_agent_id"), "only-param");
}

#[test]
fn host_default_identity_is_used_without_param() {
    let db = TestDb::new();
    let d = db.ok(
        "host-default",
        "task_lists",
        "create",
        json!({"name": "W", "visibility": "private"}),
    );
    assert_eq!(s(&d, "/list/created_by_agent_id"), "host-default");
    assert_eq!(s(&d, "/list/owner_agent_id"), "host-default");
}

#[test]
fn pinned_host_refuses_another_agent_id() {
    let db = TestDb::new();
    let before = db.dump();
    let e = db.err_ctx(
        &pinned("pinned-1"),
        "task_lists",
        "create",
        json!({"name": "W", "agent_id": "intruder"}),
    );
    expect(&e, ErrorCode::Forbidden, &["pinned-1", "intruder"]);
    assert!(!e.hint.is_empty());
    // Reads too: a pinned host speaks for exactly one agent.
    let e = db.err_ctx(
        &pinned("pinned-1"),
        "task_lists",
        "find",
        json!({"agent_id": "intruder"}),
    );
    expect(&e, ErrorCode::Forbidden, &["intruder"]);
    assert_eq!(db.dump(), before, "a refused call changes nothing");

    // The pinned id itself, explicitly or implicitly, is fine.
    let d = db.ok_ctx(
        &pinned("pinned-1"),
        "task_lists",
        "create",
        json!({"name": "W", "agent_id": "pinned-1"}),
    );
    assert_eq!(s(&d, "/list/created_by_agent_id"), "pinned-1");
    let d = db.ok_ctx(
        &pinned("pinned-1"),
        "task_lists",
        "create",
        json!({"name": "V"}),
    );
    assert_eq!(s(&d, "/list/created_by_agent_id"), "pinned-1");
    let found = db.ok("x", "task_lists", "find", json!({}));
    assert_eq!(found["lists"].as_array().unwrap().len(), 2);
}

#[test]
fn state_changes_without_identity_are_agent_required() {
    let db = TestDb::new();
    let list = db.list("owner", "Work");
    let ids = db.add(&list, &["one", "two"]);
    let before = db.snapshot("owner", &list);
    let calls = [
        ("task_lists", "create", json!({"name": "x"})),
        (
            "task_lists",
            "create",
            json!({"name": "x", "get_or_create": true}),
        ),
        ("task_lists", "delete", json!({"list_id": list})),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": "t"}),
        ),
        (
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "t"}]}),
        ),
        (
            "task_items",
            "update",
            json!({"task_id": ids[0], "notes": "n"}),
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
        ("task_claims", "release_expired", json!({})),
    ];
    let empty = CallContext {
        agent_id: Some(String::new()),
        ..CallContext::default()
    };
    for (tool, action, params) in calls {
        for context in [anon(), empty.clone()] {
            let e = db.err_ctx(&context, tool, action, params.clone());
            expect(&e, ErrorCode::AgentRequired, &[tool, action]);
            assert!(e.hint.contains("agent_id"), "{}", e.hint);
        }
    }
    // Workspace and thread are not identities either.
    let nameless = CallContext {
        workspace: Some("/repo".into()),
        thread: Some("t-1".into()),
        ..CallContext::default()
    };
    let e = db.err_ctx(
        &nameless,
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    expect(&e, ErrorCode::AgentRequired, &["claim_next"]);
    assert_eq!(db.snapshot("owner", &list), before);
}

#[test]
fn reads_work_anonymously() {
    let db = TestDb::new();
    let list = db.list("owner", "Work");
    let ids = db.add(&list, &["one", "two"]);
    let f = db.ok_ctx(&anon(), "task_lists", "find", json!({}));
    assert_eq!(strs(&f, "/lists", "id"), vec![list.clone()]);
    let g = db.ok_ctx(&anon(), "task_lists", "get", json!({"list_id": list}));
    assert_eq!(strs(&g, "/tasks", "id"), ids);
    let a = db.ok_ctx(&anon(), "task_audit", "get", json!({"list_id": list}));
    assert_eq!(a["events"].as_array().unwrap().len(), 3);
    let a = db.ok_ctx(&anon(), "task_audit", "get", json!({"task_id": ids[1]}));
    assert_eq!(kinds(a["events"].as_array().unwrap()), ["created"]);
    let h = db.ok_ctx(&anon(), "task_help", "workflow", Value::Null);
    assert!(h["workflow"].is_array());
    // The private-bypass view is per agent, so it needs one.
    let e = db.err_ctx(&anon(), "task_audit", "get", json!({}));
    expect(&e, ErrorCode::AgentRequired, &["task_audit get"]);
}

#[test]
fn anonymous_readers_do_not_see_private_lists() {
    let db = TestDb::new();
    let private = db.private_list("owner", "Secret");
    let shared = db.list("owner", "Open");
    let f = db.ok_ctx(&anon(), "task_lists", "find", json!({}));
    assert_eq!(strs(&f, "/lists", "id"), vec![shared]);
    let e = db.err_ctx(&anon(), "task_lists", "get", json!({"list_id": private}));
    expect(&e, ErrorCode::Forbidden, &[&private]);
    // An anonymous bypass cannot be attributed: it needs an identity.
    let e = db.err_ctx(
        &anon(),
        "task_lists",
        "get",
        json!({"list_id": private, "bypass_private": true, "bypass_reason": "curious"}),
    );
    expect(&e, ErrorCode::AgentRequired, &[]);
    assert!(
        db.events_with("owner", json!({})).is_empty(),
        "no bypass may be recorded without an identity"
    );
}

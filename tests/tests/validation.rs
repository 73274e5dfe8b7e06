//! Calling convention: params validation, near-miss suggestions, id kinds,
//! unknown actions, broken JSON, oversized payloads, SQL-looking strings,
//! ids/times format and the result/error shapes.

use tasklists_tests::*;

const A: &str = "builder-1";
/// A well-formed list id that no database holds.
const GHOST_LIST: &str = "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B";
/// A well-formed task id that no database holds.
const GHOST_TASK: &str = "task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B";

#[test]
fn unknown_param_is_named_with_the_allowed_keys() {
    let db = TestDb::new();
    let e = db.err(
        A,
        "task_lists",
        "create",
        json!({"name": "x", "colour": "red"}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["\"colour\"", "task_lists create"],
    );
    for key in [
        "name",
        "scope_type",
        "scope_key",
        "visibility",
        "owner_agent_id",
        "get_or_create",
        "agent_id",
    ] {
        assert!(e.hint.contains(key), "hint should list {key}: {}", e.hint);
    }
    // Nothing was created.
    let found = db.ok(A, "task_lists", "find", json!({}));
    assert_eq!(found["lists"], json!([]));
}

#[test]
fn near_miss_keys_are_suggested() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let task = db.add(&list, &["one"]).remove(0);

    let e = db.err(A, "task_lists", "get", json!({"listId": list}));
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["\"listId\"", "did you mean \"list_id\""],
    );

    let e = db.err(A, "task_claims", "claim_next", json!({"list-id": list}));
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["\"list-id\"", "did you mean \"list_id\""],
    );

    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task": task, "notes": "n"}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["\"task\"", "did you mean \"task_id\""],
    );

    let e = db.err(
        A,
        "task_claims",
        "claim_next",
        json!({"list_id": list, "lease_second": 60}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["did you mean \"lease_seconds\""],
    );

    let e = db.err(
        A,
        "task_lists",
        "create",
        json!({"name": "x", "agentId": "b"}),
    );
    expect(&e, ErrorCode::InvalidParams, &["did you mean \"agent_id\""]);

    // Inside add_many items the path of the bad key is given.
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "ok"}, {"titel": "typo"}]}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["tasks[1].", "\"titel\"", "did you mean \"title\""],
    );

    // A key far from everything gets no suggestion, but still the allowed keys.
    let e = db.err(
        A,
        "task_lists",
        "get",
        json!({"list_id": list, "zzzzzz": 1}),
    );
    expect(&e, ErrorCode::InvalidParams, &["\"zzzzzz\""]);
    assert!(!e.message.contains("did you mean"), "{}", e.message);
    assert!(e.hint.contains("include_tasks"), "{}", e.hint);
}

#[test]
fn wrong_id_kind_is_explained() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let task = db.add(&list, &["one"]).remove(0);

    // A list id where a task id is expected.
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": list, "notes": "x"}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["task_id", &list, "is a list id", "task id"],
    );
    assert!(e.hint.contains("task_"), "{}", e.hint);

    // A task id where a list id is expected.
    let e = db.err(A, "task_lists", "get", json!({"list_id": task}));
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["list_id", &task, "is a task id", "list id"],
    );

    let e = db.err(A, "task_claims", "claim_next", json!({"list_id": task}));
    expect(&e, ErrorCode::InvalidParams, &["is a task id"]);

    // A task id as a claim token.
    let e = db.err(
        A,
        "task_claims",
        "refresh",
        json!({"task_id": task, "claim_token": task}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["claim_token", "is a task id", "claim token"],
    );

    // A list id among dependencies or reorder ids, with its index.
    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "t", "depends_on": [list]}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["depends_on[0]", "is a list id"],
    );
    let e = db.err(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [task, list]}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["task_ids[1]", "is a list id"],
    );

    // Not an id at all, or a malformed one.
    let e = db.err(A, "task_lists", "get", json!({"list_id": "42"}));
    expect(&e, ErrorCode::InvalidParams, &["\"42\"", "not a list id"]);
    let e = db.err(A, "task_items", "update", json!({"task_id": "task_nope"}));
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["\"task_nope\"", "not a valid task id"],
    );
}

#[test]
fn well_formed_ids_that_do_not_exist_are_not_found() {
    let db = TestDb::new();
    let e = db.err(A, "task_lists", "get", json!({"list_id": GHOST_LIST}));
    expect(&e, ErrorCode::NotFound, &[GHOST_LIST]);
    let e = db.err(
        A,
        "task_claims",
        "claim_next",
        json!({"list_id": GHOST_LIST}),
    );
    expect(&e, ErrorCode::NotFound, &[GHOST_LIST]);
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": GHOST_TASK, "notes": "x"}),
    );
    expect(&e, ErrorCode::NotFound, &[GHOST_TASK]);
    let e = db.err(A, "task_claims", "refresh", json!({"task_id": GHOST_TASK}));
    expect(&e, ErrorCode::NotFound, &[GHOST_TASK]);
    let e = db.err(A, "task_items", "delete", json!({"task_id": GHOST_TASK}));
    expect(&e, ErrorCode::NotFound, &[GHOST_TASK]);
    let e = db.err(A, "task_audit", "get", json!({"task_id": GHOST_TASK}));
    expect(&e, ErrorCode::NotFound, &[GHOST_TASK]);
}

#[test]
fn unknown_action_lists_the_valid_ones() {
    let db = TestDb::new();
    // One wrong action name per tool, in published order.
    let wrong = ["list", "move", "claim", "list", "help"];
    for ((tool, valid), action) in tool_actions().iter().zip(wrong) {
        let e = db.err(A, tool, action, json!({}));
        let mut needles = vec![*tool, action];
        needles.extend_from_slice(valid);
        expect(&e, ErrorCode::UnknownAction, &needles);
    }
    // Near misses get a suggestion.
    let e = db.err(A, "task_claims", "claim-next", json!({}));
    expect(
        &e,
        ErrorCode::UnknownAction,
        &["did you mean \"claim_next\""],
    );
    let e = db.err(A, "task_items", "addMany", json!({}));
    expect(&e, ErrorCode::UnknownAction, &["did you mean \"add_many\""]);
    // The same through the request convention.
    let e = db
        .call_json(&ctx(A), "task_lists", r#"{"action":"remove","params":{}}"#)
        .unwrap_err();
    expect(
        &e,
        ErrorCode::UnknownAction,
        &["remove", "create", "find", "get", "delete"],
    );
}

#[test]
fn unknown_tool_is_refused_naming_the_tools() {
    let db = TestDb::new();
    let e = db.err(A, "task_list", "create", json!({"name": "x"}));
    expect(
        &e,
        ErrorCode::InvalidParams,
        &[
            "task_list",
            "task_lists",
            "task_items",
            "task_claims",
            "task_audit",
            "task_help",
        ],
    );
    let e = db
        .call_json(
            &ctx(A),
            "tasks",
            r#"{"action":"create","params":{"name":"x"}}"#,
        )
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["tasks", "task_lists"]);
}

#[test]
fn broken_json_is_refused() {
    let db = TestDb::new();
    let before = db.dump();
    let e = db
        .call_raw(&ctx(A), "task_lists", "create", r#"{"name": "#)
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["not valid JSON"]);
    let e = db
        .call_raw(&ctx(A), "task_lists", "create", r#"{'name': 'x'}"#)
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["not valid JSON"]);
    let e = db
        .call_json(
            &ctx(A),
            "task_lists",
            r#"{"action": "create", "params": {"name": "x""#,
        )
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["not valid JSON"]);
    assert!(!e.hint.is_empty());
    let e = db.call_json(&ctx(A), "task_lists", "").unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["not valid JSON"]);
    assert_eq!(db.dump(), before);
}

#[test]
fn params_must_be_an_object() {
    let db = TestDb::new();
    let e = db
        .call_raw(&ctx(A), "task_lists", "find", "[1, 2]")
        .unwrap_err();
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["must be a JSON object", "array"],
    );
    let e = db
        .call_raw(&ctx(A), "task_lists", "find", r#""name""#)
        .unwrap_err();
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["must be a JSON object", "string"],
    );
    let e = db
        .call_raw(&ctx(A), "task_lists", "find", "42")
        .unwrap_err();
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["must be a JSON object", "number"],
    );
    let e = db
        .call_json(&ctx(A), "task_lists", r#"{"action":"find","params":[1]}"#)
        .unwrap_err();
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["`params` must be a JSON object"],
    );
    let e = db
        .call_json(&ctx(A), "task_lists", r#"{"action":"find","params":"x"}"#)
        .unwrap_err();
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["`params` must be a JSON object"],
    );
    let e = db
        .call_json(&ctx(A), "task_lists", r#"["find"]"#)
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["must be a JSON object"]);
    let e = db
        .call_json(&ctx(A), "task_lists", r#"{"params":{}}"#)
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["no `action`"]);
    let e = db
        .call_json(&ctx(A), "task_lists", r#"{"action":7}"#)
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["`action` must be a string"]);
}

#[test]
fn request_keys_outside_params_are_refused() {
    let db = TestDb::new();
    let e = db
        .call_json(
            &ctx(A),
            "task_lists",
            r#"{"action":"get","list_id":"list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}"#,
        )
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["list_id", "action, params"]);
    assert!(e.hint.contains("inside params"), "{}", e.hint);
}

#[test]
fn params_may_be_omitted_when_an_action_needs_none() {
    let db = TestDb::new();
    db.list(A, "Work");
    let out = db
        .call_json(&ctx(A), "task_lists", r#"{"action":"find"}"#)
        .unwrap();
    assert_eq!(out.data["lists"].as_array().unwrap().len(), 1);
    let out = db
        .call_json(&ctx(A), "task_lists", r#"{"action":"find","params":null}"#)
        .unwrap();
    assert_eq!(out.data["lists"].as_array().unwrap().len(), 1);
    let out = db.call_raw(&ctx(A), "task_lists", "find", "").unwrap();
    assert_eq!(out.data["lists"].as_array().unwrap().len(), 1);
    let out = db
        .call_json(&ctx(A), "task_claims", r#"{"action":"release_expired"}"#)
        .unwrap();
    assert_eq!(out.data["released"], json!([]));
    let out = db
        .call_json(&ctx(A), "task_help", r#"{"action":"workflow"}"#)
        .unwrap();
    assert!(out.data["workflow"].is_array());
}

#[test]
fn missing_required_parameters_are_named() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let cases = [
        ("task_lists", "create", json!({}), "\"name\""),
        ("task_lists", "get", json!({}), "\"list_id\""),
        ("task_lists", "delete", json!({}), "\"list_id\""),
        (
            "task_items",
            "create",
            json!({"list_id": list}),
            "\"title\"",
        ),
        ("task_items", "create", json!({"title": "t"}), "\"list_id\""),
        (
            "task_items",
            "add_many",
            json!({"list_id": list}),
            "\"tasks\"",
        ),
        ("task_items", "update", json!({"notes": "n"}), "\"task_id\""),
        (
            "task_items",
            "reorder",
            json!({"list_id": list}),
            "\"task_ids\"",
        ),
        ("task_claims", "claim_next", json!({}), "\"list_id\""),
        ("task_claims", "refresh", json!({}), "\"task_id\""),
    ];
    for (tool, action, params, key) in cases {
        let e = db.err(A, tool, action, params);
        expect(
            &e,
            ErrorCode::InvalidParams,
            &["missing required parameter", key],
        );
    }
    // A batch item without a title names its index.
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "a"}, {"notes": "n"}]}),
    );
    expect(&e, ErrorCode::InvalidParams, &["tasks[1].", "\"title\""]);
    // delete needs task_id or task_ids.
    let e = db.err(A, "task_items", "delete", json!({}));
    expect(&e, ErrorCode::InvalidParams, &["task_id"]);
}

#[test]
fn out_of_range_and_mistyped_values_are_refused() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let task = db.add(&list, &["one"]).remove(0);
    let long = |n: usize| "x".repeat(n);
    let cases = [
        ("task_lists", "create", json!({"name": ""}), "name"),
        ("task_lists", "create", json!({"name": long(201)}), "name"),
        ("task_lists", "create", json!({"name": 5}), "name"),
        (
            "task_lists",
            "create",
            json!({"name": "x", "scope_type": "workspce"}),
            "did you mean \"workspace\"",
        ),
        (
            "task_lists",
            "create",
            json!({"name": "x", "visibility": "public"}),
            "visibility",
        ),
        (
            "task_lists",
            "create",
            json!({"name": "x", "get_or_create": "yes"}),
            "get_or_create",
        ),
        ("task_lists", "find", json!({"limit": 0}), "limit"),
        ("task_lists", "find", json!({"limit": 201}), "limit"),
        ("task_lists", "find", json!({"limit": 1.5}), "limit"),
        ("task_lists", "find", json!({"cursor": ""}), "cursor"),
        ("task_lists", "find", json!({"cursor": "garbage"}), "cursor"),
        (
            "task_lists",
            "get",
            json!({"list_id": list, "include_tasks": "no"}),
            "include_tasks",
        ),
        (
            "task_lists",
            "get",
            json!({"list_id": list, "status": "finished"}),
            "status",
        ),
        (
            "task_lists",
            "get",
            json!({"list_id": list, "status": []}),
            "status",
        ),
        (
            "task_lists",
            "get",
            json!({"list_id": list, "status": ["todo", "nope"]}),
            "status",
        ),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": ""}),
            "title",
        ),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": long(501)}),
            "title",
        ),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": "t", "position": 0}),
            "position",
        ),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": "t", "depends_on": task}),
            "depends_on",
        ),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": "t", "assigned_to_agent_id": ""}),
            "assigned_to_agent_id",
        ),
        (
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": []}),
            "tasks",
        ),
        (
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": ["a title"]}),
            "tasks[0]",
        ),
        (
            "task_items",
            "update",
            json!({"task_id": task, "status": "finished"}),
            "status",
        ),
        (
            "task_items",
            "update",
            json!({"task_id": task, "title": ""}),
            "title",
        ),
        (
            "task_claims",
            "claim_next",
            json!({"list_id": list, "lease_seconds": "900"}),
            "lease_seconds",
        ),
        (
            "task_claims",
            "claim_next",
            json!({"list_id": list, "labels": []}),
            "labels",
        ),
        (
            "task_claims",
            "claim_next",
            json!({"list_id": list, "labels": ["two words"]}),
            "labels[0]",
        ),
        (
            "task_lists",
            "get",
            json!({"list_id": list, "label": "a b"}),
            "label",
        ),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": "t", "labels": "backend"}),
            "labels",
        ),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": "t", "labels": [long(65)]}),
            "labels[0]",
        ),
        (
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "t", "labels": ["x\u{202E}"]}]}),
            "tasks[0].labels[0]",
        ),
        (
            "task_items",
            "update",
            json!({"task_id": task, "labels": (0..21).map(|i| format!("l{i}")).collect::<Vec<_>>()}),
            "labels",
        ),
        (
            "task_audit",
            "get",
            json!({"list_id": list, "since": "yesterday"}),
            "since",
        ),
        (
            "task_audit",
            "get",
            json!({"list_id": list, "kinds": ["claimed", "stolen"]}),
            "kinds",
        ),
        (
            "task_audit",
            "get",
            json!({"list_id": list, "cursor": "x"}),
            "cursor",
        ),
        ("task_lists", "find", json!({"agent_id": ""}), "agent_id"),
        (
            "task_lists",
            "find",
            json!({"agent_id": "a\nb"}),
            "agent_id",
        ),
        (
            "task_lists",
            "find",
            json!({"agent_id": long(201)}),
            "agent_id",
        ),
    ];
    for (tool, action, params, needle) in cases {
        let e = db.err(A, tool, action, params.clone());
        assert_eq!(
            e.code,
            ErrorCode::InvalidParams,
            "{tool} {action} {params}: {:?} {}",
            e.code,
            e.message
        );
        assert!(
            e.message.contains(needle),
            "{tool} {action} {params}: {}",
            e.message
        );
    }
}

#[test]
fn length_limits_count_characters_not_bytes() {
    let db = TestDb::new();
    let name = "é".repeat(200);
    let d = db.ok(A, "task_lists", "create", json!({"name": name}));
    assert_eq!(s(&d, "/list/name"), name);
    let title = "日".repeat(500);
    let d = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": s(&d, "/list/id"), "title": title}),
    );
    assert_eq!(s(&d, "/task/title"), title);
}

#[test]
fn task_help_takes_no_params() {
    let db = TestDb::new();
    let e = db
        .call_raw(&ctx(A), "task_help", "all", r#"{"x": 1}"#)
        .unwrap_err();
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["task_help takes only action"],
    );
    let e = db
        .call_raw(&ctx(A), "task_help", "workflow", r#"{"agent_id": "a"}"#)
        .unwrap_err();
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["task_help takes only action"],
    );
    let e = db
        .call_json(
            &ctx(A),
            "task_help",
            r#"{"action":"schemas","params":{"tool":"task_items"}}"#,
        )
        .unwrap_err();
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["task_help takes only action"],
    );
    for params in ["", "{}", "null"] {
        db.call_raw(&ctx(A), "task_help", "all", params)
            .unwrap_or_else(|e| panic!("{params:?}: {e}"));
    }
    db.call_json(&ctx(A), "task_help", r#"{"action":"all","params":{}}"#)
        .unwrap();
}

#[test]
fn task_help_teaches_workflow_rules_schemas_and_examples() {
    let db = TestDb::new();
    let all = db.ok(A, "task_help", "all", Value::Null);
    for key in ["workflow", "rules", "schemas", "examples"] {
        assert!(!all[key].is_null(), "task_help all lacks {key}");
    }
    let wf = db.ok(A, "task_help", "workflow", Value::Null);
    let keys: Vec<&String> = wf.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 2, "{keys:?}");
    let workflow = wf["workflow"].to_string();
    for needle in [
        "task_lists find",
        "claim_next",
        "outcome",
        "blocked",
        "notes",
    ] {
        assert!(
            workflow.contains(needle),
            "workflow should mention {needle}"
        );
    }
    let rules = wf["rules"].to_string();
    for needle in [
        "bypass_private",
        "release_expired",
        "30-86400",
        "private_bypass",
        "in_progress",
    ] {
        assert!(rules.contains(needle), "rules should mention {needle}");
    }

    let schemas = db.ok(A, "task_help", "schemas", Value::Null)["schemas"].clone();
    // Every tool+action, task_help included (its params: none at all).
    let tools: Vec<&String> = schemas.as_object().unwrap().keys().collect();
    let published: Vec<&str> = tool_actions().iter().map(|(t, _)| *t).collect();
    assert_eq!(tools, published);
    for (tool, actions) in tool_actions() {
        let (tool, actions) = (*tool, actions.as_slice());
        let got: Vec<&String> = schemas[tool].as_object().unwrap().keys().collect();
        assert_eq!(got, actions, "{tool}");
        for action in actions {
            let schema = &schemas[tool][action]["schema"];
            assert_eq!(schema["type"], "object", "{tool} {action}");
            assert_eq!(schema["additionalProperties"], false, "{tool} {action}");
            assert!(
                schemas[tool][action]["summary"]
                    .as_str()
                    .is_some_and(|s| !s.is_empty()),
                "{tool} {action} lacks a summary"
            );
            if tool == "task_help" {
                assert_eq!(schema["properties"], json!({}), "{tool} {action}");
            } else {
                assert!(
                    schema["properties"]["agent_id"].is_object(),
                    "{tool} {action} lacks agent_id"
                );
            }
        }
    }
    // The bypass pair applies to actions that reach a list, not to create/find.
    assert!(
        schemas["task_claims"]["claim_next"]["schema"]["properties"]["bypass_private"].is_object()
    );
    assert!(schemas["task_lists"]["find"]["schema"]["properties"]["bypass_private"].is_null());
    assert_eq!(
        schemas["task_items"]["update"]["schema"]["required"],
        json!(["task_id"])
    );

    let examples = db.ok(A, "task_help", "examples", Value::Null)["examples"].clone();
    let examples = examples.as_array().unwrap();
    assert_eq!(examples.len(), 13, "one example per tool+action");
    for (tool, actions) in &tool_actions()[..4] {
        let tool = *tool;
        for action in actions {
            assert!(
                examples
                    .iter()
                    .any(|e| e["tool"] == tool && e["input"]["action"] == *action),
                "no example for {tool} {action}"
            );
        }
    }
}

/// `task_help schemas` is generated from the tables the validator uses:
/// every key it documents is accepted as a key, and nothing else is.
#[test]
fn help_schemas_agree_with_the_validator() {
    let db = TestDb::new();
    let schemas = db.ok(A, "task_help", "schemas", Value::Null)["schemas"].clone();
    for (tool, actions) in schemas.as_object().unwrap() {
        for (action, spec) in actions.as_object().unwrap() {
            let schema = &spec["schema"];
            let e = db.err(A, tool, action, json!({"zz_not_a_param": 1}));
            if tool == "task_help" {
                // task_help's schema is the empty object: it takes no params.
                assert_eq!(schema["properties"], json!({}), "{tool} {action}");
                expect(
                    &e,
                    ErrorCode::InvalidParams,
                    &["task_help takes only action"],
                );
                continue;
            }
            expect(
                &e,
                ErrorCode::InvalidParams,
                &["unknown parameter", "zz_not_a_param"],
            );
            for prop in schema["properties"].as_object().unwrap().keys() {
                // A value of the wrong type for every parameter: refused for
                // its value, never as an unknown key.
                let e = db.err(A, tool, action, json!({prop.as_str(): {"wrong": true}}));
                assert_eq!(
                    e.code,
                    ErrorCode::InvalidParams,
                    "{tool} {action} {prop}: {}",
                    e.message
                );
                assert!(
                    !e.message.contains("unknown parameter"),
                    "{tool} {action}: documented key {prop} is unknown to the validator: {}",
                    e.message
                );
            }
            match schema["required"].as_array() {
                Some(required) => {
                    let e = db.err(A, tool, action, json!({}));
                    let first = required[0].as_str().unwrap();
                    expect(
                        &e,
                        ErrorCode::InvalidParams,
                        &["missing required parameter", first],
                    );
                }
                None => {
                    if let Err(e) = db.call(&ctx(A), tool, action, &json!({})) {
                        assert!(
                            !e.message.contains("missing required"),
                            "{tool} {action}: {}",
                            e.message
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn huge_payload_is_refused_and_changes_nothing() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    db.add(&list, &["one"]);
    let before = db.snapshot(A, &list);
    let huge = "x".repeat(5 << 20);

    let params = json!({"list_id": list, "title": huge}).to_string();
    let e = db
        .call_raw(&ctx(A), "task_items", "create", &params)
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["over the limit"]);
    assert!(!e.hint.is_empty());

    let request =
        json!({"action": "create", "params": {"list_id": list, "title": huge}}).to_string();
    let e = db.call_json(&ctx(A), "task_items", &request).unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["over the limit"]);

    let notes: Vec<Value> = (0..5)
        .map(|i| json!({"title": format!("t{i}"), "notes": "y".repeat(1 << 20)}))
        .collect();
    let params = json!({"list_id": list, "tasks": notes}).to_string();
    assert!(params.len() > 5 << 20);
    let e = db
        .call_raw(&ctx(A), "task_items", "add_many", &params)
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &["over the limit"]);

    assert_eq!(db.snapshot(A, &list), before);
    // The host is still fine.
    db.add(&list, &["two"]);
}

#[test]
fn large_but_allowed_text_round_trips() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let notes = "n".repeat(65_536);
    let d = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "big", "notes": notes}),
    );
    assert_eq!(s(&d, "/task/notes").len(), 65_536);
    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "big", "notes": "n".repeat(65_537)}),
    );
    expect(&e, ErrorCode::InvalidParams, &["notes"]);
}

#[test]
fn sql_looking_strings_are_stored_verbatim_and_harmless() {
    let db = TestDb::new();
    let evil = "'); DROP TABLE tasks; --";
    let evil2 = "\" OR 1=1; DELETE FROM lists; --";
    let agent = "robert'); DROP TABLE lists;--";
    let d = db.ok(
        agent,
        "task_lists",
        "create",
        json!({"name": evil, "scope_type": "workspace", "scope_key": evil2}),
    );
    let list = s(&d, "/list/id");
    assert_eq!(s(&d, "/list/name"), evil);
    assert_eq!(s(&d, "/list/created_by_agent_id"), agent);
    let d = db.ok(
        agent,
        "task_items",
        "create",
        json!({"list_id": list, "title": evil, "description": evil2, "notes": "%_\\' --", "assigned_to_agent_id": agent}),
    );
    let task = s(&d, "/task/id");
    assert_eq!(s(&d, "/task/title"), evil);
    db.update(agent, json!({"task_id": task, "notes": evil}));

    let g = db.get("someone", &list);
    assert_eq!(g["list"]["name"], evil);
    assert_eq!(g["list"]["scope_key"], evil2);
    assert_eq!(g["tasks"][0]["title"], evil);
    assert_eq!(g["tasks"][0]["description"], evil2);
    assert_eq!(g["tasks"][0]["notes"], evil);
    assert_eq!(g["tasks"][0]["assigned_to_agent_id"], agent);

    // Found by a substring of the evil name, filtered by the evil scope key.
    let f = db.ok(
        "x",
        "task_lists",
        "find",
        json!({"name": "drop table", "scope_key": evil2}),
    );
    assert_eq!(strs(&f, "/lists", "id"), vec![list.clone()]);
    // The assignee (a weird agent id) can claim it.
    let c = db.claim(agent, &list);
    assert_eq!(s(&c, "/task/id"), task);

    // Every table is still there and works.
    let raw = db.dump();
    for table in ["[events]", "[lists]", "[task_deps]", "[tasks]"] {
        assert!(raw.contains(table), "{table} missing:\n{raw}");
    }
    db.add(&list, &["still works"]);
    assert_eq!(db.get("x", &list)["tasks"].as_array().unwrap().len(), 2);
}

#[test]
fn any_unicode_text_round_trips_verbatim() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let texts = [
        "multi\nline\r\nwith\ttabs",
        "emoji 😀👩‍💻 and RTL שלום and combining é\u{301}",
        "\u{1b}[31mansi\u{1b}[0m",
        "  padded  ",
    ];
    for text in texts {
        let d = db.ok(
            A,
            "task_items",
            "create",
            json!({"list_id": list, "title": text, "notes": text, "description": text}),
        );
        let id = s(&d, "/task/id");
        let t = db.task(A, &list, &id);
        for field in ["title", "notes", "description"] {
            assert_eq!(t[field], text, "{field} of {text:?}");
        }
    }
    // NUL is the one character refused (PostgreSQL's text cannot hold it),
    // typed and on every store alike, and the refusal changes nothing.
    let before = db.dump();
    for field in ["title", "notes", "description"] {
        let mut params = json!({"list_id": list, "title": "t"});
        params[field] = json!("nul\u{0}inside");
        let e = db.err(A, "task_items", "create", params);
        expect(&e, ErrorCode::InvalidParams, &[field, "NUL"]);
    }
    assert_eq!(db.dump(), before);
}

#[test]
fn deeply_nested_json_is_refused_typed() {
    let db = TestDb::new();
    let depth = 100_000;
    let nested = format!("{{\"name\": {}1{}}}", "[".repeat(depth), "]".repeat(depth));
    let e = db
        .call_raw(&ctx(A), "task_lists", "create", &nested)
        .unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &[]);
    let request = format!(
        "{{\"action\": \"find\", \"params\": {{\"x\": {}1{}}}}}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let e = db.call_json(&ctx(A), "task_lists", &request).unwrap_err();
    expect(&e, ErrorCode::InvalidParams, &[]);
    db.list(A, "still fine");
}

#[test]
fn like_wildcards_in_find_name_are_literal() {
    let db = TestDb::new();
    let pct = db.list(A, "100% done");
    let under = db.list(A, "a_b");
    db.list(A, "axb");
    db.list(A, "back\\slash");
    let find = |name: &str| {
        let f = db.ok(A, "task_lists", "find", json!({"name": name}));
        strs(&f, "/lists", "id")
    };
    assert_eq!(find("%"), vec![pct]);
    assert_eq!(find("_"), vec![under]);
    assert_eq!(find("\\").len(), 1);
    assert_eq!(find("a%b"), Vec::<String>::new());
}

#[test]
fn ids_are_prefixed_ulids_and_times_come_from_the_host_clock() {
    let db = TestDb::new();
    db.advance_ms(1234);
    let d = db.ok(A, "task_lists", "create", json!({"name": "Work"}));
    let list = s(&d, "/list/id");
    assert_eq!(s(&d, "/list/created_at"), "2026-11-30T12:00:01.234Z");
    assert_eq!(s(&d, "/list/updated_at"), "2026-11-30T12:00:01.234Z");
    let crockford = |id: &str, prefix: &str| {
        let rest = id
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{id} lacks {prefix}"));
        assert_eq!(rest.len(), 26, "{id}");
        assert!(
            rest.chars()
                .all(|c| c.is_ascii_digit() || (c.is_ascii_uppercase() && !"ILOU".contains(c))),
            "{id}"
        );
    };
    crockford(&list, "list_");

    db.clock.set_ms(T0 + 86_400_000 * 40 + 59_999);
    let ids = db.add(&list, &["a", "b", "c"]);
    let g = db.ok(
        A,
        "task_lists",
        "get",
        json!({"list_id": list, "include_times": true}),
    );
    for (i, id) in ids.iter().enumerate() {
        crockford(id, "task_");
        assert_eq!(g["tasks"][i]["created_at"], "2027-01-09T12:00:59.999Z");
    }
    let c = db.claim(A, &list);
    crockford(&s(&c, "/claim/token"), "claim_");
    assert_eq!(s(&c, "/task/started_at"), "2027-01-09T12:00:59.999Z");
    assert_eq!(s(&c, "/claim/expires_at"), "2027-01-09T12:15:59.999Z");
    let events = db.events(A, &list);
    let mut seen = std::collections::HashSet::new();
    for e in &events {
        crockford(e["id"].as_str().unwrap(), "evt_");
        assert!(seen.insert(e["id"].clone()), "duplicate event id");
    }
    let mut all: Vec<&String> = ids.iter().chain([&list]).collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 4);
}

#[test]
fn content_text_is_summary_newline_compact_json_with_full_ids() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let out = db.out(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "Write the parser"}),
    );
    let id = s(&out.data, "/task/id");
    let text = out.to_content_text();
    let (summary, json_text) = text.split_once('\n').unwrap();
    assert_eq!(summary, out.summary);
    assert!(
        summary.contains(&id),
        "summary lacks the full task id: {summary}"
    );
    assert!(
        summary.contains(&list),
        "summary lacks the full list id: {summary}"
    );
    assert!(!json_text.contains('\n'));
    assert_eq!(serde_json::from_str::<Value>(json_text).unwrap(), out.data);
    assert_eq!(json_text, out.data.json());

    let out = db.out(A, "task_claims", "claim_next", json!({"list_id": list}));
    assert!(out.summary.contains(&id), "{}", out.summary);
    let out = db.out(A, "task_lists", "get", json!({"list_id": list}));
    assert!(out.summary.contains(&list), "{}", out.summary);
}

#[test]
fn errors_always_carry_code_message_and_hint() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let replies = [
        db.reply(&ctx(A), "task_lists", "get", &json!({"listId": list})),
        db.reply(&ctx(A), "task_lists", "nope", &json!({})),
        db.reply(
            &ctx(A),
            "task_lists",
            "get",
            &json!({"list_id": GHOST_LIST}),
        ),
        db.reply(&anon(), "task_lists", "create", &json!({"name": "x"})),
    ];
    for reply in &replies {
        let e = reply.outcome.clone().expect_err("an error reply");
        let j = reply.structured_value();
        assert_eq!(reply.text, reply.structured, "the error object is the text");
        assert!(
            j["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
        assert_eq!(j["error"]["message"], e.message.as_str());
        assert!(j["error"]["hint"].is_string());
        assert_eq!(j["error"]["hint"], e.hint.as_str());
    }
    assert_eq!(
        replies
            .iter()
            .map(|r| r.structured_value()["error"]["code"]
                .as_str()
                .unwrap()
                .to_string())
            .collect::<Vec<_>>(),
        [
            "invalid_params",
            "unknown_action",
            "not_found",
            "agent_required"
        ]
    );
}

//! The published catalogue (five tools, annotations, input schemas) and
//! the component's imports (its whole capability surface).

use tasklists_tests::*;

/// The pin: the five tools in catalogue order, each with its actions in
/// published order (`tool_actions()` reads the same from the component).
const TOOL_ACTIONS: [(&str, &[&str]); 5] = [
    ("task_lists", &["create", "find", "get", "delete"]),
    (
        "task_items",
        &["create", "add_many", "update", "reorder", "delete"],
    ),
    ("task_claims", &["claim_next", "refresh", "release_expired"]),
    ("task_audit", &["get"]),
    ("task_help", &["all", "workflow", "schemas", "examples"]),
];

#[test]
fn the_published_actions_are_the_pinned_ones() {
    let pinned: Vec<(&str, Vec<&str>)> =
        TOOL_ACTIONS.iter().map(|(t, a)| (*t, a.to_vec())).collect();
    assert_eq!(tool_actions(), pinned.as_slice());
}

#[test]
fn five_tools_in_order_with_titles_and_descriptions() {
    let db = TestDb::new();
    let cat = db.host().catalogue().unwrap();
    let names: Vec<&str> = cat.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, TOOL_ACTIONS.map(|(n, _)| n));
    for (info, (_, actions)) in cat.iter().zip(TOOL_ACTIONS) {
        assert!(!info.title.trim().is_empty(), "{}", info.name);
        for action in actions {
            assert!(
                info.description.contains(action),
                "{} description lacks {action}: {}",
                info.name,
                info.description
            );
        }
    }
    assert!(
        cat[1].description.contains("in_progress"),
        "task_items warns against in_progress"
    );
    // Its size budget (4,000 bytes) and claim_next's signature are the
    // component's rules: `catalogue_is_small_and_complete` in
    // guest/src/registry/publish.rs.
}

#[test]
fn annotations_are_set_per_tool() {
    let db = TestDb::new();
    let cat = db.host().catalogue().unwrap();
    let ann = |i: usize| {
        let a = &cat[i].annotations;
        (a.read_only, a.destructive, a.idempotent, a.open_world)
    };
    // (read_only, destructive, idempotent, open_world)
    assert_eq!(
        ann(0),
        (false, true, false, false),
        "task_lists deletes lists"
    );
    assert_eq!(
        ann(1),
        (false, true, false, false),
        "task_items overwrites and deletes tasks"
    );
    assert_eq!(
        ann(2),
        (false, false, false, false),
        "task_claims changes state, never destroys"
    );
    assert_eq!(ann(3), (true, false, true, false), "task_audit only reads");
    assert_eq!(ann(4), (true, false, true, false), "task_help only reads");
}

#[test]
fn input_schemas_are_json_schema_objects_with_the_action_enum() {
    let db = TestDb::new();
    let cat = db.host().catalogue().unwrap();
    for (info, (name, actions)) in cat.iter().zip(TOOL_ACTIONS) {
        let s = &info.schema();
        assert_eq!(s["type"], "object", "{name}");
        assert_eq!(s["required"], json!(["action"]), "{name}");
        assert_eq!(s["additionalProperties"], false, "{name}");
        assert_eq!(s["properties"]["action"]["type"], "string", "{name}");
        assert_eq!(s["properties"]["action"]["enum"], json!(actions), "{name}");
        if name == "task_help" {
            assert!(
                s["properties"].get("params").is_none(),
                "task_help takes only action"
            );
        } else {
            assert_eq!(s["properties"]["params"]["type"], "object", "{name}");
        }
        // The schema round-trips as JSON text.
        let text = serde_json::to_string(s).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), *s);
    }
}

#[test]
fn every_published_action_is_accepted_and_no_other() {
    let db = TestDb::new();
    let cat = db.host().catalogue().unwrap();
    for info in &cat {
        let actions: Vec<String> = info.schema()["properties"]["action"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        for action in &actions {
            if let Err(e) = db.call(&ctx("a"), &info.name, action, &json!({})) {
                assert_ne!(
                    e.code,
                    ErrorCode::UnknownAction,
                    "{} {action}: {}",
                    info.name,
                    e.message
                );
            }
        }
        let e = db.err("a", &info.name, "not_an_action", json!({}));
        expect(
            &e,
            ErrorCode::UnknownAction,
            &actions.iter().map(String::as_str).collect::<Vec<_>>(),
        );
    }
}

/// The component can reach only its store, its clock and what Rust's std
/// needs from WASI (the host denies those anyway): no sockets, no HTTP.
#[test]
fn component_imports_are_only_the_store_the_clock_and_basic_wasi() {
    let db = TestDb::new();
    let imports = db.host().component_imports();
    eprintln!("component imports: {imports:?}");
    assert!(!imports.is_empty());
    let has = |prefix: &str| imports.iter().any(|i| i.starts_with(prefix));
    assert!(has("tasklists:component/store@"), "{imports:?}");
    assert!(has("tasklists:component/clock@"), "{imports:?}");
    // What Rust's wasip2 std needs, and nothing more: no filesystem, and no
    // WASI clocks (time comes only from the host clock capability, and a
    // guest that could sleep on a WASI pollable would escape the deadline).
    const WASI_ALLOWED: [&str; 3] = ["wasi:cli/", "wasi:io/", "wasi:random/"];
    for import in &imports {
        let ok = import.starts_with("tasklists:component/store@")
            || import.starts_with("tasklists:component/clock@")
            // A types-only interface (records and enums shared by the
            // exports): it declares no function, so it grants nothing.
            || import.starts_with("tasklists:component/types@")
            || WASI_ALLOWED.iter().any(|p| import.starts_with(p));
        assert!(ok, "unexpected import {import}; all imports: {imports:?}");
        // Times come only from the host clock capability, never from the
        // guest's own notion of time: no wall clock.
        for forbidden in [
            "wasi:sockets",
            "wasi:http",
            "wasi:keyvalue",
            "wasi:config",
            "wasi:clocks",
            "wasi:filesystem",
        ] {
            assert!(!import.starts_with(forbidden), "{import}");
        }
    }
}

#[test]
fn the_embedded_component_identifies_itself() {
    let sha = tasklists_host::component_sha256();
    assert_eq!(sha.len(), 64);
    assert!(
        sha.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
        "{sha}"
    );
    assert!(tasklists_host::component_size() > 10_000);
}

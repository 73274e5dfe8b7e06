//! Native unit tests of priority and verification against an in-memory
//! store (the contract suite repeats them through the real component, on
//! both stores).

use serde_json::{Value, json};

use crate::error::ErrorCode;
use crate::testing::Harness;

fn list(h: &Harness) -> String {
    h.create_list("planner", json!({"name": "Work"}))
}

fn add(h: &Harness, list: &str, tasks: Value) -> Vec<String> {
    h.add_many(list, tasks)
}

fn claim(h: &Harness, agent: &str, list: &str) -> Value {
    h.ok(agent, "task_claims", "claim_next", json!({"list_id": list}))["task"]["id"].clone()
}

#[test]
fn claim_next_takes_the_highest_priority_then_the_lowest_position() {
    let h = Harness::default();
    let l = list(&h);
    let ids = add(
        &h,
        &l,
        json!([
            {"title": "low", "priority": "low"},
            {"title": "medium"},
            {"title": "high 1", "priority": "high"},
            {"title": "medium 2", "priority": "medium"},
            {"title": "high 2", "priority": "high"},
        ]),
    );
    let order: Vec<Value> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|a| claim(&h, a, &l))
        .collect();
    let want: Vec<Value> = [2, 4, 1, 3, 0].iter().map(|&i| json!(ids[i])).collect();
    assert_eq!(order[..5], want[..]);
    assert_eq!(order[5], Value::Null);
}

#[test]
fn priority_shows_only_when_not_medium_and_filters_get() {
    let h = Harness::default();
    let l = list(&h);
    let t = h.ok(
        "planner",
        "task_items",
        "create",
        json!({"list_id": l, "title": "urgent", "priority": "high"}),
    );
    assert_eq!(t["task"]["priority"], "high");
    let id = t["task"]["id"].as_str().unwrap().to_string();
    add(
        &h,
        &l,
        json!([{"title": "plain"}, {"title": "later", "priority": "low"}]),
    );
    let g = h.ok("x", "task_lists", "get", json!({"list_id": l}));
    let shown: Vec<&Value> = g["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["priority"])
        .collect();
    assert_eq!(shown, [&json!("high"), &Value::Null, &json!("low")]);
    let g = h.ok(
        "x",
        "task_lists",
        "get",
        json!({"list_id": l, "priority": ["high", "low"]}),
    );
    let titles: Vec<&str> = g["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["urgent", "later"]);
    let u = h.ok(
        "planner",
        "task_items",
        "update",
        json!({"task_id": id, "priority": "medium"}),
    );
    assert!(u["task"].get("priority").is_none(), "{u}");
    let bad = h.call(
        Some("planner"),
        "task_items",
        "update",
        json!({"task_id": id, "priority": "urgent"}),
    );
    assert_eq!(bad.unwrap_err().code, ErrorCode::InvalidParams);
}

#[test]
fn a_task_with_a_verification_closes_as_done_only_with_its_result() {
    let h = Harness::default();
    let l = list(&h);
    let ids = add(
        &h,
        &l,
        json!([{"title": "checked", "verification": "cargo test passes"}, {"title": "plain"}]),
    );
    let close = |id: &str, extra: Value| {
        let mut p = json!({"task_id": id, "status": "done", "outcome": "did it"});
        p.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        h.call(Some("planner"), "task_items", "update", p)
    };
    for extra in [json!({}), json!({"verification_result": "  "})] {
        let e = close(&ids[0], extra).unwrap_err();
        assert_eq!(e.code, ErrorCode::VerificationRequired);
        assert!(e.message.contains(&ids[0]) && e.message.contains("cargo test passes"));
        assert!(e.hint.contains("verification_result"), "{}", e.hint);
    }
    // Not needed without a verification.
    close(&ids[1], json!({})).unwrap();
    // Set in the same call: needed too.
    let e = close(&ids[1], json!({"verification": "look at it"})).unwrap_err();
    assert_eq!(e.code, ErrorCode::VerificationRequired);
    let done = close(&ids[0], json!({"verification_result": "42 passed"})).unwrap();
    let task = &done.json()["task"];
    assert_eq!(task["verification"], "cargo test passes");
    assert_eq!(task["verification_result"], "42 passed");
    // A done task's result is never blanked.
    let e = h
        .call(
            Some("planner"),
            "task_items",
            "update",
            json!({"task_id": ids[0], "verification_result": ""}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::VerificationRequired);
    // An empty verification removes the check.
    let t = h.ok(
        "planner",
        "task_items",
        "update",
        json!({"task_id": ids[1], "verification": ""}),
    );
    assert!(t["task"].get("verification").is_none(), "{t}");
}

//! Native unit tests of the actions against an in-memory store. The same
//! rules are tested again through the real component in `tests/`.

use serde_json::{Value, json};

use crate::error::ErrorCode;
use crate::testing::Harness;

fn list(h: &Harness, agent: &str) -> String {
    h.create_list(agent, json!({"name": "Work"}))
}

fn add(h: &Harness, list: &str, titles: &[&str]) -> Vec<String> {
    h.add(list, titles)
}

fn code(r: crate::error::ToolResult<crate::actions::Output>) -> ErrorCode {
    r.expect_err("call should fail").code
}

#[test]
fn standard_workflow_runs_to_the_end() {
    let h = Harness::default();
    let l = list(&h, "planner");
    let ids = add(&h, &l, &["one", "two"]);
    let c = h.ok("a", "task_claims", "claim_next", json!({"list_id": l}));
    assert_eq!(c["task"]["id"], ids[0].as_str());
    assert_eq!(c["task"]["status"], "in_progress");
    let token = c["claim"]["token"].as_str().unwrap().to_string();
    h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "halfway", "claim_token": token}),
    );
    h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "outcome": "did it"}),
    );
    let c = h.ok("a", "task_claims", "claim_next", json!({"list_id": l}));
    assert_eq!(c["task"]["id"], ids[1].as_str());
    h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": ids[1], "status": "canceled", "outcome": "not needed"}),
    );
    let c = h.ok("a", "task_claims", "claim_next", json!({"list_id": l}));
    assert_eq!(c["task"], Value::Null);
    assert_eq!(c["waiting"]["blocked"], 0);
    let g = h.ok("a", "task_lists", "get", json!({"list_id": l}));
    assert_eq!(g["counts"]["done"], 1);
    assert_eq!(g["counts"]["canceled"], 1);
    assert_eq!(g["tasks"][0]["outcome"], "did it");
}

#[test]
fn two_agents_get_different_tasks_and_retry_resumes() {
    let h = Harness::default();
    let l = list(&h, "planner");
    add(&h, &l, &["one", "two"]);
    let a = h.ok("a", "task_claims", "claim_next", json!({"list_id": l}));
    let b = h.ok("b", "task_claims", "claim_next", json!({"list_id": l}));
    assert_ne!(a["task"]["id"], b["task"]["id"]);
    let again = h.ok("a", "task_claims", "claim_next", json!({"list_id": l}));
    assert_eq!(again["task"]["id"], a["task"]["id"]);
    assert_eq!(again["resumed"], true);
    assert_eq!(again["claim"]["token"], a["claim"]["token"]);
    let c = h.ok("c", "task_claims", "claim_next", json!({"list_id": l}));
    assert_eq!(c["waiting"]["claimed_by_others"], 2);
}

#[test]
fn update_rules() {
    let h = Harness::default();
    let l = list(&h, "planner");
    let ids = add(&h, &l, &["one"]);
    h.ok("a", "task_claims", "claim_next", json!({"list_id": l}));
    let other = h.call(
        Some("b"),
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "x"}),
    );
    assert_eq!(code(other), ErrorCode::Conflict);
    let no_outcome = h.call(
        Some("a"),
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done"}),
    );
    assert_eq!(code(no_outcome), ErrorCode::OutcomeRequired);
    let in_progress = h.call(
        Some("a"),
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "in_progress"}),
    );
    assert_eq!(code(in_progress), ErrorCode::Conflict);
    let t = h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "blocked"}),
    );
    assert_eq!(t["task"]["assigned_to_agent_id"], "a");
    assert!(t["task"].get("claimed_by_agent_id").is_none());
    let b = h.ok("b", "task_claims", "claim_next", json!({"list_id": l}));
    assert_eq!(b["task"], Value::Null);
}

#[test]
fn validation_names_keys_and_kinds() {
    let h = Harness::default();
    let l = list(&h, "planner");
    let e = h
        .call(Some("a"), "task_claims", "claim_next", json!({"listId": l}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParams);
    assert!(
        e.message.contains("did you mean \"list_id\""),
        "{}",
        e.message
    );
    assert!(e.hint.contains("allowed: list_id"), "{}", e.hint);
    let e = h
        .call(Some("a"), "task_items", "update", json!({"task_id": l}))
        .unwrap_err();
    assert!(e.message.contains("is a list id"), "{}", e.message);
    let e = h
        .call(Some("a"), "task_claims", "claim", json!({}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::UnknownAction);
    assert!(e.message.contains("claim_next"), "{}", e.message);
    let e = h
        .call(None, "task_lists", "create", json!({"name": "x"}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::AgentRequired);
}

#[test]
fn cycles_are_refused_and_named() {
    let h = Harness::default();
    let l = list(&h, "planner");
    let e = h
        .call(
            Some("p"),
            "task_items",
            "add_many",
            json!({"list_id": l, "tasks": [
            {"ref": "a", "title": "A", "depends_on": ["b"]},
            {"ref": "b", "title": "B", "depends_on": ["a"]}]}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Cycle);
    assert!(
        e.message.contains("\"a\"") && e.message.contains("\"b\""),
        "{}",
        e.message
    );
    let ids = add(&h, &l, &["x", "y"]);
    h.ok(
        "p",
        "task_items",
        "update",
        json!({"task_id": ids[1], "depends_on": [ids[0]]}),
    );
    let e = h
        .call(
            Some("p"),
            "task_items",
            "update",
            json!({"task_id": ids[0], "depends_on": [ids[1]]}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Cycle);
}

#[test]
fn reorder_and_delete_keep_positions_dense() {
    let h = Harness::default();
    let l = list(&h, "planner");
    let ids = add(&h, &l, &["a", "b", "c", "d"]);
    // The order as get shows it.
    let order = |h: &Harness| -> Vec<String> {
        let g = h.ok("p", "task_lists", "get", json!({"list_id": l}));
        g["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, t)| {
                assert_eq!(t["position"], i as i64 + 1, "dense: {g}");
                t["id"].as_str().unwrap().to_string()
            })
            .collect()
    };
    // Each move: the params, what it returns (the moved tasks at their
    // new positions, how many others shifted), the order after it.
    let (a, b, c, d) = (&ids[0], &ids[1], &ids[2], &ids[3]);
    let moves = [
        (
            json!({"task_ids": [d, c], "position": 1}),
            json!({"tasks": [{"id": d, "position": 1}, {"id": c, "position": 2}], "shifted": 2}),
            [d, c, a, b],
        ),
        (
            json!({"task_ids": [d], "after_task_id": b}),
            json!({"tasks": [{"id": d, "position": 4}], "shifted": 3}),
            [c, a, b, d],
        ),
        (
            json!({"task_ids": [b], "before_task_id": a}),
            json!({"tasks": [{"id": b, "position": 2}], "shifted": 1}),
            [c, b, a, d],
        ),
        // Already there: nothing changes, nothing shifts.
        (
            json!({"task_ids": [c, b]}),
            json!({"tasks": [{"id": c, "position": 1}, {"id": b, "position": 2}], "shifted": 0}),
            [c, b, a, d],
        ),
        (
            json!({"task_ids": [b, a], "after_task_id": d}),
            json!({"tasks": [{"id": b, "position": 3}, {"id": a, "position": 4}], "shifted": 1}),
            [c, d, b, a],
        ),
        // Every id, no anchor: the whole order is set.
        (
            json!({"task_ids": [c, a, b, d]}),
            json!({"tasks": [{"id": c, "position": 1}, {"id": a, "position": 2}, {"id": b, "position": 3}, {"id": d, "position": 4}], "shifted": 0}),
            [c, a, b, d],
        ),
    ];
    for (mut params, result, after) in moves {
        params["list_id"] = json!(l);
        assert_eq!(
            h.ok("p", "task_items", "reorder", params.clone()),
            result,
            "{params}"
        );
        assert_eq!(order(&h), after.map(String::clone), "{params}");
    }
    h.ok("p", "task_items", "delete", json!({"task_ids": [ids[0]]}));
    let g = h.ok("p", "task_lists", "get", json!({"list_id": l}));
    let pos: Vec<(i64, &str)> = g["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["position"].as_i64().unwrap(), t["id"].as_str().unwrap()))
        .collect();
    assert_eq!(
        pos,
        [
            (1, ids[2].as_str()),
            (2, ids[1].as_str()),
            (3, ids[3].as_str())
        ]
    );
}

#[test]
fn leases_expire_and_release_is_idempotent() {
    let h = Harness::default();
    let l = list(&h, "planner");
    let ids = add(&h, &l, &["a"]);
    h.ok(
        "a",
        "task_claims",
        "claim_next",
        json!({"list_id": l, "lease_seconds": 60}),
    );
    h.advance_secs(61);
    let r = h.ok("b", "task_claims", "release_expired", json!({"list_id": l}));
    assert_eq!(r["released"], json!([ids[0]]));
    let r = h.ok("b", "task_claims", "release_expired", json!({"list_id": l}));
    assert_eq!(r["released"], json!([]));
    let b = h.ok("b", "task_claims", "claim_next", json!({"list_id": l}));
    assert_eq!(b["task"]["id"], ids[0].as_str());
}

#[test]
fn private_lists_need_an_audited_bypass() {
    let h = Harness::default();
    let d = h.ok(
        "owner",
        "task_lists",
        "create",
        json!({"name": "Mine", "visibility": "private"}),
    );
    let l = d["list"]["id"].as_str().unwrap();
    let e = h
        .call(Some("other"), "task_lists", "get", json!({"list_id": l}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Forbidden);
    h.ok(
        "other",
        "task_lists",
        "get",
        json!({"list_id": l, "bypass_private": true, "bypass_reason": "debugging"}),
    );
    let a = h.ok("owner", "task_audit", "get", json!({}));
    assert_eq!(a["events"][0]["kind"], "private_bypass");
    assert_eq!(a["events"][0]["agent_id"], "other");
    assert_eq!(a["events"][0]["data"]["reason"], "debugging");
    let f = h.ok("other", "task_lists", "find", json!({}));
    assert_eq!(f["lists"], json!([]));
}

#[test]
fn add_many_refs_resolve_before_and_after_even_when_they_look_like_ids() {
    let h = Harness::default();
    let l = list(&h, "planner");
    let d = h.ok(
        "p",
        "task_items",
        "add_many",
        json!({"list_id": l, "tasks": [
            {"ref": "task_1", "title": "A", "depends_on": ["later"]},
            {"ref": "later", "title": "B"},
            {"title": "C", "depends_on": ["task_1"]}]}),
    );
    let ids: Vec<&str> = d["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(d["tasks"][0]["depends_on"], json!([ids[1]]));
    assert_eq!(d["tasks"][2]["depends_on"], json!([ids[0]]));
    let e = h
        .call(
            Some("p"),
            "task_items",
            "add_many",
            json!({"list_id": l, "tasks": [{"title": "X", "depends_on": ["nope"]}]}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParams);
    assert!(e.message.contains("neither a ref"), "{}", e.message);
}

#[test]
fn blank_names_and_titles_are_refused() {
    let h = Harness::default();
    let e = h
        .call(Some("a"), "task_lists", "create", json!({"name": "   "}))
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParams);
    assert!(e.message.contains("non-blank"), "{}", e.message);
    let l = list(&h, "a");
    let e = h
        .call(
            Some("a"),
            "task_items",
            "create",
            json!({"list_id": l, "title": "\t\n"}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParams);
    // Notes and descriptions may be emptied.
    let ids = add(&h, &l, &["x"]);
    h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": ""}),
    );
}

/// A character JSON escapes to 12 bytes (a surrogate pair of `\u` escapes).
const TAG: char = '\u{e0001}';

#[test]
fn a_long_add_many_is_stored_whole_and_echoed_cut() {
    let h = Harness::default();
    let l = list(&h, "a");
    // Three tasks at a task's bound: 2.4 MB of echo.
    let title = TAG.to_string().repeat(499);
    let description = TAG.to_string().repeat(65_536);
    let tasks: Vec<Value> = (0..3)
        .map(|i| json!({"title": format!("{i}{title}"), "description": description, "ref": format!("r{i}"), "depends_on": if i > 0 { vec!["r0"] } else { vec![] }}))
        .collect();
    let out = h
        .call(
            Some("a"),
            "task_items",
            "add_many",
            json!({"list_id": l, "tasks": tasks}),
        )
        .unwrap();
    let text = &out.data;
    assert!(
        text.len() <= crate::text_budget::ECHO_BYTES,
        "{}",
        text.len()
    );
    assert!(
        out.summary.ends_with(crate::text_budget::ECHO_CUT_NOTE),
        "{}",
        out.summary
    );
    let data = out.json();
    let echoed = data["tasks"].as_array().unwrap();
    assert_eq!(echoed.len(), 3);
    let ids: Vec<&str> = echoed.iter().map(|t| t["id"].as_str().unwrap()).collect();
    for (i, t) in echoed.iter().enumerate() {
        let d = t["description"].as_str().unwrap();
        assert!(d.starts_with(TAG), "{i}");
        assert!(
            d.ends_with(
                "not shown in this echo; the task is stored whole: task_lists get shows it]"
            ),
            "{i}"
        );
        // The titles fit: only the long texts are cut.
        assert_eq!(t["title"], format!("{i}{title}"));
        if i > 0 {
            assert_eq!(t["depends_on"], json!([ids[0]]));
        }
    }
    // Stored whole: a get page shows each task's texts as sent.
    let mut cursor = Value::Null;
    let mut seen = 0;
    loop {
        let mut p = json!({"list_id": l});
        if !cursor.is_null() {
            p["cursor"] = cursor.clone();
        }
        let g = h.ok("a", "task_lists", "get", p);
        for t in g["tasks"].as_array().unwrap() {
            assert_eq!(t["id"], ids[seen]);
            assert_eq!(t["description"], description.as_str());
            seen += 1;
        }
        cursor = g["next_cursor"].clone();
        if cursor.is_null() {
            break;
        }
    }
    assert_eq!(seen, 3);
}

#[test]
fn one_add_many_names_at_most_5000_dependencies() {
    let h = Harness::default();
    let l = list(&h, "a");
    let refs: Vec<String> = (0..100).map(|i| format!("r{i}")).collect();
    // 500 items naming 100 refs each, but the first: 49,900.
    let tasks: Vec<Value> = (0..500)
        .map(|i| match i {
            0..100 => json!({"title": "t", "ref": refs[i]}),
            _ => json!({"title": "t", "depends_on": refs}),
        })
        .collect();
    let e = h
        .call(
            Some("a"),
            "task_items",
            "add_many",
            json!({"list_id": l, "tasks": tasks}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidParams);
    assert!(
        e.message.starts_with(
            "the tasks name 40000 dependencies together; one add_many takes at most 5000"
        ),
        "{}",
        e.message
    );
    // 5000 are taken.
    let tasks: Vec<Value> = (0..150)
        .map(|i| match i {
            0..100 => json!({"title": "t", "ref": refs[i]}),
            _ => json!({"title": "t", "depends_on": refs}),
        })
        .collect();
    h.ok(
        "a",
        "task_items",
        "add_many",
        json!({"list_id": l, "tasks": tasks}),
    );
}

#[test]
fn find_pages_long_lists_by_size() {
    let h = Harness::default();
    // 40 lists of 14 KB each (a 200-character name and a 1000-character
    // scope_key of escaped characters): 560 KB, more than a page.
    for i in 0..40 {
        h.ok(
            "a",
            "task_lists",
            "create",
            json!({"name": format!("{:02}{}", i, TAG.to_string().repeat(198)), "scope_key": TAG.to_string().repeat(1000)}),
        );
    }
    let mut cursor = Value::Null;
    let mut pages = Vec::new();
    loop {
        let mut p = json!({"limit": 200});
        if !cursor.is_null() {
            p["cursor"] = cursor.clone();
        }
        let out = h.call(Some("a"), "task_lists", "find", p).unwrap();
        let text = &out.data;
        assert!(text.len() < 300 * 1024, "{}", text.len());
        pages.push(out.json()["lists"].as_array().unwrap().len());
        cursor = out.json()["next_cursor"].clone();
        if cursor.is_null() {
            break;
        }
    }
    assert!(pages.len() >= 3, "{pages:?}");
    assert_eq!(pages.iter().sum::<usize>(), 40, "{pages:?}");
}

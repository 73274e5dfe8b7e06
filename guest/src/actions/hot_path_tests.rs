//! The hot paths' shortcuts keep the contract: the list counters the
//! triggers keep equal a full count after every kind of write, and the
//! folded queries of `claim_next` and of loading a task read indexes only.

use serde_json::{Value, json};

use crate::store::Store;
use crate::testing::Harness;

/// The counters of every list, beside a GROUP BY over its live tasks.
fn counters_and_counts(h: &Harness) -> Vec<(String, Vec<i64>, Vec<i64>)> {
    let tx = h.store.begin(false).unwrap();
    let lists = tx
        .query(
            "SELECT id, todo_count, in_progress_count, blocked_count, done_count, canceled_count FROM lists ORDER BY id",
            &[],
        )
        .unwrap()
        .rows;
    lists
        .iter()
        .map(|r| {
            let id = r[0].as_str().unwrap().to_string();
            let kept: Vec<i64> = r[1..].iter().map(|v| v.as_i64().unwrap()).collect();
            let counted: Vec<i64> = ["todo", "in_progress", "blocked", "done", "canceled"]
                .iter()
                .map(|s| {
                    tx.query(
                        "SELECT COUNT(*) FROM tasks WHERE list_id = ? AND status = ? AND deleted_at IS NULL",
                        crate::params![id.as_str(), *s],
                    )
                    .unwrap()
                    .rows[0][0]
                        .as_i64()
                        .unwrap()
                })
                .collect();
            (id, kept, counted)
        })
        .collect()
}

fn assert_counters(h: &Harness, after: &str) {
    for (list, kept, counted) in counters_and_counts(h) {
        assert_eq!(kept, counted, "list {list} after {after}");
    }
}

#[test]
fn list_counters_follow_every_write() {
    let h = Harness::default();
    let l = h.ok("planner", "task_lists", "create", json!({"name": "Work"}))["list"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let other = h.ok("planner", "task_lists", "create", json!({"name": "Other"}))["list"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let tasks: Vec<Value> = (0..6).map(|i| json!({"title": format!("t{i}")})).collect();
    let added = h.ok(
        "planner",
        "task_items",
        "add_many",
        json!({"list_id": l, "tasks": tasks}),
    );
    let ids: Vec<String> = added["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    assert_counters(&h, "add_many");
    h.ok(
        "planner",
        "task_items",
        "create",
        json!({"list_id": other, "title": "x", "position": 1}),
    );
    assert_counters(&h, "create");
    let c = h.ok(
        "a",
        "task_claims",
        "claim_next",
        json!({"list_id": l, "lease_seconds": 60}),
    );
    assert_counters(&h, "claim_next");
    let claimed = c["task"]["id"].as_str().unwrap().to_string();
    h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": claimed, "status": "done", "outcome": "ok"}),
    );
    assert_counters(&h, "done");
    h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": ids[1], "status": "blocked", "notes": "wait"}),
    );
    h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": ids[2], "status": "canceled", "outcome": "no"}),
    );
    h.ok(
        "a",
        "task_items",
        "update",
        json!({"task_id": claimed, "status": "todo"}),
    );
    assert_counters(&h, "status changes and a reopen");
    h.ok(
        "b",
        "task_claims",
        "claim_next",
        json!({"list_id": l, "lease_seconds": 60}),
    );
    h.advance_secs(120);
    h.ok("c", "task_claims", "release_expired", json!({"list_id": l}));
    assert_counters(&h, "release_expired");
    h.ok("a", "task_items", "delete", json!({"task_ids": [ids[3]]}));
    assert_counters(&h, "delete");
    h.ok(
        "a",
        "task_items",
        "reorder",
        json!({"list_id": l, "task_ids": [ids[5]], "position": 1}),
    );
    h.ok("planner", "task_lists", "delete", json!({"list_id": l}));
    assert_counters(&h, "list delete");
}

#[test]
fn every_task_write_marks_its_list_changed() {
    let h = Harness::default();
    let l = h.ok("planner", "task_lists", "create", json!({"name": "Work"}))["list"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let updated = |h: &Harness| {
        h.ok(
            "planner",
            "task_lists",
            "get",
            json!({"list_id": l, "include_tasks": false}),
        )["list"]["updated_at"]
            .clone()
    };
    let before = updated(&h);
    h.advance_secs(5);
    let t = h.ok(
        "planner",
        "task_items",
        "create",
        json!({"list_id": l, "title": "x"}),
    );
    let after_create = updated(&h);
    assert_ne!(before, after_create, "a new task touches its list");
    h.advance_secs(5);
    h.ok(
        "planner",
        "task_items",
        "update",
        json!({"task_id": t["task"]["id"], "notes": "n"}),
    );
    assert_ne!(after_create, updated(&h), "a note touches its list");
}

#[test]
fn folded_queries_read_indexes() {
    let h = Harness::default();
    let l = h.ok("planner", "task_lists", "create", json!({"name": "Work"}))["list"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    h.ok(
        "planner",
        "task_items",
        "create",
        json!({"list_id": l, "title": "x"}),
    );
    let tx = h.store.begin(false).unwrap();
    for (sql, args) in [
        (
            super::claims::pick_query(),
            vec![l.as_str().into(), "me".into(), 0i64.into()],
        ),
        // Asking for labels filters the same walk of the open tasks.
        (
            super::claims::pick_query_for(2),
            vec![
                l.as_str().into(),
                "me".into(),
                0i64.into(),
                "\n".into(),
                crate::model::label_mark("db").into(),
                crate::model::label_mark("ui").into(),
            ],
        ),
        (super::access::task_query(), vec!["task_x".into()]),
    ] {
        let plan: Vec<String> = tx
            .query(&format!("EXPLAIN QUERY PLAN {sql}"), &args)
            .unwrap()
            .rows
            .iter()
            .filter_map(|r| r.last().and_then(|v| v.as_str()).map(str::to_string))
            .collect();
        for step in &plan {
            let full_scan = step.starts_with("SCAN") && !step.contains("USING");
            assert!(!full_scan, "{step} in the plan of {sql}: {plan:?}");
        }
    }
}

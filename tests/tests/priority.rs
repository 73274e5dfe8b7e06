//! Priority and verification through the real component: priority in
//! create, add_many, update and as a get filter; claim_next by priority
//! then position, dependencies and assignments still respected; closing a
//! task that has a verification needs its result (`verification_required`),
//! and nothing is changed by a refused close.

use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";

/// The priority a task's JSON says (absent: medium).
fn priority(task: &Value) -> &str {
    task.get("priority")
        .map_or("medium", |p| p.as_str().unwrap())
}

#[test]
fn priority_is_set_by_create_add_many_and_update_and_shown_only_when_not_medium() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let t = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "urgent", "priority": "high"}),
    );
    assert_eq!(t["task"]["priority"], "high");
    let urgent = s(&t, "/task/id");
    let t = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "plain", "priority": "medium"}),
    );
    assert!(t["task"].get("priority").is_none(), "{t}");
    let added = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"title": "later", "priority": "low"}, {"title": "default"}
        ]}),
    );
    let shown: Vec<&str> = added["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(priority)
        .collect();
    assert_eq!(shown, ["low", "medium"]);
    assert!(added["tasks"][1].get("priority").is_none());

    let u = db.update(A, json!({"task_id": urgent, "priority": "low"}));
    assert_eq!(u["task"]["priority"], "low");
    let events = db.events(A, &list);
    let last = events.first().unwrap();
    assert_eq!(last["kind"], "updated");
    assert_eq!(last["data"]["fields"], json!(["priority"]));
    let u = db.update(A, json!({"task_id": urgent, "priority": "medium"}));
    assert!(u["task"].get("priority").is_none(), "{u}");
    // Setting the priority it already has changes nothing.
    let before = db.snapshot(A, &list);
    db.update(A, json!({"task_id": urgent, "priority": "medium"}));
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn an_unknown_priority_is_invalid_everywhere_and_changes_nothing() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a"]);
    let before = db.snapshot(A, &list);
    for (action, params) in [
        (
            "create",
            json!({"list_id": list, "title": "x", "priority": "urgent"}),
        ),
        (
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "x", "priority": "HIGH"}]}),
        ),
        ("update", json!({"task_id": ids[0], "priority": 1})),
        ("update", json!({"task_id": ids[0], "priority": null})),
    ] {
        let e = db.err(A, "task_items", action, params);
        expect(&e, ErrorCode::InvalidParams, &["priority"]);
    }
    let e = db.err(
        A,
        "task_lists",
        "get",
        json!({"list_id": list, "priority": ["high", "top"]}),
    );
    expect(&e, ErrorCode::InvalidParams, &["priority"]);
    assert_eq!(db.snapshot(A, &list), before);
}

#[test]
fn get_filters_by_priority_with_status_and_pages() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let tasks: Vec<Value> = (0..30)
        .map(|i| {
            let p = ["high", "medium", "low"][i % 3];
            json!({"title": format!("t{i:02}"), "priority": p})
        })
        .collect();
    let ids = db.add_tasks(&list, &tasks);
    db.update(
        A,
        json!({"task_id": ids[0], "status": "done", "outcome": "ok"}),
    );
    let titles = |params: Value| -> Vec<String> {
        db.all_tasks(A, &list, params)
            .iter()
            .map(|t| s(t, "/title"))
            .collect()
    };
    let high = titles(json!({"priority": "high", "limit": 3}));
    assert_eq!(high.len(), 10);
    assert!(
        high.iter()
            .all(|t| t[1..].parse::<usize>().unwrap() % 3 == 0)
    );
    assert_eq!(
        titles(json!({"priority": ["high", "low"], "status": "todo"})).len(),
        19
    );
    let medium = db.all_tasks(A, &list, json!({"priority": "medium"}));
    assert_eq!(medium.len(), 10);
    assert!(medium.iter().all(|t| t.get("priority").is_none()));
    // The counts still cover the whole list.
    let g = db.ok(
        A,
        "task_lists",
        "get",
        json!({"list_id": list, "priority": "low"}),
    );
    assert_eq!(g["counts"]["todo"], 29);
}

#[test]
fn claim_next_hands_out_high_then_medium_then_low_each_by_position() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add_tasks(
        &list,
        &[
            json!({"title": "low 1", "priority": "low"}),
            json!({"title": "medium 1"}),
            json!({"title": "high 1", "priority": "high"}),
            json!({"title": "low 2", "priority": "low"}),
            json!({"title": "high 2", "priority": "high"}),
            json!({"title": "medium 2", "priority": "medium"}),
        ],
    );
    let mut order = Vec::new();
    for i in 0..7 {
        let c = db.claim(&format!("agent-{i}"), &list);
        order.push(c["task"]["id"].as_str().map(str::to_string));
    }
    let want: Vec<Option<String>> = [2, 4, 1, 5, 0, 3]
        .iter()
        .map(|&i| Some(ids[i].clone()))
        .chain([None])
        .collect();
    assert_eq!(order, want);
    // A task raised to high later goes first among what is left.
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a", "b", "c"]);
    db.update(A, json!({"task_id": ids[2], "priority": "high"}));
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[2]);
    // A held claim is handed back whatever the priorities now are.
    db.update(A, json!({"task_id": ids[0], "priority": "high"}));
    let again = db.claim(B, &list);
    assert_eq!(s(&again, "/task/id"), ids[2]);
    assert_eq!(again["resumed"], true);
}

#[test]
fn claim_next_by_priority_still_respects_dependencies_and_assignments() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add_tasks(
        &list,
        &[
            json!({"ref": "base", "title": "base", "priority": "low"}),
            json!({"title": "needs base", "priority": "high", "depends_on": ["base"]}),
            json!({"title": "for B", "priority": "high", "assigned_to_agent_id": B}),
            json!({"title": "medium"}),
        ],
    );
    // A: the high tasks wait on a dependency or are B's: medium first.
    assert_eq!(s(&db.claim(A, &list), "/task/id"), ids[3]);
    // B: its own high task before anything else.
    assert_eq!(s(&db.claim(B, &list), "/task/id"), ids[2]);
    // C: only the low base is ready.
    assert_eq!(s(&db.claim("builder-3", &list), "/task/id"), ids[0]);
    db.update(
        "builder-3",
        json!({"task_id": ids[0], "status": "done", "outcome": "base laid"}),
    );
    // Now the high task whose dependency is done is ready.
    assert_eq!(s(&db.claim("builder-3", &list), "/task/id"), ids[1]);
    // Nothing left for D; blocked and held tasks are not handed out.
    let d = db.claim("builder-4", &list);
    assert!(d["task"].is_null());
    assert_eq!(d["waiting"]["claimed_by_others"], 3);
}

#[test]
fn a_task_with_a_verification_closes_as_done_only_with_its_result() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let created = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "parser", "verification": "cargo test -p parser passes"}),
    );
    assert_eq!(
        created["task"]["verification"],
        "cargo test -p parser passes"
    );
    let checked = s(&created, "/task/id");
    let added = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"title": "docs", "verification": "the page renders"}, {"title": "plain"}
        ]}),
    );
    let ids = strs(&added, "/tasks", "id");
    assert_eq!(added["tasks"][0]["verification"], "the page renders");
    assert!(added["tasks"][1].get("verification").is_none());
    let c = db.claim(B, &list);
    assert_eq!(s(&c, "/task/id"), checked);
    assert_eq!(c["task"]["verification"], "cargo test -p parser passes");

    // Required: refused without a result, or with a blank one; nothing
    // changes, the claim stays.
    let before = db.snapshot(A, &list);
    for result in [None, Some(""), Some(" \n\t")] {
        let mut p = json!({"task_id": checked, "status": "done", "outcome": "parser written"});
        if let Some(r) = result {
            p["verification_result"] = json!(r);
        }
        let e = db.err(B, "task_items", "update", p);
        expect(
            &e,
            ErrorCode::VerificationRequired,
            &[
                &checked,
                "cargo test -p parser passes",
                "verification_result",
            ],
        );
        assert!(e.hint.contains("verification_result"), "{}", e.hint);
    }
    assert_eq!(db.snapshot(A, &list), before);
    // The outcome rule still comes first.
    let e = db.err(
        B,
        "task_items",
        "update",
        json!({"task_id": checked, "status": "done", "verification_result": "ok"}),
    );
    expect(&e, ErrorCode::OutcomeRequired, &[&checked]);

    // Satisfied: both texts kept, the audit names the fields.
    let done = db.update(
        B,
        json!({"task_id": checked, "status": "done", "outcome": "parser written",
               "verification_result": "cargo test -p parser: 48 passed"}),
    );
    assert_eq!(done["task"]["status"], "done");
    assert_eq!(
        done["task"]["verification_result"],
        "cargo test -p parser: 48 passed"
    );
    let events = db.events(A, &list);
    assert_eq!(
        events[0]["data"]["fields"],
        json!(["outcome", "verification_result"])
    );
    // A done task's result can be edited, never blanked.
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": checked, "verification_result": ""}),
    );
    expect(&e, ErrorCode::VerificationRequired, &[&checked]);
    db.update(
        A,
        json!({"task_id": checked, "verification_result": "48 passed, 0 failed"}),
    );
    // Canceling needs no result.
    db.update(
        A,
        json!({"task_id": ids[0], "status": "canceled", "outcome": "not needed"}),
    );
    // Not needed without a verification; needed when one is set in the
    // same call.
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[1], "status": "done", "outcome": "ok", "verification": "look at it"}),
    );
    expect(
        &e,
        ErrorCode::VerificationRequired,
        &[&ids[1], "look at it"],
    );
    let plain = db.update(
        A,
        json!({"task_id": ids[1], "status": "done", "outcome": "ok"}),
    );
    assert!(plain["task"].get("verification").is_none());
    assert!(plain["task"].get("verification_result").is_none());
}

#[test]
fn an_empty_verification_removes_the_check() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let t = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "t", "verification": "run it"}),
    );
    let id = s(&t, "/task/id");
    // Not in the closing call itself: the check stands until removed.
    let e = db.err(
        A,
        "task_items",
        "update",
        json!({"task_id": id, "status": "done", "outcome": "skipped", "verification": ""}),
    );
    expect(&e, ErrorCode::VerificationRequired, &[&id, "run it"]);
    let u = db.update(A, json!({"task_id": id, "verification": "  "}));
    assert!(u["task"].get("verification").is_none(), "{u}");
    db.update(
        A,
        json!({"task_id": id, "status": "done", "outcome": "done without a check"}),
    );
    let got = db.task(A, &list, &id);
    assert_eq!(got["status"], "done");

    // An empty verification at creation is none, as in update.
    for (action, params) in [
        (
            "create",
            json!({"list_id": list, "title": "u", "verification": " "}),
        ),
        (
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "v", "verification": ""}]}),
        ),
    ] {
        let made = db.ok(A, "task_items", action, params);
        let task = if action == "create" {
            &made["task"]
        } else {
            &made["tasks"][0]
        };
        assert!(task.get("verification").is_none(), "{made}");
        db.update(
            A,
            json!({"task_id": task["id"], "status": "done", "outcome": "no check to run"}),
        );
    }
}

//! Labels through the real component, on SQLite and (with
//! `TASKLISTS_TEST_STORE=postgres`) on PostgreSQL: set by create,
//! add_many and update (a set, in the order given; `[]` clears), the
//! rule (a bad label is `invalid_params` naming it and the rule, and
//! changes nothing), `task_lists get`'s `label` (exactly that label), and
//! `claim_next`'s `labels` (any of them, in the usual order; nothing
//! ready with them is said so, with the tasks carrying none counted
//! apart).

use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";

/// The labels a task's JSON says (absent: none).
fn labels(task: &Value) -> Vec<String> {
    match task.get("labels") {
        None => Vec::new(),
        Some(l) => l
            .as_array()
            .expect("labels is an array")
            .iter()
            .map(|v| v.as_str().expect("a label is a string").to_string())
            .collect(),
    }
}

/// The titles of the tasks `get` returns with `params` (every page).
fn titles(db: &TestDb, list: &str, params: Value) -> Vec<String> {
    db.all_tasks(A, list, params)
        .iter()
        .map(|t| t["title"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn labels_are_set_by_create_add_many_and_update_as_a_set_in_order() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let t = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "api", "labels": ["backend", "db", "backend", "Backend"]}),
    );
    // A set: each label once, in the order first given; case counts.
    assert_eq!(labels(&t["task"]), ["backend", "db", "Backend"]);
    let api = s(&t, "/task/id");
    let plain = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "plain"}),
    );
    assert!(plain["task"].get("labels").is_none(), "{plain}");
    let added = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"title": "merge", "labels": ["gt:merge-request", "delivery-acked-at:2026-02-27T23:06:39Z"]},
            {"title": "none", "labels": []},
            {"title": "real", "labels": ["delivery-acked-by:gastown/witness", "c++", "#42", "a@b.c_d"]},
        ]}),
    );
    assert_eq!(
        labels(&added["tasks"][0]),
        ["gt:merge-request", "delivery-acked-at:2026-02-27T23:06:39Z"]
    );
    assert!(added["tasks"][1].get("labels").is_none(), "{added}");
    assert_eq!(
        labels(&added["tasks"][2]),
        ["delivery-acked-by:gastown/witness", "c++", "#42", "a@b.c_d"]
    );
    // Read back as stored, by get and by the whole task.
    assert_eq!(
        labels(&db.task(A, &list, &api)),
        ["backend", "db", "Backend"]
    );

    // update replaces the whole set, recorded as a change of labels.
    let u = db.update(A, json!({"task_id": api, "labels": ["ops", "backend"]}));
    assert_eq!(labels(&u["task"]), ["ops", "backend"]);
    let events = db.events(A, &list);
    assert_eq!(events[0]["kind"], "updated");
    assert_eq!(events[0]["data"]["fields"], json!(["labels"]));
    assert_eq!(labels(&db.task(A, &list, &api)), ["ops", "backend"]);
    // The same set again (a repeat dropped) changes nothing.
    let before = db.snapshot(A, &list);
    db.update(
        A,
        json!({"task_id": api, "labels": ["ops", "backend", "ops"]}),
    );
    assert_eq!(db.snapshot(A, &list), before);
    // Another order is another value: the order given is kept.
    let u = db.update(A, json!({"task_id": api, "labels": ["backend", "ops"]}));
    assert_eq!(labels(&u["task"]), ["backend", "ops"]);
    // [] clears them; other fields leave them alone.
    let u = db.update(A, json!({"task_id": api, "notes": "n"}));
    assert_eq!(labels(&u["task"]), ["backend", "ops"]);
    let u = db.update(A, json!({"task_id": api, "labels": []}));
    assert!(u["task"].get("labels").is_none(), "{u}");
    assert!(db.task(A, &list, &api).get("labels").is_none());
}

#[test]
fn the_label_rule_holds_everywhere_and_a_refusal_changes_nothing() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let task = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "t", "labels": ["keep"]}),
    );
    let task = s(&task, "/task/id");
    let before = db.snapshot(A, &list);
    let twenty: Vec<String> = (0..20).map(|i| format!("l{i}")).collect();
    let mut twenty_one = twenty.clone();
    twenty_one.push("l20".into());
    let cases = [
        (
            "create",
            json!({"list_id": list, "title": "x", "labels": ["two words"]}),
            "labels[0]",
            "\"two words\" holds a space",
        ),
        (
            "create",
            json!({"list_id": list, "title": "x", "labels": "backend"}),
            "labels must be an array",
            "",
        ),
        (
            "create",
            json!({"list_id": list, "title": "x", "labels": twenty_one}),
            "labels must be an array of 0 to 20 labels",
            "",
        ),
        (
            "create",
            json!({"list_id": list, "title": "x", "labels": [""]}),
            "labels[0]",
            "1 to 64 characters, got 0",
        ),
        (
            "create",
            json!({"list_id": list, "title": "x", "labels": ["x".repeat(65)]}),
            "labels[0]",
            "got 65",
        ),
        (
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "ok"}, {"title": "x", "labels": ["ok", "bidi\u{202E}"]}]}),
            "tasks[1].labels[1]",
            "U+202E",
        ),
        (
            "add_many",
            json!({"list_id": list, "tasks": [{"title": "x", "labels": ["zero\u{200B}width"]}]}),
            "tasks[0].labels[0]",
            "U+200B",
        ),
        (
            "update",
            json!({"task_id": task, "labels": ["café"]}),
            "labels[0]",
            "U+00E9",
        ),
        (
            "update",
            json!({"task_id": task, "labels": ["line\nbreak"]}),
            "labels[0]",
            "U+000A",
        ),
        (
            "update",
            json!({"task_id": task, "labels": [5]}),
            "labels[0] must be a string",
            "",
        ),
        (
            "update",
            json!({"task_id": task, "labels": ["a,b"]}),
            "labels[0]",
            "','",
        ),
    ];
    for (action, params, at, why) in cases {
        let e = db.err(A, "task_items", action, params.clone());
        expect(&e, ErrorCode::InvalidParams, &[at, why]);
        // The hint is the rule.
        assert!(
            e.hint.contains("at most 20 labels") && e.hint.contains("- _ . : / @ + #"),
            "{action} {params}: {}",
            e.hint
        );
    }
    assert_eq!(
        db.snapshot(A, &list),
        before,
        "a refused label changes nothing"
    );
    // The bounds themselves are accepted: 20 labels, 64 characters.
    let u = db.update(A, json!({"task_id": task, "labels": twenty}));
    assert_eq!(labels(&u["task"]).len(), 20);
    let long = "y".repeat(64);
    let u = db.update(A, json!({"task_id": task, "labels": [long]}));
    assert_eq!(labels(&u["task"]), [long]);
    // get's label and claim_next's labels follow the same rule.
    for (tool, action, params, at) in [
        (
            "task_lists",
            "get",
            json!({"list_id": list, "label": "two words"}),
            "label",
        ),
        (
            "task_lists",
            "get",
            json!({"list_id": list, "label": ""}),
            "label",
        ),
        (
            "task_lists",
            "get",
            json!({"list_id": list, "label": ["a"]}),
            "label",
        ),
        (
            "task_claims",
            "claim_next",
            json!({"list_id": list, "labels": []}),
            "labels must be an array of 1 to 20 labels",
        ),
        (
            "task_claims",
            "claim_next",
            json!({"list_id": list, "labels": ["ok", "no way"]}),
            "labels[1]",
        ),
    ] {
        let e = db.err(A, tool, action, params);
        expect(&e, ErrorCode::InvalidParams, &[at]);
        assert!(e.hint.contains("at most 20 labels"), "{}", e.hint);
    }
}

#[test]
fn get_keeps_the_tasks_carrying_exactly_that_label() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    db.add_tasks(
        &list,
        &[
            json!({"title": "api", "labels": ["backend", "db"]}),
            json!({"title": "ui", "labels": ["frontend"]}),
            json!({"title": "gt", "labels": ["gt:backend", "backend-ish"]}),
            json!({"title": "case", "labels": ["Backend"]}),
            json!({"title": "wild", "labels": ["a_c", "x.y"]}),
            json!({"title": "none"}),
            json!({"title": "migrate", "labels": ["db", "backend"]}),
        ],
    );
    let get = |label: &str| titles(&db, &list, json!({"label": label}));
    // Exact and case-sensitive: no prefix, suffix or substring match.
    assert_eq!(get("backend"), ["api", "migrate"]);
    assert_eq!(get("db"), ["api", "migrate"]);
    assert_eq!(get("Backend"), ["case"]);
    assert_eq!(get("gt:backend"), ["gt"]);
    assert!(get("back").is_empty());
    assert!(get("end").is_empty());
    assert!(get("ui").is_empty());
    // `_` is a label character, never a wildcard.
    assert_eq!(get("a_c"), ["wild"]);
    assert!(get("abc").is_empty());
    // With the other filters, and paged: the cursor keeps the filter.
    let ids = db.order(&list);
    db.update(
        A,
        json!({"task_id": ids[6], "status": "canceled", "outcome": "no"}),
    );
    assert_eq!(
        titles(&db, &list, json!({"label": "backend", "status": "todo"})),
        ["api"]
    );
    let pages = db.pages(
        A,
        "task_lists",
        "get",
        json!({"list_id": list, "label": "db", "limit": 1}),
    );
    let paged: Vec<&str> = pages
        .iter()
        .flat_map(|p| p.data["tasks"].as_array().unwrap())
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    assert_eq!(paged, ["api", "migrate"]);
    // The counts stay the whole list's.
    let got = db.ok(
        A,
        "task_lists",
        "get",
        json!({"list_id": list, "label": "frontend"}),
    );
    assert_eq!(got["counts"]["todo"], 6, "{got}");
    assert_eq!(got["tasks"].as_array().unwrap().len(), 1);
}

#[test]
fn claim_next_hands_out_only_a_task_carrying_one_of_the_labels_in_order() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add_tasks(
        &list,
        &[
            json!({"title": "ui", "labels": ["frontend"]}),
            json!({"title": "api", "labels": ["backend"]}),
            json!({"title": "schema", "labels": ["db"]}),
            json!({"title": "urgent ui", "labels": ["frontend", "urgent"], "priority": "high"}),
            json!({"title": "unlabeled"}),
            json!({"title": "index", "labels": ["db", "backend"]}),
        ],
    );
    let claim = |agent: &str, labels: Value| {
        db.ok(
            agent,
            "task_claims",
            "claim_next",
            json!({"list_id": list, "labels": labels}),
        )
    };
    // Any of them, in the usual order (priority, then position): the
    // urgent frontend task is no backend's or db's.
    let c = claim(A, json!(["backend", "db"]));
    assert_eq!(s(&c, "/task/title"), "api", "{c}");
    assert_eq!(labels(&c["task"]), ["backend"]);
    // Held: handed back, whatever labels are asked for now.
    let again = claim(A, json!(["frontend"]));
    assert_eq!(again["task"]["id"], c["task"]["id"], "{again}");
    assert_eq!(again["resumed"], true);
    let token = s(&c, "/claim/token");
    db.update(
        A,
        json!({"task_id": ids[1], "status": "done", "outcome": "ok", "claim_token": token}),
    );
    let c = claim(A, json!(["db", "backend"]));
    assert_eq!(s(&c, "/task/title"), "schema", "{c}");
    // Another agent asking for frontend gets the high one first.
    let f = claim(B, json!(["frontend"]));
    assert_eq!(s(&f, "/task/title"), "urgent ui", "{f}");
    // A label nobody carries: nothing ready, said so.
    let none = claim("builder-3", json!(["docs"]));
    assert_eq!(none["task"], Value::Null, "{none}");
    // Open tasks: ui, index (todo), schema, urgent ui (held), unlabeled:
    // all five carry no docs label; every other count is of docs tasks.
    assert_eq!(none["waiting"]["without_labels"], 5, "{none}");
    assert_eq!(none["waiting"]["claimed_by_others"], 0, "{none}");
    let summary = db
        .out(
            "builder-3",
            "task_claims",
            "claim_next",
            json!({"list_id": list, "labels": ["docs", "qa"]}),
        )
        .summary;
    assert!(
        summary.contains("with labels docs, qa") && summary.contains("5 without those labels"),
        "{summary}"
    );
    // The backend/db agent's next: index; then nothing of its own left,
    // and what holds its labels back is counted for its labels only.
    let token = s(&c, "/claim/token");
    db.update(
        A,
        json!({"task_id": ids[2], "status": "done", "outcome": "ok", "claim_token": token}),
    );
    let c = claim(A, json!(["db", "backend"]));
    assert_eq!(s(&c, "/task/title"), "index", "{c}");
    let none = claim("builder-4", json!(["db"]));
    assert_eq!(none["task"], Value::Null, "{none}");
    assert_eq!(none["waiting"]["claimed_by_others"], 1, "{none}");
    assert_eq!(none["waiting"]["without_labels"], 3, "{none}");
    // Without labels a claim takes any task, and says nothing of labels.
    let any = db.claim("builder-5", &list);
    assert_eq!(s(&any, "/task/title"), "ui", "{any}");
    let all = db.claim("builder-6", &list);
    assert_eq!(s(&all, "/task/title"), "unlabeled", "{all}");
    let nothing = db.claim("builder-7", &list);
    assert_eq!(nothing["task"], Value::Null);
    assert!(
        nothing["waiting"].get("without_labels").is_none(),
        "{nothing}"
    );
}

#[test]
fn a_labeled_claim_keeps_every_other_rule() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add_tasks(
        &list,
        &[
            json!({"title": "first", "labels": ["db"]}),
            json!({"title": "after first", "labels": ["db"]}),
            json!({"title": "reserved", "labels": ["db"], "assigned_to_agent_id": B}),
            json!({"title": "paused", "labels": ["db"]}),
        ],
    );
    db.update(A, json!({"task_id": ids[1], "depends_on": [ids[0]]}));
    db.update(A, json!({"task_id": ids[3], "status": "blocked"}));
    let claim = |agent: &str| {
        db.ok(
            agent,
            "task_claims",
            "claim_next",
            json!({"list_id": list, "labels": ["db"], "lease_seconds": 60}),
        )
    };
    let first = claim(A);
    assert_eq!(s(&first, "/task/title"), "first");
    // Waits on a dependency, reserved for B, paused, held by A: nothing
    // for C, each for its reason.
    let none = claim("builder-3");
    assert_eq!(none["task"], Value::Null, "{none}");
    let w = &none["waiting"];
    assert_eq!(
        (
            w["claimed_by_others"].as_i64(),
            w["waiting_on_dependencies"].as_i64(),
            w["assigned_to_others"].as_i64(),
            w["blocked"].as_i64(),
            w["without_labels"].as_i64()
        ),
        (Some(1), Some(1), Some(1), Some(1), Some(0)),
        "{none}"
    );
    // B gets what is reserved for it; an expired lease is taken over.
    assert_eq!(s(&claim(B), "/task/title"), "reserved");
    db.advance(120);
    let taken = claim("builder-3");
    assert_eq!(s(&taken, "/task/title"), "first", "{taken}");
    assert_eq!(s(&taken, "/task/claimed_by_agent_id"), "builder-3");
}

#[test]
fn agents_with_different_labels_share_a_list_without_overlap() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let tasks: Vec<Value> = (0..12)
        .map(|i| {
            let role = if i % 3 == 0 { "backend" } else { "frontend" };
            json!({"title": format!("{role} {i}"), "labels": [role]})
        })
        .collect();
    db.add_tasks(&list, &tasks);
    let mut seen = std::collections::HashSet::new();
    for round in 0..8 {
        for (agent, role) in [(A, "backend"), (B, "frontend")] {
            let c = db.ok(
                agent,
                "task_claims",
                "claim_next",
                json!({"list_id": list, "labels": [role]}),
            );
            if c["task"].is_null() {
                assert!(round >= 4, "{agent} ran dry early: {c}");
                continue;
            }
            let title = s(&c, "/task/title");
            assert!(title.starts_with(role), "{agent} got {title}");
            assert!(seen.insert(title.clone()), "{title} handed out twice");
            db.update(
                agent,
                json!({"task_id": s(&c, "/task/id"), "status": "done", "outcome": "ok",
                       "claim_token": s(&c, "/claim/token")}),
            );
        }
    }
    assert_eq!(seen.len(), 12);
}

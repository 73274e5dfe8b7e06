//! Human renderers, through the component, on real results: every
//! tool+action renders clean lines that name what they are about.

use tasklists_tests::*;

const A: &str = "builder-1";
const B: &str = "builder-2";

/// Renders `out` for tool+action and checks the lines are clean.
fn render(db: &TestDb, tool: &str, action: &str, out: &ToolOutput) -> String {
    let lines = db
        .host()
        .render_result(tool, action, out.data.json())
        .unwrap();
    assert!(!lines.is_empty(), "{tool} {action}: nothing rendered");
    for span in lines.iter().flatten() {
        assert!(
            !span.text.chars().any(char::is_control),
            "{tool} {action}: control character in {:?}",
            span.text
        );
    }
    let text = plain(&lines);
    assert!(!text.trim().is_empty(), "{tool} {action}: blank");
    text
}

#[track_caller]
fn contains_all(text: &str, needles: &[&str], what: &str) {
    for n in needles {
        assert!(text.contains(n), "{what} should show {n:?}:\n{text}");
    }
}

/// `id` shown in full or in its short form.
#[track_caller]
fn shows_id(text: &str, id: &str, what: &str) {
    assert!(
        text.contains(id) || text.contains(&short_id(id)),
        "{what} should show {id} or {}:\n{text}",
        short_id(id)
    );
}

#[test]
fn every_result_renders_on_real_data() {
    let db = TestDb::new();
    let out = db.out(
        A,
        "task_lists",
        "create",
        json!({"name": "Sprint 12", "scope_type": "workspace", "scope_key": "/work/main"}),
    );
    let list = s(&out.data, "/list/id");
    let text = render(&db, "task_lists", "create", &out);
    contains_all(&text, &["Sprint 12", "created"], "lists create");
    shows_id(&text, &list, "lists create");

    let out = db.out(B, "task_lists", "create", json!({"name": "Sprint 12", "scope_type": "workspace", "scope_key": "/work/main", "get_or_create": true}));
    let text = render(&db, "task_lists", "create", &out);
    contains_all(&text, &["Sprint 12", "existing"], "lists create (existing)");

    let out = db.out(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "Write the parser", "notes": "start with the lexer"}),
    );
    let t1 = s(&out.data, "/task/id");
    let text = render(&db, "task_items", "create", &out);
    contains_all(
        &text,
        &["Write the parser", "start with the lexer"],
        "items create",
    );
    shows_id(&text, &t1, "items create");

    let out = db.out(A, "task_items", "add_many", json!({"list_id": list, "tasks": [
        {"ref": "r", "title": "Review API naming"}, {"title": "Deploy to staging", "depends_on": ["r"]}
    ]}));
    let more = strs(&out.data, "/tasks", "id");
    let text = render(&db, "task_items", "add_many", &out);
    contains_all(
        &text,
        &["Review API naming", "Deploy to staging", "2 tasks"],
        "items add_many",
    );
    shows_id(&text, &more[0], "items add_many");

    let out = db.out(A, "task_lists", "find", json!({}));
    let text = render(&db, "task_lists", "find", &out);
    contains_all(&text, &["Sprint 12"], "lists find");
    shows_id(&text, &list, "lists find");

    let out = db.out(A, "task_claims", "claim_next", json!({"list_id": list}));
    let text = render(&db, "task_claims", "claim_next", &out);
    contains_all(
        &text,
        &["claimed", "Write the parser", "lease"],
        "claim_next",
    );
    shows_id(&text, &t1, "claim_next");
    let out = db.out(A, "task_claims", "claim_next", json!({"list_id": list}));
    let text = render(&db, "task_claims", "claim_next", &out);
    contains_all(
        &text,
        &["resumed", "Write the parser", "start with the lexer"],
        "claim_next resumed",
    );

    db.advance(60);
    let out = db.out(
        A,
        "task_claims",
        "refresh",
        json!({"task_id": t1, "lease_seconds": 1800}),
    );
    let text = render(&db, "task_claims", "refresh", &out);
    contains_all(&text, &["Write the parser"], "refresh");
    shows_id(&text, &t1, "refresh");

    let out = db.out(
        A,
        "task_items",
        "update",
        json!({"task_id": t1, "status": "done", "outcome": "lexer and parser merged"}),
    );
    let text = render(&db, "task_items", "update", &out);
    contains_all(
        &text,
        &["done", "Write the parser", "lexer and parser merged"],
        "items update",
    );

    let out = db.out(
        A,
        "task_items",
        "reorder",
        json!({"list_id": list, "task_ids": [more[1]], "position": 1}),
    );
    let text = render(&db, "task_items", "reorder", &out);
    shows_id(&text, &more[1], "items reorder");
    contains_all(
        &text,
        &["moved 1 task", "#1", "2 other tasks shifted"],
        "items reorder",
    );

    let out = db.out(A, "task_lists", "get", json!({"list_id": list}));
    let text = render(&db, "task_lists", "get", &out);
    contains_all(
        &text,
        &[
            "Sprint 12",
            "Write the parser",
            "Review API naming",
            "Deploy to staging",
        ],
        "lists get",
    );

    // Nothing ready: the waiting reasons are shown.
    let b = db.out(B, "task_claims", "claim_next", json!({"list_id": list}));
    assert_eq!(s(&b.data, "/task/id"), more[0]);
    let out = db.out(
        "builder-3",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(out.data["task"], Value::Null);
    let text = render(&db, "task_claims", "claim_next", &out);
    contains_all(
        &text,
        &["1 claimed by others", "1 waiting on dependencies"],
        "claim_next waiting",
    );

    db.advance(901);
    let out = db.out(
        A,
        "task_claims",
        "release_expired",
        json!({"list_id": list}),
    );
    let text = render(&db, "task_claims", "release_expired", &out);
    contains_all(&text, &["released", "1 expired claim"], "release_expired");
    shows_id(&text, &more[0], "release_expired");

    let out = db.out(
        A,
        "task_audit",
        "get",
        json!({"list_id": list, "limit": 20}),
    );
    let text = render(&db, "task_audit", "get", &out);
    contains_all(
        &text,
        &["released", "claimed", "status_changed", A, B],
        "audit get",
    );
    shows_id(&text, &more[0], "audit get");

    let out = db.out(A, "task_items", "delete", json!({"task_ids": [more[1]]}));
    let text = render(&db, "task_items", "delete", &out);
    contains_all(&text, &["deleted 1 task"], "items delete");
    shows_id(&text, &more[1], "items delete");

    let out = db.out(A, "task_lists", "delete", json!({"list_id": list}));
    let text = render(&db, "task_lists", "delete", &out);
    contains_all(&text, &["deleted list", "1 active task"], "lists delete");
    shows_id(&text, &list, "lists delete");

    for action in ["all", "workflow", "schemas", "examples"] {
        let out = db.out(A, "task_help", action, Value::Null);
        let text = render(&db, "task_help", action, &out);
        assert!(text.lines().count() >= 3, "task_help {action}:\n{text}");
    }
    let out = db.out(A, "task_help", "workflow", Value::Null);
    contains_all(
        &render(&db, "task_help", "workflow", &out),
        &["claim_next"],
        "help workflow",
    );
}

#[test]
fn errors_render_their_code_message_and_hint() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let ids = db.add(&list, &["a"]);
    db.claim(A, &list);
    let err = db.err(
        B,
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "x"}),
    );
    let lines = db.host().render_error(&err).unwrap();
    let text = plain(&lines);
    contains_all(&text, &["conflict", &ids[0], A, &err.hint], "render_error");
    assert!(
        lines[0].iter().all(|s| s.style == Style::Error),
        "{:?}",
        lines[0]
    );
    assert!(
        lines
            .last()
            .unwrap()
            .iter()
            .all(|s| s.style == Style::Muted)
    );

    let err = db.err(A, "task_lists", "get", json!({"listId": list}));
    let text = plain(&db.host().render_error(&err).unwrap());
    contains_all(
        &text,
        &["invalid_params", "listId", "list_id", "hint"],
        "render_error",
    );

    // Host-made errors render too.
    let err = db.call_json(&ctx(A), "task_lists", "{").unwrap_err();
    let text = plain(&db.host().render_error(&err).unwrap());
    contains_all(
        &text,
        &["invalid_params", "not valid JSON"],
        "render_error (host)",
    );
}

#[test]
fn calls_render_on_one_clean_line() {
    let db = TestDb::new();
    let list = db.list(A, "Work");
    let params =
        json!({"list_id": list, "title": "Write\nthe\u{1b}[31m parser", "notes": "x".repeat(5000)});
    let lines = db
        .host()
        .render_call("task_items", "create", &params.to_string())
        .unwrap();
    assert_eq!(lines.len(), 1);
    let text = plain(&lines);
    contains_all(&text, &["task_items", "create", "Write"], "render_call");
    assert!(!text.chars().any(char::is_control), "{text:?}");
    assert!(text.chars().count() <= 200, "{}", text.chars().count());
    // The host's ANSI renderer keeps it on one line too.
    let ansi = tasklists_host::render_ansi(&lines, true);
    assert_eq!(ansi.matches('\n').count(), 1);
    assert!(ansi.contains("\u{1b}["), "colored");
    let plain_ansi = tasklists_host::render_ansi(&lines, false);
    assert!(!plain_ansi.contains('\u{1b}'));
}

#[test]
fn odd_data_still_renders_something() {
    let db = TestDb::new();
    for (tool, action, data) in [
        ("task_lists", "get", "{}"),
        ("task_claims", "claim_next", r#"{"task": 5}"#),
        ("task_audit", "get", r#"{"events": [null, {"kind": 3}]}"#),
        ("task_nope", "x", r#"{"a": 1}"#),
        ("task_items", "update", "not json at all"),
    ] {
        let lines = db.host().render_result(tool, action, data).unwrap();
        assert!(!lines.is_empty(), "{tool} {action} {data}");
        assert!(
            lines
                .iter()
                .flatten()
                .all(|s| !s.text.chars().any(char::is_control))
        );
    }
}

/// A dependency reads the same on the board, in a single task's view and
/// in a claim: the short id of the task it waits for (a position would
/// not always be known: the page or the single task may not show it).
#[test]
fn a_dependency_reads_the_same_in_every_view() {
    let db = TestDb::new();
    let list = db.list(A, "Deps");
    let ids = db.add(&list, &["schema", "endpoint"]);
    let out = db.out(
        A,
        "task_items",
        "update",
        json!({"task_id": ids[1], "depends_on": [ids[0]], "notes": "waits"}),
    );
    let single = render(&db, "task_items", "update", &out);
    let board = render(
        &db,
        "task_lists",
        "get",
        &db.out(A, "task_lists", "get", json!({"list_id": list})),
    );
    let created = render(
        &db,
        "task_items",
        "create",
        &db.out(
            A,
            "task_items",
            "create",
            json!({"list_id": list, "title": "docs", "depends_on": [ids[0]]}),
        ),
    );
    let after = format!("after {}", short_id(&ids[0]));
    for (view, text) in [("update", &single), ("get", &board), ("create", &created)] {
        assert!(
            text.contains(&after),
            "{view} should show {after:?}:\n{text}"
        );
        assert!(!text.contains("after #"), "{view}:\n{text}");
    }
}

/// Found by the fuzz suite: 8 MiB of nested params took the component
/// past its memory cap while rendering the call. A renderer now parses at
/// most what a host lets through to a call, and shows the rest without it.
#[test]
fn oversized_render_input_is_shown_without_it_not_a_trap() {
    let db = TestDb::new();
    let mut host = db.host();
    let huge = json!({"agent_id": {"list_id": "x", "task_id": "y".repeat(8 << 20)}}).to_string();
    let call = host
        .render_call("task_lists", "create", &huge)
        .expect("render_call must not trap");
    assert!(!call.is_empty());
    let result = host
        .render_result("task_lists", "create", &huge)
        .expect("render_result must not trap");
    assert!(!result.is_empty());
    assert!(
        host.render_call("task_lists", "find", "{}").is_ok(),
        "the host goes on"
    );
}

/// Priority shows as a mark before the title (↑ high, ↓ low, nothing for
/// medium) wherever a task is rendered; a single task shows its
/// verification and, once done, what the check showed; hostile text in
/// them stays on clean lines.
#[test]
fn priority_and_verification_render_where_a_person_reads_them() {
    let db = TestDb::new();
    let list = db.list(A, "Plan");
    let out = db.out(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "Urgent fix", "priority": "high",
               "verification": "cargo test\u{1b}[31m passes\nall of it"}),
    );
    let urgent = s(&out.data, "/task/id");
    let text = render(&db, "task_items", "create", &out);
    contains_all(
        &text,
        &[
            "↑ Urgent fix",
            "verification: cargo test",
            "passes all of it",
        ],
        "items create",
    );
    let out = db.out(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"title": "Routine step"}, {"title": "Someday", "priority": "low"}
        ]}),
    );
    let text = render(&db, "task_items", "add_many", &out);
    contains_all(&text, &["↓ Someday"], "items add_many");
    assert!(
        !text.contains("↑ Routine") && !text.contains("↓ Routine"),
        "{text}"
    );

    let out = db.out(B, "task_claims", "claim_next", json!({"list_id": list}));
    let text = render(&db, "task_claims", "claim_next", &out);
    contains_all(
        &text,
        &["claimed", "↑ Urgent fix", "verification: cargo test"],
        "claim_next",
    );
    let out = db.out(
        B,
        "task_items",
        "update",
        json!({"task_id": urgent, "status": "done", "outcome": "fixed",
               "verification_result": "42 passed"}),
    );
    let text = render(&db, "task_items", "update", &out);
    contains_all(
        &text,
        &[
            "task done",
            "↑ Urgent fix",
            "verification result: 42 passed",
        ],
        "items update",
    );
    let out = db.out(A, "task_lists", "get", json!({"list_id": list}));
    let text = render(&db, "task_lists", "get", &out);
    contains_all(&text, &["↑ Urgent fix", "↓ Someday"], "lists get");
}

#[test]
fn labels_render_where_a_person_reads_them() {
    let db = TestDb::new();
    let list = db.list(A, "Plan");
    let many: Vec<String> = (1..=5).map(|i| format!("skill-{i}")).collect();
    let out = db.out(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "Schema", "labels": ["backend", "db"]}),
    );
    let text = render(&db, "task_items", "create", &out);
    contains_all(&text, &["Schema  [backend] [db]"], "items create");
    let out = db.out(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "Broad", "labels": many}),
    );
    let text = render(&db, "task_items", "create", &out);
    // The row shows the first three and how many more; the line, all.
    contains_all(
        &text,
        &[
            "[skill-1] [skill-2] [skill-3] +2",
            "labels: skill-1, skill-2, skill-3, skill-4, skill-5",
        ],
        "items create, many labels",
    );
    let out = db.out(A, "task_lists", "get", json!({"list_id": list}));
    let text = render(&db, "task_lists", "get", &out);
    contains_all(&text, &["Schema  [backend] [db]", "+2"], "lists get");
    let out = db.out(
        B,
        "task_claims",
        "claim_next",
        json!({"list_id": list, "labels": ["db"]}),
    );
    let text = render(&db, "task_claims", "claim_next", &out);
    contains_all(&text, &["Schema", "labels: backend, db"], "claim_next");
    // Another agent asking for a label no open task carries.
    let out = db.out(
        "builder-3",
        "task_claims",
        "claim_next",
        json!({"list_id": list, "labels": ["qa"]}),
    );
    let text = render(&db, "task_claims", "claim_next", &out);
    contains_all(
        &text,
        &["without those labels"],
        "claim_next, nothing ready",
    );
}

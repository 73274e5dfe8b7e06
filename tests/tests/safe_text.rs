//! Text that could mislead a reader or drive a terminal: stored as sent,
//! but never shown raw. JSON for models escapes DEL, C1 and invisible
//! characters; renderers neutralize them; messages quote at most 200
//! characters of a bad value; agent ids cannot hold them at all.

use tasklists_tests::*;

const A: &str = "builder-1";

/// C0 and C1 escape sequences (CSI as U+009B, OSC as U+009D), DEL, a bell,
/// a right-to-left override, an isolate, zero-width and tag characters.
const EVIL: &str = "x\u{1b}[2J\u{9b}31m\u{9d}0;pwned\u{7}\u{7f}\u{202e}gnp.exe\u{2066}\u{200b}\u{feff}\u{e0041}\u{2028}y";

/// A character no screen or model text may carry raw: controls (C0, DEL,
/// C1) and Unicode's invisible ones (bidi controls, zero-width, tags…).
fn unsafe_char(c: char) -> bool {
    let u = c as u32;
    c.is_control()
        || matches!(u, 0xAD | 0x34F | 0x61C | 0x115F..=0x1160 | 0x17B4..=0x17B5 | 0x180B..=0x180F
            | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFEFF | 0xFFA0
            | 0xFFF0..=0xFFFB | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A | 0xE0000..=0xE00FF)
}

#[track_caller]
fn assert_safe(text: &str, what: &str) {
    if let Some(c) = text.chars().find(|c| unsafe_char(*c)) {
        panic!("{what}: raw U+{:04X} in {text:?}", c as u32);
    }
}

#[track_caller]
fn assert_lines_safe(lines: &[Line], what: &str) {
    for span in lines.iter().flatten() {
        assert_safe(&span.text, what);
    }
}

/// Checks what a model and a person get from `out`, and renders it.
#[track_caller]
fn check(db: &TestDb, tool: &str, action: &str, out: &ToolOutput) -> String {
    let text = out.to_content_text();
    let (summary, json) = text.split_once('\n').expect("summary line");
    assert_safe(summary, &format!("{tool} {action} summary"));
    assert_safe(json, &format!("{tool} {action} JSON"));
    // The JSON text means exactly the data: the text is stored as sent.
    assert_eq!(
        serde_json::from_str::<Value>(json).unwrap(),
        out.data,
        "{tool} {action}"
    );
    let lines = db
        .host()
        .render_result(tool, action, out.data.json())
        .unwrap();
    assert_lines_safe(&lines, &format!("{tool} {action} rendering"));
    plain(&lines)
}

#[test]
fn hostile_text_is_stored_as_sent_and_shown_safely_everywhere() {
    let db = TestDb::new();
    let out = db.out(
        A,
        "task_lists",
        "create",
        json!({"name": EVIL, "scope_type": "custom", "scope_key": EVIL}),
    );
    check(&db, "task_lists", "create", &out);
    let list = s(&out.data, "/list/id");
    assert_eq!(out.data["list"]["name"], EVIL, "stored as sent");
    let out = db.out(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"title": EVIL, "description": EVIL, "notes": EVIL, "ref": "a"},
            {"title": format!("second {EVIL}"), "depends_on": ["a"]},
        ]}),
    );
    check(&db, "task_items", "add_many", &out);
    let ids = strs(&out.data, "/tasks", "id");
    let calls: Vec<(&str, &str, Value)> = vec![
        ("task_lists", "find", json!({})),
        (
            "task_lists",
            "get",
            json!({"list_id": list, "include_times": true}),
        ),
        ("task_claims", "claim_next", json!({"list_id": list})),
        ("task_claims", "refresh", json!({"task_id": ids[0]})),
        (
            "task_items",
            "update",
            json!({"task_id": ids[0], "notes": EVIL, "status": "done", "outcome": EVIL}),
        ),
        (
            "task_items",
            "create",
            json!({"list_id": list, "title": EVIL, "notes": EVIL, "depends_on": [ids[1]]}),
        ),
        (
            "task_items",
            "reorder",
            json!({"list_id": list, "task_ids": [ids[1]]}),
        ),
        ("task_audit", "get", json!({"list_id": list})),
        ("task_items", "delete", json!({"task_id": ids[1]})),
        ("task_claims", "release_expired", json!({})),
        ("task_lists", "delete", json!({"list_id": list})),
    ];
    for (tool, action, params) in calls {
        let out = db.out(A, tool, action, params.clone());
        check(&db, tool, action, &out);
        // The call line a host shows for what the agent sent.
        let line = db
            .host()
            .render_call(tool, action, &params.to_string())
            .unwrap();
        assert_lines_safe(&line, &format!("{tool} {action} call line"));
    }
    // What the agent wrote is still exactly what it wrote.
    let task = db.task(A, &list, &ids[0]);
    assert_eq!(
        (&task["title"], &task["notes"], &task["outcome"]),
        (&json!(EVIL), &json!(EVIL), &json!(EVIL))
    );
}

#[test]
fn rows_written_before_the_rules_are_shown_safely_too() {
    // An agent id from before ids had to be visible, and text from another
    // writer of the file: what the component reads back is neutralized.
    let db = TestDb::new();
    let list = db.list(A, "Old rows");
    let ids = db.add(&list, &["plain"]);
    db.store.raw_execute(
        &format!(
            "UPDATE tasks SET status = 'in_progress', claimed_by_agent_id = ?1, claim_token = 'claim_01JDQ4ZK8M3N5P7R9T1V3X5Z7B', \
             claim_expires_at = {}, assigned_to_agent_id = ?1, title = ?1 WHERE id = ?2",
            T0 + 60_000
        ),
        &[&format!("bob{EVIL}"), &ids[0]],
    );
    let out = db.out("reader", "task_lists", "get", json!({"list_id": list}));
    let shown = check(&db, "task_lists", "get", &out);
    assert!(shown.contains("@bob"), "{shown}");
    let e = db.err(
        "builder-2",
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "x"}),
    );
    expect(&e, ErrorCode::Conflict, &["is claimed by"]);
    assert_safe(&e.message, "conflict message");
    let reply = db.reply(
        &ctx("builder-2"),
        "task_items",
        "update",
        &json!({"task_id": ids[0], "notes": "x"}),
    );
    assert_eq!(reply.outcome, Err(e.clone()));
    assert_safe(&reply.text, "conflict JSON");
    assert_lines_safe(&db.host().render_error(&e).unwrap(), "conflict rendering");
}

#[test]
fn agent_ids_that_could_pass_for_another_are_refused() {
    let db = TestDb::new();
    let list = db.list(A, "Ids");
    let ids = db.add(&list, &["t"]);
    for bad in [
        "bob\u{202e}",
        "b\u{200b}ob",
        "bob\u{2066}",
        "bob\u{feff}",
        "bob\u{e0041}",
        "bo\u{200d}b",
        "bob\u{9b}",
        "bob\u{7f}",
        "b\u{a0}ob",
        "bob\u{2028}x",
        "\u{202e}",
    ] {
        for (tool, action, params) in [
            ("task_lists", "find", json!({"agent_id": bad})),
            (
                "task_items",
                "update",
                json!({"task_id": ids[0], "assigned_to_agent_id": bad}),
            ),
            (
                "task_lists",
                "create",
                json!({"name": "x", "visibility": "private", "owner_agent_id": bad}),
            ),
        ] {
            let e = db.err(A, tool, action, params);
            expect(
                &e,
                ErrorCode::InvalidParams,
                &["an agent id", "bidirectional or zero-width"],
            );
            assert_safe(&e.message, "refusal");
        }
        let e = db.err_ctx(&ctx(bad), "task_lists", "create", json!({"name": "x"}));
        expect(&e, ErrorCode::InvalidParams, &["host's agent id"]);
        assert_safe(&e.message, "host identity refusal");
    }
    // Accents, scripts and emoji are ids like any other.
    for good in ["zoë", "агент-7", "エージェント", "bot 🤖", "a b"] {
        db.ok_ctx(&ctx(good), "task_lists", "find", json!({}));
    }
}

/// The offending value of every kind of refusal, 1 MB long (or 3.5 MB of
/// combining marks): the message quotes at most 200 characters of it.
#[test]
fn bad_values_are_quoted_at_most_200_characters() {
    let db = TestDb::new();
    let list = db.list(A, "Echoes");
    let ids = db.add(&list, &["t"]);
    let mega = "x".repeat(1 << 20);
    let marks = "\u{301}".repeat(1_750_000);
    for huge in [mega.as_str(), marks.as_str()] {
        let cases: Vec<(&str, &str, Value)> = vec![
            ("task_lists", "get", json!({"list_id": huge})),
            ("task_items", "update", json!({"task_id": huge})),
            (
                "task_items",
                "update",
                json!({"task_id": ids[0], "claim_token": huge}),
            ),
            ("task_lists", "find", json!({(huge): 1})),
            ("task_lists", huge, json!({})),
            (
                "task_items",
                "create",
                json!({"list_id": list, "title": "t", "depends_on": [huge]}),
            ),
            (
                "task_items",
                "add_many",
                json!({"list_id": list, "tasks": [{"title": "t", "depends_on": [huge]}]}),
            ),
            (
                "task_items",
                "reorder",
                json!({"list_id": list, "task_ids": [huge]}),
            ),
            (
                "task_lists",
                "create",
                json!({"name": "g", "scope_type": "global", "scope_key": &huge[..huge.char_indices().nth(1000).map_or(huge.len(), |(i, _)| i)]}),
            ),
            ("task_lists", "find", json!({"agent_id": huge})),
        ];
        for (tool, action, params) in cases {
            let text = params.to_string();
            let e = db
                .host()
                .call(tool, action, &text, &ctx(A))
                .expect_err("refused");
            let what = format!(
                "{tool} {} ({} bytes in)",
                &action[..action.len().min(20)],
                text.len()
            );
            assert!(
                e.message.len() < 1_500 && e.hint.len() < 1_500,
                "{what}: {} + {} bytes out: {}",
                e.message.len(),
                e.hint.len(),
                &e.message[..e.message.len().min(300)]
            );
            assert_safe(&e.message, &what);
        }
        // An unknown tool, refused by the host itself.
        let e = db
            .host()
            .call(huge, "find", "", &ctx(A))
            .expect_err("refused");
        assert!(
            e.message.len() < 300,
            "tool name: {} bytes",
            e.message.len()
        );
    }
}

/// The character JSON escapes the most: a tag character, sent as the
/// surrogate pair `\udb40\udc01` (12 bytes for one character).
const WORST: char = '\u{e0001}';
/// The contract's bound on one result's text.
const MIB: usize = 1 << 20;

/// The bytes of the JSON-RPC message an MCP server sends for `reply`: the
/// text as the content, the data again as `structuredContent`.
fn mcp_frame_len(reply: &ToolReply) -> usize {
    json!({"jsonrpc": "2.0", "id": 1, "result": {
        "content": [{"type": "text", "text": reply.text}],
        "structuredContent": reply.structured_value(),
        "isError": reply.is_error(),
    }})
    .to_string()
    .len()
}

/// `tool action params` as `agent`: it succeeds, and its reply stays
/// under 1 MiB of text (and its MCP frame, which carries it twice, under
/// 2 MiB). Returns the data.
#[track_caller]
fn bounded(db: &TestDb, agent: &str, tool: &str, action: &str, params: Value) -> Value {
    let reply = db.reply(&ctx(agent), tool, action, &params);
    assert!(reply.outcome.is_ok(), "{tool} {action}: {}", reply.text);
    assert!(
        reply.text.len() < MIB,
        "{tool} {action}: {} bytes of text",
        reply.text.len()
    );
    let frame = mcp_frame_len(&reply);
    assert!(
        frame < 2 * MIB,
        "{tool} {action}: an MCP frame of {frame} bytes"
    );
    reply.structured_value()
}

#[test]
fn one_task_cannot_break_the_result_bound() {
    let db = TestDb::new();
    let list = db.list(A, "Heavy");
    let worst = WORST.to_string().repeat(65_536);
    // Three 64K-character texts of it (2.3 MB of JSON) are refused, on
    // every write that could store them.
    let e = db.err(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "t", "description": worst, "notes": worst}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["1572864 bytes of JSON", "786432"],
    );
    let e = db.err(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [{"title": "ok"}, {"title": "t", "notes": worst, "description": "x"}]}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["tasks[1].description, notes, outcome, verification and verification_result"],
    );
    // The most one task can hold: a title of 500 of them, a description of
    // 64K (exactly the bound), a claimer whose id JSON escapes too.
    let title = WORST.to_string().repeat(500);
    let d = bounded(
        &db,
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": title, "description": worst}),
    );
    let id = s(&d, "/task/id");
    // The verification and its result count with the other texts.
    for params in [
        json!({"task_id": id, "notes": "x"}),
        json!({"task_id": id, "status": "done", "outcome": "done"}),
        json!({"task_id": id, "verification": "x"}),
        json!({"task_id": id, "verification_result": "x"}),
    ] {
        let e = db.err(A, "task_items", "update", params);
        expect(
            &e,
            ErrorCode::InvalidParams,
            &["a task holds at most 786432"],
        );
    }
    let quotes = "\"".repeat(200);
    let c = bounded(
        &db,
        &quotes,
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(s(&c, "/task/description"), worst, "kept whole");
    bounded(
        &db,
        &quotes,
        "task_lists",
        "get",
        json!({"list_id": list, "include_times": true}),
    );
    bounded(
        &db,
        &quotes,
        "task_items",
        "update",
        json!({"task_id": id, "title": "renamed"}),
    );

    // A row written before the bound (or by another writer) holds the
    // issue's worst case: results cut its texts, with a marker.
    db.store.raw_execute(
        "UPDATE tasks SET description = ?1, notes = ?1, outcome = ?1 WHERE id = ?2",
        &[&worst, &id],
    );
    let g = bounded(&db, &quotes, "task_lists", "get", json!({"list_id": list}));
    let c = bounded(
        &db,
        &quotes,
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(c["resumed"], true);
    for task in [&g["tasks"][0], &c["task"]] {
        for field in ["description", "notes", "outcome"] {
            let text = task[field].as_str().unwrap();
            assert!(text.starts_with(WORST), "{field}");
            assert!(
                text.contains(
                    " more characters not shown; this task's texts pass the 786432 bytes"
                ),
                "{field}: …{}",
                text.chars().rev().take(200).collect::<String>()
            );
        }
    }
    // The task still works: an update that does not grow its texts passes
    // (its echo cut the same way), shortening them too, even while they
    // stay over the bound; one that grows them is refused.
    bounded(
        &db,
        &quotes,
        "task_items",
        "update",
        json!({"task_id": id, "title": "again"}),
    );
    let d = bounded(
        &db,
        &quotes,
        "task_items",
        "update",
        json!({"task_id": id, "description": "", "notes": "short"}),
    );
    assert_eq!(s(&d, "/task/notes"), "short");
    assert!(s(&d, "/task/outcome").contains(" more characters not shown"));
    let e = db.err(
        &quotes,
        "task_items",
        "update",
        json!({"task_id": id, "notes": "short, then longer"}),
    );
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["a task holds at most 786432"],
    );
}

/// What ends a text an `add_many` echo cut.
const ECHO_MARKER: &str =
    " more characters not shown in this echo; the task is stored whole: task_lists get shows it]";

/// The params limit every host applies.
const PARAMS: usize = 4 << 20;

/// `add_many` of `params` as `A`: it succeeds and its reply stays under
/// 1 MiB of text (its MCP frame under 2 MiB); its summary line and data.
#[track_caller]
fn bounded_batch(db: &TestDb, params: &Value) -> (String, Value) {
    let reply = db.reply(&ctx(A), "task_items", "add_many", params);
    let head: String = reply.text.chars().take(300).collect();
    assert!(reply.outcome.is_ok(), "{head}");
    assert!(
        reply.text.len() < MIB,
        "add_many: {} bytes of text: {head}…",
        reply.text.len()
    );
    let frame = mcp_frame_len(&reply);
    assert!(frame < 2 * MIB, "add_many: an MCP frame of {frame} bytes");
    let summary = reply.text.split_once('\n').expect("summary line").0;
    (summary.to_string(), reply.structured_value())
}

/// Each text of an echoed task: a beginning of what was sent and the
/// echo's marker.
#[track_caller]
fn cut_in_echo(echoed: &Value, sent: &Value, field: &str) {
    let text = echoed[field].as_str().unwrap();
    let (kept, _) = text
        .split_once(" … [cut: ")
        .unwrap_or_else(|| panic!("{field}: no marker"));
    assert!(sent[field].as_str().unwrap().starts_with(kept), "{field}");
    assert!(text.ends_with(ECHO_MARKER), "{field}");
}

/// The largest `add_many` the params limit lets through, of the character
/// JSON escapes most: its echo (12 MB of JSON whole) stays under 1 MiB,
/// its texts cut with markers, and every task is stored whole.
#[test]
fn the_largest_add_many_echoes_under_the_result_bound() {
    let db = TestDb::new();
    let worst = |n: usize| WORST.to_string().repeat(n);

    // Fifteen tasks at a task's bound (a 500-character title and a 64K
    // description): only the descriptions are cut.
    let list = db.list(A, "At the bound");
    let tasks: Vec<Value> = (0..15)
        .map(|i| json!({"title": format!("{i:02}{}", worst(498)), "description": worst(65_536)}))
        .collect();
    let params = json!({"list_id": list, "tasks": tasks});
    let size = params.to_string().len();
    assert!(size <= PARAMS && size > PARAMS - 300_000, "{size}");
    let (summary, echo) = bounded_batch(&db, &params);
    assert!(
        summary.starts_with("added 15 tasks to ")
            && summary.ends_with("; texts cut in this echo to keep it under 1 MiB (stored whole: task_lists get shows them)"),
        "{summary}"
    );
    for (i, t) in echo["tasks"].as_array().unwrap().iter().enumerate() {
        assert_eq!(t["title"], tasks[i]["title"], "a title fits whole");
        cut_in_echo(t, &tasks[i], "description");
    }
    let stored = db.all_tasks(A, &list, json!({}));
    assert_eq!(stored.len(), 15);
    for (i, t) in stored.iter().enumerate() {
        assert_eq!(t["id"], echo["tasks"][i]["id"]);
        assert_eq!(t["description"], tasks[i]["description"], "stored whole");
    }

    // 500 tasks filling 4 MiB: 500-character titles, descriptions and
    // notes, a 200-character assignee, 10 dependencies each (by ref): the
    // titles are cut too; the assignees and dependencies stay whole.
    let list = db.list(A, "Many");
    let assignee = "😀".repeat(200);
    let batch = |k: usize| -> Value {
        let tasks: Vec<Value> = (0..500usize)
            .map(|i| {
                json!({
                    "ref": format!("r{i}"),
                    "title": format!("{i:03}{}", worst(497)),
                    "description": worst(k),
                    "notes": worst(k),
                    "assigned_to_agent_id": assignee,
                    "depends_on": (i.saturating_sub(10)..i).map(|j| format!("r{j}")).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({"list_id": list, "tasks": tasks})
    };
    // Each character of a description or notes is 4 bytes of params.
    let k = (PARAMS - batch(0).to_string().len()) / (500 * 2 * 4);
    let params = batch(k);
    let size = params.to_string().len();
    assert!(size <= PARAMS && size > PARAMS - 4_000, "{size}");
    let (summary, echo) = bounded_batch(&db, &params);
    assert!(summary.starts_with("added 500 tasks to "), "{summary}");
    assert!(summary.contains("texts cut in this echo"), "{summary}");
    let echoed = echo["tasks"].as_array().unwrap();
    assert_eq!(echoed.len(), 500);
    let ids: Vec<&str> = echoed.iter().map(|t| t["id"].as_str().unwrap()).collect();
    for (i, t) in echoed.iter().enumerate() {
        let sent = &params["tasks"][i];
        for field in ["title", "description", "notes"] {
            cut_in_echo(t, sent, field);
        }
        assert_eq!(t["assigned_to_agent_id"], assignee.as_str());
        let mut deps: Vec<String> = t["depends_on"]
            .as_array()
            .map(|d| d.iter().map(|d| d.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        let mut want: Vec<String> = ids[i.saturating_sub(10)..i]
            .iter()
            .map(|s| s.to_string())
            .collect();
        deps.sort();
        want.sort();
        assert_eq!(deps, want, "tasks[{i}].depends_on");
    }
    let stored = db.all_tasks(A, &list, json!({}));
    assert_eq!(stored.len(), 500);
    for (i, t) in stored.iter().enumerate() {
        assert_eq!(t["id"], ids[i]);
        for field in ["title", "description", "notes"] {
            assert_eq!(
                t[field], params["tasks"][i][field],
                "tasks[{i}].{field} stored whole"
            );
        }
        assert_eq!(t["depends_on"].as_array().map_or(0, Vec::len), i.min(10));
    }
}

/// A `find` page of lists with long names and scope keys of escaped
/// characters stays a page (about 256 KiB), whatever its limit.
#[test]
fn lists_with_long_names_page_under_the_bound() {
    let db = TestDb::new();
    // 80 lists of about 14.5 KB of JSON each: 1.2 MB in all.
    for i in 0..80 {
        db.ok(
            A,
            "task_lists",
            "create",
            json!({"name": format!("{i:02}{}", WORST.to_string().repeat(198)), "scope_key": WORST.to_string().repeat(1000)}),
        );
    }
    let mut seen = 0;
    let mut cursor = Value::Null;
    let mut pages = 0;
    loop {
        let mut p = json!({"limit": 200});
        if !cursor.is_null() {
            p["cursor"] = cursor.clone();
        }
        let page = bounded(&db, A, "task_lists", "find", p);
        seen += page["lists"].as_array().unwrap().len();
        pages += 1;
        cursor = page["next_cursor"].clone();
        if cursor.is_null() {
            break;
        }
    }
    assert_eq!(seen, 80);
    assert!(pages >= 4, "{pages} pages");
}

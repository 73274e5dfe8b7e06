//! The readers on their own, and an export read back, through the
//! component's own harness (the integration tests run them on both stores).

use super::*;
use crate::model::{Priority, Status};
use crate::testing::Harness;

fn ctx(agent: &str) -> CallContext {
    CallContext {
        agent_id: Some(agent.into()),
        workspace: Some("/repo".into()),
        ..Default::default()
    }
}

fn import(h: &Harness, text: &str, format: Option<Format>, dry_run: bool) -> TransferReply {
    let req = ImportRequest {
        text: text.into(),
        file_name: String::new(),
        format,
        list_name: None,
        into: None,
        dry_run,
        strict: false,
        tag: None,
        approve: false,
    };
    import_text(&req, &ctx("planner"), &h.store, &h.clock)
}

#[test]
fn a_nested_checklist_becomes_tasks_the_outer_one_waiting() {
    let plan = markdown_in::parse(
        "# Ship it\n\nSome intro.\n\n- [ ] Build\n  - [x] Parser\n  - [ ] Writer\n    - priority: high\n    - notes: first\n      second\n- [-] Old path\n  Plain text under it.\n",
    )
    .unwrap();
    assert_eq!(plan.name.as_deref(), Some("Ship it"));
    let titles: Vec<&str> = plan.items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(titles, ["Build", "Parser", "Writer", "Old path"]);
    assert_eq!(plan.items[0].depends_on, ["2", "3"]);
    assert_eq!(plan.items[1].status, Status::Done);
    assert_eq!(plan.items[2].priority, Priority::High);
    assert_eq!(plan.items[2].notes.as_deref(), Some("first\nsecond"));
    assert_eq!(plan.items[3].status, Status::Canceled);
    assert_eq!(
        plan.items[3].description.as_deref(),
        Some("Plain text under it.")
    );
}

#[test]
fn a_plain_numbered_plan_is_read_when_there_is_no_checkbox() {
    let plan = markdown_in::parse("1. First\n   details\n2. Second\n   - a sub point\n").unwrap();
    let titles: Vec<&str> = plan.items.iter().map(|i| i.title.as_str()).collect();
    assert_eq!(titles, ["First", "Second"]);
    assert_eq!(plan.items[0].description.as_deref(), Some("details"));
}

#[test]
fn malformed_markdown_names_its_line_and_changes_nothing() {
    let h = Harness::default();
    let r = import(&h, "- [ ] A\n- [?] B\n", Some(Format::Markdown), false);
    assert!(r.failed);
    assert!(r.text.contains("line 2"), "{}", r.text);
    let r = import(
        &h,
        "- [ ] A\n  - after: Nope\n",
        Some(Format::Markdown),
        false,
    );
    assert!(r.failed && r.text.contains("line 2"), "{}", r.text);
    let found = h.ok("planner", "task_lists", "find", serde_json::json!({}));
    assert_eq!(found["lists"].as_array().unwrap().len(), 0);
}

#[test]
fn markdown_and_json_exports_read_back_the_same() {
    let h = Harness::default();
    let list = h.create_list("planner", serde_json::json!({"name": "Release"}));
    let ids = h.add_many(
        &list,
        serde_json::json!([
            {"ref": "a", "title": "Design", "notes": "n1\n\nn2", "refs": ["github://o/r/1"]},
            {"title": "Build", "priority": "high", "depends_on": ["a"], "refs": ["https://example.com/x?a=1&b=<2>"]},
            {"title": "Drop", "priority": "low"},
        ]),
    );
    h.ok(
        "planner",
        "task_items",
        "update",
        serde_json::json!({"task_id": ids[0], "status": "done", "outcome": "ok"}),
    );
    h.ok(
        "planner",
        "task_items",
        "update",
        serde_json::json!({"task_id": ids[2], "status": "canceled", "outcome": "no"}),
    );
    for format in [Format::Json, Format::Markdown] {
        let out = export_list(&list, format, &ctx("planner"), &h.store, &h.clock);
        assert!(!out.failed, "{:?}", out.lines);
        let back = import(&h, &out.text, Some(format), false);
        assert!(!back.failed, "{:?}", back.lines);
        let data: serde_json::Value = serde_json::from_str(&back.text).unwrap();
        let new_list = data["list"]["id"].as_str().unwrap();
        let get = |l: &str| {
            h.ok(
                "planner",
                "task_lists",
                "get",
                serde_json::json!({"list_id": l}),
            )
        };
        let (a, b) = (get(&list), get(new_list));
        let strip = |v: &serde_json::Value| {
            let mut tasks = v["tasks"].as_array().unwrap().clone();
            let ids: Vec<String> = tasks
                .iter()
                .map(|t| t["id"].as_str().unwrap().to_string())
                .collect();
            for t in &mut tasks {
                let m = t.as_object_mut().unwrap();
                m.remove("id");
                if let Some(d) = m.get_mut("depends_on") {
                    *d = d
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| {
                            serde_json::json!(ids.iter().position(|i| i == x.as_str().unwrap()))
                        })
                        .collect();
                }
            }
            tasks
        };
        assert_eq!(strip(&a), strip(&b), "{format:?}");
        assert_eq!(b["list"]["name"], "Release");
    }
}

#[test]
fn a_dry_run_changes_nothing_and_says_what_it_would_create() {
    let h = Harness::default();
    let r = import(&h, "- [ ] A\n- [ ] B\n", None, true);
    assert!(!r.failed);
    let data: serde_json::Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(data["tasks"].as_array().unwrap().len(), 2);
    assert_eq!(data["dry_run"], true);
    let found = h.ok("planner", "task_lists", "find", serde_json::json!({}));
    assert_eq!(found["lists"].as_array().unwrap().len(), 0);
}

#[test]
fn a_persons_checklist_keeps_its_backslashes_and_blank_lines_as_before() {
    let text = "- [ ] Handle `\\n` and `\\\"` \\- in C:\\Users\n  - notes: \\- kept\n    a\n\n\n    b\n  - outcome:\n";
    let plan = markdown_in::parse(text).unwrap();
    let item = &plan.items[0];
    assert_eq!(item.title, "Handle `\\n` and `\\\"` \\- in C:\\Users");
    assert_eq!(item.notes.as_deref(), Some("\\- kept\na\n\nb"));
    assert_eq!(item.outcome, None, "a bare key is no text");
    // The marker indented or inside fenced code is text, not the export's.
    for marked in [
        format!("{text}  {}\n", markdown_escape::MARKER),
        format!("```\n{}\n```\n{text}", markdown_escape::MARKER),
    ] {
        let plan = markdown_in::parse(&marked).unwrap();
        assert_eq!(plan.items[0].title, item.title);
    }
}

#[test]
fn an_exports_marker_makes_its_texts_exact() {
    let text = format!(
        "# \\# List\n\n{}\n\n- [ ] \\- task \\u{{202e}}\n  - notes: \\- kept\n    a\n\n\n    b\\u{{a}}\n  - outcome:\n  - assigned: @\\-x\n",
        markdown_escape::MARKER
    );
    let plan = markdown_in::parse(&text).unwrap();
    assert_eq!(plan.name.as_deref(), Some("# List"));
    let item = &plan.items[0];
    assert_eq!(item.title, "- task \u{202e}");
    assert_eq!(item.notes.as_deref(), Some("- kept\na\n\n\nb\n"));
    assert_eq!(item.outcome.as_deref(), Some(""));
    assert_eq!(item.assigned.as_deref(), Some("-x"));
}

#[test]
fn a_json_export_keeps_review_and_the_exchange_with_the_person() {
    let h = Harness::default();
    let list = h.create_list(
        "planner",
        serde_json::json!({"name": "Reviewed", "requires_review": true}),
    );
    let ids = h.add(&list, &["asked", "plain"]);
    h.ok(
        "planner",
        "task_claims",
        "claim_next",
        serde_json::json!({"list_id": list}),
    );
    h.ok(
        "planner",
        "task_items",
        "update",
        serde_json::json!({"task_id": ids[0], "question": "which cache?"}),
    );
    let out = export_list(&list, Format::Json, &ctx("planner"), &h.store, &h.clock);
    assert!(!out.failed, "{}", out.text);
    let back = import(&h, &out.text, Some(Format::Json), false);
    assert!(!back.failed, "{}", back.text);
    let result: serde_json::Value = serde_json::from_str(&back.text).unwrap();
    let new_list = result["list"]["id"].as_str().unwrap().to_string();
    let got = h.ok(
        "planner",
        "task_lists",
        "get",
        serde_json::json!({"list_id": new_list}),
    );
    assert_eq!(got["list"]["requires_review"], true, "{got}");
    let asked = &got["tasks"][0];
    assert_eq!(asked["requires_review"], true, "{asked}");
    assert_eq!(asked["status"], "blocked");
    assert!(
        asked.get("waits_on").is_none(),
        "an import asks nobody: {asked}"
    );
    assert!(
        asked["notes"].as_str().unwrap().contains("which cache?"),
        "{asked}"
    );
    assert!(
        result["report"].to_string().contains("question or review"),
        "{}",
        result["report"]
    );
}

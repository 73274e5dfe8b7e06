//! `tasklists inbox`: what needs the person (questions, work to review,
//! stalled work, …) as the component lays it out, or its data with
//! `--json`; `--stalled-after` saves a person's threshold for every
//! surface. No fake clock reaches the binary: a task's last change is
//! moved two minutes back in the database itself.

use crate::called::{ask, claim, finish_for_review, list_with};
use crate::plan::tasklists;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Output;

/// `tasklists inbox` with `args`.
fn inbox(db: &Path, args: &[&str]) -> Output {
    let out = tasklists(db).args(args).output().expect("the binary runs");
    assert!(
        out.status.code() != Some(101),
        "it panicked: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `tasklists inbox --json` with `args`: its data.
fn inbox_json(db: &Path, args: &[&str]) -> Value {
    let out = inbox(db, args);
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).expect("the inbox is JSON")
}

/// The entries' kinds and tasks, in order.
fn entries(data: &Value) -> Vec<(String, String)> {
    data["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["task_id"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn the_inbox_shows_questions_and_reviews_and_a_persons_threshold_finds_stalled_work() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list, question) = list_with(&db, "planner", json!({}), "Pick a cache");
    ask(&db, "agent-1", &list, &question, "Postgres or SQLite?");
    let (reviewed, review) = list_with(
        &db,
        "planner",
        json!({"requires_review": true}),
        "Build the release",
    );
    finish_for_review(&db, "agent-2", &reviewed, &review);
    let (quiet_list, quiet) = list_with(&db, "planner", json!({}), "Tag the release");
    assert_eq!(claim(&db, "agent-3", &quiet_list), quiet);
    // Its last note or lease renewal two minutes ago.
    let sql = rusqlite::Connection::open(&db).unwrap();
    let moved = sql
        .execute(
            "UPDATE tasks SET updated_at = updated_at - 120000 WHERE id = ?1",
            [&quiet],
        )
        .unwrap();
    assert_eq!(moved, 1);
    drop(sql);

    let shown = inbox(&db, &["inbox"]);
    assert!(shown.status.success(), "{shown:?}");
    let text = String::from_utf8(shown.stdout).unwrap();
    assert!(text.starts_with("Inbox: 2 need you"), "{text}");
    for part in [
        "question",
        "Pick a cache",
        "Postgres or SQLite?",
        "review",
        "Build the release",
    ] {
        assert!(text.contains(part), "{part:?} in {text}");
    }
    // Quiet for two minutes is not stalled under the default threshold.
    assert!(!text.contains("Tag the release"), "{text}");
    let data = inbox_json(&db, &["inbox", "--json"]);
    assert_eq!(data["count"], 2, "{data}");
    assert_eq!(data["stalled_after_minutes"], 30, "{data}");
    assert_eq!(
        entries(&data),
        [
            ("question".to_string(), question.clone()),
            ("review".to_string(), review.clone())
        ]
    );

    // A threshold is a person's to set: refused without one, nothing saved.
    let refused = inbox(&db, &["inbox", "--stalled-after", "1"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
    assert!(refused.stdout.is_empty(), "{refused:?}");
    let why = String::from_utf8(refused.stderr).unwrap();
    assert!(
        why.contains("--person") && why.contains("TASKLISTS_PERSON"),
        "{why}"
    );
    assert_eq!(inbox_json(&db, &["inbox", "--json"])["count"], 2);

    // Set by Ann: two quiet minutes are past one, and the setting stays
    // for every later read.
    let set = inbox_json(
        &db,
        &["--person", "ann", "inbox", "--stalled-after", "1", "--json"],
    );
    assert_eq!(set["stalled_after_minutes"], 1, "{set}");
    let later = inbox_json(&db, &["inbox", "--json"]);
    assert_eq!(later["stalled_after_minutes"], 1, "{later}");
    assert_eq!(
        entries(&later),
        [
            ("question".to_string(), question),
            ("review".to_string(), review),
            ("stalled".to_string(), quiet.clone()),
        ]
    );
    let stalled = &later["entries"][2];
    assert_eq!(stalled["agent"], "agent-3", "{stalled}");
    let text = String::from_utf8(inbox(&db, &["inbox"]).stdout).unwrap();
    assert!(text.starts_with("Inbox: 3 need you"), "{text}");
    assert!(
        text.contains("stalled") && text.contains("Tag the release"),
        "{text}"
    );

    // Out of range: the component's refusal.
    let refused = inbox(&db, &["--person", "ann", "inbox", "--stalled-after", "0"]);
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
}

#[test]
fn an_empty_inbox_says_nothing_needs_you() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let out = inbox(&db, &["inbox"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Inbox: nothing needs you"), "{text}");
    assert_eq!(inbox_json(&db, &["inbox", "--json"])["count"], 0);
}

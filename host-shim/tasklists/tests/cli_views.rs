//! The slash commands' views and `tasklists watch` from the command line,
//! as a person runs them: the same component output Pi shows, and a live
//! view that follows other agents' writes by itself.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The binary with a database, an identity and a workspace of its own.
fn command(db: &Path, agent: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tasklists"));
    cmd.arg("--db")
        .arg(db)
        .args([
            "--agent-id",
            agent,
            "--workspace",
            "/work/demo",
            "--color",
            "never",
        ])
        .args(args)
        .env_remove("TASKLISTS_DB")
        .env_remove("TASKLISTS_AGENT_ID")
        .env(
            "TASKLISTS_CACHE_DIR",
            std::env::temp_dir().join("tasklists-tests-cache"),
        )
        .stdin(Stdio::null());
    cmd
}

fn run(db: &Path, agent: &str, args: &[&str]) -> Output {
    command(db, agent, args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Calls a tool and returns its data.
fn call(db: &Path, agent: &str, tool: &str, request: serde_json::Value) -> serde_json::Value {
    let out = run(db, agent, &["call", "--json", tool, &request.to_string()]);
    assert!(out.status.success(), "{out:?}");
    let reply = text(&out.stdout);
    let json = reply
        .split_once('\n')
        .map(|(_, json)| json)
        .unwrap_or(&reply);
    serde_json::from_str(json).expect("the data is JSON")
}

/// A workspace list with three tasks; returns its id.
fn list_with_tasks(db: &Path) -> String {
    let list = call(
        db,
        "planner",
        "task_lists",
        serde_json::json!({"action": "create", "params": {"name": "Release 2.0", "scope_type": "workspace"}}),
    );
    let id = list["list"]["id"].as_str().unwrap().to_string();
    call(
        db,
        "planner",
        "task_items",
        serde_json::json!({"action": "add_many", "params": {"list_id": id, "tasks": [
            {"title": "Write the changelog"}, {"title": "Tag the release"}, {"title": "Announce it"}
        ]}}),
    );
    id
}

#[test]
fn task_lists_and_tasks_show_the_visible_lists_and_their_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let id = list_with_tasks(&db);

    let lists = run(&db, "viewer", &["task-lists"]);
    assert!(lists.status.success(), "{lists:?}");
    let shown = text(&lists.stdout);
    assert!(
        shown.contains("Release 2.0") && shown.contains(&id),
        "{shown}"
    );

    let tasks = run(&db, "viewer", &["tasks", &id]);
    assert!(tasks.status.success(), "{tasks:?}");
    let shown = text(&tasks.stdout);
    for title in ["Write the changelog", "Tag the release", "Announce it"] {
        assert!(shown.contains(title), "{title} missing from {shown}");
    }

    let full = run(&db, "viewer", &["tasks", &id, "full"]);
    assert!(full.status.success(), "{full:?}");
    assert!(text(&full.stdout).contains("\"scope_type\""), "{full:?}");

    // No list named and nobody at a terminal to choose: the choices are
    // shown and the command fails as a usage error.
    let pick = run(&db, "viewer", &["tasks"]);
    assert_eq!(pick.status.code(), Some(2), "{pick:?}");
    assert!(text(&pick.stderr).contains(&id), "{pick:?}");

    // A list that does not exist is the component's refusal, exit code 1.
    let missing = run(&db, "viewer", &["tasks", "list_01JZZZZZZZZZZZZZZZZZZZZZZZ"]);
    assert_eq!(missing.status.code(), Some(1), "{missing:?}");
    assert!(!text(&missing.stderr).is_empty(), "{missing:?}");
}

#[test]
fn task_list_delete_asks_before_it_deletes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let id = list_with_tasks(&db);

    let unasked = run(&db, "planner", &["task-list-delete", &id]);
    assert_eq!(unasked.status.code(), Some(2), "{unasked:?}");
    assert!(text(&unasked.stderr).contains("--yes"), "{unasked:?}");
    let still = call(
        &db,
        "planner",
        "task_lists",
        serde_json::json!({"action": "get", "params": {"list_id": id}}),
    );
    assert_eq!(still["tasks"].as_array().map(Vec::len), Some(3));

    let deleted = run(&db, "planner", &["task-list-delete", "--yes", &id]);
    assert!(deleted.status.success(), "{deleted:?}");
    let found = call(
        &db,
        "planner",
        "task_lists",
        serde_json::json!({"action": "find"}),
    );
    assert_eq!(found["lists"].as_array().map(Vec::len), Some(0), "{found}");
}

/// Kills the watcher even when an assertion fails.
struct Watcher(Child);

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Reads the watcher's output until `wanted` holds for it.
fn wait_for(output: &mpsc::Receiver<String>, seen: &mut String, wanted: impl Fn(&str) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !wanted(seen) {
        let left = deadline.saturating_duration_since(Instant::now());
        match output.recv_timeout(left) {
            Ok(chunk) => seen.push_str(&chunk),
            Err(_) => panic!("the watch view never showed what was expected; it showed:\n{seen}"),
        }
    }
}

#[test]
fn watch_redraws_when_another_agent_claims() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let id = list_with_tasks(&db);

    let mut child = command(&db, "viewer", &["watch"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("watch starts");
    let mut stdout = child.stdout.take().unwrap();
    let _watcher = Watcher(child);
    let (send, output) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0
                || send
                    .send(String::from_utf8_lossy(&buf[..n]).into_owned())
                    .is_err()
            {
                break;
            }
        }
    });

    let mut seen = String::new();
    wait_for(&output, &mut seen, |s| {
        s.contains("Release 2.0") && s.contains("run 0")
    });
    let before = seen.len();
    let claimed = call(
        &db,
        "builder-7",
        "task_claims",
        serde_json::json!({"action": "claim_next", "params": {"list_id": id}}),
    );
    assert_eq!(claimed["task"]["title"], "Write the changelog");
    // Nobody touches the watcher: the claim shows up by itself.
    wait_for(&output, &mut seen, |s| {
        let new = &s[before..];
        new.contains("run 1") && new.contains("builder-7")
    });
}

//! `tasklists watch` on a terminal: the person's dashboard, driven with
//! keys in a pseudo-terminal and read back from the screen, with the
//! effect of every key checked through the tools. The terminal is given
//! back as it was however the dashboard ends.

mod plan;
mod pty;

use plan::{call, get};
use pty::Pty;
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

/// A workspace list (`extra` merged into its create params) with three
/// tasks; its id.
fn release_list(db: &Path, extra: Value) -> String {
    plan::list(
        db,
        extra,
        &["Write the changelog", "Tag the release", "Announce it"],
    )
    .0
}

/// The task titled `title`, as the agents see it.
fn task(db: &Path, list_id: &str, title: &str) -> Value {
    get(db, list_id)["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["title"] == title)
        .cloned()
        .unwrap_or(Value::Null)
}

/// Waits until the store shows what a key did (the key is handled after
/// it was typed, so the check polls until a deadline).
fn until(what: &str, holds: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !holds() {
        assert!(Instant::now() < deadline, "the store never showed {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The screen's selected row (the dashboard marks it with `▸`).
fn selected(screen: &str) -> &str {
    screen
        .lines()
        .find(|l| l.starts_with('▸'))
        .unwrap_or_default()
}

/// The dashboard as the person at the keyboard, Ann.
fn dashboard(db: &Path, extra: &[&str]) -> Pty {
    let mut args = vec!["--person", "ann", "watch"];
    args.extend_from_slice(extra);
    Pty::spawn(db, &args, 110, 32)
}

#[test]
fn a_person_approves_a_plan_and_steers_it_with_keys() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let list_id = release_list(&db, json!({"requires_approval": true}));
    let mut term = dashboard(&db, &[]);

    // One list: it opens on its tasks, the first selected.
    let screen = term.wait_text("Announce it");
    assert!(
        selected(&screen).contains("Write the changelog"),
        "{screen}"
    );

    // A: approve the plan, after a yes.
    term.send("A");
    term.wait_text("Approve list");
    term.send("y");
    until("the approval", || {
        get(&db, &list_id)["list"]["approval"]["state"] == "approved"
    });

    // j/k select; T moves the selected task first.
    term.send("j");
    term.wait_for("the second task selected", |s| {
        selected(s).contains("Tag the release")
    });
    term.send("jk");
    term.wait_for("the selection back on the second task", |s| {
        selected(s).contains("Tag the release") && selected(s).contains("2.")
    });
    term.send("T");
    let moved = term.wait_for("the task moved first", |s| {
        selected(s).contains("Tag the release") && selected(s).contains("1.")
    });
    assert_eq!(task(&db, &list_id, "Tag the release")["position"], 1);
    if let Some(path) = std::env::var_os("TASKLISTS_CAPTURE_WATCH") {
        // The closing note's figure: the screen as the person sees it.
        std::fs::write(path, &moved).unwrap();
    }

    // b blocks it; p cycles its priority (medium -> high).
    term.send("b");
    until("the task blocked", || {
        task(&db, &list_id, "Tag the release")["status"] == "blocked"
    });
    term.send("p");
    until("the priority raised", || {
        task(&db, &list_id, "Tag the release")["priority"] == "high"
    });
    // a opens the prompt: typed and pasted text, then enter.
    term.send("a");
    term.wait_text("New task after");
    term.send("Write q");
    term.send("\x1b[200~ and the docs\x1b[201~");
    term.wait_text("Write q and the docs");
    term.send("\r");
    until("the task added", || {
        task(&db, &list_id, "Write q and the docs")["status"] == "todo"
    });
    // The new task is selected: x closes it as done, with an outcome.
    term.wait_for("the new task selected", |s| {
        selected(s).contains("Write q and the docs")
    });
    term.send("x");
    term.wait_text("outcome");
    term.send("written\r");
    until("the task done", || {
        let t = task(&db, &list_id, "Write q and the docs");
        t["status"] == "done" && t["outcome"] == "written"
    });

    // Every change was Ann's: the approval, the move, the block, the
    // priority, the new task and its closing.
    let events = call(
        &db,
        "planner",
        "task_audit",
        json!({"action": "get", "params": {"list_id": list_id}}),
    );
    let mine = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["agent_id"] == "ann")
        .count();
    assert!(mine >= 6, "{events}");

    // q closes it, and the terminal is as it was.
    term.send("q");
    assert!(term.wait_exit(), "{}", term.contents());
    assert_eq!(term.screen_modes(), [false; 3]);
    assert!(term.modes_restored());
}

#[test]
fn read_only_refuses_the_keys_that_write() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let list_id = release_list(&db, json!({}));
    let mut term = dashboard(&db, &["--read-only"]);

    let screen = term.wait_text("Announce it");
    assert!(screen.contains("read-only"), "{screen}");
    term.send("b");
    let screen = term.wait_text("--person");
    assert!(screen.contains("TASKLISTS_PERSON"), "{screen}");
    term.send("q");
    assert!(term.wait_exit(), "{}", term.contents());
    assert_eq!(task(&db, &list_id, "Write the changelog")["status"], "todo");
    assert!(term.modes_restored());
}

#[test]
fn it_follows_the_agents_and_gives_the_terminal_back_on_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let list_id = release_list(&db, json!({}));
    let mut term = dashboard(&db, &[]);
    term.wait_text("run 0");

    // Nobody touches the keyboard: another agent's claim shows up.
    call(
        &db,
        "builder-7",
        "task_claims",
        json!({"action": "claim_next", "params": {"list_id": list_id}}),
    );
    term.wait_text("run 1");
    assert_eq!(term.screen_modes(), [true; 3]);

    let pid = rustix::process::Pid::from_raw(term.pid() as i32).expect("a process id");
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).expect("the signal is sent");
    term.wait_exit();
    assert_eq!(term.screen_modes(), [false; 3]);
    assert!(term.modes_restored());
}

//! `tasklists watch` on a terminal: the person's dashboard, driven with
//! keys in a pseudo-terminal and read back from the screen, with the
//! effect of every key checked through the tools. The terminal is given
//! back as it was however the dashboard ends, and it ends however it is
//! asked to: `q` or `Esc` (0), Ctrl-C (130), SIGTERM (143), its terminal
//! closing (129), promptly and without spinning; piped, on a signal or
//! when its reader goes.

use crate::{plan, pty};

use plan::{call, get};
use pty::{Ended, Pty};
use rustix::process::{Pid, Signal, kill_process};
use serde_json::{Value, json};
use std::io::Read;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// How soon a signal must end it.
const ON_A_SIGNAL: Duration = Duration::from_secs(1);
/// How soon its terminal closing must end it.
const ON_A_HANG_UP: Duration = Duration::from_secs(2);
/// The CPU time it may use meanwhile: what giving the terminal back and
/// exiting cost, far from a busy loop's (a second of CPU each second).
const CPU_BUDGET: Duration = Duration::from_millis(250);

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
    assert_eq!(term.wait_exit(), 0, "{}", term.contents());
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
    term.wait_text("--person");
    term.send("q");
    assert_eq!(term.wait_exit(), 0, "{}", term.contents());
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

    // Half an escape sequence typed: the reader waits for the rest, and a
    // signal still ends it at once.
    term.send("\x1b[1");
    let ended = term.end_by(ON_A_SIGNAL, |term| term.signal(Signal::TERM));
    assert_ended(&ended, 143, ON_A_SIGNAL);
    assert_eq!(term.screen_modes(), [false; 3]);
    assert!(term.modes_restored());
}

/// Checks that the program ended `within` its bound with `code`, without
/// a busy loop meanwhile.
fn assert_ended(ended: &Ended, code: u32, within: Duration) {
    assert_eq!(ended.status, Some((code, None)), "{ended:?}");
    assert!(ended.after <= within, "{ended:?}");
    assert!(ended.cpu <= CPU_BUDGET, "{ended:?}");
}

#[test]
fn escape_closes_it_with_success() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    release_list(&db, json!({}));
    let mut term = dashboard(&db, &[]);
    term.wait_text("Announce it");

    term.send("\x1b");
    assert_eq!(term.wait_exit(), 0, "{}", term.contents());
    assert_eq!(term.screen_modes(), [false; 3]);
    assert!(term.modes_restored());
}

#[test]
fn ctrl_c_ends_it_with_130() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    release_list(&db, json!({}));
    let mut term = dashboard(&db, &[]);
    term.wait_text("Announce it");

    // In raw mode Ctrl-C is a key, not a signal: it ends it as SIGINT would.
    let ended = term.end_by(ON_A_SIGNAL, |term| term.send("\x03"));
    assert_ended(&ended, 130, ON_A_SIGNAL);
    assert_eq!(term.screen_modes(), [false; 3]);
    assert!(term.modes_restored());
}

#[test]
fn closing_its_terminal_ends_it_without_spinning() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    release_list(&db, json!({}));
    let mut term = dashboard(&db, &[]);
    term.wait_text("Announce it");

    // It leads the terminal's session: the hang-up comes with SIGHUP.
    let ended = term.end_by(ON_A_HANG_UP, Pty::close);
    assert_ended(&ended, 129, ON_A_HANG_UP);
}

#[test]
fn closing_its_terminal_ends_it_without_a_sighup_too() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    release_list(&db, json!({}));
    let mut term = Pty::spawn_under_shell(&db, &["--person", "ann", "watch"], 110, 32);
    term.wait_text("Announce it");

    // Its shell takes the SIGHUP (and ignores it): the terminal's end of
    // input is all it has to go by. The shell exits with its status.
    let ended = term.end_by(ON_A_HANG_UP, Pty::close);
    assert_ended(&ended, 129, ON_A_HANG_UP);
}

/// `tasklists watch --compact` with its output a pipe, as the agent
/// `viewer`, once it has printed its first view; killed when dropped.
struct Piped(Child);

impl Piped {
    fn start(db: &Path) -> Piped {
        let mut child = plan::tasklists(db)
            .args(["--agent-id", "viewer", "watch", "--compact"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("watch starts");
        let mut first = [0u8; 64];
        let out = child.stdout.as_mut().expect("its output");
        assert!(out.read(&mut first).expect("its first view") > 0);
        Piped(child)
    }

    /// Does `action` and waits up to `within` for it to exit; its code.
    fn end_by(&mut self, within: Duration, action: impl FnOnce(&mut Child)) -> Option<i32> {
        action(&mut self.0);
        let began = Instant::now();
        loop {
            if let Some(status) = self.0.try_wait().expect("its status") {
                // A death by the signal has no code: it must exit with one.
                assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), None);
                return status.code();
            }
            if began.elapsed() >= within {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Piped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Sends `signal` to `child`.
fn send(child: &Child, signal: Signal) {
    let pid = Pid::from_raw(child.id() as i32).expect("a process id");
    kill_process(pid, signal).expect("the signal is sent");
}

#[test]
fn piped_it_ends_on_a_signal_with_its_code() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    release_list(&db, json!({}));
    for (signal, code) in [(Signal::TERM, 143), (Signal::INT, 130), (Signal::HUP, 129)] {
        let mut widget = Piped::start(&db);
        let ended = widget.end_by(ON_A_SIGNAL, |child| send(child, signal));
        assert_eq!(ended, Some(code), "{signal:?}");
    }
}

#[test]
fn piped_it_ends_when_its_reader_goes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    release_list(&db, json!({}));
    let mut widget = Piped::start(&db);

    // Nothing changes, so it has nothing to write: it notices all the same.
    let ended = widget.end_by(ON_A_SIGNAL, |child| drop(child.stdout.take()));
    assert_eq!(ended, Some(0));
}

#[test]
fn a_plan_an_agent_made_anywhere_awaits_the_person_in_watch() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    // An agent's plan with the default scope (custom), made from another
    // directory than the dashboard's: it awaits the person's approval.
    let plan = call(
        &db,
        "planner",
        "task_lists",
        json!({"action": "create", "params": {"name": "Agent's plan", "requires_approval": true}}),
    );
    assert_eq!(plan["list"]["scope_type"], "custom");
    let plan_id = plan["list"]["id"].as_str().unwrap().to_string();
    plan::list(&db, json!({"name": "Ours"}), &["One"]);
    let mut term = dashboard(&db, &[]);
    // Both lists, the one awaiting the person first.
    let screen = term.wait_text("Agent's plan");
    let at = |name: &str| screen.find(name).unwrap_or(usize::MAX);
    assert!(at("Agent's plan") < at("Ours"), "{screen}");
    // `task-lists` at the shell says the same, in the same order.
    let lists = plan::tasklists(&db).args(["task-lists"]).output().unwrap();
    let lists = String::from_utf8(lists.stdout).unwrap();
    assert!(
        lists.find(&plan_id).unwrap() < lists.find("Ours").unwrap(),
        "{lists}"
    );
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn an_empty_answer_keeps_the_prompt_open_and_typing_never_runs_keys() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let list_id = release_list(&db, json!({"requires_approval": true}));
    let mut term = dashboard(&db, &[]);
    term.wait_text("Announce it");
    // Reject with an empty reason: the prompt stays open, and what is
    // typed next is the reason (before, "tutorial first please" ran as
    // keys after "tutoria" and added a task "l first please").
    term.send("R");
    term.wait_text("reason");
    term.send("\r");
    term.wait_text("an answer is needed");
    term.send("tutorial first please\r");
    until("the rejection", || {
        get(&db, &list_id)["list"]["approval"]["state"] == "rejected"
    });
    assert_eq!(
        get(&db, &list_id)["list"]["approval"]["reason"],
        "tutorial first please"
    );
    assert_eq!(
        get(&db, &list_id)["tasks"].as_array().unwrap().len(),
        3,
        "no task was added"
    );
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

#[test]
fn the_inbox_heads_the_dashboard_and_a_person_answers_and_reviews_with_keys() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let (list_id, ids) = plan::list(
        &db,
        json!({"requires_review": true}),
        &["Pick the cache", "Write the docs"],
    );
    let claim = json!({"action": "claim_next", "params": {"list_id": list_id}});
    call(&db, "builder-1", "task_claims", claim.clone());
    call(
        &db,
        "builder-1",
        "task_items",
        json!({"action": "update", "params": {"task_id": ids[0], "question": "Postgres or SQLite?"}}),
    );
    call(&db, "builder-2", "task_claims", claim.clone());
    call(
        &db,
        "builder-2",
        "task_items",
        json!({"action": "update", "params": {"task_id": ids[1], "status": "done", "outcome": "docs written"}}),
    );
    let mut term = dashboard(&db, &[]);
    let screen = term.wait_text("Inbox: 2 need you");
    assert!(screen.contains("Postgres or SQLite?"), "{screen}");
    assert!(screen.contains("docs written"), "{screen}");
    assert!(
        screen.contains("? asks") && screen.contains("◆ review"),
        "{screen}"
    );
    if let Some(path) = std::env::var_os("TASKLISTS_CAPTURE_INBOX") {
        // The closing note's figure: the inbox heading the dashboard.
        std::fs::write(path, &screen).unwrap();
    }
    // The first task is selected: n asks for the answer.
    assert!(selected(&screen).contains("Pick the cache"), "{screen}");
    term.send("n");
    term.wait_text("Answer");
    term.send("SQLite\r");
    until("the answer", || {
        task(&db, &list_id, "Pick the cache")["ask"]["answer"] == "SQLite"
    });
    // j, then u returns the finished one with a reason.
    term.send("j");
    term.wait_for("the second task selected", |s| {
        selected(s).contains("Write the docs")
    });
    term.send("u");
    term.wait_text("reason");
    term.send("add an example\r");
    until("the return", || {
        task(&db, &list_id, "Write the docs")["review"]["reason"] == "add an example"
    });
    let after = term.wait_for("the inbox emptied", |s| {
        !s.contains("need you") && !s.contains("needs you")
    });
    assert!(
        after.contains("○ todo  Write the docs"),
        "returned: {after}"
    );
    // The answer and the reason reach each agent's next claim first.
    let back = call(&db, "builder-1", "task_claims", claim.clone());
    assert_eq!(back["task"]["id"], ids[0].as_str());
    let returned = call(&db, "builder-2", "task_claims", claim);
    assert_eq!(returned["task"]["review"]["reason"], "add an example");
    term.send("q");
    assert_eq!(term.wait_exit(), 0);
}

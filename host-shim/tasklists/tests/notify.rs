//! The person is called: `tasklists notify` (and `serve --notify-*`)
//! sends each new inbox entry once to a webhook, a real HTTP receiver on
//! loopback here: one signed POST per entry within 2 s, again after a
//! 500, nothing again after a restart, and never an entry of a list the
//! notifier's identity may not see. `tasklists inbox` prints the same
//! entries, and a stalled threshold saved by a person.

use crate::called::{ask, finish_for_review, list_with};
use crate::plan;

use hmac::{Hmac, KeyInit, Mac};
use plan::tasklists;
use serde_json::{Value, json};
use sha2::Sha256;
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The secret the tests' webhooks are signed with.
const SECRET: &str = "a secret only the receiver knows";
/// How soon an entry must reach the receiver.
const PROMPT: Duration = Duration::from_secs(2);
/// How long to watch for a POST that must not come: a few of the
/// notifier's looks (one a second) and a retry's first wait.
const QUIET: Duration = Duration::from_millis(2500);

/// One request the receiver read, and the status it answered.
#[derive(Clone, Debug)]
struct Received {
    path: String,
    headers: Vec<(String, String)>,
    body: String,
    status: u16,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("the body is JSON ({e}): {}", self.body))
    }

    /// The entry's key, as the delivery header names it.
    fn key(&self) -> String {
        self.header("x-tasklists-delivery")
            .expect("a delivery header")
            .to_string()
    }
}

/// How the receiver answers.
#[derive(Clone, Copy)]
enum Answer {
    /// 200 to everything.
    Ok,
    /// 500 to the first request of each entry, then 200.
    FailFirst,
    /// 404 to everything.
    NotFound,
}

/// A webhook receiver on a loopback port: a thread reading one request a
/// connection and recording it.
struct Receiver {
    port: u16,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Receiver {
    fn start(answer: Answer) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&received);
        std::thread::spawn(move || {
            let mut failed: HashSet<String> = HashSet::new();
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let Some(mut request) = read_request(&stream) else {
                    continue;
                };
                request.status = match answer {
                    Answer::Ok => 200,
                    Answer::NotFound => 404,
                    Answer::FailFirst if failed.insert(request.key()) => 500,
                    Answer::FailFirst => 200,
                };
                let mut stream = stream;
                let _ = write!(
                    stream,
                    "HTTP/1.1 {} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    request.status
                );
                record.lock().unwrap().push(request);
            }
        });
        Receiver { port, received }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn all(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// The requests to `path` about the entry `key`.
    fn about(&self, path: &str, key: &str) -> Vec<Received> {
        self.all()
            .into_iter()
            .filter(|r| r.path == path && r.key() == key)
            .collect()
    }

    /// Waits up to `within` for a request to `path` whose entry has `kind`
    /// and is about `task`; the first one.
    fn wait_for(&self, path: &str, kind: &str, task: &str, within: Duration) -> Received {
        let deadline = Instant::now() + within;
        loop {
            if let Some(found) = self.all().into_iter().find(|r| {
                let body = r.json();
                r.path == path && body["kind"] == kind && body["task_id"] == task
            }) {
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "no {kind} POST about {task} to {path} within {within:?}: {:#?}",
                self.all()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Reads one request: its head, then the body its Content-Length says.
fn read_request(stream: &TcpStream) -> Option<Received> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut words = line.split_whitespace();
    assert_eq!(words.next(), Some("POST"), "{line}");
    let path = words.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse().ok())?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Received {
        path,
        headers,
        body: String::from_utf8(body).ok()?,
        status: 0,
    })
}

/// A running `tasklists` that follows the inbox (`notify` or `serve`),
/// killed when dropped; its stderr collected.
struct Running {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

impl Running {
    fn spawn(mut command: Command) -> Running {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stderr = Arc::new(Mutex::new(String::new()));
        let log = Arc::clone(&stderr);
        let pipe = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines() {
                let Ok(line) = line else { break };
                let mut log = log.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        let running = Running { child, stderr };
        // Started once it says what it sends to.
        running.wait_log("notifier: sending new inbox entries to");
        running
    }

    fn log(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits for `text` in its stderr.
    fn wait_log(&self, text: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self.log().contains(text) {
            assert!(
                Instant::now() < deadline,
                "{text:?} never logged: {}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGTERM, then its exit status.
    fn stop(mut self) -> ExitStatus {
        let pid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "still running after SIGTERM");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The binary on `db`, hermetic (no secret or log level inherited).
fn command(db: &Path) -> Command {
    let mut command = tasklists(db);
    command
        .env_remove("TASKLISTS_NOTIFY_SECRET")
        .env_remove("TASKLISTS_LOG");
    command
}

/// `tasklists notify` on `db` as `who` (`--agent-id` and/or `--person`)
/// posting to `url`, with `extra` options.
fn notify(db: &Path, who: &[&str], url: &str, extra: &[&str]) -> Running {
    let mut command = command(db);
    command
        .args(who)
        .args(["notify", "--notify-webhook", url, "--notify-secret", SECRET])
        .args(extra);
    Running::spawn(command)
}

/// The HMAC-SHA256 signature header a receiver expects for `body`.
fn signature(body: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(body.as_bytes());
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256={hex}")
}

#[test]
fn each_entry_reaches_the_webhook_once_signed_and_a_restart_sends_nothing_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let receiver = Receiver::start(Answer::Ok);
    let (list, task) = list_with(&db, "planner", json!({}), "Pick a cache");
    // The board's link carries a sign-in token: the payload's link never does.
    let notifier = notify(
        &db,
        &["--person", "ann"],
        &receiver.url("/hook"),
        &[
            "--board-url",
            "http://board.test:8080/?token=sign-in-secret",
        ],
    );

    ask(&db, "agent-1", &list, &task, "Postgres or SQLite?");
    let post = receiver.wait_for("/hook", "question", &task, PROMPT);
    assert_eq!(post.header("content-type"), Some("application/json"));
    assert_eq!(
        post.header("x-tasklists-signature"),
        Some(signature(&post.body).as_str()),
        "the signature checks with the secret"
    );
    let body = post.json();
    assert_eq!(body["title"], "Pick a cache", "{body}");
    assert_eq!(body["list_id"], list.as_str(), "{body}");
    assert_eq!(body["said"], "Postgres or SQLite?", "{body}");
    assert_eq!(body["agent"], "agent-1", "{body}");
    assert_eq!(body["key"], post.key().as_str(), "{body}");
    assert_eq!(
        body["link"],
        format!("http://board.test:8080/tasks/{task}").as_str(),
        "{body}"
    );
    assert!(!post.body.contains("sign-in-secret"), "{}", post.body);
    notifier.wait_log(&format!(
        "notified webhook: question {task} ({})",
        post.key()
    ));

    // Sent once: later looks leave it out.
    std::thread::sleep(QUIET);
    assert_eq!(receiver.all().len(), 1, "{:#?}", receiver.all());
    assert!(notifier.stop().success(), "SIGTERM ends it cleanly");

    // A restart sends nothing already sent, and the next entry once.
    let notifier = notify(&db, &["--person", "ann"], &receiver.url("/hook"), &[]);
    std::thread::sleep(QUIET);
    assert_eq!(receiver.all().len(), 1, "{:#?}", receiver.all());
    let (reviewed, built) = list_with(&db, "planner", json!({"requires_review": true}), "Build");
    finish_for_review(&db, "agent-2", &reviewed, &built);
    let review = receiver.wait_for("/hook", "review", &built, PROMPT);
    assert_eq!(review.json()["said"], "built and tested");
    assert_eq!(
        review.json()["link"],
        Value::Null,
        "no --board-url: no link"
    );
    std::thread::sleep(QUIET);
    assert_eq!(receiver.all().len(), 2, "{:#?}", receiver.all());
    drop(notifier);
}

#[test]
fn a_500_is_tried_again_and_the_entry_then_recorded_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let receiver = Receiver::start(Answer::FailFirst);
    let (list, task) = list_with(&db, "planner", json!({}), "Pick a cache");
    let notifier = notify(&db, &["--person", "ann"], &receiver.url("/hook"), &[]);
    ask(&db, "agent-1", &list, &task, "Postgres or SQLite?");

    let first = receiver.wait_for("/hook", "question", &task, PROMPT);
    let deadline = Instant::now() + PROMPT;
    while receiver.about("/hook", &first.key()).len() < 2 {
        assert!(Instant::now() < deadline, "no retry: {:#?}", receiver.all());
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(QUIET);
    let posts = receiver.about("/hook", &first.key());
    let statuses: Vec<u16> = posts.iter().map(|p| p.status).collect();
    assert_eq!(statuses, [500, 200], "{posts:#?}");
    assert_eq!(posts[0].body, posts[1].body);
    assert_eq!(
        posts[1].header("x-tasklists-signature"),
        Some(signature(&posts[1].body).as_str())
    );
    // Killed outright: what was delivered is recorded all the same.
    drop(notifier);
    let _notifier = notify(&db, &["--person", "ann"], &receiver.url("/hook"), &[]);
    std::thread::sleep(QUIET);
    assert_eq!(receiver.all().len(), 2, "{:#?}", receiver.all());
}

#[test]
fn a_refusal_is_not_tried_again_until_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let receiver = Receiver::start(Answer::NotFound);
    let (list, task) = list_with(&db, "planner", json!({}), "Pick a cache");
    ask(&db, "agent-1", &list, &task, "Postgres or SQLite?");

    let notifier = notify(&db, &["--person", "ann"], &receiver.url("/wrong"), &[]);
    receiver.wait_for("/wrong", "question", &task, PROMPT);
    std::thread::sleep(QUIET);
    assert_eq!(
        receiver.all().len(),
        1,
        "a 404 is not retried: {:#?}",
        receiver.all()
    );
    notifier.wait_log("answered 404 Not Found");
    drop(notifier);
    // Not recorded as sent: once the receiver is fixed (or here, at the
    // next start) it is tried again.
    let _notifier = notify(&db, &["--person", "ann"], &receiver.url("/wrong"), &[]);
    let deadline = Instant::now() + PROMPT;
    while receiver.all().len() < 2 {
        assert!(Instant::now() < deadline, "{:#?}", receiver.all());
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_private_lists_entries_reach_only_its_owners_notifier() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let receiver = Receiver::start(Answer::Ok);
    let (private, secret_task) = list_with(
        &db,
        "agent-1",
        json!({"name": "Mine", "visibility": "private"}),
        "Rotate my keys",
    );
    let (shared, shared_task) = list_with(&db, "planner", json!({}), "Pick a cache");
    let own = notify(&db, &["--agent-id", "agent-1"], &receiver.url("/one"), &[]);
    let other = notify(&db, &["--agent-id", "agent-2"], &receiver.url("/two"), &[]);
    ask(&db, "agent-1", &private, &secret_task, "Which vault?");
    ask(&db, "agent-3", &shared, &shared_task, "Postgres or SQLite?");

    receiver.wait_for("/one", "question", &secret_task, PROMPT);
    receiver.wait_for("/one", "question", &shared_task, PROMPT);
    receiver.wait_for("/two", "question", &shared_task, PROMPT);
    std::thread::sleep(QUIET);
    let leaked: Vec<Received> = receiver
        .all()
        .into_iter()
        .filter(|r| r.path == "/two" && r.body.contains(&secret_task))
        .collect();
    assert!(leaked.is_empty(), "{leaked:#?}");
    assert!(!other.log().contains(&secret_task), "{}", other.log());
    drop((own, other));
}

#[test]
fn serve_notifies_beside_the_board_with_links_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let receiver = Receiver::start(Answer::Ok);
    let (list, task) = list_with(&db, "planner", json!({}), "Pick a cache");
    let mut serve = command(&db);
    serve
        .args(["--person", "ann", "serve", "--notify-webhook"])
        .arg(receiver.url("/hook"))
        // The secret from the environment, as a person keeps it.
        .env("TASKLISTS_NOTIFY_SECRET", SECRET);
    let mut server = Running::spawn(serve);
    let mut url = String::new();
    BufReader::new(server.child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let base = url
        .trim()
        .strip_prefix("tasklists board: ")
        .and_then(|u| u.split('?').next())
        .unwrap_or_else(|| panic!("the board's URL: {url:?}"))
        .to_string();
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");

    ask(&db, "agent-1", &list, &task, "Postgres or SQLite?");
    let post = receiver.wait_for("/hook", "question", &task, PROMPT);
    assert_eq!(
        post.header("x-tasklists-signature"),
        Some(signature(&post.body).as_str())
    );
    let link = post.json()["link"].as_str().unwrap().to_string();
    assert_eq!(link, format!("{base}tasks/{task}"));
    assert!(!post.body.contains("token"), "{}", post.body);
    std::thread::sleep(QUIET);
    assert_eq!(receiver.all().len(), 1, "{:#?}", receiver.all());
    assert!(server.stop().success());
}

#[test]
fn notify_refuses_to_start_without_a_channel_or_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    let run = |args: &[&str]| {
        let out = command(&db).args(args).output().unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    let (code, why) = run(&["notify"]);
    assert_eq!(code, Some(2), "{why}");
    assert!(
        why.contains("--notify-webhook") && why.contains("--notify-desktop"),
        "{why}"
    );
    let (code, why) = run(&["notify", "--notify-webhook", "http://127.0.0.1:9/hook"]);
    assert_eq!(code, Some(2), "{why}");
    assert!(why.contains("TASKLISTS_NOTIFY_SECRET"), "{why}");
    let (code, why) = run(&["serve", "--notify-webhook", "http://127.0.0.1:9/hook"]);
    assert_eq!(code, Some(2), "serve refuses too: {why}");
    assert!(why.contains("TASKLISTS_NOTIFY_SECRET"), "{why}");
    let (code, why) = run(&[
        "notify",
        "--notify-webhook",
        "ftp://127.0.0.1/hook",
        "--notify-secret",
        "s",
    ]);
    assert_eq!(code, Some(2), "{why}");
    assert!(why.contains("http://"), "{why}");
    if !cfg!(feature = "desktop") {
        let (code, why) = run(&["notify", "--notify-desktop"]);
        assert_eq!(code, Some(2), "{why}");
        assert!(why.contains("not built in"), "{why}");
    }
}

//! What the `tasklists` binary keeps private about its store, as a user
//! runs it: no part of a PostgreSQL password is ever printed (stdout,
//! stderr, the MCP start-up log, a `storage` error the model reads), the
//! SQLite database and its directory are the user's alone whatever the
//! umask, and the demo's temporary directory is a fresh private one.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Output, Stdio};

/// A connection string and the pieces of its password none of which may
/// ever be printed.
struct Secret {
    text: &'static str,
    parts: &'static [&'static str],
}

/// A URL whose password holds an unencoded `@` (libpq would take its tail
/// for the host), and key/value words whose password has an unquoted
/// space (its second word would be read as a keyword).
const SECRETS: [Secret; 2] = [
    Secret {
        text: "postgresql://agent:Tr0ubQx@dorZk@127.0.0.1:1/tasks",
        parts: &["Tr0ubQx", "dorZk"],
    },
    Secret {
        text: "host=127.0.0.1 port=1 dbname=tasks user=agent password=corrQectx horsQebat",
        parts: &["corrQectx", "horsQebat"],
    },
];

/// The binary with a clean environment: no database, identity or log
/// settings of the developer's.
fn tasklists() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tasklists"));
    command
        .args(["--agent-id", "privacy-test", "--color", "never"])
        .env_remove("TASKLISTS_DB")
        .env_remove("TASKLISTS_AGENT_ID")
        .env_remove("TASKLISTS_LOG")
        .env(
            "TASKLISTS_CACHE_DIR",
            std::env::temp_dir().join("tasklists-tests-cache"),
        );
    command
}

/// `command` run under `umask 022` (the usual one), whatever the test
/// runner's is: through `sh`, which sets it and then becomes the binary.
fn under_umask_022(command: &Command) -> Command {
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg("umask 022; exec \"$0\" \"$@\"")
        .arg(command.get_program())
        .args(command.get_args());
    for (key, value) in command.get_envs() {
        match value {
            Some(value) => sh.env(key, value),
            None => sh.env_remove(key),
        };
    }
    sh
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Neither stream of `out` shows any part of `secret`.
fn assert_hidden(secret: &Secret, what: &str, out: &Output) {
    for part in secret.parts {
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let shown = text(bytes);
            assert!(
                !shown.contains(part),
                "{what}: `{part}` of the password is on {stream}: {shown}"
            );
        }
    }
}

#[test]
fn no_part_of_a_password_reaches_stdout_or_stderr() {
    for secret in &SECRETS {
        let run = |args: &[&str]| {
            tasklists()
                .arg("--db")
                .arg(secret.text)
                .args(args)
                .output()
                .unwrap()
        };
        // `db-path` refuses a string it cannot use, saying why.
        let db_path = run(&["db-path"]);
        assert_hidden(secret, "db-path", &db_path);
        assert_eq!(db_path.status.code(), Some(2), "{db_path:?}");
        let why = text(&db_path.stderr);
        if secret.text.starts_with("postgresql:") {
            assert!(why.contains("percent-encode"), "{why}");
        } else {
            assert!(why.contains("`password`"), "names the key: {why}");
        }
        // A call: the contract's `storage` error, raw and rendered.
        for args in [
            &["call", "--json", "task_lists", r#"{"action":"find"}"#][..],
            &["call", "task_lists", r#"{"action":"find"}"#][..],
        ] {
            let out = run(args);
            assert_hidden(secret, &format!("{args:?}"), &out);
            assert_eq!(out.status.code(), Some(1), "{out:?}");
        }
        let json = run(&["call", "--json", "task_lists", r#"{"action":"find"}"#]);
        let reply: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(reply["error"]["code"], "storage", "{reply}");
    }
}

/// `tasklists mcp`, spoken to in raw JSON-RPC over its stdio.
struct Mcp {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: std::io::Lines<BufReader<std::process::ChildStdout>>,
    next_id: u64,
}

impl Mcp {
    fn start(mut command: Command) -> Mcp {
        let mut child = command
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let replies = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut mcp = Mcp {
            child,
            stdin,
            replies,
            next_id: 0,
        };
        mcp.request(
            "initialize",
            serde_json::json!({
                "protocolVersion": "2025-03-26",
                "capabilities": {},
                "clientInfo": {"name": "store-privacy-test", "version": "0"},
            }),
        );
        mcp.send(&serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        mcp
    }

    fn send(&mut self, message: &serde_json::Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a request and returns its reply (the whole JSON-RPC message).
    fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(
            &serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
        loop {
            let line = self.replies.next().expect("a reply").unwrap();
            let message: serde_json::Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    /// `task_lists` with `arguments`: the `tools/call` result.
    fn call(&mut self, arguments: serde_json::Value) -> serde_json::Value {
        let reply = self.request(
            "tools/call",
            serde_json::json!({"name": "task_lists", "arguments": arguments}),
        );
        reply["result"].clone()
    }

    /// Closes stdin and returns what the server wrote to stderr.
    fn stop(mut self) -> String {
        drop(self.stdin.take());
        let out = self.child.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
        text(&out.stderr)
    }
}

#[test]
fn no_part_of_a_password_reaches_the_mcp_log_or_the_model() {
    for secret in &SECRETS {
        let mut command = tasklists();
        command.env("TASKLISTS_DB", secret.text);
        let mut mcp = Mcp::start(command);
        let result = mcp.call(serde_json::json!({"action": "find"}));
        assert_eq!(result["isError"], true, "{result}");
        assert_eq!(
            result["structuredContent"]["error"]["code"], "storage",
            "{result}"
        );
        let sent = result.to_string();
        let log = mcp.stop();
        for part in secret.parts {
            assert!(!sent.contains(part), "`{part}` sent to the model: {sent}");
            assert!(!log.contains(part), "`{part}` in the log: {log}");
        }
        let message = result["structuredContent"]["error"]["message"]
            .as_str()
            .unwrap();
        if secret.text.starts_with("postgresql:") {
            assert!(message.contains("percent-encode"), "{message}");
        } else {
            assert!(message.contains("`password`"), "{message}");
        }
    }
}

/// The permission bits of `path`.
fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn the_default_database_is_private_to_its_user_under_umask_022() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    let mut command = tasklists();
    command.env("XDG_DATA_HOME", &data);
    // A server keeps the database open, so `-wal` and `-shm` are there
    // to look at after a write.
    let mut mcp = Mcp::start(under_umask_022(&command));
    let created = mcp.call(serde_json::json!({"action": "create", "params": {"name": "mine"}}));
    assert_eq!(created["isError"], false, "{created}");
    let dir = data.join("tasklists");
    let db = dir.join("tasks.db");
    assert_eq!(mode(&dir), 0o700, "the data directory");
    for name in ["tasks.db", "tasks.db-wal", "tasks.db-shm"] {
        let path = dir.join(name);
        assert!(path.exists(), "{name} while the server runs");
        assert_eq!(mode(&path), 0o600, "{name}");
    }
    let log = mcp.stop();
    assert!(
        !log.contains("chmod"),
        "no warning for a private file: {log}"
    );
    assert_eq!(mode(&db), 0o600);
}

#[test]
fn a_database_others_can_read_gets_one_warning_on_stderr_only() {
    let home = tempfile::tempdir().unwrap();
    let db = home.path().join("tasks.db");
    let mut command = tasklists();
    command.arg("--db").arg(&db);
    let create = under_umask_022(&command)
        .args(["call", "--json", "task_lists"])
        .arg(r#"{"action":"create","params":{"name":"l"}}"#)
        .output()
        .unwrap();
    assert!(create.status.success(), "{create:?}");
    // As an older build (or a copy) left it.
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    let chmod = format!("chmod 600 {}", db.display());

    let find = under_umask_022(&command)
        .args(["call", "--json", "task_lists", r#"{"action":"find"}"#])
        .output()
        .unwrap();
    assert!(find.status.success(), "{find:?}");
    assert!(!text(&find.stdout).contains("chmod"), "{find:?}");
    assert_eq!(text(&find.stderr).matches(&chmod).count(), 1, "{find:?}");

    // A server warns once, however many calls, and never in a result.
    let mut mcp = Mcp::start(under_umask_022(&command));
    for _ in 0..3 {
        let found = mcp.call(serde_json::json!({"action": "find"}));
        assert_eq!(found["isError"], false, "{found}");
        assert!(!found.to_string().contains("chmod"), "{found}");
    }
    let log = mcp.stop();
    assert_eq!(log.matches(&chmod).count(), 1, "{log}");
    assert_eq!(mode(&db), 0o644, "the user's file is left as it is");
}

#[test]
fn the_demo_makes_a_fresh_private_temporary_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let mut command = tasklists();
    command.env("TMPDIR", tmp.path()).arg("demo");
    let out = under_umask_022(&command).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let dirs: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let dir = &dirs[0];
    assert!(text(&out.stdout).contains(&dir.display().to_string()));
    assert_eq!(mode(dir), 0o700, "{}", dir.display());
    assert_eq!(mode(&dir.join("tasks.db")), 0o600);
}

//! Storage faults while servers run: a full disk, a read-only file system
//! (the database file and its directory), the database file replaced
//! (renamed over) under a running host, and its `-wal` file removed. Each
//! time the in-process host (and, for the full disk, the real `tasklists
//! mcp` binary) answers a typed `storage` error with a hint, keeps serving,
//! works again once the fault is gone, and loses nothing it acknowledged
//! (checked in the raw file).
//!
//! The full-disk and read-only cases mount a small tmpfs (the tests run as
//! root in CI); if mounting is refused they fail saying so, never skip.
//! Every mount is undone by a guard, even when an assertion fails.
//!
//! No long mode: each fault is one deterministic scenario.
//!
//! `cargo test --release -p tasklists-tests --test contract storage_faults:: -- --nocapture`

use crate::torture;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tasklists_tests::*;
use torture::{integrity, raw, rows};

/// Why this file's tests skip themselves on PostgreSQL.
const ON_POSTGRES: &str =
    "file-system faults of an SQLite file (PostgreSQL's own faults: postgres_store)";

const A: &str = "builder-1";

/// A tmpfs of `size` mounted on a fresh directory; unmounted on drop.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(size: &str) -> Tmpfs {
        let dir = tempfile::tempdir().unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .output()
            .expect("run mount");
        assert!(
            out.status.success(),
            "these tests need to mount a tmpfs (root, or a user+mount namespace: `unshare -rm cargo test …`): {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Tmpfs { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Remounts read-only (`ro`) or read-write.
    fn remount(&self, mode: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,{mode}")])
            .arg(self.path())
            .status()
            .unwrap();
        assert!(status.success(), "remount {mode}");
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        // Lazy: a host still open on it must not keep the mount around.
        let _ = Command::new("umount").arg("-l").arg(self.path()).status();
    }
}

/// Fills the file system of `dir` with one file until it is full.
fn fill(dir: &Path) -> PathBuf {
    let filler = dir.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let chunk = vec![0u8; 64 << 10];
    while f.write_all(&chunk).is_ok() {}
    // The last bytes a partial write could take.
    while f.write_all(&chunk[..512]).is_ok() {}
    filler
}

/// A host on `path` with the test clock.
fn host(path: &Path) -> Host {
    Host::open_lazily(config(path).with_clock(ManualClock::new(T0).shared())).unwrap()
}

fn call(host: &mut Host, tool: &str, action: &str, params: Value) -> Result<ToolOutput, ToolError> {
    host.call(tool, action, &params.to_string(), &ctx(A))
}

fn create_list(host: &mut Host, name: &str) -> Result<String, ToolError> {
    call(host, "task_lists", "create", json!({"name": name})).map(|o| s(&o.data, "/list/id"))
}

/// The names of the lists stored in the file at `path`, read raw.
fn stored_lists(path: &Path) -> Vec<String> {
    let conn = raw(path);
    let mut names: Vec<String> = rows(&conn, "SELECT name FROM lists")
        .into_iter()
        .map(|r| r[0].clone().unwrap())
        .collect();
    names.sort();
    names
}

#[track_caller]
fn expect_storage(result: Result<impl std::fmt::Debug, ToolError>, what: &str) -> ToolError {
    let e = result.expect_err(what);
    expect(&e, ErrorCode::Storage, &[]);
    assert!(!e.hint.is_empty(), "{what}: no hint: {}", e.message);
    eprintln!("storage_faults: {what}: {} (hint: {})", e.message, e.hint);
    e
}

#[test]
fn a_full_disk_is_a_storage_error_and_the_host_serves_again_once_space_is_freed() {
    if skip_on_postgres(
        "storage_faults::a_full_disk_is_a_storage_error_and_the_host_serves_again_once_space_is_freed",
        ON_POSTGRES,
    ) {
        return;
    }
    let fs = Tmpfs::mount("2m");
    let path = fs.path().join("tasks.db");
    let mut h = host(&path);
    let mut acknowledged = vec![];
    for i in 0..5 {
        let name = format!("before {i}");
        create_list(&mut h, &name).unwrap();
        acknowledged.push(name);
    }
    let list = create_list(&mut h, "work").unwrap();
    acknowledged.push("work".into());
    let filler = fill(fs.path());
    // Small writes may still fit in pages SQLite already has; a large one
    // cannot.
    let big: Vec<Value> = (0..400)
        .map(|i| json!({"title": format!("{i} {}", "x".repeat(400))}))
        .collect();
    let e = expect_storage(
        call(
            &mut h,
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": big.clone()}),
        ),
        "add_many on a full disk",
    );
    assert!(
        e.message.contains("full") || e.message.contains("disk"),
        "{}",
        e.message
    );
    // Still serving: reads, help.
    call(&mut h, "task_lists", "get", json!({"list_id": list})).expect("reads on a full disk");
    call(&mut h, "task_help", "workflow", json!({})).unwrap();
    std::fs::remove_file(&filler).unwrap();
    call(
        &mut h,
        "task_items",
        "add_many",
        json!({"list_id": list, "tasks": big}),
    )
    .expect("space freed: writes work again");
    create_list(&mut h, "after").unwrap();
    acknowledged.push("after".into());
    acknowledged.sort();
    drop(h);
    assert_eq!(stored_lists(&path), acknowledged);
    let conn = raw(&path);
    assert_eq!(
        rows(&conn, "SELECT count(*) FROM tasks")[0][0].as_deref(),
        Some("400")
    );
    assert_eq!(integrity(&path), "ok");
}

/// A read-only remount needs no file open for writing, so the first
/// server is stopped for it; one started while the file system (the
/// database file and its directory) is read-only answers `storage` and
/// works, without a restart, once it is writable again.
#[test]
fn a_read_only_file_system_is_a_storage_error_until_it_is_writable_again() {
    if skip_on_postgres(
        "storage_faults::a_read_only_file_system_is_a_storage_error_until_it_is_writable_again",
        ON_POSTGRES,
    ) {
        return;
    }
    let fs = Tmpfs::mount("8m");
    let path = fs.path().join("tasks.db");
    let mut h = host(&path);
    let list = create_list(&mut h, "work").unwrap();
    drop(h);
    fs.remount("ro");
    let mut server = host(&path);
    let e = expect_storage(
        call(
            &mut server,
            "task_items",
            "create",
            json!({"list_id": list, "title": "refused"}),
        ),
        "create on a read-only file system",
    );
    // SQLite cannot open a database read-write there: the message says the
    // file cannot be opened; the hint says what must be writable.
    assert!(e.hint.contains("writable"), "{}", e.hint);
    expect_storage(
        create_list(&mut server, "also refused"),
        "a second write on a read-only file system",
    );
    call(&mut server, "task_help", "workflow", json!({})).expect("help needs no store");
    fs.remount("rw");
    call(
        &mut server,
        "task_items",
        "create",
        json!({"list_id": list, "title": "accepted"}),
    )
    .expect("writable again");
    create_list(&mut server, "after").expect("writable again");
    drop(server);
    assert_eq!(stored_lists(&path), ["after", "work"]);
    let conn = raw(&path);
    let titles = rows(&conn, "SELECT title FROM tasks");
    assert_eq!(titles, [[Some("accepted".to_string())]]);
}

/// A user restores a backup over the live database (`mv backup.db
/// tasks.db`): the running host must serve the file the path names now,
/// not keep writing into the replaced one, where every later write would
/// be lost to everyone else.
#[test]
fn a_database_replaced_under_a_running_host_is_the_one_served_after() {
    if skip_on_postgres(
        "storage_faults::a_database_replaced_under_a_running_host_is_the_one_served_after",
        ON_POSTGRES,
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.db");
    let mut h = host(&path);
    create_list(&mut h, "old").unwrap();
    // The replacement: another database, complete and closed.
    let backup = dir.path().join("backup.db");
    {
        let mut b = host(&backup);
        create_list(&mut b, "restored").unwrap();
    }
    std::fs::rename(&backup, &path).unwrap();
    let found = call(&mut h, "task_lists", "find", json!({})).expect("find after the replacement");
    let names: Vec<String> = strs(&found.data, "/lists", "name");
    assert_eq!(
        names,
        ["restored"],
        "the host still reads the replaced file"
    );
    create_list(&mut h, "after").expect("write after the replacement");
    // A second process sees it: the write went to the file at the path.
    let other = raw(&path);
    assert_eq!(
        stored_lists(&path),
        ["after", "restored"],
        "an acknowledged write went into the replaced (unlinked) file"
    );
    drop(other);
    drop(h);
    assert_eq!(integrity(&path), "ok");
}

/// Someone deletes `tasks.db-wal` while servers run: the writes the
/// servers acknowledge afterwards must still reach the database file.
#[test]
fn a_wal_removed_while_servers_run_loses_nothing_acknowledged() {
    if skip_on_postgres(
        "storage_faults::a_wal_removed_while_servers_run_loses_nothing_acknowledged",
        ON_POSTGRES,
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.db");
    let mut h1 = host(&path);
    let mut h2 = host(&path);
    create_list(&mut h1, "one").unwrap();
    create_list(&mut h2, "two").unwrap();
    let wal = PathBuf::from(format!("{}-wal", path.display()));
    assert!(wal.exists(), "the database is in WAL mode");
    std::fs::remove_file(&wal).unwrap();
    let mut acknowledged = vec!["one".to_string(), "two".to_string()];
    for i in 0..4 {
        let h = if i % 2 == 0 { &mut h1 } else { &mut h2 };
        let name = format!("after {i}");
        match create_list(h, &name) {
            Ok(_) => acknowledged.push(name),
            Err(e) => {
                expect(&e, ErrorCode::Storage, &[]);
                assert!(!e.hint.is_empty());
            }
        }
    }
    // What each host serves and what a new process reads agree.
    let mut fresh = host(&path);
    let seen = |h: &mut Host| {
        let mut names = strs(
            &call(h, "task_lists", "find", json!({})).unwrap().data,
            "/lists",
            "name",
        );
        names.sort();
        names
    };
    acknowledged.sort();
    assert_eq!(
        seen(&mut fresh),
        acknowledged,
        "a new host misses acknowledged writes"
    );
    assert_eq!(seen(&mut h1), acknowledged);
    assert_eq!(seen(&mut h2), acknowledged);
    drop((h1, h2, fresh));
    assert_eq!(
        stored_lists(&path),
        acknowledged,
        "acknowledged writes lost from the file"
    );
    assert_eq!(integrity(&path), "ok");
}

/// The real `tasklists mcp` binary (this build's, next to the test
/// executables' directory) on a full disk: the tool result is an error
/// with the `storage` code, and the same server serves the write once
/// space is freed.
#[test]
fn the_mcp_server_on_a_full_disk_answers_storage_and_recovers() {
    if skip_on_postgres(
        "storage_faults::the_mcp_server_on_a_full_disk_answers_storage_and_recovers",
        ON_POSTGRES,
    ) {
        return;
    }
    let exe = tasklists_binary();
    let fs = Tmpfs::mount("2m");
    let path = fs.path().join("tasks.db");
    let mut child = Command::new(&exe)
        .args(["--db", path.to_str().unwrap(), "--agent-id", A, "mcp"])
        .env("TASKLISTS_CACHE_DIR", cache_dir())
        .env("TASKLISTS_AGENT_ID", "")
        .env("TASKLISTS_DB", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn tasklists mcp");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut id = 0;
    let mut rpc = |method: &str, params: Value| -> Value {
        id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
        if method == "initialize" {
            writeln!(
                stdin,
                "{}",
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
            )
            .unwrap();
            stdin.flush().unwrap();
        }
        loop {
            let mut line = String::new();
            assert!(
                stdout.read_line(&mut line).unwrap() > 0,
                "the server exited"
            );
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    };
    rpc(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "storage_faults", "version": "0"}}),
    );
    let tool = |name: &str, arguments: Value| json!({"name": name, "arguments": arguments});
    let created = rpc(
        "tools/call",
        tool(
            "task_lists",
            json!({"action": "create", "params": {"name": "work"}}),
        ),
    );
    assert_eq!(created["result"]["isError"], false, "{created}");
    let filler = fill(fs.path());
    let big: Vec<Value> = (0..400)
        .map(|i| json!({"title": format!("{i} {}", "x".repeat(400))}))
        .collect();
    let list = stored_list_id(&path);
    let refused = rpc(
        "tools/call",
        tool(
            "task_items",
            json!({"action": "add_many", "params": {"list_id": list, "tasks": big.clone()}}),
        ),
    );
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let text = refused["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("storage"), "not a storage error: {text}");
    eprintln!("storage_faults: mcp on a full disk: {text}");
    std::fs::remove_file(&filler).unwrap();
    let accepted = rpc(
        "tools/call",
        tool(
            "task_items",
            json!({"action": "add_many", "params": {"list_id": list, "tasks": big}}),
        ),
    );
    assert_eq!(accepted["result"]["isError"], false, "{accepted}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let conn = raw(&path);
    assert_eq!(
        rows(&conn, "SELECT count(*) FROM tasks")[0][0].as_deref(),
        Some("400")
    );
}

/// The id of the one list in the file at `path`.
fn stored_list_id(path: &Path) -> String {
    let conn = raw(path);
    rows(&conn, "SELECT id FROM lists")[0][0].clone().unwrap()
}

//! Shared by the torture tests (`torture_race`, `torture_kill`,
//! `storage_faults`, `runaway`): the bounded / long mode switch, a seeded
//! RNG, line-protocol worker processes, and raw reads of the database.
//!
//! `TASKLISTS_TORTURE=long` selects the long mode; anything else (or
//! nothing) is the bounded mode CI runs. `TASKLISTS_TORTURE_SEED=<n>`
//! replays a run's random choices.

#![allow(dead_code, reason = "each test file uses a part of these helpers")]

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub use tasklists_tests::Value;

/// Whether `TASKLISTS_TORTURE=long` asks for the long mode.
pub fn long_mode() -> bool {
    std::env::var("TASKLISTS_TORTURE").is_ok_and(|v| v == "long")
}

/// `bounded` in CI, `long` with `TASKLISTS_TORTURE=long`; printed so a
/// log says which mode ran.
pub fn pick<T: std::fmt::Debug>(test: &str, bounded: T, long: T) -> T {
    let (mode, value) = if long_mode() {
        ("long", long)
    } else {
        ("bounded", bounded)
    };
    eprintln!("{test}: mode {mode} (TASKLISTS_TORTURE=long for the long mode): {value:?}");
    value
}

/// The run's seed: `TASKLISTS_TORTURE_SEED` or the clock; printed.
pub fn seed(test: &str) -> u64 {
    let seed = std::env::var("TASKLISTS_TORTURE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    eprintln!("{test}: seed {seed} (replay with TASKLISTS_TORTURE_SEED={seed})");
    seed
}

/// SplitMix64: small, seeded, good enough to pick delays and victims.
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo).max(1)
    }
}

/// A worker process that speaks JSON lines: commands on stdin, one reply
/// line each on stdout.
pub struct LineWorker {
    /// Its name in messages.
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl LineWorker {
    /// Starts `exe args…` and waits for its `{"ready":true}` line.
    pub fn spawn(name: &str, exe: &str, args: &[&str]) -> LineWorker {
        let mut child = Command::new(exe)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {exe}: {e}"));
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut worker = LineWorker {
            name: name.to_string(),
            child,
            stdin,
            stdout,
        };
        let first = worker.read();
        assert_eq!(first["ready"], true, "{name} did not start: {first}");
        worker
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .unwrap_or_else(|e| panic!("{}: write {line:?}: {e}", self.name));
    }

    /// Reads one reply line as JSON.
    pub fn read(&mut self) -> Value {
        let mut line = String::new();
        let n = self
            .stdout
            .read_line(&mut line)
            .unwrap_or_else(|e| panic!("{}: read: {e}", self.name));
        assert!(n > 0, "{} closed its output", self.name);
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{}: {e}: {line:?}", self.name))
    }

    /// The process's resident set size in KiB (Linux), for leak checks.
    pub fn rss_kib(&self) -> Option<u64> {
        rss_kib(self.child.id())
    }
}

impl Drop for LineWorker {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        // A worker that does not stop on `quit` must not outlive the test.
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The resident set size of process `pid` in KiB, from `/proc`.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A read-write raw connection (so a hot WAL left by a killed process is
/// recovered, as the next real process would).
pub fn raw(path: &Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).expect("open the database raw")
}

/// `PRAGMA integrity_check`'s answer (`ok` when sound).
pub fn integrity(path: &Path) -> String {
    let conn = raw(path);
    let rows: Vec<String> = conn
        .prepare("PRAGMA integrity_check")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows.join("; ")
}

/// Every row of a one-query result as strings (NULL as `None`).
pub fn rows(conn: &rusqlite::Connection, sql: &str) -> Vec<Vec<Option<String>>> {
    let mut stmt = conn.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    let width = stmt.column_count();
    stmt.query_map([], |r| {
        (0..width)
            .map(|i| {
                r.get_ref(i).map(|v| match v {
                    rusqlite::types::ValueRef::Null => None,
                    rusqlite::types::ValueRef::Integer(i) => Some(i.to_string()),
                    rusqlite::types::ValueRef::Real(f) => Some(f.to_string()),
                    rusqlite::types::ValueRef::Text(t) | rusqlite::types::ValueRef::Blob(t) => {
                        Some(String::from_utf8_lossy(t).into_owned())
                    }
                })
            })
            .collect()
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// Positions of every list's live tasks are exactly 1..n; the lists that
/// break it, with their positions.
pub fn gaps_in_positions(conn: &rusqlite::Connection) -> Vec<String> {
    let mut bad = Vec::new();
    let mut last: Option<(String, i64)> = None;
    let mut stmt = conn
        .prepare(
            "SELECT list_id, position FROM tasks WHERE deleted_at IS NULL ORDER BY list_id, position",
        )
        .unwrap();
    let mut q = stmt.query([]).unwrap();
    while let Some(r) = q.next().unwrap() {
        let (list, pos): (String, i64) = (r.get(0).unwrap(), r.get(1).unwrap());
        let expected = match &last {
            Some((l, p)) if *l == list => p + 1,
            _ => 1,
        };
        if pos != expected {
            bad.push(format!("{list}: position {pos} where {expected} was due"));
        }
        last = Some((list, pos));
    }
    bad
}

/// Tasks in a state no finished action can leave: closed without an
/// outcome or completion time, in progress without a claimer, token or
/// lease, or claimed while not in progress.
pub fn impossible_states(conn: &rusqlite::Connection) -> Vec<Vec<Option<String>>> {
    rows(
        conn,
        "SELECT id, status, claimed_by_agent_id, claim_expires_at, outcome FROM tasks WHERE \
         (status IN ('done', 'canceled') AND (outcome IS NULL OR outcome = '' OR completed_at IS NULL)) \
         OR (status = 'in_progress' AND (claimed_by_agent_id IS NULL OR claim_token IS NULL OR claim_expires_at IS NULL OR started_at IS NULL)) \
         OR (status <> 'in_progress' AND claimed_by_agent_id IS NOT NULL)",
    )
}

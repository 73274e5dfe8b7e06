//! Process start to first tool result: the release CLI
//! (`tasklists --db … call task_lists '{"action":"find"}'`) and the MCP
//! server (`tasklists mcp` spawned, `initialize`, first `tools/call`
//! answered), with a warm compile cache, a cold one (an empty
//! `TASKLISTS_CACHE_DIR`: the component is compiled first), and a cold OS
//! page cache (`/proc/sys/vm/drop_caches`, root only; skipped otherwise).
//! `tasklists --version` is the floor: a process that loads no component.
//!
//! `cargo bench -p tasklists-tests --bench startup`
//!
//! Runs the binary next to the bench's own target dir
//! (`target/release/tasklists`), which must be built and current:
//! `cargo build --release -p tasklists` first.
//! Environment: `BENCH_RUNS` (warm runs, default 20), `BENCH_COLD_RUNS`
//! (cold-cache runs, default 5).

mod common;

use common::{env_or, machine, median, ms, percentile};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One way of starting, measured `runs` times.
struct Case {
    name: &'static str,
    samples: Vec<f64>,
}

fn main() {
    let runs: usize = env_or("BENCH_RUNS", 20);
    let cold_runs: usize = env_or("BENCH_COLD_RUNS", 5);
    let exe = release_cli();
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("tasks.db");
    let warm_cache = dir.path().join("cache-warm");
    // A list to find, and the warm cache filled, by one first call.
    let created = cli(
        &exe,
        &db,
        &warm_cache,
        r#"{"action":"create","params":{"name":"startup"}}"#,
    );
    assert!(created.status.success(), "{created:?}");
    let can_drop = drop_page_cache();

    println!("# startup: process start to first tool result\n");
    println!("machine: {}", machine());
    println!(
        "parameters: {runs} warm runs, {cold_runs} cold runs, interleaved; binary {}; cold page cache: {}\n",
        exe.display(),
        if can_drop {
            "yes (drop_caches before each run)"
        } else {
            "no (cannot write /proc/sys/vm/drop_caches: not root?)"
        }
    );

    let mut cases = [
        Case::new("`tasklists --version` (no component)"),
        Case::new("CLI `call`, warm compile cache"),
        Case::new("MCP `tools/call`, warm compile cache"),
        Case::new("CLI `call`, cold compile cache (empty TASKLISTS_CACHE_DIR)"),
        Case::new("MCP `tools/call`, cold compile cache"),
        Case::new("CLI `call`, warm compile cache, cold page cache"),
        Case::new("MCP `tools/call`, warm compile cache, cold page cache"),
    ];
    for i in 0..runs.max(cold_runs) {
        let find = r#"{"action":"find"}"#;
        if i < runs {
            cases[0].time(|| version(&exe));
            cases[1].time(|| assert!(cli(&exe, &db, &warm_cache, find).status.success()));
            cases[2].time(|| mcp(&exe, &db, &warm_cache));
        }
        if i < cold_runs {
            let cold = dir.path().join(format!("cache-cold-{i}"));
            cases[3].time(|| assert!(cli(&exe, &db, &cold, find).status.success()));
            let cold = dir.path().join(format!("cache-cold-mcp-{i}"));
            cases[4].time(|| mcp(&exe, &db, &cold));
            if can_drop {
                drop_page_cache();
                cases[5].time(|| assert!(cli(&exe, &db, &warm_cache, find).status.success()));
                drop_page_cache();
                cases[6].time(|| mcp(&exe, &db, &warm_cache));
            }
        }
    }

    let floor = median(&cases[0].samples);
    let warm_cli = median(&cases[1].samples);
    println!("| start | runs | median ms | p90 ms | min ms | × `--version` | × warm CLI call |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for case in cases.iter().filter(|c| !c.samples.is_empty()) {
        let mut sorted = case.samples.clone();
        sorted.sort_by(f64::total_cmp);
        let m = median(&sorted);
        println!(
            "| {} | {} | {m:.1} | {:.1} | {:.1} | {:.1}× | {:.2}× |",
            case.name,
            sorted.len(),
            percentile(&sorted, 90.0),
            sorted[0],
            m / floor,
            m / warm_cli,
        );
    }
}

impl Case {
    fn new(name: &'static str) -> Self {
        Case {
            name,
            samples: Vec::new(),
        }
    }

    fn time(&mut self, f: impl FnOnce()) {
        let started = Instant::now();
        f();
        self.samples.push(ms(started.elapsed()));
    }
}

/// The release CLI next to this bench's target dir
/// (`target/release/deps/startup-…` → `target/release/tasklists`).
///
/// Not built from here: `cargo bench` holds the target dir's lock while
/// benches run, so a nested `cargo build` would wait forever. A binary
/// older than the sources it is built from is measured, with a warning.
fn release_cli() -> PathBuf {
    let exe = std::env::current_exe().expect("bench path");
    let release = exe.parent().and_then(Path::parent).expect("target/release");
    let cli = release.join("tasklists");
    let build = "cargo build --release -p tasklists";
    let built = std::fs::metadata(&cli)
        .and_then(|m| m.modified())
        .unwrap_or_else(|_| panic!("no CLI at {}: run `{build}` first", cli.display()));
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for dir in [
        "host-shim/src",
        "host-shim/tasklists/src",
        "host-shim/store/src",
        "guest/src",
        "wit",
    ] {
        if let Some(newer) = newest(&root.join(dir)).filter(|(t, _)| *t > built) {
            eprintln!(
                "warning: {} is older than {}: run `{build}` to measure the current code",
                cli.display(),
                newer.1.display()
            );
            break;
        }
    }
    cli
}

/// The most recently modified file under `dir`.
fn newest(dir: &Path) -> Option<(std::time::SystemTime, PathBuf)> {
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        let candidate = if path.is_dir() {
            newest(&path)
        } else {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .map(|t| (t, path))
        };
        if let Some(c) = candidate.filter(|c| best.as_ref().is_none_or(|b| c.0 > b.0)) {
            best = Some(c);
        }
    }
    best
}

/// `tasklists --db <db> --json call task_lists <params>` with this cache.
fn cli(exe: &Path, db: &Path, cache: &Path, params: &str) -> std::process::Output {
    Command::new(exe)
        .env("TASKLISTS_CACHE_DIR", cache)
        .env("TASKLISTS_AGENT_ID", "bench")
        .arg("--db")
        .arg(db)
        .args(["call", "--json", "task_lists", params])
        .stdin(Stdio::null())
        .output()
        .expect("run the CLI")
}

fn version(exe: &Path) {
    let out = Command::new(exe)
        .arg("--version")
        .output()
        .expect("run the CLI");
    assert!(out.status.success());
}

/// Spawns `tasklists mcp`, initializes, and waits for the first
/// `tools/call` answer; then closes stdin and reaps the process (not timed
/// beyond the answer, which is what a client waits for).
fn mcp(exe: &Path, db: &Path, cache: &Path) {
    let mut child = Command::new(exe)
        .env("TASKLISTS_CACHE_DIR", cache)
        .env("TASKLISTS_AGENT_ID", "bench")
        .arg("--db")
        .arg(db)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the MCP server");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"startup-bench","version":"0"}}}"#;
    writeln!(stdin, "{initialize}").expect("send initialize");
    stdout.read_line(&mut line).expect("initialize answer");
    assert!(line.contains("\"id\":1"), "{line}");
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"task_lists","arguments":{"action":"find"}}}"#;
    writeln!(stdin, "{initialized}\n{call}").expect("send call");
    line.clear();
    stdout.read_line(&mut line).expect("tools/call answer");
    assert!(
        line.contains("\"id\":2") && !line.contains("\"isError\":true"),
        "{line}"
    );
    drop(stdin);
    child.wait().expect("server exits");
}

/// Drops the OS page cache (root only); whether it could.
fn drop_page_cache() -> bool {
    Command::new("sync").status().ok();
    std::fs::write("/proc/sys/vm/drop_caches", "3").is_ok()
}

//! Claims per second, claim latency and fairness with 1, 4 and 16 OS
//! processes draining one list on one SQLite file: the component (each
//! process a `race_worker`: wasmtime host, `claim_next` + `update done`)
//! beside raw SQLite (each a `raw_claim_worker`: the minimal transaction on
//! the same schema, PRAGMAs and busy handler), same process counts, in one
//! run. Every run also checks that no task was claimed twice.
//!
//! `cargo bench -p tasklists-tests --bench processes`
//!
//! Environment: `BENCH_TASKS` (tasks per run, default 2000), `BENCH_REPS`
//! (repetitions of each configuration, interleaved; medians are reported;
//! default 3), `BENCH_PROCS` (comma-separated, default `1,4,16`).

mod common;

use common::{env_or, machine, median, percentile};
use rusqlite::Connection;
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use tasklists_tests::{Host, config, ctx, json};

/// Which worker drains the list.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Mode {
    Component,
    Raw,
}

impl Mode {
    fn exe(self) -> &'static str {
        match self {
            Mode::Component => env!("CARGO_BIN_EXE_race_worker"),
            Mode::Raw => env!("CARGO_BIN_EXE_raw_claim_worker"),
        }
    }
}

/// What one run measured.
struct Run {
    claims_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
    jain: f64,
    min_claims: usize,
    max_claims: usize,
    double_claims: usize,
    /// Mean lock wait (`BEGIN IMMEDIATE`) per claim+close cycle, raw only.
    wait_ms: Option<f64>,
    /// Mean claim+close latency per cycle outside the measured lock wait
    /// (all of it for the component, whose wait is not visible).
    busy_ms: f64,
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    let tasks: usize = env_or("BENCH_TASKS", 2000);
    let reps: usize = env_or("BENCH_REPS", 3);
    let procs: Vec<usize> = std::env::var("BENCH_PROCS")
        .unwrap_or_else(|_| "1,4,16".into())
        .split(',')
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let (fixture, list) = fixture(&dir.path().join("fixture.db"), tasks);

    println!("# processes: claim_next + update done from N OS processes on one SQLite file\n");
    println!("machine: {}", machine());
    println!(
        "parameters: {tasks} tasks per run, {reps} interleaved repetitions (medians), processes {procs:?}\n"
    );
    let mut results: HashMap<(Mode, usize), Vec<Run>> = HashMap::new();
    let mut n = 0;
    for rep in 0..reps {
        for &p in &procs {
            // Alternate which mode goes first, so neither always runs on a
            // machine warmed (or loaded) by the other.
            let order = if (rep + p) % 2 == 0 {
                [Mode::Component, Mode::Raw]
            } else {
                [Mode::Raw, Mode::Component]
            };
            for mode in order {
                n += 1;
                let db = dir.path().join(format!("run-{n}.db"));
                std::fs::copy(&fixture, &db).expect("copy fixture");
                let run = run(mode, &db, &list, p, tasks);
                eprintln!(
                    "rep {rep} {mode:?} x{p}: {:.0} claims/s, p50 {:.2} ms, p99 {:.2} ms, claims/process {}..{}",
                    run.claims_per_s, run.p50_ms, run.p99_ms, run.min_claims, run.max_claims
                );
                results.entry((mode, p)).or_default().push(run);
                std::fs::remove_file(&db).ok();
                for ext in ["-wal", "-shm"] {
                    std::fs::remove_file(format!("{}{ext}", db.display())).ok();
                }
            }
        }
    }
    print_tables(&procs, &results);
}

/// A database with one list of `tasks` todo tasks, made by the component
/// (so the raw workers run on exactly its schema), closed and checkpointed.
fn fixture(path: &Path, tasks: usize) -> (PathBuf, String) {
    let mut host = Host::open(config(path)).expect("host opens");
    let planner = ctx("planner");
    let list = host
        .call("task_lists", "create", r#"{"name":"bench"}"#, &planner)
        .expect("list created")
        .data["list"]["id"]
        .as_str()
        .expect("list id")
        .to_string();
    for chunk in (0..tasks).collect::<Vec<_>>().chunks(500) {
        let batch: Vec<Value> = chunk
            .iter()
            .map(|i| json!({"title": format!("task {i:05}")}))
            .collect();
        host.call(
            "task_items",
            "add_many",
            &json!({"list_id": list, "tasks": batch}).to_string(),
            &planner,
        )
        .expect("tasks added");
    }
    drop(host);
    (path.to_path_buf(), list)
}

/// Spawns `procs` workers of `mode` on `db`, starts them at once, waits for
/// all, and checks and summarises what they report.
fn run(mode: Mode, db: &Path, list: &str, procs: usize, tasks: usize) -> Run {
    let mut children = Vec::new();
    for i in 0..procs {
        let agent = format!("agent-{i}");
        let mut child = Command::new(mode.exe())
            .args([db.to_str().expect("utf-8 path"), list, agent.as_str()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn worker");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        stdout.read_line(&mut first).expect("worker starts");
        assert!(first.contains("\"ready\":true"), "{mode:?}: {first}");
        children.push((child, stdout));
    }
    let started = Instant::now();
    for (child, _) in &mut children {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(b"go\n")
            .expect("go");
    }
    let readers: Vec<_> = children
        .into_iter()
        .map(|(mut child, stdout)| {
            std::thread::spawn(move || {
                let lines: Vec<Value> = stdout
                    .lines()
                    .map(|l| serde_json::from_str(&l.expect("line")).expect("JSON line"))
                    .collect();
                assert!(child.wait().expect("wait").success(), "worker failed");
                lines
            })
        })
        .collect();
    let reports: Vec<Vec<Value>> = readers
        .into_iter()
        .map(|r| r.join().expect("reader"))
        .collect();
    let wall = started.elapsed().as_secs_f64();
    summarise(mode, db, &reports, tasks, wall)
}

fn summarise(mode: Mode, db: &Path, reports: &[Vec<Value>], tasks: usize, wall: f64) -> Run {
    let mut claimed: HashMap<&str, usize> = HashMap::new();
    let mut per_process = Vec::new();
    let mut latencies = Vec::new();
    let (mut waited_us, mut cycle_us, mut cycles) = (0u64, 0u64, 0u64);
    for lines in reports {
        let mut n = 0;
        for line in lines {
            if let Some(error) = line.get("error") {
                panic!("{mode:?} worker error: {error} {line}");
            }
            let Some(id) = line["claimed"].as_str() else {
                continue;
            };
            if line["resumed"] == true {
                continue;
            }
            *claimed.entry(id).or_default() += 1;
            n += 1;
            let claim_us = line["claim_us"].as_u64().unwrap_or(0);
            latencies.push(claim_us as f64 / 1e3);
            cycle_us += claim_us + line["update_us"].as_u64().unwrap_or(0);
            waited_us += line["claim_wait_us"].as_u64().unwrap_or(0)
                + line["update_wait_us"].as_u64().unwrap_or(0);
            cycles += 1;
        }
        per_process.push(n);
    }
    let double_claims = claimed.values().filter(|&&c| c > 1).count();
    assert_eq!(double_claims, 0, "{mode:?}: tasks claimed twice");
    assert_eq!(claimed.len(), tasks, "{mode:?}: not every task was claimed");
    let conn = Connection::open(db).expect("open for the check");
    let done: i64 = conn
        .query_row(
            "SELECT count(*) FROM tasks WHERE status = 'done'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(done, tasks as i64, "{mode:?}: not every task is done");

    latencies.sort_by(f64::total_cmp);
    let sum: f64 = per_process.iter().map(|&n| n as f64).sum();
    let squares: f64 = per_process.iter().map(|&n| (n as f64).powi(2)).sum();
    let cycles = cycles.max(1) as f64;
    Run {
        claims_per_s: tasks as f64 / wall,
        p50_ms: percentile(&latencies, 50.0),
        p99_ms: percentile(&latencies, 99.0),
        jain: sum * sum / (per_process.len() as f64 * squares.max(1.0)),
        min_claims: per_process.iter().copied().min().unwrap_or(0),
        max_claims: per_process.iter().copied().max().unwrap_or(0),
        double_claims,
        wait_ms: (mode == Mode::Raw).then(|| waited_us as f64 / 1e3 / cycles),
        busy_ms: (cycle_us - waited_us.min(cycle_us)) as f64 / 1e3 / cycles,
    }
}

fn print_tables(procs: &[usize], results: &HashMap<(Mode, usize), Vec<Run>>) {
    let med = |mode: Mode, p: usize, f: &dyn Fn(&Run) -> f64| -> f64 {
        median(&results[&(mode, p)].iter().map(f).collect::<Vec<_>>())
    };
    println!(
        "| processes | component claims/s | raw claims/s | component/raw | component claim p50 / p99 ms | raw claim p50 / p99 ms | fairness component (min–max, Jain) | fairness raw (min–max, Jain) | double claims |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &p in procs {
        let (c, r) = (Mode::Component, Mode::Raw);
        let span = |m: Mode| {
            let runs = &results[&(m, p)];
            let min = runs.iter().map(|r| r.min_claims).min().unwrap_or(0);
            let max = runs.iter().map(|r| r.max_claims).max().unwrap_or(0);
            format!("{min}–{max}, {:.3}", med(m, p, &|r| r.jain))
        };
        let doubles: usize = [c, r]
            .iter()
            .flat_map(|m| results[&(*m, p)].iter().map(|r| r.double_claims))
            .sum();
        println!(
            "| {p} | {:.0} | {:.0} | {:.2}× | {:.2} / {:.2} | {:.2} / {:.2} | {} | {} | {doubles} |",
            med(c, p, &|r| r.claims_per_s),
            med(r, p, &|r| r.claims_per_s),
            med(c, p, &|r| r.claims_per_s) / med(r, p, &|r| r.claims_per_s),
            med(c, p, &|r| r.p50_ms),
            med(c, p, &|r| r.p99_ms),
            med(r, p, &|r| r.p50_ms),
            med(r, p, &|r| r.p99_ms),
            span(c),
            span(r),
        );
    }
    println!(
        "\nWhere a cycle's time goes (ms per claim+close cycle; medians over runs). Wall per cycle is 1 / claims/s: with one writer at a time it is the time the write lock is held or handed over, per cycle. Latency is what one process waits for its claim + close; raw splits it into the wait in BEGIN IMMEDIATE and the rest:\n"
    );
    println!(
        "| processes | component wall per cycle | component latency per cycle | raw wall per cycle | raw latency per cycle | raw lock wait | raw rest |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for &p in procs {
        let (c, r) = (Mode::Component, Mode::Raw);
        let wait = med(r, p, &|r| r.wait_ms.unwrap_or(0.0));
        let rest = med(r, p, &|r| r.busy_ms);
        println!(
            "| {p} | {:.3} | {:.3} | {:.3} | {:.3} | {wait:.3} | {rest:.3} |",
            1e3 / med(c, p, &|r| r.claims_per_s),
            med(c, p, &|r| r.busy_ms),
            1e3 / med(r, p, &|r| r.claims_per_s),
            wait + rest,
        );
    }
}

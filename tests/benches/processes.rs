//! Claims per second, claim latency and fairness with 1, 4 and 16 OS
//! processes draining one list on one SQLite file: the component (each
//! process a `race_worker`: wasmtime host, `claim_next` + `update done`)
//! beside raw SQLite (each a `raw_claim_worker`: the minimal transaction on
//! the same schema, PRAGMAs and busy handler), same process counts, in one
//! run. With `TASKLISTS_TEST_PG` set, also the component on one PostgreSQL
//! database (the same `race_worker`s given its URL; every write to the one
//! list takes that list's lock, serializing them as `BEGIN IMMEDIATE` does),
//! interleaved with the SQLite runs, each run on a fresh database copied
//! server-side from a fixture (`CREATE DATABASE … TEMPLATE`), with ratios
//! against the SQLite component from the same run. Every run also checks
//! that no task was claimed twice and every task ended done. The p50 / p99
//! of one process is the claim_next latency without contention.
//!
//! `cargo bench -p tasklists-tests --bench processes`
//!
//! `TASKLISTS_TEST_PG=postgresql://postgres@127.0.0.1:54329/postgres cargo bench -p tasklists-tests --bench processes`
//!
//! Environment: `BENCH_TASKS` (tasks per run, default 2000), `BENCH_REPS`
//! (repetitions of each configuration, interleaved; medians are reported;
//! default 3), `BENCH_PROCS` (comma-separated, default `1,4,16`),
//! `TASKLISTS_TEST_PG` (an admin URL of a role that may `CREATE DATABASE`,
//! as for the test suite; `scripts/pg-cluster start DIR` writes one to
//! `DIR/env`; unset, the PostgreSQL columns are skipped).

mod common;

use common::{env_or, machine, median, percentile};
use rusqlite::Connection;
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;
use tasklists_tests::{FreshStore, Host, Location, config, ctx, json, pg_connect, with_database};

/// Which worker drains the list, on which store.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Mode {
    Component,
    Raw,
    ComponentPostgres,
}

impl Mode {
    fn exe(self) -> &'static str {
        match self {
            Mode::Component | Mode::ComponentPostgres => env!("CARGO_BIN_EXE_race_worker"),
            Mode::Raw => env!("CARGO_BIN_EXE_raw_claim_worker"),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Mode::Component => "component, SQLite",
            Mode::Raw => "raw SQLite",
            Mode::ComponentPostgres => "component, PostgreSQL",
        }
    }
}

/// The store one run drains: a copy of the fixture file, or a database
/// copied from the fixture database (dropped with this value).
enum RunDb {
    File(PathBuf),
    Postgres(PgRunDb),
}

impl RunDb {
    /// What a worker is given as its db spec.
    fn spec(&self) -> &str {
        match self {
            RunDb::File(path) => path.to_str().expect("utf-8 path"),
            RunDb::Postgres(pg) => &pg.spec,
        }
    }

    /// How many tasks are done, read outside any host.
    fn done(&self) -> i64 {
        const DONE: &str = "SELECT count(*) FROM tasks WHERE status = 'done'";
        match self {
            RunDb::File(path) => Connection::open(path)
                .expect("open for the check")
                .query_row(DONE, [], |r| r.get(0))
                .expect("count"),
            RunDb::Postgres(pg) => pg_connect(&pg.spec)
                .query_one(DONE, &[])
                .expect("count")
                .get(0),
        }
    }
}

impl Drop for RunDb {
    fn drop(&mut self) {
        if let RunDb::File(db) = self {
            std::fs::remove_file(&*db).ok();
            for ext in ["-wal", "-shm"] {
                std::fs::remove_file(format!("{}{ext}", db.display())).ok();
            }
        }
    }
}

/// One run's PostgreSQL database, dropped on drop (also when a check fails).
struct PgRunDb {
    admin: String,
    name: String,
    spec: String,
}

impl Drop for PgRunDb {
    fn drop(&mut self) {
        let drop = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        if let Err(e) = pg_connect(&self.admin).batch_execute(&drop) {
            eprintln!("could not drop the bench database {}: {e}", self.name);
        }
    }
}

/// The PostgreSQL side: the fixture database (built by the component,
/// no connection left open, so it can be a template) and its list.
struct Postgres {
    admin: String,
    fixture: FreshStore,
    list: String,
    /// Server version and durability settings, for the header.
    server: String,
}

impl Postgres {
    fn new(admin: &str, tasks: usize) -> Postgres {
        let fixture = FreshStore::postgres(admin);
        let list = fixture_on(fixture.location.clone(), tasks);
        let mut conn = pg_connect(admin);
        let mut setting = |q: &str| -> String { conn.query_one(q, &[]).expect(q).get(0) };
        let version = setting("SHOW server_version");
        let fsync = setting("SHOW fsync");
        let sync_commit = setting("SHOW synchronous_commit");
        let server = format!(
            "PostgreSQL {version} at {} (TCP), fsync={fsync}, synchronous_commit={sync_commit}",
            Location::from(admin)
        );
        Postgres {
            admin: admin.to_string(),
            fixture,
            list,
            server,
        }
    }

    /// A fresh copy of the fixture database, made by the server.
    fn copy(&self, n: usize) -> RunDb {
        let template = self.fixture.database().expect("a PostgreSQL store");
        let name = format!("{template}_run_{n}");
        pg_connect(&self.admin)
            .batch_execute(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
            .expect("copy the fixture database");
        RunDb::Postgres(PgRunDb {
            admin: self.admin.clone(),
            spec: with_database(&self.fixture.spec, &name),
            name,
        })
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
    let pg = std::env::var("TASKLISTS_TEST_PG")
        .ok()
        .filter(|url| !url.is_empty())
        .map(|admin| Postgres::new(&admin, tasks));
    let mut modes = vec![Mode::Component, Mode::Raw];
    if pg.is_some() {
        modes.push(Mode::ComponentPostgres);
    }

    println!("# processes: claim_next + update done from N OS processes on one SQLite file\n");
    println!("machine: {}", machine());
    println!(
        "parameters: {tasks} tasks per run, {reps} interleaved repetitions (medians), processes {procs:?}\n"
    );
    let mut results: HashMap<(Mode, usize), Vec<Run>> = HashMap::new();
    let mut n = 0;
    for rep in 0..reps {
        for &p in &procs {
            // Rotate which mode goes first, so none always runs on a
            // machine warmed (or loaded) by another.
            let mut order = modes.clone();
            order.rotate_left((rep + p) % modes.len());
            for mode in order {
                n += 1;
                let (db, list) = match (mode, &pg) {
                    (Mode::ComponentPostgres, Some(pg)) => (pg.copy(n), pg.list.as_str()),
                    _ => {
                        let db = dir.path().join(format!("run-{n}.db"));
                        std::fs::copy(&fixture, &db).expect("copy fixture");
                        (RunDb::File(db), list.as_str())
                    }
                };
                let run = run(mode, &db, list, p, tasks);
                eprintln!(
                    "rep {rep} {mode:?} x{p}: {:.0} claims/s, p50 {:.2} ms, p99 {:.2} ms, claims/process {}..{}",
                    run.claims_per_s, run.p50_ms, run.p99_ms, run.min_claims, run.max_claims
                );
                results.entry((mode, p)).or_default().push(run);
            }
        }
    }
    print_tables(&procs, &results);
    match &pg {
        Some(pg) => print_postgres_tables(&procs, &results, &pg.server),
        None => println!(
            "\nPostgreSQL columns skipped: TASKLISTS_TEST_PG is not set (an admin URL of a role that may CREATE DATABASE, e.g. postgresql://postgres@127.0.0.1:54329/postgres)."
        ),
    }
}

/// A database file with one list of `tasks` todo tasks, made by the
/// component (so the raw workers run on exactly its schema), closed and
/// checkpointed.
fn fixture(path: &Path, tasks: usize) -> (PathBuf, String) {
    let list = fixture_on(Location::from(path), tasks);
    (path.to_path_buf(), list)
}

/// One list of `tasks` todo tasks at `location`, made by the component;
/// its id. The host is dropped before returning: nothing stays connected.
fn fixture_on(location: Location, tasks: usize) -> String {
    let mut host = Host::open(config(location)).expect("host opens");
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
    list
}

/// Spawns `procs` workers of `mode` on `db`, starts them at once, waits for
/// all, and checks and summarises what they report.
fn run(mode: Mode, db: &RunDb, list: &str, procs: usize, tasks: usize) -> Run {
    let mut children = Vec::new();
    for i in 0..procs {
        let agent = format!("agent-{i}");
        let mut child = Command::new(mode.exe())
            .args([db.spec(), list, agent.as_str()])
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

fn summarise(mode: Mode, db: &RunDb, reports: &[Vec<Value>], tasks: usize, wall: f64) -> Run {
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
    assert_eq!(db.done(), tasks as i64, "{mode:?}: not every task is done");

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

type Results = HashMap<(Mode, usize), Vec<Run>>;

/// The median over runs of `f` for `mode` at `p` processes.
fn med(results: &Results, mode: Mode, p: usize, f: &dyn Fn(&Run) -> f64) -> f64 {
    median(&results[&(mode, p)].iter().map(f).collect::<Vec<_>>())
}

/// "min–max, Jain": claims per process over all runs, median Jain index.
fn span(results: &Results, mode: Mode, p: usize) -> String {
    let runs = &results[&(mode, p)];
    let min = runs.iter().map(|r| r.min_claims).min().unwrap_or(0);
    let max = runs.iter().map(|r| r.max_claims).max().unwrap_or(0);
    format!("{min}–{max}, {:.3}", med(results, mode, p, &|r| r.jain))
}

fn print_tables(procs: &[usize], results: &Results) {
    let med = |mode: Mode, p: usize, f: &dyn Fn(&Run) -> f64| med(results, mode, p, f);
    println!(
        "| processes | component claims/s | raw claims/s | component/raw | component claim p50 / p99 ms | raw claim p50 / p99 ms | fairness component (min–max, Jain) | fairness raw (min–max, Jain) | double claims |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &p in procs {
        let (c, r) = (Mode::Component, Mode::Raw);
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
            span(results, c, p),
            span(results, r, p),
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

/// Every mode side by side (PostgreSQL included), then PostgreSQL ÷ SQLite
/// for the component, from the same run.
fn print_postgres_tables(procs: &[usize], results: &Results, server: &str) {
    let med = |mode: Mode, p: usize, f: &dyn Fn(&Run) -> f64| med(results, mode, p, f);
    println!(
        "\nPostgreSQL beside SQLite: the same race_workers given a PostgreSQL URL, over loopback to {server}; each run on a fresh database copied from a fixture database (CREATE DATABASE … TEMPLATE). Claim p50 / p99 with 1 process is the claim_next latency without contention; latency per cycle is claim + close as one process waits for it; wall per cycle is 1 / claims/s:\n"
    );
    println!(
        "| processes | mode | claims/s | claim p50 / p99 ms | latency per cycle ms | wall per cycle ms | fairness (min–max, Jain) | double claims |"
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---:|");
    for &p in procs {
        for mode in [Mode::Component, Mode::ComponentPostgres, Mode::Raw] {
            let doubles: usize = results[&(mode, p)].iter().map(|r| r.double_claims).sum();
            let latency =
                med(mode, p, &|r| r.busy_ms) + med(mode, p, &|r| r.wait_ms.unwrap_or(0.0));
            println!(
                "| {p} | {} | {:.0} | {:.2} / {:.2} | {latency:.3} | {:.3} | {} | {doubles} |",
                mode.label(),
                med(mode, p, &|r| r.claims_per_s),
                med(mode, p, &|r| r.p50_ms),
                med(mode, p, &|r| r.p99_ms),
                1e3 / med(mode, p, &|r| r.claims_per_s),
                span(results, mode, p),
            );
        }
    }
    println!("\nPostgreSQL component ÷ SQLite component (medians from the same run):\n");
    println!(
        "| processes | PostgreSQL claims/s | SQLite claims/s | claims/s PostgreSQL ÷ SQLite | claim p50 PostgreSQL ÷ SQLite |"
    );
    println!("|---:|---:|---:|---:|---:|");
    for &p in procs {
        let (s, g) = (Mode::Component, Mode::ComponentPostgres);
        println!(
            "| {p} | {:.0} | {:.0} | {:.2}× | {:.2}× |",
            med(g, p, &|r| r.claims_per_s),
            med(s, p, &|r| r.claims_per_s),
            med(g, p, &|r| r.claims_per_s) / med(s, p, &|r| r.claims_per_s),
            med(g, p, &|r| r.p50_ms) / med(s, p, &|r| r.p50_ms),
        );
    }
}

//! The component on PostgreSQL across a network, beside a raw job-queue
//! claim on the same server, in one run: claims per second and claim
//! latency with 0, ~3 and ~20 ms round trips (a latency proxy on loopback,
//! [`tasklists_tests::LatencyProxy`]), 1, 4 and 16 OS processes, one list
//! and 16 lists. The component's processes are `race_worker`s (wasmtime
//! host, `claim_next` + `update done`); the baseline's are
//! `raw_pg_claim_worker`s (one `FOR UPDATE SKIP LOCKED` statement for the
//! claim and its audit row, one for the close, autocommit). With 16 lists
//! process `i` drains list `i mod 16` (and, with fewer processes than
//! lists, the others in turn). Every run is on a fresh database copied
//! server-side from a fixture the component built, and checks that no task
//! was claimed twice and every task ended done.
//!
//! It also measures where the CPU goes per claim + close (the worker
//! processes after their start, the server when it runs on this machine
//! from `scripts/pg-cluster`, and the latency proxy in this process), and
//! counts the round trips of each action through the proxy (a
//! round trip is the client speaking again after the server answered;
//! messages pipelined together count once).
//!
//! `source /tmp/pg/env` (after `bash scripts/pg-cluster start /tmp/pg`), then
//! `cargo bench -p tasklists-tests --bench network`
//!
//! Environment: `TASKLISTS_TEST_PG` (an admin URL of a role that may
//! `CREATE DATABASE`; required), `BENCH_RTTS` (round trips added, ms,
//! default `0,3,20`), `BENCH_PROCS` (default `1,4,16`), `BENCH_LISTS`
//! (default `1,16`), `BENCH_TASKS` (tasks per run at 0 ms, default 320;
//! half of that at a few ms, two fifths from 10 ms on, so a slow cell
//! still ends in seconds), `BENCH_REPS` (interleaved repetitions, medians;
//! default 1).

mod common;

use common::{env_or, machine, median, percentile};
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tasklists_tests::{
    FreshStore, Host, LatencyProxy, Location, config, ctx, json, pg_connect, with_database,
};

/// Which worker drains the lists.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Mode {
    Component,
    Raw,
}

impl Mode {
    fn exe(self) -> &'static str {
        match self {
            Mode::Component => env!("CARGO_BIN_EXE_race_worker"),
            Mode::Raw => env!("CARGO_BIN_EXE_raw_pg_claim_worker"),
        }
    }
}

/// One cell of the table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Cell {
    rtt_ms: u64,
    procs: usize,
    lists: usize,
}

/// Every cell of the tables, in the order they are printed.
fn cells<'a>(
    rtts: &'a [u64],
    procs: &'a [usize],
    lists: &'a [usize],
) -> impl Iterator<Item = Cell> + 'a {
    rtts.iter().flat_map(move |&rtt_ms| {
        procs.iter().flat_map(move |&procs| {
            lists.iter().map(move |&lists| Cell {
                rtt_ms,
                procs,
                lists,
            })
        })
    })
}

/// What one run measured.
struct Run {
    claims_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
    /// CPU ms per claim + close: the workers' (after their start), the
    /// server's, and this process's (the latency proxy), or NaN where
    /// unknown.
    cpu: Cpu,
}

/// CPU milliseconds per claim + close, by who spent them.
#[derive(Clone, Copy)]
struct Cpu {
    workers: f64,
    server: f64,
    proxy: f64,
}

/// CPU time from `/proc` (Linux): what the bench, its workers and the
/// PostgreSQL server spend per claim + close, so that a run bound by the
/// machine's cores says where the CPU goes.
mod cpu {
    use std::time::Duration;

    /// Clock ticks per second of `/proc/*/stat` (`getconf CLK_TCK`).
    fn ticks_per_s() -> f64 {
        std::process::Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
            .unwrap_or(100.0)
    }

    /// The fields of `/proc/<pid>/stat` from its fourth (the parent's pid)
    /// on: field `n` of stat(5) at index `n - 4`.
    fn stat(pid: &str) -> Option<Vec<u64>> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (_, rest) = text.rsplit_once(')')?;
        Some(
            rest.split_whitespace()
                .skip(1)
                .map(|f| f.parse().unwrap_or(0))
                .collect(),
        )
    }

    /// A process's own CPU time (user + system) and that of its children
    /// it has waited for, in ticks.
    fn own_and_reaped(pid: &str) -> Option<(u64, u64)> {
        let f = stat(pid)?;
        // Fields 14–17 of stat(5): utime, stime, cutime, cstime.
        Some((f.get(10)? + f.get(11)?, f.get(12)? + f.get(13)?))
    }

    /// A point in time's CPU counts: this process's own, its reaped
    /// children's (the workers, once they exited), and the server's.
    #[derive(Clone, Copy)]
    pub struct Sample {
        own: u64,
        reaped: u64,
        server: Option<u64>,
    }

    /// The postmaster's pid, from the cluster `scripts/pg-cluster` made
    /// (`TASKLISTS_TEST_PG_SOCKET`/data/postmaster.pid), if the server is
    /// on this machine.
    fn postmaster() -> Option<String> {
        let dir = std::env::var("TASKLISTS_TEST_PG_SOCKET").ok()?;
        let pid = std::fs::read_to_string(format!("{dir}/data/postmaster.pid")).ok()?;
        pid.lines().next().map(|l| l.trim().to_string())
    }

    /// The server's CPU ticks: the postmaster's, its exited backends'
    /// (reaped by it), and its live children's.
    fn server() -> Option<u64> {
        let pm = postmaster()?;
        let (own, reaped) = own_and_reaped(&pm)?;
        let mut total = own + reaped;
        for entry in std::fs::read_dir("/proc").ok()?.flatten() {
            let pid = entry.file_name().to_string_lossy().to_string();
            if !pid.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if let Some(f) = stat(&pid)
                && f.first().is_some_and(|ppid| ppid.to_string() == pm)
            {
                total += f.get(10).unwrap_or(&0) + f.get(11).unwrap_or(&0);
            }
        }
        Some(total)
    }

    /// Now's counts.
    pub fn sample() -> Sample {
        let (own, reaped) = own_and_reaped("self").unwrap_or((0, 0));
        Sample {
            own,
            reaped,
            server: server(),
        }
    }

    /// The CPU ticks `pid` (a live child) has spent so far.
    pub fn of_child(pid: u32) -> u64 {
        own_and_reaped(&pid.to_string()).map_or(0, |(own, _)| own)
    }

    /// Milliseconds per task between two samples: the workers' (minus
    /// `startup` ticks they spent before they started), the server's and
    /// this process's.
    pub fn per_task(before: Sample, after: Sample, startup: u64, tasks: usize) -> super::Cpu {
        // Exited backends are reaped by the postmaster shortly after.
        std::thread::sleep(Duration::from_millis(50));
        let ms = |ticks: u64| ticks as f64 * 1e3 / ticks_per_s() / tasks as f64;
        super::Cpu {
            workers: ms((after.reaped - before.reaped).saturating_sub(startup)),
            server: match (before.server, after.server) {
                (Some(b), Some(a)) => ms(a.saturating_sub(b)),
                _ => f64::NAN,
            },
            proxy: ms(after.own - before.own),
        }
    }
}

/// A fixture database (the component's schema, `lists` lists of todo
/// tasks) and the ids of its lists.
struct Fixture {
    store: FreshStore,
    lists: Vec<String>,
}

/// Tasks per run at `rtt_ms`, a multiple of 16 so every list gets as many.
fn tasks_at(base: usize, rtt_ms: u64) -> usize {
    let n = match rtt_ms {
        0 => base,
        1..10 => base / 2,
        // 8 per process with 16 processes: each process's first two
        // calls prepare its statements (a round trip each), and the p50
        // must be of the steady state (the raw workers prepare theirs
        // before they start).
        _ => base * 2 / 5,
    };
    n.div_ceil(16).max(1) * 16
}

fn main() {
    let Some(admin) = std::env::var("TASKLISTS_TEST_PG")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        println!(
            "network bench skipped: TASKLISTS_TEST_PG is not set (scripts/pg-cluster start DIR writes one to DIR/env)"
        );
        return;
    };
    let list_of = |name: &str, default: &str| -> Vec<usize> {
        std::env::var(name)
            .unwrap_or_else(|_| default.into())
            .split(',')
            .filter_map(|p| p.trim().parse().ok())
            .collect()
    };
    let rtts: Vec<u64> = list_of("BENCH_RTTS", "0,3,20")
        .into_iter()
        .map(|r| r as u64)
        .collect();
    let procs = list_of("BENCH_PROCS", "1,4,16");
    let list_counts = list_of("BENCH_LISTS", "1,16");
    let base: usize = env_or("BENCH_TASKS", 320);
    let reps: usize = env_or("BENCH_REPS", 1);
    let upstream = LatencyProxy::server_of(&admin);
    let server: String = pg_connect(&admin)
        .query_one("SHOW server_version", &[])
        .expect("version")
        .get(0);

    println!(
        "# network: the component on PostgreSQL beside raw SKIP LOCKED, through a latency proxy\n"
    );
    println!("machine: {}", machine());
    println!(
        "server: PostgreSQL {server} on loopback; parameters: round trips added {rtts:?} ms, processes {procs:?}, lists {list_counts:?}, {reps} repetition(s), tasks per run {base} at 0 ms\n"
    );

    let mut fixtures: HashMap<(usize, usize), Fixture> = HashMap::new();
    let mut results: HashMap<(Mode, Cell), Vec<Run>> = HashMap::new();
    let mut measured_rtt: HashMap<u64, f64> = HashMap::new();
    let mut n = 0;
    for &rtt_ms in &rtts {
        let proxy = (rtt_ms > 0).then(|| {
            LatencyProxy::start(upstream, Duration::from_micros(rtt_ms * 500)).expect("proxy")
        });
        let reach = |url: &str| match &proxy {
            Some(p) => p.url(url),
            None => url.to_string(),
        };
        measured_rtt.insert(rtt_ms, round_trip_ms(&reach(&admin)));
        let tasks = tasks_at(base, rtt_ms);
        for rep in 0..reps {
            for &p in &procs {
                for &lists in &list_counts {
                    let fixture = fixtures
                        .entry((tasks, lists))
                        .or_insert_with(|| fixture(&admin, tasks, lists));
                    let cell = Cell {
                        rtt_ms,
                        procs: p,
                        lists,
                    };
                    let mut order = [Mode::Component, Mode::Raw];
                    order.rotate_left((rep + p + lists) % 2);
                    for mode in order {
                        n += 1;
                        let template = fixture.store.database().expect("PostgreSQL");
                        let name = format!("{template}_run_{n}");
                        pg_connect(&admin)
                            .batch_execute(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
                            .expect("copy the fixture database");
                        let spec = with_database(&fixture.store.spec, &name);
                        let run = run(mode, &reach(&spec), &spec, &fixture.lists, p, tasks);
                        pg_connect(&admin)
                            .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
                            .ok();
                        eprintln!(
                            "rtt {rtt_ms} ms x{p} lists {lists} {mode:?}: {:.1} claims/s, p50 {:.2} ms, p99 {:.2} ms, CPU ms per claim + close: workers {:.2}, server {:.2}, proxy {:.2}",
                            run.claims_per_s,
                            run.p50_ms,
                            run.p99_ms,
                            run.cpu.workers,
                            run.cpu.server,
                            run.cpu.proxy
                        );
                        results.entry((mode, cell)).or_default().push(run);
                    }
                }
            }
        }
    }
    let trips = round_trips(&admin, upstream);
    print_table(&rtts, &procs, &list_counts, &results, &measured_rtt);
    print_cpu(&rtts, &procs, &list_counts, &results);
    print_round_trips(&trips);
}

/// The median time of `SELECT 1` over `url` (a bare protocol round trip).
fn round_trip_ms(url: &str) -> f64 {
    let mut conn = pg_connect(url);
    let statement = conn.prepare("SELECT 1").expect("prepare");
    let times: Vec<f64> = (0..20)
        .map(|_| {
            let t = Instant::now();
            conn.query_one(&statement, &[]).expect("SELECT 1");
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    median(&times)
}

/// A database with `lists` lists sharing `tasks` todo tasks, made by the
/// component.
fn fixture(admin: &str, tasks: usize, lists: usize) -> Fixture {
    let store = FreshStore::postgres(admin);
    let mut host = Host::open(config(store.location.clone())).expect("host opens");
    let planner = ctx("planner");
    let mut ids = Vec::new();
    for l in 0..lists {
        let list = host
            .call(
                "task_lists",
                "create",
                &json!({"name": format!("bench {l}")}).to_string(),
                &planner,
            )
            .expect("list created")
            .data["list"]["id"]
            .as_str()
            .expect("list id")
            .to_string();
        let per = tasks / lists;
        for chunk in (0..per).collect::<Vec<_>>().chunks(500) {
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
        ids.push(list);
    }
    drop(host);
    Fixture { store, lists: ids }
}

/// The lists process `i` of `procs` drains, comma-separated.
fn lists_of(i: usize, procs: usize, lists: &[String]) -> String {
    if procs >= lists.len() {
        return lists[i % lists.len()].clone();
    }
    let mine: Vec<&str> = (i..lists.len())
        .step_by(procs)
        .map(|l| lists[l].as_str())
        .collect();
    mine.join(",")
}

/// Spawns `procs` workers of `mode` on `url`, starts them at once, waits
/// for all; checks (over `direct`) that every task is done and none was
/// claimed twice.
fn run(mode: Mode, url: &str, direct: &str, lists: &[String], procs: usize, tasks: usize) -> Run {
    let before = cpu::sample();
    let mut children = Vec::new();
    for i in 0..procs {
        let agent = format!("agent-{i}");
        let mut child = Command::new(mode.exe())
            .args([url, &lists_of(i, procs, lists), agent.as_str()])
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
    // What the workers spent opening the component and their
    // connections, before they start: not part of a claim + close.
    let startup: u64 = children.iter().map(|(c, _)| cpu::of_child(c.id())).sum();
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
    let cpu = cpu::per_task(before, cpu::sample(), startup, tasks);

    let mut claimed: HashMap<&str, usize> = HashMap::new();
    let mut latencies = Vec::new();
    for line in reports.iter().flatten() {
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
        latencies.push(line["claim_us"].as_u64().unwrap_or(0) as f64 / 1e3);
    }
    assert!(
        claimed.values().all(|&c| c == 1),
        "{mode:?}: a task was claimed twice"
    );
    assert_eq!(claimed.len(), tasks, "{mode:?}: not every task was claimed");
    let done: i64 = pg_connect(direct)
        .query_one("SELECT count(*) FROM tasks WHERE status = 'done'", &[])
        .expect("count")
        .get(0);
    assert_eq!(done, tasks as i64, "{mode:?}: not every task is done");
    latencies.sort_by(f64::total_cmp);
    Run {
        claims_per_s: tasks as f64 / wall,
        p50_ms: percentile(&latencies, 50.0),
        p99_ms: percentile(&latencies, 99.0),
        cpu,
    }
}

/// Round trips of each action, counted by a proxy adding 2 ms each way, on
/// a warm connection (statements prepared by two first rounds of the same
/// calls): `(action, component, raw)`.
fn round_trips(admin: &str, upstream: SocketAddr) -> Vec<(&'static str, u64, Option<u64>)> {
    let fixture = fixture(admin, 16, 1);
    // A delay, so that the server never answers before the client has
    // sent all it sends together (with none, an answer can slip in
    // between and count a round trip that costs none).
    let proxy = LatencyProxy::start(upstream, Duration::from_millis(2)).expect("proxy");
    let url = proxy.url(&fixture.store.spec);
    let mut host = Host::open(config(Location::from(url.as_str()))).expect("host opens");
    let me = ctx("agent-1");
    let list = fixture.lists[0].as_str();
    let mut out = Vec::new();
    // Counted in the third round: the first prepares the statements of a
    // call whose lock is had first (a fresh instance looks at the schema
    // first), the second those of a call whose lock rides with it.
    for round in 0..3 {
        let mut count = |name: &'static str, tool: &str, action: &str, params: Value| -> Value {
            let before = proxy.round_trips();
            let data = host
                .call(tool, action, &params.to_string(), &me)
                .unwrap_or_else(|e| panic!("{name}: {e:?}"))
                .data
                .into_value();
            if round == 2 {
                out.push((name, proxy.round_trips() - before, None));
            }
            data
        };
        let claimed = count(
            "task_claims claim_next",
            "task_claims",
            "claim_next",
            json!({"list_id": list}),
        );
        let id = claimed["task"]["id"].as_str().expect("a task").to_string();
        let token = claimed["claim"]["token"]
            .as_str()
            .expect("token")
            .to_string();
        count(
            "task_items update notes",
            "task_items",
            "update",
            json!({"task_id": id, "notes": "n", "claim_token": token}),
        );
        count(
            "task_items update done",
            "task_items",
            "update",
            json!({"task_id": id, "status": "done", "outcome": "o", "claim_token": token}),
        );
        count(
            "task_items create",
            "task_items",
            "create",
            json!({"list_id": list, "title": "t"}),
        );
        count(
            "task_lists get",
            "task_lists",
            "get",
            json!({"list_id": list}),
        );
        count("task_lists find", "task_lists", "find", json!({}));
        count(
            "task_claims release_expired",
            "task_claims",
            "release_expired",
            json!({"list_id": list}),
        );
    }
    // The raw baseline's claim and close, through the same proxy.
    let mut raw = Command::new(Mode::Raw.exe())
        .args([url.as_str(), list, "raw-agent"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("raw worker");
    let mut stdout = BufReader::new(raw.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("ready");
    let ready = proxy.round_trips();
    raw.stdin
        .take()
        .expect("stdin")
        .write_all(b"go\n")
        .expect("go");
    let claims = stdout
        .lines()
        .filter(|l| l.as_ref().is_ok_and(|l| l.contains("\"claimed\"")))
        .count() as u64;
    raw.wait().expect("raw worker ends");
    // Each claim + close, plus the one claim that found nothing.
    let cycles = proxy.round_trips() - ready;
    out.push((
        "raw SKIP LOCKED claim + close (per cycle)",
        0,
        Some(cycles.saturating_sub(1) / claims.max(1)),
    ));
    out
}

type Results = HashMap<(Mode, Cell), Vec<Run>>;

fn med(results: &Results, mode: Mode, cell: Cell, f: &dyn Fn(&Run) -> f64) -> f64 {
    median(&results[&(mode, cell)].iter().map(f).collect::<Vec<_>>())
}

fn print_table(
    rtts: &[u64],
    procs: &[usize],
    lists: &[usize],
    results: &Results,
    measured: &HashMap<u64, f64>,
) {
    println!(
        "| round trip added (measured) | processes | lists | component claims/s | component claim p50 / p99 ms | raw claims/s | raw claim p50 / p99 ms | component ÷ raw | 16 lists ÷ 1 list (component) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for cell in cells(rtts, procs, lists) {
        let Cell {
            rtt_ms,
            procs: p,
            lists: l,
        } = cell;
        let m = |mode, f: &dyn Fn(&Run) -> f64| med(results, mode, cell, f);
        let (c, r) = (
            m(Mode::Component, &|r| r.claims_per_s),
            m(Mode::Raw, &|r| r.claims_per_s),
        );
        let spread = if l > 1 && lists.contains(&1) {
            let one = med(results, Mode::Component, Cell { lists: 1, ..cell }, &|r| {
                r.claims_per_s
            });
            format!("{:.1}×", c / one)
        } else {
            "".into()
        };
        println!(
            "| {rtt_ms} ms ({:.2} ms) | {p} | {l} | {c:.0} | {:.1} / {:.1} | {r:.0} | {:.1} / {:.1} | {:.2}× | {spread} |",
            measured[&rtt_ms],
            m(Mode::Component, &|r| r.p50_ms),
            m(Mode::Component, &|r| r.p99_ms),
            m(Mode::Raw, &|r| r.p50_ms),
            m(Mode::Raw, &|r| r.p99_ms),
            c / r,
        );
    }
}

/// Where the CPU goes, per claim + close: with every process on the
/// machine's cores, a run whose workers, server and proxy together need
/// more CPU per task than the cores give in its time is bound by them.
fn print_cpu(rtts: &[u64], procs: &[usize], lists: &[usize], results: &Results) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
    println!(
        "\nCPU per claim + close, ms (from /proc: the worker processes after their start, the PostgreSQL server, this process's latency proxy), and the claims/s that CPU allows on {cores} cores:\n"
    );
    println!(
        "| round trip added | processes | lists | component: workers / server / proxy | component: CPU-bound claims/s | raw: workers / server / proxy | raw: CPU-bound claims/s |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for cell in cells(rtts, procs, lists) {
        let Cell {
            rtt_ms,
            procs: p,
            lists: l,
        } = cell;
        let row = |mode| {
            let m = |f: &dyn Fn(&Run) -> f64| med(results, mode, cell, f);
            let (w, s, x) = (
                m(&|r| r.cpu.workers),
                m(&|r| r.cpu.server),
                m(&|r| r.cpu.proxy),
            );
            (
                format!("{w:.2} / {s:.2} / {x:.2}"),
                cores * 1e3 / (w + s + x),
            )
        };
        let (c, cb) = row(Mode::Component);
        let (r, rb) = row(Mode::Raw);
        println!("| {rtt_ms} ms | {p} | {l} | {c} | {cb:.0} | {r} | {rb:.0} |");
    }
}

fn print_round_trips(trips: &[(&'static str, u64, Option<u64>)]) {
    println!(
        "\nRound trips per action (counted by the proxy on a warm connection; pipelined messages count once):\n"
    );
    println!("| action | round trips |");
    println!("|---|---:|");
    for (name, component, raw) in trips {
        println!("| {name} | {} |", raw.unwrap_or(*component));
    }
}

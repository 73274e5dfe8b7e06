//! Every writing and reading action through the full in-process stack
//! (`Host::open` + `Host::call`: the real wasmtime component on a real
//! SQLite file) against two raw rusqlite baselines in the same run: the
//! identical statements (the component's own, recorded by the host's
//! statement log and replayed with the same transactions on a database in
//! the same state: what the sandbox, validation and JSON cost) and the
//! minimal transaction that honours the contract (what the design costs).
//! Rounds interleave the three so drift hits all; figures are medians.
//!
//! `cargo bench -p tasklists-host --bench actions`
//! (`BENCH_N` calls per action and round, default 200; `BENCH_ROUNDS`,
//! default 5; `BENCH_ONLY=claim` runs only the actions whose name contains
//! it, e.g. under `perf record`; `BENCH_PER_OP=1` adds each store
//! operation's time in the component beside its replay, and
//! `BENCH_PER_OP=backend` replays through the host's store backend instead
//! of raw rusqlite, to tell the backend's code from the rest).

#[path = "support/machine.rs"]
mod machine;
#[path = "support/minimal.rs"]
mod minimal;
#[path = "support/mirror.rs"]
mod mirror;
#[path = "support/raw.rs"]
mod raw;
#[path = "support/replay.rs"]
mod replay;
#[path = "support/stats.rs"]
mod stats;
#[path = "support/workload.rs"]
mod workload;

use stats::{Rounds, median, us};
use std::collections::BTreeMap;
use tasklists_host::{LoggedEntry, LoggedOp};
use workload::{ACTIONS, Workload, repetitions};

/// One store operation of an action (by call and place in the call), for
/// `BENCH_PER_OP`: what it is, its time in the component's backend and in
/// the replay.
#[derive(Default)]
struct OpSamples {
    what: String,
    component: Rounds,
    identical: Rounds,
}

/// Samples of one action.
#[derive(Default)]
struct Samples {
    /// Per store operation, keyed by (call, operation), when asked.
    ops: BTreeMap<(usize, usize), OpSamples>,
    component: Rounds,
    identical: Rounds,
    minimal: Rounds,
    /// Time the component's calls spent in the store backend (SQLite).
    in_store: Rounds,
    statements: Vec<f64>,
    crossings: Vec<f64>,
}

/// Statements (execute, query, pipeline) in a call's log.
fn statements(entries: &[LoggedEntry]) -> usize {
    entries
        .iter()
        .filter(|e| {
            matches!(
                e.op,
                LoggedOp::Execute { .. } | LoggedOp::Query { .. } | LoggedOp::Pipeline { .. }
            )
        })
        .count()
}

/// The targets of issue 39 ("reads near the store"): at most this many
/// times the identical statements.
const TARGETS: [(&str, f64); 4] = [
    ("task_lists find", 3.0),
    ("task_audit get", 3.0),
    ("task_lists get", 2.0),
    ("claim_next + update done", 1.5),
];

fn main() {
    let n = machine::env_usize("BENCH_N", 200);
    let rounds = machine::env_usize("BENCH_ROUNDS", 5);
    let mut m = mirror::Mirror::new();
    let built = std::time::Instant::now();
    let mut work = Workload::build(&mut m, n * rounds);
    eprintln!("fixture built in {:.1} s", built.elapsed().as_secs_f64());
    // A running server's database directory is quiet between changes of
    // its entries, and the SQLite store then checks the directory instead
    // of both files (`quiet_dir.rs`), once its last change is a few seconds
    // old. The fixture has just created the files: measure as a server
    // that has been running a little longer than that.
    std::thread::sleep(std::time::Duration::from_secs(4));
    let mut samples: BTreeMap<&str, Samples> = BTreeMap::new();
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    let per_op = std::env::var_os("BENCH_PER_OP").is_some();
    let actions: Vec<&str> = ACTIONS
        .iter()
        .copied()
        .filter(|a| a.contains(only.as_str()))
        .collect();
    for round in 0..rounds {
        for &action in &actions {
            let reps = repetitions(action, n);
            let s = samples.entry(action).or_default();
            for r in [
                &mut s.component,
                &mut s.identical,
                &mut s.minimal,
                &mut s.in_store,
            ] {
                r.start_round();
            }
            for op in s.ops.values_mut() {
                op.component.start_round();
                op.identical.start_round();
            }
            let mut logs = Vec::with_capacity(reps);
            for i in 0..reps {
                let c = work.component(&mut m, action, round * reps + i);
                s.component.push(us(c.took));
                let store: std::time::Duration = c.calls.iter().flatten().map(|e| e.elapsed).sum();
                s.in_store.push(us(store));
                s.statements
                    .push(c.calls.iter().map(|e| statements(e)).sum::<usize>() as f64);
                s.crossings
                    .push(c.calls.iter().map(Vec::len).sum::<usize>() as f64);
                logs.push(c.calls);
            }
            for calls in &logs {
                let mut took = std::time::Duration::ZERO;
                for (call, entries) in calls.iter().enumerate() {
                    let each = m.same.run_each(entries);
                    took += each.iter().sum::<std::time::Duration>();
                    if per_op {
                        for (k, (entry, replayed)) in entries.iter().zip(&each).enumerate() {
                            let op = s.ops.entry((call, k)).or_default();
                            if op.what.is_empty() {
                                op.what = describe(&entry.op);
                            }
                            op.component.push(us(entry.elapsed));
                            op.identical.push(us(*replayed));
                        }
                    }
                }
                s.identical.push(us(took));
            }
            for i in 0..reps {
                s.minimal
                    .push(us(work.minimal(&mut m, action, round * reps + i)));
            }
        }
        eprintln!("round {} of {rounds} done", round + 1);
    }
    print(&samples, &actions, n, rounds, m.same.mismatches);
}

fn print(
    samples: &BTreeMap<&str, Samples>,
    actions: &[&str],
    n: usize,
    rounds: usize,
    mismatches: usize,
) {
    println!("## In-process actions: component against raw SQLite\n");
    println!("Machine: {}  ", machine::machine());
    println!(
        "Parameters: {n} calls per action per round (add_many: {}), {rounds} rounds, one agent, one connection each; \
         figures are the median over rounds of each round's median µs per call.  ",
        repetitions("add_many", n)
    );
    println!(
        "Identical-statement replay mismatches (rows changed/returned differing from the component's): {mismatches}\n"
    );
    println!(
        "| action | stmts component | stmts minimal | crossings | µs component | µs identical | µs minimal | × identical | × minimal | SQLite share of component |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    let minimal_count: BTreeMap<&str, usize> =
        minimal::FOOTNOTE.iter().map(|(a, c, _)| (*a, *c)).collect();
    for &action in actions {
        let s = &samples[action];
        let (c, i, m) = (s.component.p50(), s.identical.p50(), s.minimal.p50());
        println!(
            "| {action} | {:.0} | {} | {:.0} | {c:.1} | {i:.1} | {m:.1} | {:.2} | {:.2} | {:.0} % |",
            median(&s.statements),
            minimal_count[action],
            median(&s.crossings),
            c / i,
            c / m,
            100.0 * s.in_store.p50() / c
        );
    }
    let targets: Vec<String> = TARGETS
        .iter()
        .filter_map(|&(action, most)| {
            let s = samples.get(action)?;
            let ratio = s.component.p50() / s.identical.p50();
            let verdict = if ratio <= most { "met" } else { "missed" };
            Some(format!("{action} ≤ {most}×: {ratio:.2}× {verdict}"))
        })
        .collect();
    if !targets.is_empty() {
        println!("\nTargets (× identical): {}\n", targets.join("; "));
    }
    println!(
        "Crossings: store operations per call (begin, statements, commit). SQLite share: time inside the store backend (SQLite and value conversion) over the whole call.\n"
    );
    println!("Minimal transactions:\n\n| action | stmts | statements |\n|---|--:|---|");
    for (action, count, what) in minimal::FOOTNOTE {
        println!("| {action} | {count} | {what} |");
    }
    print_per_op(samples, actions);
}

/// With `BENCH_PER_OP`: each store operation's time inside the
/// component's backend beside the same operation replayed.
fn print_per_op(samples: &BTreeMap<&str, Samples>, actions: &[&str]) {
    let with_ops: Vec<&str> = actions
        .iter()
        .copied()
        .filter(|a| !samples[a].ops.is_empty())
        .collect();
    if with_ops.is_empty() {
        return;
    }
    let through = match std::env::var("BENCH_PER_OP").as_deref() {
        Ok("backend") => "through the host's store backend, without the component",
        _ => "on raw rusqlite",
    };
    println!(
        "\nPer store operation (µs in the component's backend; the same operation replayed {through}):\n"
    );
    println!(
        "| action | call | operation | µs component | µs identical | × |\n|---|--:|---|--:|--:|--:|"
    );
    for action in with_ops {
        for (&(call, _), op) in &samples[action].ops {
            let (c, i) = (op.component.p50(), op.identical.p50());
            println!(
                "| {action} | {} | {} | {c:.1} | {i:.1} | {:.2} |",
                call + 1,
                op.what,
                c / i
            );
        }
    }
}

/// An operation as the per-operation table names it: its kind, and the
/// start of its statement.
fn describe(op: &LoggedOp) -> String {
    let (kind, sql) = match op {
        LoggedOp::Begin { write: true } => return "begin (write)".into(),
        LoggedOp::Begin { write: false } => return "begin (read)".into(),
        LoggedOp::Commit => return "commit".into(),
        LoggedOp::Rollback => return "rollback".into(),
        LoggedOp::Abandon => return "abandon".into(),
        LoggedOp::Execute { sql, .. } => ("execute", sql),
        LoggedOp::Query { sql, .. } => ("query", sql),
        LoggedOp::Pipeline { sql, .. } => ("pipeline", sql),
    };
    let start: String = sql.chars().take(40).collect();
    format!("{kind} `{}…`", start.replace('|', "/"))
}

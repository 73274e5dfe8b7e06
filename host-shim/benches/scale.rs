//! Calls whose work could grow with the data, at 100, 10,000 and 100,000
//! tasks in one list (each size its own database): `claim_next` (then the
//! task is put back to `todo` untimed, so every sample claims the same
//! head task), `task_lists get` (first page) and `task_lists find`; and
//! `find` over 1,000 lists. Each figure is the median over rounds of each
//! round's median; rounds interleave the sizes. Target: ≤ 2× the 100-task
//! time.
//!
//! `cargo bench -p tasklists-host --bench scale`
//! (`BENCH_N` calls per figure and round, default 50; `BENCH_ROUNDS`,
//! default 5; `BENCH_BIG`, the largest list, default 100000).

#[path = "support/machine.rs"]
mod machine;
#[path = "support/stats.rs"]
mod stats;

use serde_json::{Value, json};
use stats::{Rounds, us};
use std::time::Instant;
use tasklists_host::{CallContext, Host, HostConfig, ToolOutput};

/// One database and the list measured in it.
struct Db {
    label: String,
    host: Host,
    list: String,
    _dir: tempfile::TempDir,
}

fn call(host: &mut Host, agent: &str, tool: &str, action: &str, params: &Value) -> ToolOutput {
    let params = if params.is_null() {
        String::new()
    } else {
        params.to_string()
    };
    host.call(tool, action, &params, &CallContext::agent(agent))
        .unwrap_or_else(|e| panic!("{tool} {action}: {:?} {}", e.code, e.message))
}

/// A database with `lists` lists of `tasks` tasks each (add_many by 500
/// through the component); the last list is the one measured.
fn build(label: &str, lists: usize, tasks: usize) -> Db {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut host = Host::open(HostConfig::new(dir.path().join("tasks.db"))).expect("host opens");
    let mut list = String::new();
    for l in 0..lists {
        let out = call(
            &mut host,
            "bench",
            "task_lists",
            "create",
            &json!({"name": format!("list {l}")}),
        );
        list = out.data["list"]["id"].as_str().expect("id").to_string();
        let mut made = 0;
        while made < tasks {
            let batch: Vec<Value> = (made..tasks.min(made + 500))
                .map(|i| json!({"title": format!("task {i} of the release checklist")}))
                .collect();
            made += batch.len();
            call(
                &mut host,
                "bench",
                "task_items",
                "add_many",
                &json!({"list_id": list, "tasks": batch}),
            );
        }
    }
    Db {
        label: label.to_string(),
        host,
        list,
        _dir: dir,
    }
}

/// The measured calls.
const CALLS: [&str; 3] = ["claim_next", "get (first page)", "find"];

/// One sample of `what` on `db`, in µs.
fn sample(db: &mut Db, what: &str) -> f64 {
    let list = json!({"list_id": db.list});
    let (tool, action, params) = match what {
        "claim_next" => ("task_claims", "claim_next", list.clone()),
        "get (first page)" => ("task_lists", "get", list.clone()),
        _ => ("task_lists", "find", Value::Null),
    };
    let started = Instant::now();
    let out = call(&mut db.host, "bench", tool, action, &params);
    let took = us(started.elapsed());
    if what == "claim_next" {
        let id = out.data["task"]["id"].as_str().expect("a task claimed");
        call(
            &mut db.host,
            "bench",
            "task_items",
            "update",
            &json!({"task_id": id, "status": "todo"}),
        );
    }
    took
}

fn main() {
    let n = machine::env_usize("BENCH_N", 50);
    let rounds = machine::env_usize("BENCH_ROUNDS", 5);
    let big = machine::env_usize("BENCH_BIG", 100_000);
    let started = Instant::now();
    let mut dbs = [
        build("100 tasks", 1, 100),
        build("10,000 tasks", 1, big / 10),
        build(&format!("{big} tasks"), 1, big),
        build("1,000 lists", 1000, 5),
    ];
    eprintln!("built in {:.1} s", started.elapsed().as_secs_f64());
    let mut samples: Vec<Vec<Rounds>> = dbs
        .iter()
        .map(|_| vec![Rounds::default(); CALLS.len()])
        .collect();
    for _ in 0..rounds {
        for (d, db) in dbs.iter_mut().enumerate() {
            for (c, what) in CALLS.iter().enumerate() {
                samples[d][c].start_round();
                for _ in 0..n {
                    samples[d][c].push(sample(db, what));
                }
            }
        }
    }
    println!("## Scale: one list of 100 to {big} tasks, and 1,000 lists\n");
    println!("Machine: {}  ", machine::machine());
    println!(
        "Parameters: {n} calls per figure per round, {rounds} rounds, medians of round medians, µs per call; each size its own database, built with add_many by 500 through the component; the 1,000-lists database has 5 tasks per list. Ratio: to the 100-task figure (target ≤ 2×).\n"
    );
    let labels: Vec<&str> = dbs.iter().map(|d| d.label.as_str()).collect();
    println!(
        "| call | {} | ratio {} / 100 | ratio 1,000 lists / 100 | target |",
        labels.join(" | "),
        labels[2]
    );
    println!("|---|{}--:|--:|---|", "--:|".repeat(labels.len()));
    for (c, what) in CALLS.iter().enumerate() {
        let p: Vec<f64> = samples.iter().map(|s| s[c].p50()).collect();
        let worst = (p[2] / p[0]).max(if *what == "find" { p[3] / p[0] } else { 0.0 });
        println!(
            "| {what} | {} | {:.2}× | {:.2}× | {} |",
            p.iter()
                .map(|v| format!("{v:.1}"))
                .collect::<Vec<_>>()
                .join(" | "),
            p[2] / p[0],
            p[3] / p[0],
            if worst <= 2.0 { "met" } else { "missed" }
        );
    }
}

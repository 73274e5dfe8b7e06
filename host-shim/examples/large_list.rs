//! What the calls whose work grows with a list cost on a list of 100,000
//! tasks (one dependency chain), against the same calls on a list of 100
//! in the same run: `cargo run --release -p tasklists-host --example large_list`.
//!
//! Every call runs under the default limits (64 MiB of component memory,
//! 10 s per call); the figures are one run each, wall time.

use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tasklists_host::{CallContext, ErrorCode, Host, HostConfig, ToolError, ToolOutput};

/// One list of `n` tasks, task `i` depending on task `i - 1`.
struct Chain {
    list: String,
    ids: Vec<String>,
}

/// Calls as `agent`; the outcome, how long it took, its text size.
fn timed(
    host: &mut Host,
    agent: &str,
    tool: &str,
    action: &str,
    params: Value,
) -> (Result<ToolOutput, ToolError>, Duration, usize) {
    let started = Instant::now();
    let reply = host
        .reply_to_action(
            tool,
            action,
            &params.to_string(),
            &CallContext::agent(agent),
        )
        .expect("the component runs");
    let took = started.elapsed();
    let bytes = reply.text.len();
    (reply.into_result(), took, bytes)
}

fn call(host: &mut Host, tool: &str, action: &str, params: Value) -> ToolOutput {
    match timed(host, "bench", tool, action, params).0 {
        Ok(out) => out,
        Err(e) => panic!("{tool} {action}: {:?} {}", e.code, e.message),
    }
}

fn build(host: &mut Host, n: usize) -> Chain {
    let out = call(
        host,
        "task_lists",
        "create",
        json!({"name": format!("chain of {n}")}),
    );
    let list = out.data["list"]["id"].as_str().unwrap().to_string();
    let mut ids: Vec<String> = Vec::with_capacity(n);
    while ids.len() < n {
        let batch = (n - ids.len()).min(500);
        let tasks: Vec<Value> = (0..batch)
            .map(|i| {
                let mut t =
                    json!({"ref": format!("r{i}"), "title": format!("step {}", ids.len() + i)});
                if i > 0 {
                    t["depends_on"] = json!([format!("r{}", i - 1)]);
                } else if let Some(last) = ids.last() {
                    t["depends_on"] = json!([last]);
                }
                t
            })
            .collect();
        let out = call(
            host,
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": tasks}),
        );
        for t in out.data["tasks"].as_array().unwrap() {
            ids.push(t["id"].as_str().unwrap().to_string());
        }
    }
    Chain { list, ids }
}

/// One measured call: name, agent, tool, action, params, and the error
/// code it must be refused with (None: it must succeed).
type Measured<'a> = (
    &'static str,
    &'a str,
    &'a str,
    &'a str,
    Value,
    Option<ErrorCode>,
);

/// Runs every measured call on `chain`; returns (name, time, bytes of text).
fn measure(host: &mut Host, chain: &Chain) -> Vec<(&'static str, Duration, usize)> {
    let (list, ids) = (&chain.list, &chain.ids);
    let n = ids.len();
    let middle = format!("p{}.{}", n / 2, ids[n / 2 - 1]);
    let moved: Vec<&String> = ids.iter().take(10_000.min(n / 2)).collect();
    let calls: Vec<Measured> = vec![
        (
            "get: first page (100)",
            "bench",
            "task_lists",
            "get",
            json!({"list_id": list}),
            None,
        ),
        (
            "get: 500 from the middle",
            "bench",
            "task_lists",
            "get",
            json!({"list_id": list, "limit": 500, "cursor": middle}),
            None,
        ),
        (
            "claim_next: the head",
            "bench",
            "task_claims",
            "claim_next",
            json!({"list_id": list}),
            None,
        ),
        (
            "claim_next: nothing ready, and why",
            "other",
            "task_claims",
            "claim_next",
            json!({"list_id": list}),
            None,
        ),
        (
            "create: depends_on the tail",
            "bench",
            "task_items",
            "create",
            json!({"list_id": list, "title": "after all", "depends_on": [ids[n - 1]]}),
            None,
        ),
        (
            "update: refused, a cycle of every task",
            "bench",
            "task_items",
            "update",
            json!({"task_id": ids[0], "depends_on": [ids[n - 1]]}),
            Some(ErrorCode::Cycle),
        ),
        (
            "reorder: the last task to the top",
            "bench",
            "task_items",
            "reorder",
            json!({"list_id": list, "task_ids": [ids[n - 1]]}),
            None,
        ),
        (
            "reorder: 10,000 ids to the middle",
            "bench",
            "task_items",
            "reorder",
            json!({"list_id": list, "task_ids": moved, "position": n / 2}),
            None,
        ),
        (
            "delete the list",
            "bench",
            "task_lists",
            "delete",
            json!({"list_id": list}),
            None,
        ),
    ];
    calls
        .into_iter()
        .map(|(name, agent, tool, action, params, refused)| {
            let (result, took, bytes) = timed(host, agent, tool, action, params);
            match (result, refused) {
                (Ok(_), None) => {}
                (Err(e), Some(code)) if e.code == code => {}
                (Ok(_), Some(code)) => panic!("{name}: expected {code:?}"),
                (Err(e), _) => panic!("{name}: {:?} {}", e.code, e.message),
            }
            (name, took, bytes)
        })
        .collect()
}

fn main() {
    let dir = std::env::temp_dir().join(format!("tasklists-large-list-{}", std::process::id()));
    let mut host = Host::open(HostConfig::new(dir.join("tasks.db"))).expect("host opens");
    let started = Instant::now();
    let big = build(&mut host, 100_000);
    println!(
        "built 100,000 chained tasks with add_many in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let small = build(&mut host, 100);
    let base = measure(&mut host, &small);
    let large = measure(&mut host, &big);
    println!(
        "{:<38} {:>10} {:>12} {:>8} {:>10}",
        "call", "100 tasks", "100,000", "ratio", "text"
    );
    for ((name, small, _), (_, large, bytes)) in base.iter().zip(&large) {
        println!(
            "{name:<38} {:>8.2}ms {:>10.2}ms {:>7.0}x {:>9}B",
            small.as_secs_f64() * 1e3,
            large.as_secs_f64() * 1e3,
            large.as_secs_f64() / small.as_secs_f64(),
            bytes
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

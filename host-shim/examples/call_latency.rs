//! The wasmtime host's side of the Node host comparison
//! (`host-shim/node/bench/latency.mjs` runs it in the same run, on the same
//! workload): load time, per-call latency of `claim_next`, `update` notes,
//! `update` done (each claim is followed by the two updates, on the claimed
//! task), `get` (first page) and `find`, the page faults of a claim, note
//! and close, and resident memory, printed as one JSON object.
//!
//! `cargo run --release -p tasklists-host --example call_latency [tasks] [calls]`

use serde_json::json;
use std::time::{Duration, Instant};
use tasklists_host::{CallContext, Host, HostConfig};

fn main() {
    let mut args = std::env::args().skip(1);
    let tasks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let calls: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(500);
    assert!(
        calls <= tasks,
        "every claim cycle needs a task: calls ≤ tasks"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let rss_start = rss_kib();

    let started = Instant::now();
    let mut host = Host::open(HostConfig::new(dir.path().join("tasks.db"))).expect("host opens");
    let open = started.elapsed();
    let ctx = CallContext::agent("bench");
    let started = Instant::now();
    host.call("task_lists", "find", "{}", &ctx).expect("find");
    let first_call = started.elapsed();

    let list = host
        .call("task_lists", "create", r#"{"name":"bench"}"#, &ctx)
        .expect("list")
        .data["list"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    for start in (0..tasks).step_by(200) {
        let batch: Vec<String> = (start..tasks.min(start + 200))
            .map(|i| format!(r#"{{"title":"task {i}"}}"#))
            .collect();
        let params = format!(r#"{{"list_id":"{list}","tasks":[{}]}}"#, batch.join(","));
        host.call("task_items", "add_many", &params, &ctx)
            .expect("tasks added");
    }
    let list_param = json!({"list_id": list}).to_string();
    let get_param = json!({"list_id": list, "include_tasks": true, "limit": 50}).to_string();
    let mut timed = |tool: &str, action: &str, params: &str, times: &mut Vec<Duration>| {
        let started = Instant::now();
        let out = host.call(tool, action, params, &ctx).expect("call");
        times.push(started.elapsed());
        out.data
    };
    // The writes in cycles, as an agent makes them: claim, note, close.
    let (mut claim_next, mut notes, mut done) = (Vec::new(), Vec::new(), Vec::new());
    let faults_before = minor_faults();
    for i in 0..calls {
        let claimed = timed("task_claims", "claim_next", &list_param, &mut claim_next);
        let id = claimed["task"]["id"].as_str().expect("a task to claim");
        let token = claimed["claim"]["token"].as_str().expect("a claim token");
        let note = json!({"task_id": id, "notes": format!("note {i}"), "claim_token": token});
        timed("task_items", "update", &note.to_string(), &mut notes);
        let close = json!({"task_id": id, "status": "done", "outcome": "ok", "claim_token": token});
        timed("task_items", "update", &close.to_string(), &mut done);
    }
    let write_faults = minor_faults() - faults_before;
    let (mut get, mut find) = (Vec::new(), Vec::new());
    for _ in 0..calls {
        timed("task_lists", "get", &get_param, &mut get);
        timed("task_lists", "find", "{}", &mut find);
    }
    println!(
        "{}",
        json!({
            "host": "wasmtime",
            "open_ms": ms(open),
            "first_call_ms": ms(first_call),
            "claim_next": summary(claim_next),
            "update_notes": summary(notes),
            "update_done": summary(done),
            "get": summary(get),
            "find": summary(find),
            "page_faults_per_write_cycle": write_faults / calls.max(1) as f64,
            "rss_start_mib": rss_start / 1024.0,
            "rss_end_mib": rss_kib() / 1024.0,
        })
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// p50 and p99 of `times`, in milliseconds.
fn summary(mut times: Vec<Duration>) -> serde_json::Value {
    times.sort();
    let at = |p: usize| ms(times[(times.len() * p / 100).min(times.len() - 1)]);
    json!({"p50_ms": at(50), "p99_ms": at(99)})
}

/// Page faults this process has taken so far (`minflt`, the field after
/// the flags in /proc/self/stat; 0 where there is none).
fn minor_faults() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            s[s.rfind(')')? + 1..]
                .split_whitespace()
                .nth(7)?
                .parse()
                .ok()
        })
        .unwrap_or(0.0)
}

/// This process's resident set, from /proc (0 where there is none).
fn rss_kib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0.0)
}

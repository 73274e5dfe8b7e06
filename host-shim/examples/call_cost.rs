//! Measures what a tool call costs in-process (reused instance, SQLite
//! transaction, JSON in and out) on a throwaway database:
//! `cargo run --release -p tasklists-host --example call_cost`.

use std::time::Instant;
use tasklists_host::{CallContext, Host, HostConfig};

fn bench(host: &mut Host, tool: &str, request: &str, n: u32, ctx: &CallContext) {
    let started = Instant::now();
    for _ in 0..n {
        host.call_json(request, tool, ctx).expect("call succeeds");
    }
    let action = request.split('"').nth(3).unwrap_or("?");
    println!("{tool} {action}: {:?} per call", started.elapsed() / n);
}

fn main() {
    let dir = std::env::temp_dir().join(format!("tasklists-call-cost-{}", std::process::id()));
    let mut host = Host::open(HostConfig::new(dir.join("tasks.db"))).expect("host opens");
    let ctx = CallContext::agent("bench");
    let out = host
        .call_json(
            r#"{"action":"create","params":{"name":"bench"}}"#,
            "task_lists",
            &ctx,
        )
        .expect("list created");
    let list = out.data["list"]["id"]
        .as_str()
        .expect("list id")
        .to_string();
    let tasks: Vec<String> = (0..50)
        .map(|i| format!(r#"{{"title":"task {i}"}}"#))
        .collect();
    let add = format!(
        r#"{{"action":"add_many","params":{{"list_id":"{list}","tasks":[{}]}}}}"#,
        tasks.join(",")
    );
    host.call_json(&add, "task_items", &ctx)
        .expect("tasks added");

    bench(
        &mut host,
        "task_help",
        r#"{"action":"workflow"}"#,
        500,
        &ctx,
    );
    bench(&mut host, "task_lists", r#"{"action":"find"}"#, 500, &ctx);
    let get = format!(r#"{{"action":"get","params":{{"list_id":"{list}"}}}}"#);
    bench(&mut host, "task_lists", &get, 200, &ctx);
    let claim = format!(r#"{{"action":"claim_next","params":{{"list_id":"{list}"}}}}"#);
    bench(&mut host, "task_claims", &claim, 500, &ctx);
    let create = format!(r#"{{"action":"create","params":{{"list_id":"{list}","title":"x"}}}}"#);
    bench(&mut host, "task_items", &create, 200, &ctx);

    let started = Instant::now();
    for _ in 0..500 {
        host.catalogue().expect("catalogue");
    }
    println!("catalogue: {:?} per call", started.elapsed() / 500);
    let _ = std::fs::remove_dir_all(&dir);
}

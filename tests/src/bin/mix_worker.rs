//! One agent process of the mixed races (`tests/race.rs`): claims without
//! closing, claims and closes, or creates, while other processes do the
//! same on the same list.
//!
//! Usage: `mix_worker <db> <list-id> <agent-id> <hold|work|create> <n>`
//!
//! - `hold`: `claim_next` `n` times, never closing (one held task per
//!   agent per list: every answer hands out the same task);
//! - `work`: `n` times `claim_next` + `update` done (fewer when nothing
//!   is left to claim);
//! - `create`: `n` times `task_items create`, at position 1 or after the
//!   first task in turn (moving the tasks behind it).
//!
//! Prints `{"ready":true}`, waits for a line on stdin (so every process
//! starts at once), then one JSON line per call: `{"task": id}` for a task
//! handed out or created, `{"none": true}` for nothing to claim,
//! `{"error": code, "message": …}` for a refused call; `{"done": true}`
//! last.

use std::io::{BufRead, Write};
use tasklists_tests::{Host, config, ctx, json};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, db, list, agent, mode, n] = args.as_slice() else {
        eprintln!("usage: mix_worker <db> <list-id> <agent-id> <hold|work|create> <n>");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("n is a number");
    let mut host = Host::open(config(db.as_str())).expect("open the store");
    let me = ctx(agent);
    println!("{}", json!({"ready": true}));
    std::io::stdout().flush().ok();
    let mut go = String::new();
    std::io::stdin().lock().read_line(&mut go).ok();
    let mut out = std::io::stdout().lock();
    let mut report = |line: serde_json::Value| {
        writeln!(out, "{line}").ok();
    };
    for i in 0..n {
        let result = match mode.as_str() {
            "hold" | "work" => host.call(
                "task_claims",
                "claim_next",
                &json!({"list_id": list}).to_string(),
                &me,
            ),
            "create" => host.call(
                "task_items",
                "create",
                &json!({"list_id": list, "title": format!("{agent} {i}"), "position": 1 + i % 2})
                    .to_string(),
                &me,
            ),
            other => panic!("unknown mode {other}"),
        };
        let data = match result {
            Ok(o) => o.data,
            Err(e) => {
                report(json!({"error": format!("{:?}", e.code), "message": e.message}));
                continue;
            }
        };
        let Some(task) = data["task"]["id"].as_str().map(str::to_string) else {
            report(json!({"none": true}));
            continue;
        };
        report(json!({"task": task}));
        if mode == "work" {
            let token = data["claim"]["token"].as_str().unwrap_or_default();
            let closed = host.call(
                "task_items",
                "update",
                &json!({"task_id": task, "status": "done", "outcome": "ok", "claim_token": token})
                    .to_string(),
                &me,
            );
            if let Err(e) = closed {
                report(json!({"error": format!("{:?}", e.code), "message": e.message}));
            }
        }
    }
    report(json!({"done": true}));
}

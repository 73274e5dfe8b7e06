//! One agent process of the multi-process race (`tests/race.rs`).
//!
//! Usage: `race_worker <db-path> <list-id>[,<list-id>…] <agent-id> [<label>[,<label>…]]`
//!
//! Opens the database, prints `{"ready":true}`, waits for a line on stdin
//! (so every process starts at once), then loops `claim_next` + `update
//! status done` until `claim_next` returns no task, on each list in turn
//! (the `network` bench gives a process several lists); given labels, each
//! claim asks for them (`labels`: a task carrying one). Prints one JSON line
//! per claimed task (`{"claimed": id, "claim_us": …, "update_us": …}`),
//! one per error (`{"error": code, "during": …, "message": …}`), and a
//! final `{"done": true, "claims": n, "errors": m, "idle_claim_us": …}`.

use std::io::{BufRead, Write};
use std::time::Instant;
use tasklists_tests::{Host, config, ctx, json};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (db, list, agent, labels) = match args.as_slice() {
        [_, db, list, agent] => (db, list, agent, None),
        // A label holds no comma (the contract's rule).
        [_, db, list, agent, labels] => {
            (db, list, agent, Some(labels.split(',').collect::<Vec<_>>()))
        }
        _ => {
            eprintln!(
                "usage: race_worker <db-path> <list-id>[,<list-id>…] <agent-id> [<label>[,<label>…]]"
            );
            std::process::exit(2);
        }
    };
    let claim_of = |list: Option<&str>| {
        let mut p = json!({"list_id": list});
        if let Some(labels) = &labels {
            p["labels"] = json!(labels);
        }
        p.to_string()
    };
    let mut host = match Host::open(config(db.as_str())) {
        Ok(host) => host,
        Err(e) => {
            println!(
                "{}",
                json!({"error": "host", "during": "open", "message": e.to_string()})
            );
            std::process::exit(1);
        }
    };
    let me = ctx(agent);
    println!("{}", json!({"ready": true}));
    std::io::stdout().flush().ok();
    let mut go = String::new();
    std::io::stdin().lock().read_line(&mut go).ok();

    let (mut claims, mut errors, mut consecutive_errors) = (0u32, 0u32, 0u32);
    let mut out = std::io::stdout().lock();
    let mut lists = list.split(',');
    let mut claim_params = claim_of(lists.next());
    loop {
        let started = Instant::now();
        let claimed = host.call("task_claims", "claim_next", &claim_params, &me);
        let claim_us = started.elapsed().as_micros() as u64;
        let data = match claimed {
            Ok(o) => o.data,
            Err(e) => {
                errors += 1;
                consecutive_errors += 1;
                writeln!(out, "{}", json!({"error": format!("{:?}", e.code), "during": "claim_next", "message": e.message, "claim_us": claim_us})).ok();
                if consecutive_errors > 50 {
                    break;
                }
                continue;
            }
        };
        if data["task"].is_null() {
            if let Some(next) = lists.next() {
                claim_params = claim_of(Some(next));
                continue;
            }
            writeln!(out, "{}", json!({"done": true, "claims": claims, "errors": errors, "idle_claim_us": claim_us, "waiting": data["waiting"]})).ok();
            break;
        }
        let id = data["task"]["id"].as_str().unwrap_or_default().to_string();
        let token = data["claim"]["token"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let resumed = data["resumed"].as_bool().unwrap_or(false);
        let update = json!({"task_id": id, "status": "done", "outcome": format!("done by {agent}"), "claim_token": token}).to_string();
        let started = Instant::now();
        let updated = host.call("task_items", "update", &update, &me);
        let update_us = started.elapsed().as_micros() as u64;
        match updated {
            Ok(_) => {
                consecutive_errors = 0;
                if !resumed {
                    claims += 1;
                }
                writeln!(out, "{}", json!({"claimed": id, "resumed": resumed, "claim_us": claim_us, "update_us": update_us})).ok();
            }
            Err(e) => {
                errors += 1;
                consecutive_errors += 1;
                // The claim was still made: report it, then the failure.
                writeln!(
                    out,
                    "{}",
                    json!({"claimed": id, "resumed": resumed, "claim_us": claim_us})
                )
                .ok();
                writeln!(out, "{}", json!({"error": format!("{:?}", e.code), "during": "update", "task": id, "message": e.message})).ok();
                if consecutive_errors > 50 {
                    break;
                }
            }
        }
    }
    out.flush().ok();
}

//! A long-lived agent process for the repeated claim races
//! (`tests/torture_race.rs`): one process serves many rounds, so a round
//! costs a few calls, not a process start.
//!
//! Usage: `claim_worker <db-path> <agent-id>`
//!
//! Opens the database and prints `{"ready":true}`. Then reads commands on
//! stdin, one per line:
//!
//! - `round <n> <list-id>`: loops `claim_next` + `update` (status `done`,
//!   outcome `r<n> done by <agent>`, notes `r<n> notes by <agent>`, with
//!   the claim token) until `claim_next` hands out no task, then answers
//!   `{"round": n, "claimed": [ids whose close was acknowledged],
//!   "errors": [...]}` on one line;
//! - `quit` (or end of input): exits.

use std::io::{BufRead, Write};
use tasklists_tests::{Host, Value, config, ctx, json};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, db, agent] = args.as_slice() else {
        eprintln!("usage: claim_worker <db-path> <agent-id>");
        std::process::exit(2);
    };
    let mut host = match Host::open(config(db.as_str())) {
        Ok(host) => host,
        Err(e) => {
            println!("{}", json!({"error": format!("open: {e}")}));
            std::process::exit(1);
        }
    };
    let me = ctx(agent);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", json!({"ready": true})).ok();
    out.flush().ok();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["round", n, list] => {
                let reply = round(&mut host, &me, agent, n, list);
                writeln!(out, "{reply}").ok();
                out.flush().ok();
            }
            ["quit"] | [] => break,
            _ => {
                writeln!(
                    out,
                    "{}",
                    json!({"error": format!("unknown command {line:?}")})
                )
                .ok();
                out.flush().ok();
            }
        }
    }
}

/// Drains `list` as `agent`; the acknowledged closes and any errors.
fn round(
    host: &mut Host,
    me: &tasklists_tests::CallContext,
    agent: &str,
    n: &str,
    list: &str,
) -> Value {
    let claim = json!({"list_id": list}).to_string();
    let mut claimed = Vec::new();
    let mut errors = Vec::new();
    // A bound on failures, so a broken store ends the round instead of
    // spinning; the parent fails the test on any error anyway.
    while errors.len() < 20 {
        let data = match host.call("task_claims", "claim_next", &claim, me) {
            Ok(out) => out.data,
            Err(e) => {
                errors.push(json!({"during": "claim_next", "code": format!("{:?}", e.code), "message": e.message}));
                continue;
            }
        };
        if data["task"].is_null() {
            break;
        }
        let id = data["task"]["id"].as_str().unwrap_or_default().to_string();
        let update = json!({
            "task_id": id,
            "status": "done",
            "outcome": format!("r{n} done by {agent}"),
            "notes": format!("r{n} notes by {agent}"),
            "claim_token": data["claim"]["token"],
        })
        .to_string();
        match host.call("task_items", "update", &update, me) {
            Ok(_) => claimed.push(id),
            Err(e) => errors.push(json!({"during": "update", "task": id, "code": format!("{:?}", e.code), "message": e.message})),
        }
    }
    json!({"round": n, "claimed": claimed, "errors": errors})
}

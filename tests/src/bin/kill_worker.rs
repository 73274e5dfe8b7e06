//! A writer the `kill -9` torture (`tests/torture_kill.rs`) kills at random
//! moments: it loops over a seeded mix of writes and prints each one as
//! soon as the host acknowledged it (one JSON line, flushed), so the parent
//! knows exactly which writes it was told had succeeded.
//!
//! Usage: `kill_worker <db-path> <agent-id> <seed> <list-id>…`
//!
//! Prints `{"ready":true}`, then, forever:
//!
//! - `{"a":"add","list":…,"batch":"<agent>/<n>","k":k,"ids":[…]}`: an
//!   `add_many` of `k` tasks titled `B|<agent>/<n>|<i>|<k>`;
//! - `{"a":"claim","list":…,"task":…}`: a `claim_next` (lease 3600 s) that
//!   handed out a task;
//! - `{"a":"notes","task":…,"n":n}`: an update of the claimed task's notes
//!   to `N|<agent>|<n>` (`n` grows);
//! - `{"a":"done","task":…,"outcome":…}`: a close as `done` with outcome
//!   `O|<agent>|<task>`;
//! - `{"err":…}` for any failed call.

use std::io::Write;
use tasklists_tests::{Host, Value, config, ctx, json};

/// SplitMix64, as the parent's (the mix is reproducible from the seed).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (db, agent, seed, lists) = match args.as_slice() {
        [_, db, agent, seed, lists @ ..] if !lists.is_empty() => {
            (db, agent, seed.parse::<u64>().unwrap_or(1), lists)
        }
        _ => {
            eprintln!("usage: kill_worker <db-path> <agent-id> <seed> <list-id>…");
            std::process::exit(2);
        }
    };
    let mut host = match Host::open(config(db.as_str())) {
        Ok(host) => host,
        Err(e) => {
            println!("{}", json!({"err": format!("open: {e}")}));
            std::process::exit(1);
        }
    };
    let me = ctx(agent);
    let mut rng = Rng(seed);
    let mut out = std::io::stdout().lock();
    let mut say = |v: Value| {
        writeln!(out, "{v}").ok();
        out.flush().ok();
    };
    say(json!({"ready": true}));
    // The task this agent holds in each list, with its claim token.
    let mut held: Vec<Option<(String, String)>> = vec![None; lists.len()];
    let (mut batches, mut notes) = (0u64, 0u64);
    let call = |host: &mut Host, tool: &str, action: &str, params: Value| {
        host.call(tool, action, &params.to_string(), &me)
    };
    loop {
        let l = rng.below(lists.len() as u64) as usize;
        let list = &lists[l];
        let roll = rng.below(10);
        let step = match (&held[l], roll) {
            (_, 0..=2) => {
                batches += 1;
                let k = 1 + rng.below(12);
                let batch = format!("{agent}/{batches}");
                let tasks: Vec<Value> = (1..=k)
                    .map(|i| json!({"title": format!("B|{batch}|{i}|{k}")}))
                    .collect();
                call(
                    &mut host,
                    "task_items",
                    "add_many",
                    json!({"list_id": list, "tasks": tasks}),
                )
                .map(|o| {
                    let ids: Vec<Value> = o.data["tasks"]
                        .as_array()
                        .map(|t| t.iter().map(|t| t["id"].clone()).collect())
                        .unwrap_or_default();
                    json!({"a": "add", "list": list, "batch": batch, "k": k, "ids": ids})
                })
            }
            (None, _) => call(
                &mut host,
                "task_claims",
                "claim_next",
                json!({"list_id": list, "lease_seconds": 3600}),
            )
            .map(|o| {
                let task = o.data["task"]["id"].as_str().map(str::to_string);
                match task {
                    Some(task) => {
                        let token = o.data["claim"]["token"].as_str().unwrap_or_default();
                        held[l] = Some((task.clone(), token.to_string()));
                        json!({"a": "claim", "list": list, "task": task})
                    }
                    None => json!({"a": "none", "list": list}),
                }
            }),
            (Some((task, token)), 3..=6) => {
                notes += 1;
                let (task, token) = (task.clone(), token.clone());
                call(&mut host, "task_items", "update", json!({"task_id": task, "notes": format!("N|{agent}|{notes}"), "claim_token": token}))
                    .map(|_| json!({"a": "notes", "task": task, "n": notes}))
            }
            (Some((task, token)), _) => {
                let (task, token) = (task.clone(), token.clone());
                let outcome = format!("O|{agent}|{task}");
                let done = call(
                    &mut host,
                    "task_items",
                    "update",
                    json!({"task_id": task, "status": "done", "outcome": outcome, "claim_token": token}),
                );
                if done.is_ok() {
                    held[l] = None;
                }
                done.map(|_| json!({"a": "done", "task": task, "outcome": outcome}))
            }
        };
        match step {
            Ok(line) => say(line),
            Err(e) => say(json!({"err": format!("{:?}", e.code), "message": e.message})),
        }
    }
}

//! Repeated N-way claim races: several long-lived OS processes
//! (`claim_worker`, each its own wasmtime host and SQLite connection) drain
//! a fresh list together, round after round. Proves, for every round, that
//! no task is handed to two agents and each is claimed exactly once; and
//! afterwards, from the raw database, that every acknowledged close (status
//! `done`, outcome, notes) is stored and the audit log has exactly one
//! `claimed` event by the claimer and one `status_changed` to `done` per
//! task.
//!
//! Bounded (CI): 400 rounds of 8 processes on 16 tasks each.
//! Long: `TASKLISTS_TORTURE=long` runs 10,000 rounds of 16 processes.
//!
//! `cargo test --release -p tasklists-tests --test contract torture_race:: -- --nocapture`

use crate::torture;

use std::collections::{HashMap, HashSet};
use std::time::Instant;
use tasklists_tests::*;
use torture::{LineWorker, pick, raw, rows};

/// Why this file's tests skip themselves on PostgreSQL.
const ON_POSTGRES: &str = "its workers share an SQLite file whatever the store under test: it ran in the SQLite pass (PostgreSQL's claim races: race)";

/// A task as read back raw: status, outcome, notes, claimer.
type StoredTask = (String, Option<String>, Option<String>, Option<String>);

#[test]
fn repeated_claim_races_never_double_claim_or_lose_a_close() {
    let _cores = whole_machine();
    if skip_on_postgres(
        "torture_race::repeated_claim_races_never_double_claim_or_lose_a_close",
        ON_POSTGRES,
    ) {
        return;
    }
    let (rounds, processes, tasks_per_round) = pick(
        "torture_race",
        (200usize, 6usize, 12usize),
        (10_000, 16, 32),
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("race.db");
    // This host creates the lists and also compiles the component into the
    // shared cache, so the workers only load it.
    let mut host = Host::open(config(&path)).unwrap();
    let planner = ctx("planner");
    let exe = env!("CARGO_BIN_EXE_claim_worker");
    let db = path.to_str().unwrap();
    let mut workers: Vec<LineWorker> = (0..processes)
        .map(|i| {
            let agent = format!("racer-{i}");
            LineWorker::spawn(&agent, exe, &[db, &agent])
        })
        .collect();

    // Who closed what, as the workers were told: task id → (agent, round).
    let mut acknowledged: HashMap<String, (String, usize)> = HashMap::new();
    let mut per_agent = vec![0usize; processes];
    let started = Instant::now();
    let mut round_ms: Vec<f64> = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let list = s(
            &host
                .call(
                    "task_lists",
                    "create",
                    &json!({"name": format!("round {round}")}).to_string(),
                    &planner,
                )
                .unwrap()
                .data,
            "/list/id",
        );
        let batch: Vec<Value> = (0..tasks_per_round)
            .map(|i| json!({"title": format!("r{round} t{i}")}))
            .collect();
        let added = host
            .call(
                "task_items",
                "add_many",
                &json!({"list_id": list, "tasks": batch}).to_string(),
                &planner,
            )
            .unwrap();
        let ids: HashSet<String> = strs(&added.data, "/tasks", "id").into_iter().collect();
        assert_eq!(ids.len(), tasks_per_round);

        let t = Instant::now();
        // Every worker gets the command before any answer is read, so they
        // all race on the list at once.
        for w in &mut workers {
            w.send(&format!("round {round} {list}"));
        }
        let mut claimed_by: HashMap<String, Vec<String>> = HashMap::new();
        for (i, w) in workers.iter_mut().enumerate() {
            let reply = w.read();
            assert_eq!(reply["round"], round.to_string(), "{}: {reply}", w.name);
            let errors = reply["errors"].as_array().expect("errors");
            assert!(
                errors.is_empty(),
                "round {round}: {} surfaced errors: {errors:#?}",
                w.name
            );
            for id in reply["claimed"].as_array().expect("claimed") {
                let id = id.as_str().unwrap().to_string();
                claimed_by.entry(id).or_default().push(w.name.clone());
                per_agent[i] += 1;
            }
        }
        round_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        let doubles: Vec<_> = claimed_by.iter().filter(|(_, who)| who.len() > 1).collect();
        assert!(
            doubles.is_empty(),
            "round {round}: tasks claimed twice: {doubles:?}"
        );
        let got: HashSet<String> = claimed_by.keys().cloned().collect();
        assert_eq!(
            got, ids,
            "round {round}: the tasks claimed are not exactly the tasks added"
        );
        for (id, who) in claimed_by {
            acknowledged.insert(id, (who[0].clone(), round));
        }
        if (round + 1) % 1000 == 0 {
            eprintln!(
                "torture_race: {} rounds, {:.0} s",
                round + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    let wall = started.elapsed();
    drop(workers);

    // The raw database: every acknowledged close, exactly as acknowledged.
    let conn = raw(&path);
    let stored: HashMap<String, StoredTask> = rows(
        &conn,
        "SELECT id, status, outcome, notes, claimed_by_agent_id FROM tasks",
    )
    .into_iter()
    .map(|r| {
        (
            r[0].clone().unwrap(),
            (
                r[1].clone().unwrap(),
                r[2].clone(),
                r[3].clone(),
                r[4].clone(),
            ),
        )
    })
    .collect();
    assert_eq!(stored.len(), rounds * tasks_per_round);
    for (id, (agent, round)) in &acknowledged {
        let (status, outcome, notes, claimer) = &stored[id];
        assert_eq!(status, "done", "{id}");
        assert_eq!(
            outcome.as_deref(),
            Some(&*format!("r{round} done by {agent}")),
            "{id}"
        );
        assert_eq!(
            notes.as_deref(),
            Some(&*format!("r{round} notes by {agent}")),
            "{id}"
        );
        assert_eq!(claimer, &None, "{id}: a closed task keeps no claimer");
    }

    // The audit log: one `claimed` event per task, by its claimer, and one
    // status change to `done`, by the same agent.
    let mut claimed_events: HashMap<String, Vec<String>> = HashMap::new();
    let mut done_events: HashMap<String, Vec<String>> = HashMap::new();
    for r in rows(
        &conn,
        "SELECT task_id, agent_id, kind, data FROM events WHERE kind IN ('claimed', 'status_changed')",
    ) {
        let task = r[0].clone().unwrap();
        let agent = r[1].clone().unwrap_or_default();
        if r[2].as_deref() == Some("claimed") {
            claimed_events.entry(task).or_default().push(agent);
        } else {
            let data: Value = serde_json::from_str(r[3].as_deref().unwrap()).unwrap();
            if data["to"] == "done" {
                done_events.entry(task).or_default().push(agent);
            }
        }
    }
    for (id, (agent, _)) in &acknowledged {
        assert_eq!(
            claimed_events.get(id),
            Some(&vec![agent.clone()]),
            "{id}: claimed events"
        );
        assert_eq!(
            done_events.get(id),
            Some(&vec![agent.clone()]),
            "{id}: done events"
        );
    }
    assert_eq!(
        claimed_events.len(),
        acknowledged.len(),
        "claimed events for unknown tasks"
    );
    assert_eq!(
        done_events.len(),
        acknowledged.len(),
        "done events for unknown tasks"
    );

    round_ms.sort_by(f64::total_cmp);
    eprintln!(
        "torture_race: {rounds} rounds x {processes} processes x {tasks_per_round} tasks: \
         {} claims, 0 double, 0 lost; wall {:.1} s; round p50 {:.1} ms, p99 {:.1} ms; claims per process {per_agent:?}",
        acknowledged.len(),
        wall.as_secs_f64(),
        round_ms[round_ms.len() / 2],
        round_ms[(round_ms.len() * 99 / 100).min(round_ms.len() - 1)],
    );
}

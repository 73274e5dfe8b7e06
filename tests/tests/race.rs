//! Several OS processes, each with its own host and store connection, drain
//! one list at once: every task is claimed exactly once, all end done, and
//! nobody sees a `storage` error. On the suite's backend (an SQLite file,
//! or a PostgreSQL database with `TASKLISTS_TEST_STORE=postgres`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tasklists_tests::*;

struct Worker {
    agent: String,
    lines: Vec<Value>,
    status: std::process::ExitStatus,
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

#[test]
fn eight_processes_racing_on_400_tasks_claim_each_exactly_once() {
    race(8, 400);
}

#[test]
fn sixteen_processes_racing_on_1500_tasks_claim_each_exactly_once() {
    race(16, 1500);
}

/// Spawns `processes` workers on one list of `tasks` tasks and checks the
/// outcome from the workers' reports, the tasks and the audit log.
fn race(processes: usize, tasks: usize) {
    let store = FreshStore::new();
    // This host also compiles the component into the shared cache, so the
    // workers only load it.
    let mut host = Host::open(config(store.location.clone())).unwrap();
    let planner = ctx("planner");
    let list = s(
        &host
            .call("task_lists", "create", r#"{"name":"race"}"#, &planner)
            .unwrap()
            .data,
        "/list/id",
    );
    let mut all_ids: HashSet<String> = HashSet::new();
    for chunk in (0..tasks).collect::<Vec<_>>().chunks(500) {
        let batch: Vec<Value> = chunk
            .iter()
            .map(|i| json!({"title": format!("task {i:04}")}))
            .collect();
        let added = host
            .call(
                "task_items",
                "add_many",
                &json!({"list_id": list, "tasks": batch}).to_string(),
                &planner,
            )
            .unwrap();
        all_ids.extend(strs(&added.data, "/tasks", "id"));
    }
    assert_eq!(all_ids.len(), tasks);

    let exe = env!("CARGO_BIN_EXE_race_worker");
    let mut children = Vec::new();
    for i in 0..processes {
        let agent = format!("racer-{i}");
        let mut child = Command::new(exe)
            .args([store.spec.as_str(), list.as_str(), agent.as_str()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn race_worker");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        assert!(
            first.contains("\"ready\":true"),
            "{agent} did not start: {first}"
        );
        children.push((agent, child, stdout));
    }
    // Everyone is ready: start them all at once.
    let started = Instant::now();
    for (_, child, _) in &mut children {
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"go\n").unwrap();
    }
    let readers: Vec<_> = children
        .into_iter()
        .map(|(agent, mut child, stdout)| {
            std::thread::spawn(move || {
                let lines: Vec<Value> = stdout
                    .lines()
                    .map(|l| serde_json::from_str(&l.unwrap()).expect("worker output is JSON"))
                    .collect();
                let status = child.wait().unwrap();
                Worker {
                    agent,
                    lines,
                    status,
                }
            })
        })
        .collect();
    let workers: Vec<Worker> = readers.into_iter().map(|r| r.join().unwrap()).collect();
    let wall = started.elapsed();

    // What the processes report.
    let mut claimed_by: HashMap<String, Vec<String>> = HashMap::new();
    let mut per_process: BTreeMap<String, usize> = BTreeMap::new();
    let mut errors: Vec<String> = Vec::new();
    let mut latencies: Vec<u64> = Vec::new();
    for w in &workers {
        assert!(w.status.success(), "{} exited with {}", w.agent, w.status);
        assert!(
            w.lines.last().is_some_and(|l| l["done"] == true),
            "{} did not finish: {:?}",
            w.agent,
            w.lines.last()
        );
        let mut n = 0;
        for line in &w.lines {
            if let Some(id) = line["claimed"].as_str() {
                latencies.push(line["claim_us"].as_u64().unwrap());
                if line["resumed"] != true {
                    claimed_by
                        .entry(id.to_string())
                        .or_default()
                        .push(w.agent.clone());
                    n += 1;
                }
            }
            if let Some(code) = line["error"].as_str() {
                errors.push(format!(
                    "{}: {code} during {}: {}",
                    w.agent, line["during"], line["message"]
                ));
            }
            if let Some(us) = line["idle_claim_us"].as_u64() {
                latencies.push(us);
            }
        }
        per_process.insert(w.agent.clone(), n);
    }
    let total_claims: usize = claimed_by.values().map(Vec::len).sum();
    let duplicates: Vec<(&String, &Vec<String>)> =
        claimed_by.iter().filter(|(_, who)| who.len() > 1).collect();
    let missing: Vec<&String> = all_ids
        .iter()
        .filter(|id| !claimed_by.contains_key(*id))
        .collect();
    latencies.sort_unstable();
    let storage_errors = errors.iter().filter(|e| e.contains(": storage ")).count();
    eprintln!(
        "race: {processes} processes x {tasks} tasks: {} claims, {} duplicates, {} missing, {} errors ({} storage); \
         wall {:.2} s, {:.0} claims/s; claim_next p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; per process {:?}",
        total_claims,
        duplicates.len(),
        missing.len(),
        errors.len(),
        storage_errors,
        wall.as_secs_f64(),
        tasks as f64 / wall.as_secs_f64(),
        percentile(&latencies, 50.0) as f64 / 1000.0,
        percentile(&latencies, 99.0) as f64 / 1000.0,
        latencies.last().copied().unwrap_or(0) as f64 / 1000.0,
        per_process.values().collect::<Vec<_>>(),
    );
    assert!(errors.is_empty(), "processes surfaced errors: {errors:#?}");
    assert!(
        duplicates.is_empty(),
        "tasks claimed more than once: {duplicates:?}"
    );
    assert!(missing.is_empty(), "tasks never claimed: {missing:?}");
    assert_eq!(total_claims, tasks);
    assert!(claimed_by.keys().all(|id| all_ids.contains(id)));
    assert!(wall < Duration::from_secs(60), "too slow: {wall:?}");

    // What the database says.
    let g = host
        .call(
            "task_lists",
            "get",
            &json!({"list_id": list}).to_string(),
            &planner,
        )
        .unwrap()
        .data;
    assert_eq!(
        g["counts"],
        json!({"todo": 0, "in_progress": 0, "blocked": 0, "done": tasks, "canceled": 0})
    );
    for t in g["tasks"].as_array().unwrap() {
        let id = t["id"].as_str().unwrap();
        let who = &claimed_by[id][0];
        assert_eq!(
            t["outcome"],
            format!("done by {who}"),
            "{id} was closed by its claimer"
        );
        assert!(t.get("claimed_by_agent_id").is_none());
    }
    // The audit log agrees: one claim per task.
    let mut claimed_events = 0;
    let mut cursor: Option<String> = None;
    loop {
        let mut p = json!({"list_id": list, "kinds": "claimed", "limit": 200});
        if let Some(c) = &cursor {
            p["cursor"] = json!(c);
        }
        let d = host
            .call("task_audit", "get", &p.to_string(), &planner)
            .unwrap()
            .data;
        claimed_events += d["events"].as_array().unwrap().len();
        match d["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(claimed_events, tasks);
}

//! Several OS processes, each with its own host and store connection, drain
//! one list at once: every task is claimed exactly once, all end done, and
//! nobody sees a `storage` error; with mixed priorities, the claims come
//! highest priority first, then by position. On the suite's backend (an
//! SQLite file, or a PostgreSQL database with
//! `TASKLISTS_TEST_STORE=postgres`).

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
    let _cores = whole_machine();
    race(8, 400, false);
}

#[test]
fn sixteen_processes_racing_on_1500_tasks_claim_each_exactly_once() {
    let _cores = whole_machine();
    race(16, 1500, false);
}

#[test]
fn sixteen_processes_racing_on_mixed_priorities_claim_highest_first() {
    let _cores = whole_machine();
    race(16, 600, true);
}

/// The priority of task `i` of a mixed race: low, medium, high in turn,
/// so that position order and priority order disagree everywhere.
fn mixed_priority(i: usize) -> &'static str {
    ["low", "medium", "high"][i % 3]
}

/// Spawns `processes` workers on one list of `tasks` tasks (with mixed
/// priorities if `mixed`) and checks the outcome from the workers'
/// reports, the tasks and the audit log.
fn race(processes: usize, tasks: usize, mixed: bool) {
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
            .map(|&i| {
                let mut t = json!({"title": format!("task {i:04}")});
                if mixed {
                    t["priority"] = json!(mixed_priority(i));
                }
                t
            })
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
    let mut claimed_events: Vec<Value> = Vec::new();
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
        claimed_events.extend(d["events"].as_array().unwrap().iter().cloned());
        match d["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    assert_eq!(claimed_events.len(), tasks);
    if mixed {
        let mut tasks_now: Vec<Value> = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut p = json!({"list_id": list, "limit": 500});
            if let Some(c) = &cursor {
                p["cursor"] = json!(c);
            }
            let d = host
                .call("task_lists", "get", &p.to_string(), &planner)
                .unwrap()
                .data;
            tasks_now.extend(d["tasks"].as_array().unwrap().iter().cloned());
            match d["next_cursor"].as_str() {
                Some(c) => cursor = Some(c.to_string()),
                None => break,
            }
        }
        assert_eq!(tasks_now.len(), tasks);
        // On PostgreSQL claims run side by side (the candidate taken `FOR
        // UPDATE SKIP LOCKED`): a claim passes over only tasks the other
        // processes' claims are taking at that moment, at most one each.
        let overtaken = if StoreKind::current().is_postgres() {
            processes - 1
        } else {
            0
        };
        claims_follow_priority_then_position(&tasks_now, claimed_events, overtaken);
    }
}

/// The claims in the order the store made them (the audit log, newest
/// first, read backwards) never hand out a task while one of higher
/// priority, or of the same priority and a lower position, was still
/// unclaimed and not being taken by another claim in flight: every task
/// was ready from the start and none came back. So the `i`-th claim (from
/// 0) is of a task at most `i + overtaken` in (priority, position) order,
/// where `overtaken` is how many other claims can be in flight: every task
/// before it was claimed by an earlier claim (an earlier audit row) or
/// was being taken by one in flight. With none in flight (SQLite's one
/// writer) the claims run in (priority, position) order exactly.
fn claims_follow_priority_then_position(
    tasks: &[Value],
    mut newest_first: Vec<Value>,
    overtaken: usize,
) {
    newest_first.reverse();
    let rank = |p: Option<&str>| match p {
        Some("high") => 0,
        None | Some("medium") => 1,
        Some("low") => 2,
        Some(other) => panic!("unknown priority {other}"),
    };
    let key: HashMap<String, (i64, i64)> = tasks
        .iter()
        .map(|t| {
            (
                t["id"].as_str().unwrap().to_string(),
                (
                    rank(t["priority"].as_str()),
                    t["position"].as_i64().unwrap(),
                ),
            )
        })
        .collect();
    let order: Vec<(i64, i64)> = newest_first
        .iter()
        .map(|e| key[e["task_id"].as_str().unwrap()])
        .collect();
    let by_rank = |r: i64| order.iter().filter(|k| k.0 == r).count();
    assert!(
        by_rank(0) > 0 && by_rank(1) > 0 && by_rank(2) > 0,
        "every priority was raced for"
    );
    let mut sorted = order.clone();
    sorted.sort();
    let place: HashMap<(i64, i64), usize> =
        sorted.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    for (i, key) in order.iter().enumerate() {
        assert!(
            place[key] <= i + overtaken,
            "claim {i} handed out (rank, position) {key:?}, number {} in order, passing over \
             more than the {overtaken} tasks other claims could have been taking",
            place[key]
        );
    }
}

/// On PostgreSQL a write holds only its list's lock (the whole database's
/// key shared, then the list's own): while another writer is inside a
/// transaction on list A, a claim on list B goes through at once, a claim
/// on A waits and is refused past the busy timeout having changed nothing,
/// and a write that covers every list (a list's creation) waits as well.
/// When the writer on A is done, A is claimable again.
#[test]
fn a_writer_holds_up_its_own_list_only() {
    let _cores = whole_machine();
    if !StoreKind::current().is_postgres() {
        return;
    }
    use tasklists_guest::schema::dialect::WriteScope;
    use tasklists_guest::store::{SqlDialect, Value as SqlValue};
    let db = TestDb::with_config(|c| c.with_busy_timeout(Duration::from_millis(300)));
    let a = db.list("planner", "A");
    let b = db.list("planner", "B");
    db.add(&a, &["a1"]);
    db.add(&b, &["b1"]);
    // Another writer on A, mid-transaction, holding what the component's
    // writes to A take (the component's own statement, in its dialect).
    let (sql, id) = SqlDialect::Postgres
        .scoped_lock(WriteScope::List(&a))
        .expect("PostgreSQL narrows the lock");
    assert_eq!(id, vec![SqlValue::Text(a.clone())]);
    let mut writer = pg_connect(&db.store.spec);
    let mut held = writer.transaction().expect("begin");
    held.query(sql.replace("?1", "$1").as_str(), &[&a])
        .expect("the lock of list A");

    // Were it to wait for A's writer, it would be refused as busy.
    let got = db.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": b}),
    );
    assert_eq!(s(&got, "/task/title"), "b1");
    let before = db.snapshot("agent-1", &a);
    let e = db.err(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": a}),
    );
    expect(&e, ErrorCode::Storage, &["nothing was changed"]);
    let e = db.err("planner", "task_lists", "create", json!({"name": "C"}));
    expect(&e, ErrorCode::Storage, &["nothing was changed"]);
    assert_eq!(db.snapshot("agent-1", &a), before);

    held.rollback().expect("end the writer on A");
    let got = db.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": a}),
    );
    assert_eq!(s(&got, "/task/title"), "a1");
    db.list("planner", "C");
}

#[test]
fn a_claim_that_waited_for_its_lists_lock_is_dated_after_the_wait() {
    let _cores = whole_machine();
    if !StoreKind::current().is_postgres() {
        return;
    }
    use tasklists_guest::schema::dialect::WriteScope;
    use tasklists_guest::store::SqlDialect;
    // The server's own clock, as a host on a shared database reads it.
    let db = TestDb::with_config(|mut c| {
        c.clock = None;
        c.with_busy_timeout(Duration::from_secs(10))
    });
    let a = db.list("planner", "A");
    let ids = db.add(&a, &["a1"]);
    let (sql, _) = SqlDialect::Postgres
        .scoped_lock(WriteScope::List(&a))
        .expect("PostgreSQL narrows the lock");
    let spec = db.store.spec.clone();
    let list = a.clone();
    let (locked, wait_locked) = std::sync::mpsc::channel();
    // Another writer holds A's lock for a while, then says when (by the
    // server's clock) it let go.
    let holder = std::thread::spawn(move || {
        let mut writer = pg_connect(&spec);
        let mut held = writer.transaction().expect("begin");
        held.query(sql.replace("?1", "$1").as_str(), &[&list])
            .expect("the lock of list A");
        locked.send(()).unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let row = held
            .query_one(
                "SELECT (extract(epoch from clock_timestamp()) * 1000)::int8",
                &[],
            )
            .expect("the server's clock");
        held.rollback().expect("let go");
        row.get::<_, i64>(0)
    });
    wait_locked.recv().unwrap();
    let got = db.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": a}),
    );
    assert_eq!(s(&got, "/task/title"), "a1");
    let released_at = holder.join().unwrap();
    let mut client = pg_connect(&db.store.spec);
    let started: i64 = client
        .query_one("SELECT started_at FROM tasks WHERE id = $1", &[&ids[0]])
        .expect("the task")
        .get(0);
    // The claim's clock was read before it waited: it must still run on
    // through the wait, so the claim is dated after the lock was free.
    assert!(
        started >= released_at,
        "claimed at {started}, {} ms before the lock it waited for was free at {released_at}",
        released_at - started
    );
}

/// Runs one `mix_worker` per `(agent, mode, n)` on `list`, all started at
/// once; each one's JSON lines, `done` last.
fn mix(db: &TestDb, list: &str, workers: &[(String, &str, usize)]) -> Vec<(String, Vec<Value>)> {
    let exe = env!("CARGO_BIN_EXE_mix_worker");
    let mut children = Vec::new();
    for (agent, mode, n) in workers {
        let mut child = Command::new(exe)
            .args([db.store.spec.as_str(), list, agent, mode, &n.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn mix_worker");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        assert!(first.contains("\"ready\":true"), "{agent}: {first}");
        children.push((agent.clone(), child, stdout));
    }
    for (_, child, _) in &mut children {
        child.stdin.take().unwrap().write_all(b"go\n").unwrap();
    }
    let readers: Vec<_> = children
        .into_iter()
        .map(|(agent, mut child, stdout)| {
            std::thread::spawn(move || {
                let lines: Vec<Value> = stdout
                    .lines()
                    .map(|l| serde_json::from_str(&l.unwrap()).expect("JSON"))
                    .collect();
                assert!(child.wait().unwrap().success(), "{agent} failed");
                assert_eq!(lines.last(), Some(&json!({"done": true})), "{agent}");
                (agent, lines)
            })
        })
        .collect();
    readers.into_iter().map(|r| r.join().unwrap()).collect()
}

/// One held task per agent per list, with 16 processes claiming at once:
/// four agents, four processes each, claim five times each without
/// closing. Every answer an agent gets is the same task (claimed once,
/// then handed back), the four agents hold four different tasks, and the
/// list has exactly four tasks in progress.
#[test]
fn sixteen_processes_of_four_agents_hold_one_task_each() {
    let _cores = whole_machine();
    let db = TestDb::new();
    let list = db.list("planner", "holds");
    let titles: Vec<String> = (0..24).map(|i| format!("t{i}")).collect();
    db.add(
        &list,
        &titles.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let workers: Vec<(String, &str, usize)> = (0..16)
        .map(|i| (format!("twin-{}", i % 4), "hold", 5))
        .collect();
    let mut held: HashMap<String, HashSet<String>> = HashMap::new();
    for (agent, lines) in mix(&db, &list, &workers) {
        for line in &lines[..lines.len() - 1] {
            let task = line["task"]
                .as_str()
                .unwrap_or_else(|| panic!("{agent}: {line}"));
            held.entry(agent.clone())
                .or_default()
                .insert(task.to_string());
        }
    }
    assert_eq!(held.len(), 4);
    for (agent, tasks) in &held {
        assert_eq!(tasks.len(), 1, "{agent} was handed {tasks:?}");
    }
    let distinct: HashSet<&String> = held.values().flatten().collect();
    assert_eq!(distinct.len(), 4, "two agents hold one task: {held:?}");
    let g = db.get("planner", &list);
    assert_eq!(g["counts"]["in_progress"], 4);
    for t in g["tasks"].as_array().unwrap() {
        if t["status"] == "in_progress" {
            let by = t["claimed_by_agent_id"].as_str().unwrap();
            assert!(held[by].contains(t["id"].as_str().unwrap()));
        }
    }
}

/// Positions stay dense (1..n, each once) when processes create tasks at
/// the head and in the middle of a list while others claim and close its
/// tasks; every task handed out is handed out once.
#[test]
fn positions_stay_dense_under_concurrent_creates_and_claims() {
    let _cores = whole_machine();
    let db = TestDb::new();
    let list = db.list("planner", "dense");
    let titles: Vec<String> = (0..40).map(|i| format!("t{i}")).collect();
    db.add(
        &list,
        &titles.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let mut workers: Vec<(String, &str, usize)> = (0..8)
        .map(|i| (format!("maker-{i}"), "create", 6))
        .collect();
    workers.extend((0..8).map(|i| (format!("worker-{i}"), "work", 8)));
    let mut handed: Vec<String> = Vec::new();
    for (agent, lines) in mix(&db, &list, &workers) {
        for line in &lines[..lines.len() - 1] {
            assert!(line.get("error").is_none(), "{agent}: {line}");
            if agent.starts_with("worker") {
                handed.extend(line["task"].as_str().map(str::to_string));
            }
        }
    }
    let unique: HashSet<&String> = handed.iter().collect();
    assert_eq!(unique.len(), handed.len(), "a task was handed out twice");
    let g = db.get("planner", &list);
    let tasks = g["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 40 + 8 * 6);
    let mut positions: Vec<i64> = tasks
        .iter()
        .map(|t| t["position"].as_i64().unwrap())
        .collect();
    positions.sort();
    assert_eq!(positions, (1..=88).collect::<Vec<i64>>());
    assert_eq!(g["counts"]["done"].as_u64().unwrap() as usize, handed.len());
}

/// On PostgreSQL two agents' claims on one list run side by side: while
/// another agent's claim is in flight (its locks: the list's shared, its
/// pair's, the candidate's row), a claim by a second agent goes through at
/// once with the next task, never the one being taken; a claim by the
/// same agent waits for its pair's lock (refused as busy past the busy
/// timeout, having changed nothing), and so does a write that needs the
/// list to itself (a task's creation).
#[test]
fn two_agents_claim_side_by_side_on_one_list() {
    let _cores = whole_machine();
    if !StoreKind::current().is_postgres() {
        return;
    }
    let db = TestDb::with_config(|c| c.with_busy_timeout(Duration::from_millis(300)));
    let list = db.list("planner", "side");
    let ids = db.add(&list, &["first", "second"]);
    let mut other = pg_connect(&db.store.spec);
    let mut inflight = other.transaction().expect("begin");
    claim_in_flight(&mut inflight, &list, "agent-x", &ids[0]);

    let got = db.ok(
        "agent-y",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(
        s(&got, "/task/id"),
        ids[1],
        "the task being taken is passed over"
    );
    let before = db.snapshot("planner", &list);
    let e = db.err(
        "agent-x",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    expect(&e, ErrorCode::Storage, &["nothing was changed"]);
    let e = db.err(
        "planner",
        "task_items",
        "create",
        json!({"list_id": list, "title": "third"}),
    );
    expect(&e, ErrorCode::Storage, &["nothing was changed"]);
    assert_eq!(db.snapshot("planner", &list), before);

    inflight.rollback().expect("agent-x's claim ends");
    let got = db.ok(
        "agent-x",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(s(&got, "/task/id"), ids[0]);
}

/// A change of one task's own fields (closing it, its notes) runs beside
/// a claim in flight on its list, and waits only for a claim taking that
/// very task (its row); a change of anything a claim reads elsewhere (a
/// title here stands for every other field) still waits for the list.
/// PostgreSQL only (SQLite has one writer at a time).
#[test]
fn a_close_runs_beside_claims_and_waits_for_its_own_task_only() {
    let _cores = whole_machine();
    if !StoreKind::current().is_postgres() {
        return;
    }
    let db = TestDb::with_config(|c| c.with_busy_timeout(Duration::from_millis(300)));
    let list = db.list("planner", "side");
    let ids = db.add(&list, &["first", "second", "third"]);
    let got = db.ok(
        "agent-y",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(s(&got, "/task/id"), ids[0]);
    let mut other = pg_connect(&db.store.spec);
    let mut inflight = other.transaction().expect("begin");
    claim_in_flight(&mut inflight, &list, "agent-x", &ids[1]);

    // Beside the claim: agent-y's notes and close of its own task.
    db.ok(
        "agent-y",
        "task_items",
        "update",
        json!({"task_id": ids[0], "notes": "halfway"}),
    );
    let got = db.ok(
        "agent-y",
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "outcome": "did it"}),
    );
    assert_eq!(s(&got, "/task/status"), "done");
    // The task the claim is taking waits for it, and so does a change
    // that is not the task's own; both refused busy, changing nothing.
    let before = db.snapshot("planner", &list);
    let e = db.err(
        "planner",
        "task_items",
        "update",
        json!({"task_id": ids[1], "status": "canceled", "outcome": "not needed"}),
    );
    expect(&e, ErrorCode::Storage, &["nothing was changed"]);
    let e = db.err(
        "planner",
        "task_items",
        "update",
        json!({"task_id": ids[2], "title": "renamed"}),
    );
    expect(&e, ErrorCode::Storage, &["nothing was changed"]);
    assert_eq!(db.snapshot("planner", &list), before);

    inflight.rollback().expect("agent-x's claim ends");
    let got = db.ok(
        "planner",
        "task_items",
        "update",
        json!({"task_id": ids[1], "status": "canceled", "outcome": "not needed"}),
    );
    assert_eq!(s(&got, "/task/status"), "canceled");
}

/// A claim that has taken its task but not yet committed (its COMMIT a
/// round trip away) holds no lock on its list's row: the list's counters
/// and "last changed" follow at its COMMIT (migration 0008, the dialect's
/// `defer_list_row`), so other agents' claims and closes on the list run
/// beside it instead of queueing behind it, and the counters come out
/// right whichever commits first. PostgreSQL only.
#[test]
fn a_claim_in_flight_holds_back_no_other_claim_on_its_list() {
    let _cores = whole_machine();
    if !StoreKind::current().is_postgres() {
        return;
    }
    use tasklists_guest::schema::dialect::WriteScope;
    use tasklists_guest::store::SqlDialect;
    let db = TestDb::with_config(|c| c.with_busy_timeout(Duration::from_millis(300)));
    let list = db.list("planner", "counters");
    let ids = db.add(&list, &["first", "second", "third"]);
    let mut other = pg_connect(&db.store.spec);
    let mut inflight = other.transaction().expect("begin");
    claim_in_flight(&mut inflight, &list, "agent-x", &ids[0]);
    let defer = SqlDialect::Postgres
        .defer_list_row(WriteScope::Claim {
            list: &list,
            agent: "agent-x",
        })
        .expect("PostgreSQL defers the list's row");
    inflight.batch_execute(defer).expect("deferred");
    inflight
        .execute(
            "UPDATE tasks SET status = 'in_progress', claimed_by_agent_id = 'agent-x', \
             updated_at = updated_at + 1 WHERE id = $1",
            &[&ids[0]],
        )
        .expect("agent-x's claim, not committed");

    let got = db.ok(
        "agent-y",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(s(&got, "/task/id"), ids[1], "beside the claim in flight");
    let got = db.ok(
        "agent-y",
        "task_items",
        "update",
        json!({"task_id": ids[1], "status": "done", "outcome": "did it"}),
    );
    assert_eq!(s(&got, "/task/status"), "done");
    inflight.commit().expect("agent-x's claim commits");

    let got = db.ok("planner", "task_lists", "get", json!({"list_id": list}));
    assert_eq!(
        got["counts"],
        json!({"todo": 1, "in_progress": 1, "blocked": 0, "done": 1, "canceled": 0}),
        "{got}"
    );
}

/// Takes, in `inflight`, what a claim of `agent` on `list` holds while it
/// runs: the claim's locks and its candidate `task`'s row.
fn claim_in_flight(inflight: &mut postgres::Transaction<'_>, list: &str, agent: &str, task: &str) {
    use tasklists_guest::schema::dialect::WriteScope;
    use tasklists_guest::store::SqlDialect;
    let (sql, _) = SqlDialect::Postgres
        .scoped_lock(WriteScope::Claim { list, agent })
        .expect("PostgreSQL narrows the lock");
    inflight
        .query(
            sql.replace("?1", "$1").replace("?2", "$2").as_str(),
            &[&list, &agent],
        )
        .expect("the claim locks");
    inflight
        .query("SELECT id FROM tasks WHERE id = $1 FOR UPDATE", &[&task])
        .expect("the claim's candidate");
}

/// The labels of task `i` of the labeled race: backend, frontend, or db
/// and backend, in turn.
fn race_labels(i: usize) -> Value {
    [
        json!(["backend"]),
        json!(["frontend"]),
        json!(["db", "backend"]),
    ][i % 3]
        .clone()
}

#[test]
fn processes_claiming_by_labels_take_only_theirs_each_exactly_once() {
    let _cores = whole_machine();
    let (processes, tasks) = (8, 300);
    let store = FreshStore::new();
    let mut host = Host::open(config(store.location.clone())).unwrap();
    let planner = ctx("planner");
    let list = s(
        &host
            .call(
                "task_lists",
                "create",
                r#"{"name":"labeled race"}"#,
                &planner,
            )
            .unwrap()
            .data,
        "/list/id",
    );
    let batch: Vec<Value> = (0..tasks)
        .map(|i| json!({"title": format!("task {i:04}"), "labels": race_labels(i)}))
        .collect();
    let added = host
        .call(
            "task_items",
            "add_many",
            &json!({"list_id": list, "tasks": batch}).to_string(),
            &planner,
        )
        .unwrap();
    let ids: Vec<String> = strs(&added.data, "/tasks", "id");
    // Half the processes ask for frontend, half for db or backend.
    let asks = |i: usize| {
        if i.is_multiple_of(2) {
            "frontend"
        } else {
            "db,backend"
        }
    };
    let exe = env!("CARGO_BIN_EXE_race_worker");
    let mut children = Vec::new();
    for i in 0..processes {
        let agent = format!("racer-{i}");
        let mut child = Command::new(exe)
            .args([store.spec.as_str(), list.as_str(), agent.as_str(), asks(i)])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn race_worker");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        assert!(first.contains("\"ready\":true"), "{agent}: {first}");
        children.push((i, child, stdout));
    }
    for (_, child, _) in &mut children {
        child.stdin.take().unwrap().write_all(b"go\n").unwrap();
    }
    let mut claimed_by: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, mut child, stdout) in children {
        let lines: Vec<Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(&l.unwrap()).expect("worker output is JSON"))
            .collect();
        assert!(child.wait().unwrap().success(), "racer-{i} failed");
        let last = lines.last().expect("a last line");
        assert_eq!(last["done"], true, "racer-{i}: {last}");
        assert_eq!(last["errors"], 0, "racer-{i}: {lines:?}");
        // Its last claim found nothing carrying its labels; the rest is
        // the other half's, never handed to it.
        assert!(last["waiting"]["without_labels"].is_i64(), "{last}");
        for line in &lines {
            if let Some(id) = line["claimed"].as_str().filter(|_| line["resumed"] != true) {
                claimed_by.entry(id.to_string()).or_default().push(i);
            }
        }
    }
    assert_eq!(claimed_by.len(), tasks, "every task claimed");
    for (n, id) in ids.iter().enumerate() {
        let who = &claimed_by[id];
        assert_eq!(who.len(), 1, "{id} claimed by {who:?}");
        // frontend tasks went to the even processes, the rest to the odd.
        assert_eq!(
            who[0].is_multiple_of(2),
            n % 3 == 1,
            "task {n} went to racer-{}",
            who[0]
        );
    }
    let g = host
        .call(
            "task_lists",
            "get",
            &json!({"list_id": list}).to_string(),
            &planner,
        )
        .unwrap()
        .data;
    assert_eq!(g["counts"]["done"], tasks, "{}", g["counts"]);
}

//! `kill -9` at random moments: writer processes (`kill_worker`) loop over
//! add_many batches, claims, notes and closes on two lists while the test
//! SIGKILLs one of them at a random time (seeded, printed), starts a new
//! one (a fresh agent id, so the dead one's claim stays stranded) and
//! repeats. Afterwards, read raw: `PRAGMA integrity_check` is ok; nothing
//! is half-applied (every add_many batch whole or absent, positions dense
//! 1..n per list, no closed task without an outcome, no in-progress task
//! without claimer, token and lease); every acknowledged write is there;
//! and the stranded claims stay held until their lease expires, then come
//! back through `release_expired` and `claim_next` (a host whose
//! [`ManualClock`] is set past the lease).
//!
//! Bounded (CI): 3 writers, 18 kills. Long: `TASKLISTS_TORTURE=long` runs
//! 4 writers and 120 kills. `TASKLISTS_TORTURE_SEED=<n>` replays a run.
//!
//! `cargo test --release -p tasklists-tests --test contract torture_kill:: -- --nocapture`

use crate::torture;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tasklists_tests::*;
use torture::{Rng, gaps_in_positions, impossible_states, integrity, pick, raw, rows, seed};

/// Why this file's tests skip themselves on PostgreSQL.
const ON_POSTGRES: &str =
    "its workers write an SQLite file whatever the store under test: it ran in the SQLite pass";

/// Every complete line each writer printed, in order, shared with the
/// reader threads.
type Acks = Arc<Mutex<Vec<Value>>>;

struct Writer {
    child: Child,
    reader: JoinHandle<()>,
}

/// Starts a writer and waits until it is ready (so the kill lands while it
/// writes, not while it loads).
fn start(exe: &str, db: &str, agent: &str, seed: u64, lists: &[String], acks: &Acks) -> Writer {
    let mut child = Command::new(exe)
        .args([db, agent, &seed.to_string()])
        .args(lists)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn kill_worker");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.contains("\"ready\":true"), "{agent}: {first}");
    let acks = Arc::clone(acks);
    let agent = agent.to_string();
    let reader = std::thread::spawn(move || {
        let mut line = String::new();
        loop {
            line.clear();
            match stdout.read_line(&mut line) {
                Ok(0) | Err(_) => return,
                // A line cut by the kill was never acknowledged.
                Ok(_) if !line.ends_with('\n') => return,
                Ok(_) => {
                    let mut v: Value = serde_json::from_str(&line).expect("JSON line");
                    v["agent"] = json!(agent);
                    acks.lock().unwrap().push(v);
                }
            }
        }
    });
    Writer { child, reader }
}

/// Kills with SIGKILL (what `Child::kill` sends) and waits for the reader
/// to have every line the writer got out.
fn kill(mut w: Writer) {
    w.child.kill().expect("SIGKILL");
    w.child.wait().unwrap();
    w.reader.join().unwrap();
}

#[test]
fn kill_minus_nine_never_half_applies_or_loses_an_acknowledged_write() {
    let _cores = whole_machine();
    if skip_on_postgres(
        "torture_kill::kill_minus_nine_never_half_applies_or_loses_an_acknowledged_write",
        ON_POSTGRES,
    ) {
        return;
    }
    let (writers, kills) = pick("torture_kill", (3usize, 18usize), (4, 120));
    let seed = seed("torture_kill");
    let mut rng = Rng::new(seed);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kill.db");
    let db = path.to_str().unwrap().to_string();
    let lists: Vec<String> = {
        let t = TestDbOn::new(&path, now_ms());
        vec![t.list("planner", "kill A"), t.list("planner", "kill B")]
    };
    let exe = env!("CARGO_BIN_EXE_kill_worker");
    let acks: Acks = Arc::default();
    let mut generation = 0u64;
    let mut agent = |slot: usize| {
        generation += 1;
        format!("w{slot}-g{generation}")
    };
    let mut live: Vec<Writer> = (0..writers)
        .map(|i| start(exe, &db, &agent(i), rng.next_u64(), &lists, &acks))
        .collect();
    let started = Instant::now();
    for _ in 0..kills {
        std::thread::sleep(Duration::from_millis(rng.range(30, 400)));
        let victim = rng.range(0, writers as u64) as usize;
        let name = agent(victim);
        let fresh = start(exe, &db, &name, rng.next_u64(), &lists, &acks);
        kill(std::mem::replace(&mut live[victim], fresh));
    }
    std::thread::sleep(Duration::from_millis(rng.range(30, 400)));
    for w in live {
        kill(w);
    }
    let wall = started.elapsed();
    let acks = std::mem::take(&mut *acks.lock().unwrap());
    let errors: Vec<&Value> = acks.iter().filter(|a| a.get("err").is_some()).collect();
    assert!(errors.is_empty(), "writers surfaced errors: {errors:#?}");
    let count = |kind: &str| acks.iter().filter(|a| a["a"] == kind).count();
    eprintln!(
        "torture_kill: {} kills of {writers} writers in {:.1} s; acknowledged: {} add_many, {} claims, {} notes, {} done",
        kills + writers,
        wall.as_secs_f64(),
        count("add"),
        count("claim"),
        count("notes"),
        count("done"),
    );
    assert!(
        count("add") > 0 && count("claim") > 0 && count("done") > 0,
        "the writers wrote too little to prove anything"
    );

    // Sound and nothing half-applied.
    assert_eq!(integrity(&path), "ok");
    let conn = raw(&path);
    let gaps = gaps_in_positions(&conn);
    assert!(gaps.is_empty(), "positions not dense: {gaps:?}");
    let odd = impossible_states(&conn);
    assert!(odd.is_empty(), "tasks in impossible states: {odd:?}");
    let tasks: HashMap<String, Vec<Option<String>>> = rows(
        &conn,
        "SELECT id, list_id, title, status, claimed_by_agent_id, notes, outcome FROM tasks",
    )
    .into_iter()
    .map(|r| (r[0].clone().unwrap(), r))
    .collect();
    let mut batches: BTreeMap<String, (usize, HashSet<usize>)> = BTreeMap::new();
    for t in tasks.values() {
        let title = t[2].as_deref().unwrap();
        let parts: Vec<&str> = title.split('|').collect();
        let [_, batch, i, k] = parts.as_slice() else {
            panic!("unexpected title {title:?}");
        };
        let entry = batches
            .entry(batch.to_string())
            .or_insert((k.parse().unwrap(), HashSet::new()));
        assert!(entry.1.insert(i.parse().unwrap()), "{title} stored twice");
    }
    for (batch, (k, got)) in &batches {
        assert_eq!(got, &(1..=*k).collect(), "batch {batch} is half-applied");
    }

    // Every acknowledged write is there.
    let claimed_events: HashSet<(String, String)> = rows(
        &conn,
        "SELECT task_id, agent_id FROM events WHERE kind = 'claimed'",
    )
    .into_iter()
    .map(|r| (r[0].clone().unwrap(), r[1].clone().unwrap()))
    .collect();
    let mut last_notes: HashMap<&str, u64> = HashMap::new();
    for a in &acks {
        let agent = a["agent"].as_str().unwrap();
        let task = a["task"].as_str().unwrap_or_default();
        match a["a"].as_str().unwrap() {
            "add" => {
                let ids: Vec<&str> = a["ids"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i.as_str().unwrap())
                    .collect();
                assert_eq!(ids.len() as u64, a["k"].as_u64().unwrap());
                for (i, id) in ids.iter().enumerate() {
                    let t = tasks
                        .get(*id)
                        .unwrap_or_else(|| panic!("acknowledged task {id} lost"));
                    assert_eq!(t[1].as_deref(), a["list"].as_str());
                    assert_eq!(
                        t[2].as_deref().unwrap(),
                        format!("B|{}|{}|{}", s(a, "/batch"), i + 1, a["k"])
                    );
                }
            }
            "claim" => {
                assert!(
                    claimed_events.contains(&(task.to_string(), agent.to_string())),
                    "acknowledged claim of {task} by {agent} has no claimed event"
                );
                let t = &tasks[task];
                let still_held =
                    t[3].as_deref() == Some("in_progress") && t[4].as_deref() == Some(agent);
                let closed_by_it = t[3].as_deref() == Some("done")
                    && t[6].as_deref() == Some(&*format!("O|{agent}|{task}"));
                assert!(
                    still_held || closed_by_it,
                    "{agent}'s claim of {task} lost: {t:?}"
                );
            }
            "notes" => {
                last_notes.insert(task, a["n"].as_u64().unwrap());
            }
            "done" => {
                let t = &tasks[task];
                assert_eq!(
                    t[3].as_deref(),
                    Some("done"),
                    "acknowledged done of {task} lost"
                );
                assert_eq!(t[6].as_deref(), a["outcome"].as_str());
            }
            "none" => {}
            other => panic!("unknown line {other}: {a}"),
        }
    }
    for (task, n) in &last_notes {
        // Only the claimer writes notes, with a growing counter: what is
        // stored is the last acknowledged one or a later one whose
        // acknowledgement the kill cut off.
        let stored = tasks[*task][5].as_deref().unwrap_or_default();
        let stored_n: u64 = stored.rsplit('|').next().unwrap().parse().unwrap();
        assert!(
            stored_n >= *n,
            "{task}: notes {stored:?} older than acknowledged {n}"
        );
    }

    // Stranded claims: held until their lease (3600 s) runs out, then back.
    let stranded: HashSet<String> = tasks
        .values()
        .filter(|t| t[3].as_deref() == Some("in_progress"))
        .map(|t| t[0].clone().unwrap())
        .collect();
    drop(conn);
    eprintln!(
        "torture_kill: {} claims stranded by the kills",
        stranded.len()
    );
    let now = TestDbOn::new(&path, now_ms());
    assert_eq!(
        now.ok("rescuer", "task_claims", "release_expired", json!({}))["released"],
        json!([])
    );
    for list in &lists {
        let c = now.claim_lease("rescuer", list, 60);
        if let Some(id) = c["task"]["id"].as_str() {
            assert!(
                !stranded.contains(id),
                "{id} handed out while its lease runs"
            );
            // Hand it back, so the later drain sees only the stranded ones come back.
            now.update("rescuer", json!({"task_id": id, "status": "todo"}));
        }
    }
    drop(now);
    let later = TestDbOn::new(&path, now_ms() + 3601 * 1000);
    // A call releases a bounded number of claims: repeat until none is left.
    let mut released: HashSet<String> = HashSet::new();
    loop {
        let r = later.ok("rescuer", "task_claims", "release_expired", json!({}));
        let batch = r["released"].as_array().unwrap();
        if batch.is_empty() {
            break;
        }
        for id in batch {
            assert!(
                released.insert(id.as_str().unwrap().to_string()),
                "{id} released twice"
            );
        }
    }
    assert_eq!(
        released, stranded,
        "release_expired returns exactly the stranded claims"
    );
    // Everything left can be claimed and closed: nothing is stuck.
    let mut drained = HashSet::new();
    for list in &lists {
        loop {
            let c = later.claim_lease("rescuer", list, 60);
            let Some(id) = c["task"]["id"].as_str() else {
                break;
            };
            assert!(drained.insert(id.to_string()), "{id} handed out twice");
            later.update(
                "rescuer",
                json!({"task_id": id, "status": "done", "outcome": "rescued"}),
            );
        }
    }
    assert!(
        stranded.is_subset(&drained),
        "stranded claims that never came back"
    );
    let conn = raw(&path);
    let open = rows(&conn, "SELECT id FROM tasks WHERE status <> 'done'");
    assert!(open.is_empty(), "tasks left open: {open:?}");
    assert_eq!(integrity(&path), "ok");
}

/// The wall clock in ms, the time the writers' system clock reads.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A host on an existing file with a [`ManualClock`] at `now_ms`, and the
/// few calls this test makes.
struct TestDbOn {
    host: std::cell::RefCell<Host>,
}

impl TestDbOn {
    fn new(path: &std::path::Path, now_ms: i64) -> Self {
        let clock = ManualClock::new(now_ms);
        let host = Host::open(config(path).with_clock(clock.shared())).expect("open host");
        TestDbOn {
            host: std::cell::RefCell::new(host),
        }
    }

    #[track_caller]
    fn ok(&self, agent: &str, tool: &str, action: &str, params: Value) -> Value {
        match self
            .host
            .borrow_mut()
            .call(tool, action, &params.to_string(), &ctx(agent))
        {
            Ok(out) => out.data.into_value(),
            Err(e) => panic!(
                "{tool} {action} {params}: {:?} {} ({})",
                e.code, e.message, e.hint
            ),
        }
    }

    fn list(&self, agent: &str, name: &str) -> String {
        s(
            &self.ok(agent, "task_lists", "create", json!({"name": name})),
            "/list/id",
        )
    }

    fn claim_lease(&self, agent: &str, list: &str, secs: i64) -> Value {
        self.ok(
            agent,
            "task_claims",
            "claim_next",
            json!({"list_id": list, "lease_seconds": secs}),
        )
    }

    fn update(&self, agent: &str, params: Value) -> Value {
        self.ok(agent, "task_items", "update", params)
    }
}

//! Benchmark: one agent's claim → done cycle through the component, against
//! a baseline of the same work in plain rusqlite (same schema, same file
//! settings, the same statements a minimal claim needs), in one run:
//! `cargo run --release -p tasklists-host --example claim_cycle [tasks]`.
//!
//! The ratio is what the sandbox, validation, audit log and JSON cost on top
//! of the bare SQL.

use rusqlite::{Connection, params};
use std::time::{Duration, Instant};
use tasklists_host::{CallContext, Host, HostConfig};

/// The guest's schema, so the baseline runs on the same tables and indexes.
const SCHEMA: [&str; 2] = [
    include_str!("../../guest/src/schema/migrations/0001_init.sql"),
    include_str!("../../guest/src/schema/migrations/0002_ready_index.sql"),
];

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let dir = tempfile::tempdir().expect("temp dir");
    let component = component_cycle(&dir.path().join("component.db"), n);
    let baseline = baseline_cycle(&dir.path().join("baseline.db"), n);
    let per = |d: Duration| d.as_secs_f64() * 1e6 / n as f64;
    println!("claim_next + update done, {n} tasks, one agent");
    println!(
        "  baseline (plain rusqlite): {:>8.1} µs per cycle",
        per(baseline)
    );
    println!(
        "  component (wasmtime):      {:>8.1} µs per cycle",
        per(component)
    );
    println!(
        "  ratio component/baseline:  {:>8.2}x",
        component.as_secs_f64() / baseline.as_secs_f64()
    );
}

fn component_cycle(path: &std::path::Path, n: usize) -> Duration {
    let mut host = Host::open(HostConfig::new(path)).expect("host opens");
    let ctx = CallContext::agent("bench");
    let list = host
        .call("task_lists", "create", r#"{"name":"bench"}"#, &ctx)
        .expect("list")
        .data["list"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    for chunk in (0..n).collect::<Vec<_>>().chunks(500) {
        let tasks: Vec<String> = chunk
            .iter()
            .map(|i| format!(r#"{{"title":"task {i}"}}"#))
            .collect();
        let params = format!(r#"{{"list_id":"{list}","tasks":[{}]}}"#, tasks.join(","));
        host.call("task_items", "add_many", &params, &ctx)
            .expect("tasks added");
    }
    let claim = format!(r#"{{"list_id":"{list}"}}"#);
    let started = Instant::now();
    for _ in 0..n {
        let out = host
            .call("task_claims", "claim_next", &claim, &ctx)
            .expect("claimed");
        let id = out.data["task"]["id"].as_str().expect("a task").to_string();
        let done = format!(r#"{{"task_id":"{id}","status":"done","outcome":"ok"}}"#);
        host.call("task_items", "update", &done, &ctx)
            .expect("done");
    }
    started.elapsed()
}

fn baseline_cycle(path: &std::path::Path, n: usize) -> Duration {
    let conn = Connection::open(path).expect("open");
    conn.execute_batch(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
    )
    .expect("pragmas");
    for sql in SCHEMA {
        conn.execute_batch(sql).expect("schema");
    }
    conn.execute(
        "INSERT INTO lists (id, name, name_fold, scope_type, visibility, created_by_agent_id, created_at, updated_at) \
         VALUES ('l', 'bench', 'bench', 'custom', 'shared', 'bench', 0, 0)",
        [],
    )
    .expect("list");
    let tx = conn.unchecked_transaction().expect("tx");
    for i in 0..n {
        tx.execute(
            "INSERT INTO tasks (id, list_id, position, title, status, created_at, updated_at) \
             VALUES (?, 'l', ?, ?, 'todo', 0, 0)",
            params![format!("t{i:06}"), i as i64 + 1, format!("task {i}")],
        )
        .expect("task");
    }
    tx.commit().expect("commit");
    let now = 1_000i64;
    let started = Instant::now();
    for i in 0..n {
        conn.execute_batch("BEGIN IMMEDIATE").expect("begin");
        let id: String = conn
            .prepare_cached(
                "SELECT t.id FROM tasks t WHERE t.list_id = 'l' AND t.deleted_at IS NULL AND t.status IN ('todo', 'in_progress') AND t.status = 'todo' \
                 AND NOT EXISTS (SELECT 1 FROM task_deps d JOIN tasks u ON u.id = d.depends_on_id \
                 WHERE d.task_id = t.id AND u.status NOT IN ('done', 'canceled')) ORDER BY t.position LIMIT 1",
            )
            .and_then(|mut s| s.query_row([], |r| r.get(0)))
            .expect("candidate");
        conn.prepare_cached(
            "UPDATE tasks SET status = 'in_progress', claimed_by_agent_id = 'bench', claim_expires_at = ?, \
             started_at = ? WHERE id = ? AND status = 'todo'",
        )
        .and_then(|mut s| s.execute(params![now + 900_000, now, id]))
        .expect("claim");
        event(&conn, i * 2, "claimed", &id);
        conn.execute_batch("COMMIT").expect("commit");

        conn.execute_batch("BEGIN IMMEDIATE").expect("begin");
        conn.prepare_cached(
            "UPDATE tasks SET status = 'done', outcome = 'ok', claimed_by_agent_id = NULL, \
             claim_expires_at = NULL, completed_at = ? WHERE id = ?",
        )
        .and_then(|mut s| s.execute(params![now, id]))
        .expect("done");
        event(&conn, i * 2 + 1, "status_changed", &id);
        conn.execute_batch("COMMIT").expect("commit");
    }
    started.elapsed()
}

fn event(conn: &Connection, seq: usize, kind: &str, task: &str) {
    conn.prepare_cached(
        "INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) VALUES (?, 0, 'bench', ?, 'l', ?, '{}')",
    )
    .and_then(|mut s| s.execute(params![format!("e{seq}"), kind, task]))
    .expect("event");
}

//! One raw-SQLite agent process of the `processes` benchmark
//! (`cargo bench -p tasklists-tests --bench processes`): the baseline the
//! component's `race_worker` is compared with, process for process.
//!
//! Usage: `raw_claim_worker <db-path> <list-id> <agent-id>`
//!
//! The connection is opened by the store's own `open` (same PRAGMAs, busy
//! handler and timeout as the component's; the heap's top kept, as the
//! wasmtime host keeps it), on a database the component
//! created, so schema and indexes are the same. Each cycle is the minimal
//! transaction that keeps the contract: `BEGIN IMMEDIATE`, one conditional
//! `UPDATE … WHERE id = (first ready task by position) RETURNING`, one audit
//! `INSERT`, `COMMIT`; then the close: `BEGIN IMMEDIATE`, one `UPDATE`, one
//! `INSERT`, `COMMIT`.
//!
//! Protocol as `race_worker`: `{"ready":true}`, wait for a stdin line, one
//! line per claim (`claimed`, `claim_us`, `update_us`, plus `claim_wait_us`
//! and `update_wait_us`: the time spent in `BEGIN IMMEDIATE`, i.e. waiting
//! for the write lock), and a final `{"done":true, "claims": n, …}`.

use rusqlite::{Connection, OptionalExtension, params};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tasklists_store::Deadline;
use tasklists_store::limits::DEFAULT_BUSY_TIMEOUT;
use tasklists_tests::json;

/// The claim: the first ready task of the list (todo, not deleted, no
/// unfinished dependency), taken only if it is still todo.
const CLAIM: &str = "UPDATE tasks SET status = 'in_progress', claimed_by_agent_id = ?1, claim_token = ?2, \
     claim_expires_at = ?3 + 900000, lease_ms = 900000, started_at = ?3, updated_at = ?3 \
     WHERE status = 'todo' AND id = (SELECT t.id FROM tasks t WHERE t.list_id = ?4 AND t.deleted_at IS NULL \
     AND t.status IN ('todo', 'in_progress') AND t.status = 'todo' AND NOT EXISTS (SELECT 1 FROM task_deps d \
     JOIN tasks u ON u.id = d.depends_on_id WHERE d.task_id = t.id AND u.status NOT IN ('done', 'canceled')) \
     ORDER BY t.position LIMIT 1) RETURNING id";

/// The close: done with an outcome, only by the claim's holder.
const CLOSE: &str = "UPDATE tasks SET status = 'done', outcome = ?1, claimed_by_agent_id = NULL, claim_token = NULL, \
     claim_expires_at = NULL, completed_at = ?2, updated_at = ?2 WHERE id = ?3 AND claim_token = ?4";

/// One audit event per state change.
const EVENT: &str = "INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, db, list, agent] = args.as_slice() else {
        eprintln!("usage: raw_claim_worker <db-path> <list-id> <agent-id>");
        std::process::exit(2);
    };
    // The allocator as the component's process sets it (the wasmtime host
    // keeps the heap's top), so the two differ only in what they run.
    tasklists_store::sqlite::keep_heap_top();
    let conn = match tasklists_store::sqlite::open(
        std::path::Path::new(db),
        DEFAULT_BUSY_TIMEOUT,
        &Deadline::new(),
    ) {
        Ok(conn) => conn,
        Err(e) => {
            println!(
                "{}",
                json!({"error": "host", "during": "open", "message": e.to_string()})
            );
            std::process::exit(1);
        }
    };
    println!("{}", json!({"ready": true}));
    std::io::stdout().flush().ok();
    let mut go = String::new();
    std::io::stdin().lock().read_line(&mut go).ok();

    let mut out = std::io::stdout().lock();
    let (mut claims, mut errors, mut seq) = (0u32, 0u32, 0u64);
    loop {
        let started = Instant::now();
        let claimed = claim(&conn, list, agent, &mut seq);
        let claim_us = micros(started.elapsed());
        let (id, token, claim_wait) = match claimed {
            Ok(Some(c)) => c,
            Ok(None) => {
                writeln!(out, "{}", json!({"done": true, "claims": claims, "errors": errors, "idle_claim_us": claim_us})).ok();
                break;
            }
            Err(e) => {
                errors += 1;
                writeln!(
                    out,
                    "{}",
                    json!({"error": "storage", "during": "claim_next", "message": e.to_string()})
                )
                .ok();
                if errors > 50 {
                    break;
                }
                continue;
            }
        };
        let started = Instant::now();
        let closed = close(&conn, list, agent, &id, &token, &mut seq);
        let update_us = micros(started.elapsed());
        match closed {
            Ok(update_wait) => {
                claims += 1;
                writeln!(out, "{}", json!({"claimed": id, "claim_us": claim_us, "update_us": update_us, "claim_wait_us": micros(claim_wait), "update_wait_us": micros(update_wait)})).ok();
            }
            Err(e) => {
                errors += 1;
                writeln!(out, "{}", json!({"claimed": id, "claim_us": claim_us})).ok();
                writeln!(out, "{}", json!({"error": "storage", "during": "update", "task": id, "message": e.to_string()})).ok();
                if errors > 50 {
                    break;
                }
            }
        }
    }
    out.flush().ok();
}

/// One claim transaction: the claimed task, its token and the lock wait.
fn claim(
    conn: &Connection,
    list: &str,
    agent: &str,
    seq: &mut u64,
) -> rusqlite::Result<Option<(String, String, Duration)>> {
    let wait = begin(conn)?;
    let now = now_ms();
    let token = format!("{agent}-{}", *seq);
    let result = (|| {
        let id: Option<String> = conn
            .prepare_cached(CLAIM)?
            .query_row(params![agent, token, now, list], |r| r.get(0))
            .optional()?;
        if let Some(id) = &id {
            event(conn, seq, agent, "claimed", list, id, now)?;
        }
        Ok(id)
    })();
    finish(conn, result).map(|id| id.map(|id| (id, token, wait)))
}

/// One close transaction; returns the lock wait.
fn close(
    conn: &Connection,
    list: &str,
    agent: &str,
    id: &str,
    token: &str,
    seq: &mut u64,
) -> rusqlite::Result<Duration> {
    let wait = begin(conn)?;
    let now = now_ms();
    let result = (|| {
        let changed = conn.prepare_cached(CLOSE)?.execute(params![
            format!("done by {agent}"),
            now,
            id,
            token
        ])?;
        if changed != 1 {
            return Err(rusqlite::Error::QueryReturnedNoRows);
        }
        event(conn, seq, agent, "status_changed", list, id, now)
    })();
    finish(conn, result).map(|()| wait)
}

/// `BEGIN IMMEDIATE`, timed: how long this process waited for the lock.
fn begin(conn: &Connection) -> rusqlite::Result<Duration> {
    let started = Instant::now();
    conn.execute_batch("BEGIN IMMEDIATE")?;
    Ok(started.elapsed())
}

/// Commits on success, rolls back on failure.
fn finish<T>(conn: &Connection, result: rusqlite::Result<T>) -> rusqlite::Result<T> {
    match result {
        Ok(v) => conn.execute_batch("COMMIT").map(|()| v),
        Err(e) => {
            conn.execute_batch("ROLLBACK").ok();
            Err(e)
        }
    }
}

fn event(
    conn: &Connection,
    seq: &mut u64,
    agent: &str,
    kind: &str,
    list: &str,
    task: &str,
    now: i64,
) -> rusqlite::Result<()> {
    *seq += 1;
    // Unique across processes: the agent id is.
    let id = format!("ev-{agent}-{seq}");
    let data = format!(r#"{{"task_id":"{task}"}}"#);
    conn.prepare_cached(EVENT)?
        .execute(params![id, now, agent, kind, list, task, data])?;
    Ok(())
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn micros(d: Duration) -> u64 {
    d.as_micros() as u64
}

//! One raw-PostgreSQL agent process of the `network` benchmark
//! (`cargo bench -p tasklists-tests --bench network`): the job-queue
//! baseline the component's `race_worker` is compared with, process for
//! process, on the same server, schema and latency proxy.
//!
//! Usage: `raw_pg_claim_worker <url> <list-id>[,<list-id>…] <agent-id>`
//!
//! Each cycle is what a job queue on PostgreSQL does (River, Oban,
//! graphile-worker, pg-boss): the claim and its audit row in one
//! data-modifying statement whose candidate is taken `FOR UPDATE SKIP
//! LOCKED` (autocommit: one round trip), then the close and its audit row
//! in one more. The lists are drained one after the other.
//!
//! Protocol as `race_worker`: `{"ready":true}`, wait for a stdin line, one
//! line per claim (`claimed`, `claim_us`, `update_us`), and a final
//! `{"done":true, "claims": n, …}`.

use std::io::{BufRead, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};
use tasklists_tests::{json, pg_connect};

/// The claim: the first ready task of the list (todo, not deleted, no
/// unfinished dependency, not awaiting approval, assigned to none or the
/// caller), skipping rows another claim holds locked, and its audit event.
const CLAIM: &str = "WITH c AS (UPDATE tasks SET status = 'in_progress', claimed_by_agent_id = $1, claim_token = $2, \
     claim_expires_at = $3::int8 + 900000, lease_ms = 900000, started_at = $3::int8, updated_at = $3::int8 \
     WHERE id = (SELECT t.id FROM tasks t WHERE t.list_id = $4 AND t.deleted_at IS NULL \
     AND t.status IN ('todo', 'in_progress') AND t.status = 'todo' AND t.awaits_approval = 0 \
     AND (t.assigned_to_agent_id IS NULL OR t.assigned_to_agent_id = $1) \
     AND NOT EXISTS (SELECT 1 FROM task_deps d JOIN tasks u ON u.id = d.depends_on_id \
     WHERE d.task_id = t.id AND u.deleted_at IS NULL AND u.status NOT IN ('done', 'canceled')) \
     ORDER BY t.priority, t.position LIMIT 1 FOR UPDATE SKIP LOCKED) AND status = 'todo' RETURNING id, list_id) \
     INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) \
     SELECT $5, $3::int8, $1, 'claimed', list_id, id, '{\"lease_seconds\":900}' FROM c RETURNING task_id";

/// The close: done with an outcome, only by the claim's holder, and its
/// audit event.
const CLOSE: &str = "WITH u AS (UPDATE tasks SET status = 'done', outcome = $1, claimed_by_agent_id = NULL, claim_token = NULL, \
     claim_expires_at = NULL, completed_at = $2, updated_at = $2 WHERE id = $3 AND claim_token = $4 RETURNING id, list_id) \
     INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) \
     SELECT $5, $2, $6, 'status_changed', list_id, id, '{\"status\":\"done\"}' FROM u";

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, lists, agent] = args.as_slice() else {
        eprintln!("usage: raw_pg_claim_worker <url> <list-id>[,<list-id>…] <agent-id>");
        std::process::exit(2);
    };
    let mut conn = pg_connect(url);
    let claim = conn.prepare(CLAIM).expect("prepare the claim");
    let close = conn.prepare(CLOSE).expect("prepare the close");
    println!("{}", json!({"ready": true}));
    std::io::stdout().flush().ok();
    let mut go = String::new();
    std::io::stdin().lock().read_line(&mut go).ok();

    let mut out = std::io::stdout().lock();
    let (mut claims, mut n) = (0u32, 0u64);
    let pid = std::process::id();
    let mut unique = || {
        n += 1;
        format!("{pid}_{agent}_{n}")
    };
    for list in lists.split(',') {
        loop {
            let token = format!("clm_{}", unique());
            let started = Instant::now();
            let row = conn
                .query_opt(
                    &claim,
                    &[
                        agent,
                        &token,
                        &now_ms(),
                        &list,
                        &format!("evt_{}", unique()),
                    ],
                )
                .expect("claim");
            let claim_us = started.elapsed().as_micros() as u64;
            let Some(row) = row else {
                break;
            };
            let id: String = row.get(0);
            let started = Instant::now();
            let closed = conn
                .execute(
                    &close,
                    &[
                        &format!("done by {agent}"),
                        &now_ms(),
                        &id,
                        &token,
                        &format!("evt_{}", unique()),
                        agent,
                    ],
                )
                .expect("close");
            assert_eq!(closed, 1, "the holder closes its task");
            let update_us = started.elapsed().as_micros() as u64;
            claims += 1;
            writeln!(out, "{}", json!({"claimed": id, "resumed": false, "claim_us": claim_us, "update_us": update_us})).ok();
        }
    }
    writeln!(
        out,
        "{}",
        json!({"done": true, "claims": claims, "errors": 0})
    )
    .ok();
    out.flush().ok();
}

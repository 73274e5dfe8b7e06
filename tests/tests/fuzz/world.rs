//! The seeded database every fuzz case starts from, the cheap snapshot
//! that proves a failed call changed nothing, and the invariants a
//! successful call must keep.
//!
//! The seed is built once per test through the real tools, then copied
//! file by file for each case (a fresh host on the copy), so every case
//! sees the same lists, tasks, dependencies and claims with the same ids.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;
use tasklists_tests::*;

/// The owner of every seeded list.
pub const OWNER: &str = "owner";
/// Holds the seeded claim in the main list.
pub const A: &str = "builder-1";
/// Paused a task in the main list (it stays assigned to B).
pub const B: &str = "builder-2";
/// The one person who decides in the seed: no decision or person's
/// event after it names anyone else (the fuzzed calls are tools only,
/// some with a person in their context, which tools must ignore).
pub const SEED_PERSON: &str = "seed-person";

/// The seeded database (closed, so it can be copied) and its ids.
pub struct Seed {
    /// Keeps the seed file alive for the whole test.
    _dir: FreshStore,
    /// The closed seed file.
    pub path: PathBuf,
    /// The clock at the end of seeding: each case starts there.
    pub now_ms: i64,
    /// main, other, private (of OWNER), deleted; then two plans that
    /// require approval: `gated` (pending) and `approved` (by
    /// [`SEED_PERSON`]).
    pub lists: Vec<String>,
    /// main: held by A, done, blocked by B, free, depends on held, deleted;
    /// then other's two tasks (the second depends on the first); then
    /// gated's two tasks, approved's approved task and its `late` one
    /// (added after the approval: it awaits its own); then called's task
    /// waiting for an answer and its task waiting for review.
    pub tasks: Vec<String>,
    /// The plan awaiting approval.
    pub gated: String,
    /// A's claim token on `tasks[0]`.
    pub token: String,
    /// Every id the generators may pick: the real ones above, plus
    /// well-formed ids of nothing and malformed ones.
    pub ids: Vec<String>,
}

impl Seed {
    /// Builds the seed through the tools: two shared lists, a private and
    /// a deleted one; tasks in every status, a dependency, a live claim.
    pub fn build() -> Seed {
        let db = TestDb::sqlite();
        let main = db.list(OWNER, "Main");
        let other = db.list(OWNER, "Other");
        let private = db.private_list(OWNER, "Private");
        let deleted = db.list(OWNER, "Gone");
        db.add(&deleted, &["gone-1"]);
        db.ok(OWNER, "task_lists", "delete", json!({"list_id": deleted}));
        db.ok(
            OWNER,
            "task_items",
            "create",
            json!({"list_id": private, "title": "secret", "notes": "private notes"}),
        );
        let d = db.ok(
            OWNER,
            "task_items",
            "add_many",
            json!({"list_id": main, "tasks": [
                {"ref": "held", "title": "held by A", "notes": "A's memory"},
                {"title": "to finish", "description": "finish me"},
                {"title": "to block"},
                {"title": "free", "assigned_to_agent_id": A},
                {"title": "after held", "depends_on": ["held"]},
                {"title": "to delete"},
            ]}),
        );
        let mut tasks = strs(&d, "/tasks", "id");
        let c = db.claim_lease(A, &main, 600);
        let token = s(&c, "/claim/token");
        db.update(
            OWNER,
            json!({"task_id": tasks[1], "status": "done", "outcome": "finished"}),
        );
        db.update(B, json!({"task_id": tasks[2], "status": "blocked"}));
        db.ok(OWNER, "task_items", "delete", json!({"task_id": tasks[5]}));
        let d = db.ok(
            OWNER,
            "task_items",
            "add_many",
            json!({"list_id": other, "tasks": [
                {"ref": "first", "title": "other first"},
                {"title": "other second", "depends_on": ["first"]},
            ]}),
        );
        tasks.extend(strs(&d, "/tasks", "id"));
        // Two plans: one awaiting approval, one a person approved before
        // a task was added to it.
        let plan = |name: &str| {
            s(
                &db.ok(
                    OWNER,
                    "task_lists",
                    "create",
                    json!({"name": name, "requires_approval": true}),
                ),
                "/list/id",
            )
        };
        let gated = plan("Gated");
        tasks.extend(db.add(&gated, &["gated first", "gated second"]));
        let approved = plan("Approved");
        tasks.extend(db.add(&approved, &["approved first"]));
        db.person_ok(
            &person_ctx(OWNER, Some(SEED_PERSON)),
            "approve",
            &approved,
            json!(null),
        );
        tasks.extend(db.add(&approved, &["late"]));
        // The person called: a task whose agent asked a question, and one
        // its agent finished that waits for review.
        let called = s(
            &db.ok(
                OWNER,
                "task_lists",
                "create",
                json!({"name": "Called", "requires_review": true}),
            ),
            "/list/id",
        );
        let waiting = db.add(&called, &["asked", "in review"]);
        db.claim(A, &called);
        db.update(A, json!({"task_id": waiting[0], "question": "which way?"}));
        db.claim(B, &called);
        db.update(
            B,
            json!({"task_id": waiting[1], "status": "done", "outcome": "finished, to review"}),
        );
        tasks.extend(waiting);
        db.advance(5);
        let now_ms = db.clock.now_ms();
        let (dir, path, _) = db.close();
        let lists = vec![
            main,
            other,
            private,
            deleted,
            gated.clone(),
            approved,
            called,
        ];
        let mut ids: Vec<String> = lists.iter().chain(&tasks).cloned().collect();
        ids.push(token.clone());
        ids.extend(
            [
                // Well-formed ids of nothing.
                "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
                "task_01JDQ50000000000000000000A",
                // Malformed and look-alike ids.
                "list_",
                "task_",
                "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7",
                "task_01jdq50000000000000000000a",
                "LIST_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
                "claim_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
                "evt_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
                "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B' OR '1'='1",
                "task_%",
                "*",
                "",
            ]
            .map(String::from),
        );
        Seed {
            _dir: dir,
            path,
            now_ms,
            lists,
            tasks,
            gated,
            token,
            ids,
        }
    }

    /// A fresh copy of the seed with a host on it, for one case.
    pub fn case(&self) -> TestDb {
        TestDb::copy_of(&self.path, self.now_ms)
    }
}

/// A read-only connection to a case's file, for snapshots and invariants.
pub fn raw(db: &TestDb) -> rusqlite::Connection {
    rusqlite::Connection::open_with_flags(&db.path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open the case database read-only")
}

/// Per table (and the schema itself): row count and an order-independent
/// hash of the rows; plus `user_version`. Equal snapshots mean no row was
/// added, removed or changed (up to a 64-bit hash collision), at a
/// fraction of the cost of a full dump. The `private_bypass` events are
/// apart ([`BYPASS_EVENTS`]): a failed call may add them.
/// The snapshot entry of the `private_bypass` rows of `events`.
pub const BYPASS_EVENTS: &str = "events (private_bypass)";

pub fn snapshot(conn: &rusqlite::Connection) -> Vec<(String, u64, u64)> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("user_version");
    let mut out = vec![("user_version".to_string(), version as u64, 0)];
    let mut tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .expect("tables")
        .query_map([], |r| r.get(0))
        .expect("tables")
        .map(|r| r.expect("table name"))
        .collect();
    tables.push("sqlite_schema".into());
    for table in tables {
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM \"{table}\""))
            .expect("scan a table");
        let width = stmt.column_count();
        let kind = (table == "events").then(|| stmt.column_index("kind").expect("events.kind"));
        let mut rows = stmt.query([]).expect("scan a table");
        let (mut count, mut sum) = (0u64, 0u64);
        let (mut bypasses, mut bypass_sum) = (0u64, 0u64);
        while let Some(row) = rows.next().expect("row") {
            let mut h = DefaultHasher::new();
            for i in 0..width {
                match row.get_ref(i).expect("cell") {
                    rusqlite::types::ValueRef::Null => 0u8.hash(&mut h),
                    rusqlite::types::ValueRef::Integer(v) => (1u8, v).hash(&mut h),
                    rusqlite::types::ValueRef::Real(v) => (2u8, v.to_bits()).hash(&mut h),
                    rusqlite::types::ValueRef::Text(v) => (3u8, v).hash(&mut h),
                    rusqlite::types::ValueRef::Blob(v) => (4u8, v).hash(&mut h),
                }
            }
            if kind.is_some_and(|k| {
                row.get_ref(k).ok() == Some(rusqlite::types::ValueRef::Text(b"private_bypass"))
            }) {
                bypasses += 1;
                bypass_sum = bypass_sum.wrapping_add(h.finish());
                continue;
            }
            count += 1;
            // A sum, so the scan order does not matter.
            sum = sum.wrapping_add(h.finish());
        }
        if kind.is_some() {
            out.push((BYPASS_EVENTS.to_string(), bypasses, bypass_sum));
        }
        out.push((table, count, sum));
    }
    out
}

/// The rules the database must satisfy after any successful call, each as
/// a query returning the offending rows; the description of the first
/// broken one, if any. `now_ms` is the host clock.
pub fn broken_invariant(conn: &rusqlite::Connection, now_ms: i64) -> Option<String> {
    let rules: [(&str, &str); 16] = [
        // Plans a person approves: no tool call decides, nor hands out what
        // waits for a person (first, so a breakage shows as itself).
        (
            "a plan's approval changed by no person",
            "SELECT id || ' ' || COALESCE(approval, '-') FROM lists WHERE approval IS NOT NULL
             AND NOT (approval = 'pending' AND approval_by IS NULL AND approval_at IS NULL AND approval_note IS NULL)
             AND NOT (approval = 'approved' AND approval_by = 'seed-person')",
        ),
        (
            "an approval event or a person's event after the seed's",
            "SELECT id || ' ' || kind FROM events WHERE (kind IN ('approved', 'rejected', 'answered', 'accepted', 'returned')
             OR (json_valid(data) AND json_extract(data, '$.by') = 'person'))
             AND COALESCE(agent_id, '') <> 'seed-person'",
        ),
        (
            "a task's wait on a person settled by no person",
            "SELECT id FROM tasks WHERE (ask IS NOT NULL AND json_extract(ask, '$.answer') IS NOT NULL)
             OR (review IS NOT NULL AND json_extract(review, '$.state') <> 'pending')",
        ),
        (
            "a task waiting on a person that is not blocked, or is held",
            "SELECT id || ' ' || status FROM tasks WHERE waits_on IS NOT NULL
             AND (status <> 'blocked' OR claimed_by_agent_id IS NOT NULL)",
        ),
        (
            "a task of a plan that is not approved handed out",
            "SELECT t.id FROM tasks t JOIN lists l ON l.id = t.list_id
             WHERE l.approval IS NOT NULL AND l.approval <> 'approved'
             AND (t.claimed_by_agent_id IS NOT NULL OR t.started_at IS NOT NULL)",
        ),
        (
            "a task awaiting approval handed out",
            "SELECT id FROM tasks WHERE awaits_approval = 1
             AND (claimed_by_agent_id IS NOT NULL OR started_at IS NOT NULL)",
        ),
        (
            "a task of an approved plan let go without its approval",
            "SELECT t.id FROM tasks t JOIN lists l ON l.id = t.list_id
             WHERE l.approval = 'approved' AND t.awaits_approval = 0 AND t.approved_title IS NULL",
        ),
        (
            "positions are not dense (1..n) among a list's live tasks",
            "SELECT list_id || ': n=' || COUNT(*) || ' min=' || MIN(position) || ' max=' || MAX(position) || ' distinct=' || COUNT(DISTINCT position)
             FROM tasks WHERE deleted_at IS NULL GROUP BY list_id
             HAVING MIN(position) <> 1 OR MAX(position) <> COUNT(*) OR COUNT(DISTINCT position) <> COUNT(*)",
        ),
        (
            // Live tasks only: deleting a held task ends its claim and
            // keeps its last status (an `in_progress` nobody holds).
            "a live in_progress task without claimer, token or lease end",
            "SELECT id FROM tasks WHERE status = 'in_progress' AND deleted_at IS NULL
             AND (claimed_by_agent_id IS NULL OR claim_token IS NULL OR claim_expires_at IS NULL)",
        ),
        (
            "a claimer or claim token on a task that is not in_progress",
            "SELECT id || ' ' || status FROM tasks WHERE status <> 'in_progress'
             AND (claimed_by_agent_id IS NOT NULL OR claim_token IS NOT NULL)",
        ),
        (
            "a done or canceled task without outcome or completed_at",
            "SELECT id FROM tasks WHERE status IN ('done', 'canceled')
             AND (outcome IS NULL OR TRIM(outcome) = '' OR completed_at IS NULL)",
        ),
        (
            "a dependency on a missing task, itself, or a task of another list",
            "SELECT d.task_id || ' -> ' || d.depends_on_id FROM task_deps d
             LEFT JOIN tasks a ON a.id = d.task_id LEFT JOIN tasks b ON b.id = d.depends_on_id
             WHERE a.id IS NULL OR b.id IS NULL OR a.list_id <> b.list_id OR d.task_id = d.depends_on_id",
        ),
        (
            "a dependency cycle",
            "WITH RECURSIVE r(start, cur) AS (
                SELECT task_id, depends_on_id FROM task_deps
                UNION SELECT r.start, d.depends_on_id FROM r JOIN task_deps d ON d.task_id = r.cur)
             SELECT start FROM r WHERE start = cur LIMIT 1",
        ),
        (
            "a live active task in a deleted list",
            "SELECT t.id FROM tasks t JOIN lists l ON l.id = t.list_id
             WHERE l.deleted_at IS NOT NULL AND t.deleted_at IS NULL
             AND t.status NOT IN ('done', 'canceled')",
        ),
        (
            "a task in a list that does not exist",
            "SELECT t.id FROM tasks t LEFT JOIN lists l ON l.id = t.list_id WHERE l.id IS NULL",
        ),
        (
            "an agent holding two unexpired claims in one list",
            "SELECT list_id || ' ' || claimed_by_agent_id FROM tasks
             WHERE status = 'in_progress' AND deleted_at IS NULL AND claim_expires_at > ?1
             GROUP BY list_id, claimed_by_agent_id HAVING COUNT(*) > 1",
        ),
    ];
    for (what, sql) in rules {
        let mut stmt = conn.prepare(sql).expect("invariant query");
        let params: &[&dyn rusqlite::ToSql] = if sql.contains("?1") { &[&now_ms] } else { &[] };
        let bad: Vec<String> = stmt
            .query_map(params, |r| r.get::<_, String>(0))
            .expect("invariant query")
            .map(|r| r.expect("invariant row"))
            .collect();
        if !bad.is_empty() {
            return Some(format!("{what}: {bad:?}"));
        }
    }
    None
}

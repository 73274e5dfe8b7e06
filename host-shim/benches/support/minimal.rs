//! The minimal transaction that honours the contract, for every action the
//! `actions` benchmark measures: the fewest statements a hand-written
//! raw-SQLite implementation needs on the same schema (its triggers keep
//! the list counters), with every rule the contract states folded into
//! the statements (visibility, claim holder, the candidate query, one
//! audit event per state change). [`FOOTNOTE`] is printed under the table.

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, params, params_from_iter};
use std::time::{SystemTime, UNIX_EPOCH};

/// A list visible to agent `?a` (shared, or private and owned by it).
const VISIBLE: &str =
    "(l.deleted_at IS NULL AND (l.visibility = 'shared' OR l.owner_agent_id = :a))";

/// Statement count and shape of each minimal transaction, for the footnote.
pub const FOOTNOTE: &[(&str, usize, &str)] = &[
    (
        "task_lists create",
        2,
        "INSERT list RETURNING *; INSERT event",
    ),
    (
        "task_lists find",
        1,
        "SELECT visible lists (counter columns) ORDER BY updated_at DESC LIMIT 51",
    ),
    (
        "task_lists get",
        2,
        "read tx: SELECT visible list; SELECT first 101 tasks + group_concat(depends_on) by position",
    ),
    (
        "task_lists delete",
        3,
        "UPDATE list SET deleted_at WHERE visible; UPDATE its active tasks; INSERT event",
    ),
    (
        "task_items create",
        2,
        "INSERT … SELECT max(position)+1 WHERE list visible RETURNING *; INSERT event",
    ),
    (
        "task_items add_many(50)",
        3,
        "SELECT max(position); one 50-row INSERT RETURNING *; one 50-row INSERT of events",
    ),
    (
        "task_items update notes",
        2,
        "UPDATE notes (+ lease if holder) WHERE not claimed by another AND list visible RETURNING *; INSERT event",
    ),
    (
        "task_items update done",
        2,
        "UPDATE status/outcome/completed_at, claim cleared, same guard RETURNING *; INSERT event",
    ),
    (
        "task_items reorder",
        3,
        "UPDATE positions (CASE) of the shifted range; INSERT event; SELECT id, position of the list",
    ),
    (
        "task_items delete",
        3,
        "UPDATE deleted_at WHERE not claimed by another RETURNING position; UPDATE positions after it; INSERT event",
    ),
    (
        "task_claims claim_next",
        2,
        "UPDATE … WHERE id = (ready candidate ORDER BY position LIMIT 1) AND caller holds none AND list visible RETURNING *; INSERT event",
    ),
    (
        "task_claims refresh",
        2,
        "UPDATE claim_expires_at WHERE held by caller and unexpired RETURNING *; INSERT event",
    ),
    (
        "task_claims release_expired",
        1,
        "UPDATE expired claims to todo RETURNING id (+1 INSERT per released task: none here)",
    ),
    (
        "task_audit get",
        1,
        "SELECT events of the list WHERE list visible ORDER BY seq DESC LIMIT 51",
    ),
    (
        "claim_next + update done",
        4,
        "the claim's 2 + the close's 2, in two transactions",
    ),
];

/// The minimal side's ids, tokens and clock.
pub struct Minimal {
    next: u64,
}

impl Default for Minimal {
    fn default() -> Self {
        Self::new()
    }
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_millis() as i64
}

fn begin(conn: &Connection) {
    conn.prepare_cached("BEGIN IMMEDIATE")
        .and_then(|mut s| s.execute([]))
        .expect("BEGIN IMMEDIATE");
}

fn commit(conn: &Connection) {
    conn.prepare_cached("COMMIT")
        .and_then(|mut s| s.execute([]))
        .expect("COMMIT");
}

/// Runs `sql` (which returns rows) to the end; the rows it returned.
fn rows(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> usize {
    let mut stmt = conn.prepare_cached(sql).expect(sql);
    let width = stmt.column_count();
    let mut rows = stmt.query(params).expect(sql);
    let mut out: Vec<Vec<SqlValue>> = Vec::new();
    while let Some(row) = rows.next().expect(sql) {
        out.push(
            (0..width)
                .map(|i| SqlValue::try_from(row.get_ref(i).expect("column")).expect("UTF-8 text"))
                .collect(),
        );
    }
    out.len()
}

/// [`rows`] of a statement returning one task (`RETURNING *`): its list.
fn task_row(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> String {
    let mut stmt = conn.prepare_cached(sql).expect(sql);
    let width = stmt.column_count();
    let list = stmt.column_index("list_id").expect("list_id column");
    let mut rows = stmt.query(params).expect(sql);
    let row = rows.next().expect(sql).expect("the task row");
    let values: Vec<SqlValue> = (0..width)
        .map(|i| SqlValue::try_from(row.get_ref(i).expect("column")).expect("UTF-8 text"))
        .collect();
    match &values[list] {
        SqlValue::Text(id) => id.clone(),
        other => panic!("list_id {other:?}"),
    }
}

impl Minimal {
    /// A fresh sequence of ids.
    pub fn new() -> Self {
        Minimal { next: 0 }
    }

    fn id(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}-{:012}", self.next)
    }

    fn event(
        &mut self,
        conn: &Connection,
        agent: &str,
        kind: &str,
        list: &str,
        task: Option<&str>,
        at: i64,
    ) {
        let id = self.id("mevt");
        conn.prepare_cached(
            "INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) VALUES (?, ?, ?, ?, ?, ?, '{}')",
        )
        .and_then(|mut s| s.execute(params![id, at, agent, kind, list, task]))
        .expect("event");
    }

    /// `task_lists create`.
    pub fn list_create(&mut self, conn: &Connection, agent: &str, name: &str) {
        let (id, now) = (self.id("mlst"), now_ms());
        begin(conn);
        let n = rows(
            conn,
            "INSERT INTO lists (id, name, name_fold, scope_type, scope_key, visibility, created_by_agent_id, created_at, updated_at) \
             VALUES (?1, ?2, lower(?2), 'custom', '', 'shared', ?3, ?4, ?4) RETURNING *",
            params![id, name, agent, now],
        );
        assert_eq!(n, 1);
        self.event(conn, agent, "created", &id, None, now);
        commit(conn);
    }

    /// `task_lists find` with no filters.
    pub fn list_find(&mut self, conn: &Connection, agent: &str) -> usize {
        rows(
            conn,
            &format!(
                "SELECT * FROM lists l WHERE {VISIBLE} ORDER BY l.updated_at DESC, l.id DESC LIMIT 51"
            ),
            rusqlite::named_params! {":a": agent},
        )
    }

    /// `task_lists get`, first page.
    pub fn list_get(&mut self, conn: &Connection, agent: &str, list: &str) -> usize {
        conn.prepare_cached("BEGIN DEFERRED")
            .and_then(|mut s| s.execute([]))
            .expect("BEGIN");
        let found = rows(
            conn,
            &format!("SELECT * FROM lists l WHERE l.id = :l AND {VISIBLE}"),
            rusqlite::named_params! {":l": list, ":a": agent},
        );
        assert_eq!(found, 1);
        let n = rows(
            conn,
            "SELECT t.*, (SELECT group_concat(d.depends_on_id) FROM task_deps d WHERE d.task_id = t.id) \
             FROM tasks t WHERE t.list_id = ?1 AND t.deleted_at IS NULL ORDER BY t.position LIMIT 101",
            params![list],
        );
        commit(conn);
        n
    }

    /// `task_lists delete`.
    pub fn list_delete(&mut self, conn: &Connection, agent: &str, list: &str) {
        let now = now_ms();
        begin(conn);
        let changed = conn
            .prepare_cached(&format!(
                "UPDATE lists AS l SET deleted_at = :now, updated_at = :now WHERE l.id = :l AND {VISIBLE}"
            ))
            .and_then(|mut s| s.execute(rusqlite::named_params! {":now": now, ":l": list, ":a": agent}))
            .expect("delete list");
        assert_eq!(changed, 1);
        conn.prepare_cached(
            "UPDATE tasks SET deleted_at = ?2, updated_at = ?2 WHERE list_id = ?1 AND deleted_at IS NULL \
             AND status NOT IN ('done', 'canceled')",
        )
        .and_then(|mut s| s.execute(params![list, now]))
        .expect("delete tasks");
        self.event(conn, agent, "deleted", list, None, now);
        commit(conn);
    }

    /// `task_items create`, appended.
    pub fn item_create(&mut self, conn: &Connection, agent: &str, list: &str, title: &str) {
        let (id, now) = (self.id("mtsk"), now_ms());
        begin(conn);
        let n = rows(
            conn,
            &format!(
                "INSERT INTO tasks (id, list_id, position, title, status, created_at, updated_at) \
                 SELECT :id, :l, COALESCE((SELECT MAX(position) FROM tasks WHERE list_id = :l AND deleted_at IS NULL), 0) + 1, \
                 :title, 'todo', :now, :now WHERE EXISTS (SELECT 1 FROM lists l WHERE l.id = :l AND {VISIBLE}) RETURNING *"
            ),
            rusqlite::named_params! {":id": id, ":l": list, ":title": title, ":now": now, ":a": agent},
        );
        assert_eq!(n, 1);
        self.event(conn, agent, "created", list, Some(&id), now);
        commit(conn);
    }

    /// `task_items add_many` of `titles`.
    pub fn item_add_many(&mut self, conn: &Connection, agent: &str, list: &str, titles: &[String]) {
        let now = now_ms();
        let ids: Vec<String> = titles.iter().map(|_| self.id("mtsk")).collect();
        let events: Vec<String> = titles.iter().map(|_| self.id("mevt")).collect();
        begin(conn);
        let base: i64 = conn
            .prepare_cached(&format!(
                "SELECT COALESCE(MAX(t.position), 0) FROM lists l LEFT JOIN tasks t ON t.list_id = l.id AND t.deleted_at IS NULL \
                 WHERE l.id = :l AND {VISIBLE}"
            ))
            .and_then(|mut s| s.query_row(rusqlite::named_params! {":l": list, ":a": agent}, |r| r.get(0)))
            .expect("base position");
        let values = vec!["(?, ?, ?, ?, 'todo', ?, ?)"; titles.len()].join(", ");
        let mut task_params: Vec<SqlValue> = Vec::with_capacity(titles.len() * 6);
        for (i, (id, title)) in ids.iter().zip(titles).enumerate() {
            task_params.extend([
                SqlValue::Text(id.clone()),
                SqlValue::Text(list.to_string()),
                SqlValue::Integer(base + 1 + i as i64),
                SqlValue::Text(title.clone()),
                SqlValue::Integer(now),
                SqlValue::Integer(now),
            ]);
        }
        let n = rows(
            conn,
            &format!(
                "INSERT INTO tasks (id, list_id, position, title, status, created_at, updated_at) VALUES {values} RETURNING *"
            ),
            params_from_iter(task_params),
        );
        assert_eq!(n, titles.len());
        let values = vec!["(?, ?, ?, 'created', ?, ?, '{}')"; titles.len()].join(", ");
        let mut event_params: Vec<SqlValue> = Vec::with_capacity(titles.len() * 5);
        for (event, task) in events.iter().zip(&ids) {
            event_params.extend([
                SqlValue::Text(event.clone()),
                SqlValue::Integer(now),
                SqlValue::Text(agent.to_string()),
                SqlValue::Text(list.to_string()),
                SqlValue::Text(task.clone()),
            ]);
        }
        conn.prepare_cached(&format!(
            "INSERT INTO events (id, at, agent_id, kind, list_id, task_id, data) VALUES {values}"
        ))
        .and_then(|mut s| s.execute(params_from_iter(event_params)))
        .expect("events");
        commit(conn);
    }

    /// `task_items update` of the notes.
    pub fn item_notes(&mut self, conn: &Connection, agent: &str, task: &str, notes: &str) {
        let now = now_ms();
        begin(conn);
        let list = task_row(
            conn,
            "UPDATE tasks SET notes = :notes, updated_at = :now, \
             claim_expires_at = CASE WHEN claimed_by_agent_id = :a THEN :now + lease_ms ELSE claim_expires_at END \
             WHERE id = :t AND deleted_at IS NULL \
             AND (claimed_by_agent_id IS NULL OR claimed_by_agent_id = :a OR claim_expires_at <= :now) \
             AND EXISTS (SELECT 1 FROM lists l WHERE l.id = tasks.list_id AND l.deleted_at IS NULL AND (l.visibility = 'shared' OR l.owner_agent_id = :a)) \
             RETURNING *",
            rusqlite::named_params! {":notes": notes, ":now": now, ":a": agent, ":t": task},
        );
        self.event(conn, agent, "updated", &list, Some(task), now);
        commit(conn);
    }

    /// `task_items update` to `done` with an outcome.
    pub fn item_done(&mut self, conn: &Connection, agent: &str, task: &str) {
        let now = now_ms();
        begin(conn);
        let list = task_row(
            conn,
            "UPDATE tasks SET status = 'done', outcome = 'ok', completed_at = :now, updated_at = :now, \
             claimed_by_agent_id = NULL, claim_token = NULL, claim_expires_at = NULL \
             WHERE id = :t AND deleted_at IS NULL \
             AND (claimed_by_agent_id IS NULL OR claimed_by_agent_id = :a OR claim_expires_at <= :now) \
             AND EXISTS (SELECT 1 FROM lists l WHERE l.id = tasks.list_id AND l.deleted_at IS NULL AND (l.visibility = 'shared' OR l.owner_agent_id = :a)) \
             RETURNING *",
            rusqlite::named_params! {":now": now, ":a": agent, ":t": task},
        );
        self.event(conn, agent, "status_changed", &list, Some(task), now);
        commit(conn);
    }

    /// `task_items reorder`: `task` to the top of `list`.
    pub fn item_reorder(
        &mut self,
        conn: &Connection,
        agent: &str,
        list: &str,
        task: &str,
    ) -> usize {
        let now = now_ms();
        begin(conn);
        conn.prepare_cached(
            "UPDATE tasks SET position = CASE WHEN id = ?1 THEN 1 ELSE position + 1 END, updated_at = ?3 \
             WHERE list_id = ?2 AND deleted_at IS NULL AND position <= (SELECT position FROM tasks WHERE id = ?1)",
        )
        .and_then(|mut s| s.execute(params![task, list, now]))
        .expect("reorder");
        self.event(conn, agent, "reordered", list, None, now);
        let n = rows(
            conn,
            "SELECT id, position FROM tasks WHERE list_id = ?1 AND deleted_at IS NULL ORDER BY position",
            params![list],
        );
        commit(conn);
        n
    }

    /// `task_items delete` of one task.
    pub fn item_delete(&mut self, conn: &Connection, agent: &str, task: &str) {
        let now = now_ms();
        begin(conn);
        let (list, position): (String, i64) = conn
            .prepare_cached(
                "UPDATE tasks SET deleted_at = ?2, updated_at = ?2 WHERE id = ?1 AND deleted_at IS NULL \
                 AND (claimed_by_agent_id IS NULL OR claimed_by_agent_id = ?3 OR claim_expires_at <= ?2) \
                 RETURNING list_id, position",
            )
            .and_then(|mut s| s.query_row(params![task, now, agent], |r| Ok((r.get(0)?, r.get(1)?))))
            .expect("delete task");
        conn.prepare_cached(
            "UPDATE tasks SET position = position - 1 WHERE list_id = ?1 AND deleted_at IS NULL AND position > ?2",
        )
        .and_then(|mut s| s.execute(params![list, position]))
        .expect("close the gap");
        self.event(conn, agent, "deleted", &list, Some(task), now);
        commit(conn);
    }

    /// `task_claims claim_next`; the claimed task's id.
    pub fn claim_next(&mut self, conn: &Connection, agent: &str, list: &str) -> String {
        let (token, now) = (self.id("mtok"), now_ms());
        begin(conn);
        let id: String = conn
            .prepare_cached(&format!(
                "UPDATE tasks SET status = 'in_progress', claimed_by_agent_id = :a, claim_token = :tok, \
                 claim_expires_at = :now + 900000, lease_ms = 900000, started_at = COALESCE(started_at, :now), updated_at = :now \
                 WHERE id = (SELECT t.id FROM tasks t WHERE t.list_id = :l AND t.deleted_at IS NULL \
                   AND t.status IN ('todo', 'in_progress') AND (t.status = 'todo' OR t.claim_expires_at <= :now) \
                   AND (t.assigned_to_agent_id IS NULL OR t.assigned_to_agent_id = :a) \
                   AND NOT EXISTS (SELECT 1 FROM task_deps d JOIN tasks u ON u.id = d.depends_on_id \
                     WHERE d.task_id = t.id AND u.status NOT IN ('done', 'canceled')) \
                   ORDER BY t.position LIMIT 1) \
                 AND NOT EXISTS (SELECT 1 FROM tasks h WHERE h.claimed_by_agent_id = :a AND h.list_id = :l \
                   AND h.status = 'in_progress' AND h.claim_expires_at > :now) \
                 AND EXISTS (SELECT 1 FROM lists l WHERE l.id = :l AND {VISIBLE}) \
                 RETURNING *"
            ))
            .and_then(|mut s| {
                s.query_row(
                    rusqlite::named_params! {":a": agent, ":tok": token, ":now": now, ":l": list},
                    |r| r.get("id"),
                )
            })
            .expect("minimal claim");
        self.event(conn, agent, "claimed", list, Some(&id), now);
        commit(conn);
        id
    }

    /// `task_claims refresh` of the caller's claim on `task`.
    pub fn refresh(&mut self, conn: &Connection, agent: &str, task: &str) {
        let now = now_ms();
        begin(conn);
        let list = task_row(
            conn,
            "UPDATE tasks SET claim_expires_at = ?3 + lease_ms, updated_at = ?3 WHERE id = ?1 \
             AND status = 'in_progress' AND claimed_by_agent_id = ?2 AND claim_expires_at > ?3 RETURNING *",
            params![task, agent, now],
        );
        self.event(conn, agent, "refreshed", &list, Some(task), now);
        commit(conn);
    }

    /// `task_claims release_expired` on `list`.
    pub fn release_expired(&mut self, conn: &Connection, agent: &str, list: &str) -> usize {
        rows(
            conn,
            &format!(
                "UPDATE tasks SET status = 'todo', claimed_by_agent_id = NULL, claim_token = NULL, claim_expires_at = NULL, \
                 updated_at = :now WHERE list_id = :l AND deleted_at IS NULL AND status = 'in_progress' AND claim_expires_at <= :now \
                 AND EXISTS (SELECT 1 FROM lists l WHERE l.id = :l AND {VISIBLE}) RETURNING id"
            ),
            rusqlite::named_params! {":now": now_ms(), ":l": list, ":a": agent},
        )
    }

    /// `task_audit get` of `list`, first page.
    pub fn audit_get(&mut self, conn: &Connection, agent: &str, list: &str) -> usize {
        rows(
            conn,
            &format!(
                "SELECT e.* FROM events e WHERE e.list_id = :l \
                 AND EXISTS (SELECT 1 FROM lists l WHERE l.id = :l AND {VISIBLE}) ORDER BY e.seq DESC LIMIT 51"
            ),
            rusqlite::named_params! {":l": list, ":a": agent},
        )
    }
}

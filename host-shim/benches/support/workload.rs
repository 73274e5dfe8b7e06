//! What the `actions` benchmark runs: the fixture (lists and tasks enough
//! for every round, made through the component and mirrored on both raw
//! databases) and, for each action, the component call and its minimal
//! raw transaction for the k-th repetition.

use crate::minimal::Minimal;
use crate::mirror::Mirror;
use serde_json::json;
use std::collections::VecDeque;
use std::time::{Duration, Instant};
use tasklists_host::LoggedEntry;

/// Every measured action, in table order.
pub const ACTIONS: &[&str] = &[
    "task_lists create",
    "task_lists find",
    "task_lists get",
    "task_lists delete",
    "task_items create",
    "task_items add_many(50)",
    "task_items update notes",
    "task_items update done",
    "task_items reorder",
    "task_items delete",
    "task_claims claim_next",
    "task_claims refresh",
    "task_claims release_expired",
    "task_audit get",
    "claim_next + update done",
];

/// Agent of every call but the fresh claims.
const AGENT: &str = "bench";

/// The ids every action works on.
pub struct Workload {
    claims: String,
    cycle: String,
    refresh: (String, String),
    get: String,
    create: String,
    add_many: String,
    notes: String,
    done: Vec<String>,
    reorder: (String, VecDeque<String>),
    reorder_min: VecDeque<String>,
    delete: Vec<String>,
    lists_to_delete: Vec<String>,
    minimal: Minimal,
}

/// One component repetition: wall time, and the entries of each call it
/// made (two for the cycle).
pub struct Component {
    /// Wall time of the calls.
    pub took: Duration,
    /// The statements of each call.
    pub calls: Vec<Vec<LoggedEntry>>,
}

/// How many repetitions `action` gets per round out of `n` (a batch of 50
/// tasks costs 50 times more than most calls).
pub fn repetitions(action: &str, n: usize) -> usize {
    if action.contains("add_many") {
        (n / 4).max(1)
    } else {
        n
    }
}

impl Workload {
    /// Builds the fixture for `total` repetitions of each action.
    pub fn build(m: &mut Mirror, total: usize) -> Self {
        let (claims, _) = m.list_with_tasks("claims", total + 5);
        let (cycle, _) = m.list_with_tasks("cycle", total + 5);
        let (refresh_list, refresh_ids) = m.list_with_tasks("refresh", 3);
        m.setup(
            "refresher",
            "task_claims",
            "claim_next",
            &json!({ "list_id": refresh_list }),
        );
        let (get, _) = m.list_with_tasks("get", 50);
        let (create, _) = m.list_with_tasks("create", 10);
        let (add_many, _) = m.list_with_tasks("add_many", 10);
        let (_, notes_ids) = m.list_with_tasks("notes", 3);
        let (_, done) = m.list_with_tasks("done", total + 5);
        let (reorder_list, reorder_ids) = m.list_with_tasks("reorder", 50);
        let (_, delete) = m.list_with_tasks("delete", total + 50);
        let lists_to_delete = (0..total)
            .map(|k| m.list_with_tasks(&format!("to delete {k}"), 3).0)
            .collect();
        Workload {
            claims,
            cycle,
            refresh: (refresh_ids[0].clone(), refresh_list),
            get,
            create,
            add_many,
            notes: notes_ids[0].clone(),
            done,
            reorder: (reorder_list, reorder_ids.iter().cloned().collect()),
            reorder_min: reorder_ids.into_iter().collect(),
            delete,
            lists_to_delete,
            minimal: Minimal::new(),
        }
    }

    /// The k-th repetition of `action` through the component.
    pub fn component(&mut self, m: &mut Mirror, action: &str, k: usize) -> Component {
        let one = |m: &mut Mirror, agent: &str, tool: &str, act: &str, params: String| {
            let t = m.call(agent, tool, act, &params);
            Component {
                took: t.took,
                calls: vec![t.entries],
            }
        };
        match action {
            "task_lists create" => one(
                m,
                AGENT,
                "task_lists",
                "create",
                json!({"name": format!("made {k}")}).to_string(),
            ),
            "task_lists find" => one(m, AGENT, "task_lists", "find", String::new()),
            "task_lists get" => one(
                m,
                AGENT,
                "task_lists",
                "get",
                json!({"list_id": self.get}).to_string(),
            ),
            "task_lists delete" => one(
                m,
                AGENT,
                "task_lists",
                "delete",
                json!({"list_id": self.lists_to_delete[k]}).to_string(),
            ),
            "task_items create" => one(
                m,
                AGENT,
                "task_items",
                "create",
                json!({"list_id": self.create, "title": format!("new {k}")}).to_string(),
            ),
            "task_items add_many(50)" => {
                let tasks: Vec<_> = (0..50)
                    .map(|i| json!({"title": format!("batch {k} {i}")}))
                    .collect();
                one(
                    m,
                    AGENT,
                    "task_items",
                    "add_many",
                    json!({"list_id": self.add_many, "tasks": tasks}).to_string(),
                )
            }
            "task_items update notes" => one(
                m,
                AGENT,
                "task_items",
                "update",
                json!({"task_id": self.notes, "notes": format!("notes {k}")}).to_string(),
            ),
            "task_items update done" => one(
                m,
                AGENT,
                "task_items",
                "update",
                json!({"task_id": self.done[k], "status": "done", "outcome": "ok"}).to_string(),
            ),
            "task_items reorder" => {
                let (list, order) = &mut self.reorder;
                let last = order.pop_back().expect("tasks");
                order.push_front(last.clone());
                one(
                    m,
                    AGENT,
                    "task_items",
                    "reorder",
                    json!({"list_id": list, "task_ids": [last]}).to_string(),
                )
            }
            "task_items delete" => {
                let id = &self.delete[self.delete.len() - 1 - k];
                one(
                    m,
                    AGENT,
                    "task_items",
                    "delete",
                    json!({"task_id": id}).to_string(),
                )
            }
            "task_claims claim_next" => one(
                m,
                &format!("c{k}"),
                "task_claims",
                "claim_next",
                json!({"list_id": self.claims}).to_string(),
            ),
            "task_claims refresh" => one(
                m,
                "refresher",
                "task_claims",
                "refresh",
                json!({"task_id": self.refresh.0}).to_string(),
            ),
            "task_claims release_expired" => one(
                m,
                AGENT,
                "task_claims",
                "release_expired",
                json!({"list_id": self.refresh.1}).to_string(),
            ),
            "task_audit get" => one(
                m,
                AGENT,
                "task_audit",
                "get",
                json!({"list_id": self.get}).to_string(),
            ),
            "claim_next + update done" => {
                let claim = json!({"list_id": self.cycle}).to_string();
                let started = Instant::now();
                let first = m.call(AGENT, "task_claims", "claim_next", &claim);
                let id = first.data["task"]["id"]
                    .as_str()
                    .expect("a task")
                    .to_string();
                let done = json!({"task_id": id, "status": "done", "outcome": "ok"}).to_string();
                let second = m.call(AGENT, "task_items", "update", &done);
                Component {
                    took: started.elapsed(),
                    calls: vec![first.entries, second.entries],
                }
            }
            other => panic!("unknown action {other}"),
        }
    }

    /// The k-th repetition of `action` as its minimal raw transaction.
    pub fn minimal(&mut self, m: &mut Mirror, action: &str, k: usize) -> Duration {
        let (conn, min) = (m.min.conn(), &mut self.minimal);
        let started = Instant::now();
        match action {
            "task_lists create" => min.list_create(conn, AGENT, &format!("made {k}")),
            "task_lists find" => {
                min.list_find(conn, AGENT);
            }
            "task_lists get" => {
                min.list_get(conn, AGENT, &self.get);
            }
            "task_lists delete" => min.list_delete(conn, AGENT, &self.lists_to_delete[k]),
            "task_items create" => min.item_create(conn, AGENT, &self.create, &format!("new {k}")),
            "task_items add_many(50)" => {
                let titles: Vec<String> = (0..50).map(|i| format!("batch {k} {i}")).collect();
                min.item_add_many(conn, AGENT, &self.add_many, &titles);
            }
            "task_items update notes" => {
                min.item_notes(conn, AGENT, &self.notes, &format!("notes {k}"))
            }
            "task_items update done" => min.item_done(conn, AGENT, &self.done[k]),
            "task_items reorder" => {
                let last = self.reorder_min.pop_back().expect("tasks");
                min.item_reorder(conn, AGENT, &self.reorder.0, &last);
                self.reorder_min.push_front(last);
            }
            "task_items delete" => {
                min.item_delete(conn, AGENT, &self.delete[self.delete.len() - 1 - k])
            }
            "task_claims claim_next" => {
                min.claim_next(conn, &format!("m{k}"), &self.claims);
            }
            "task_claims refresh" => min.refresh(conn, "refresher", &self.refresh.0),
            "task_claims release_expired" => {
                min.release_expired(conn, AGENT, &self.refresh.1);
            }
            "task_audit get" => {
                min.audit_get(conn, AGENT, &self.get);
            }
            "claim_next + update done" => {
                let id = min.claim_next(conn, AGENT, &self.cycle);
                min.item_done(conn, AGENT, &id);
            }
            other => panic!("unknown action {other}"),
        }
        started.elapsed()
    }
}

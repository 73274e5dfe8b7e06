//! What the tests of the person being called share: a list with one task,
//! an agent's question on it, work an agent finished that waits for the
//! person's review, all through the tools as the agents call them.

use crate::plan::call;
use serde_json::{Value, json};
use std::path::Path;

/// A new list made by `agent` (`params` merged into its create params)
/// with one task titled `title`: the list's id and the task's.
pub fn list_with(db: &Path, agent: &str, params: Value, title: &str) -> (String, String) {
    let mut create = json!({"name": "Release 2.0", "scope_type": "workspace"});
    create
        .as_object_mut()
        .unwrap()
        .extend(params.as_object().unwrap().clone());
    let created = call(
        db,
        agent,
        "task_lists",
        json!({"action": "create", "params": create}),
    );
    let list = created["list"]["id"].as_str().unwrap().to_string();
    let added = call(
        db,
        agent,
        "task_items",
        json!({"action": "create", "params": {"list_id": list, "title": title}}),
    );
    (list, added["task"]["id"].as_str().unwrap().to_string())
}

/// `agent` claims the next task of `list`: its id.
pub fn claim(db: &Path, agent: &str, list: &str) -> String {
    let claimed = call(
        db,
        agent,
        "task_claims",
        json!({"action": "claim_next", "params": {"list_id": list}}),
    );
    claimed["task"]["id"].as_str().expect("a task").to_string()
}

/// `agent` claims `task` (the next of `list`) and asks its person
/// `question` on it.
pub fn ask(db: &Path, agent: &str, list: &str, task: &str, question: &str) {
    assert_eq!(claim(db, agent, list), task);
    let asked = call(
        db,
        agent,
        "task_items",
        json!({"action": "update", "params": {"task_id": task, "question": question}}),
    );
    assert_eq!(asked["task"]["waits_on"], "answer", "{asked}");
}

/// `agent` claims `task` (the next of `list`, which requires review) and
/// closes it as done: it waits for the person's review.
pub fn finish_for_review(db: &Path, agent: &str, list: &str, task: &str) {
    assert_eq!(claim(db, agent, list), task);
    let done = call(
        db,
        agent,
        "task_items",
        json!({"action": "update", "params": {"task_id": task, "status": "done", "outcome": "built and tested"}}),
    );
    assert_eq!(done["task"]["waits_on"], "review", "{done}");
}

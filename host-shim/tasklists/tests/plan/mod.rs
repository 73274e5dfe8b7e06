//! What the person's tests share: the binary on a test database, run
//! hermetically (no inherited database, agent or person), tools called as
//! an agent, and a plan of tasks made as `planner`.

use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Stdio};

/// The binary on `db` in the demo workspace, without colours, with none of
/// the environment's database, agent or person.
pub fn tasklists(db: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tasklists"));
    cmd.arg("--db")
        .arg(db)
        .args(["--workspace", "/work/demo", "--color", "never"])
        .env_remove("TASKLISTS_DB")
        .env_remove("TASKLISTS_AGENT_ID")
        .env_remove("TASKLISTS_PERSON")
        .env(
            "TASKLISTS_CACHE_DIR",
            std::env::temp_dir().join("tasklists-tests-cache"),
        )
        .stdin(Stdio::null());
    cmd
}

/// Calls a tool as the agent `agent` and returns its data.
pub fn call(db: &Path, agent: &str, tool: &str, request: Value) -> Value {
    let out = tasklists(db)
        .args(["--agent-id", agent, "call", "--json", tool])
        .arg(request.to_string())
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{out:?}");
    let reply = String::from_utf8(out.stdout).expect("UTF-8 output");
    let json = reply
        .split_once('\n')
        .map(|(_, json)| json)
        .unwrap_or(&reply);
    serde_json::from_str(json).expect("the data is JSON")
}

/// A workspace list "Release 2.0" (`extra` merged into its create params)
/// with the tasks `titles`; its id and the tasks' ids in order.
pub fn list(db: &Path, extra: Value, titles: &[&str]) -> (String, Vec<String>) {
    let mut params = json!({"name": "Release 2.0", "scope_type": "workspace"});
    params
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let created = call(
        db,
        "planner",
        "task_lists",
        json!({"action": "create", "params": params}),
    );
    let id = created["list"]["id"].as_str().unwrap().to_string();
    let tasks: Vec<Value> = titles.iter().map(|t| json!({"title": t})).collect();
    let added = call(
        db,
        "planner",
        "task_items",
        json!({"action": "add_many", "params": {"list_id": id, "tasks": tasks}}),
    );
    let ids = added["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_string())
        .collect();
    (id, ids)
}

/// The list as the agents see it: `{list, counts, tasks}`.
pub fn get(db: &Path, list_id: &str) -> Value {
    call(
        db,
        "planner",
        "task_lists",
        json!({"action": "get", "params": {"list_id": list_id}}),
    )
}

//! The three databases the `actions` benchmark compares, kept in the same
//! state: the component's (through `Host`), a replica the logged
//! statements are replayed on (the identical baseline), and one the
//! minimal transactions run on. Setup goes through the component and is
//! replayed on both raw databases, so all three have the same schema
//! (the guest's own migrations, as it ran them) and the same rows, ids
//! included.

use crate::raw::open_like_host;
use crate::replay::Replayer;
use serde_json::Value as Json;
use std::time::{Duration, Instant};
use tasklists_host::{CallContext, Host, HostConfig, LoggedEntry, StatementLog, ToolOutput};

/// The component and its two raw mirrors.
pub struct Mirror {
    /// The full in-process stack.
    pub host: Host,
    /// What the component ran since the last take.
    pub log: StatementLog,
    /// The identical-statement replica.
    pub same: Replayer,
    /// The database of the minimal transactions.
    pub min: Replayer,
    _dir: tempfile::TempDir,
}

/// One component call, timed.
pub struct Timed {
    /// The call's result data.
    pub data: Json,
    /// Wall time of `Host::call`.
    pub took: Duration,
    /// What it ran.
    pub entries: Vec<LoggedEntry>,
}

impl Mirror {
    /// Three fresh databases in a temporary directory.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = StatementLog::new();
        let config =
            HostConfig::new(dir.path().join("component.db")).with_statement_log(log.clone());
        let host = Host::open(config).expect("host opens");
        let same = match std::env::var("BENCH_PER_OP").as_deref() {
            Ok("backend") => Replayer::through_backend(&dir.path().join("identical.db")),
            _ => Replayer::new(open_like_host(&dir.path().join("identical.db"))),
        };
        let min = Replayer::new(open_like_host(&dir.path().join("minimal.db")));
        Mirror {
            host,
            log,
            same,
            min,
            _dir: dir,
        }
    }

    /// A component call, timed, its statements taken from the log (not
    /// replayed: the caller times the replay).
    pub fn call(&mut self, agent: &str, tool: &str, action: &str, params: &str) -> Timed {
        let ctx = CallContext::agent(agent);
        self.log.take();
        let started = Instant::now();
        let out = self.host.call(tool, action, params, &ctx);
        let took = started.elapsed();
        let entries = self.log.take();
        let out: ToolOutput =
            out.unwrap_or_else(|e| panic!("{tool} {action}: {:?} {}", e.code, e.message));
        Timed {
            data: out.data.into_value(),
            took,
            entries,
        }
    }

    /// A setup call: through the component, then replayed on both raw
    /// databases so they stay in the same state.
    pub fn setup(&mut self, agent: &str, tool: &str, action: &str, params: &Json) -> Json {
        let timed = self.call(agent, tool, action, &params.to_string());
        self.same.run(&timed.entries);
        self.min.run(&timed.entries);
        timed.data
    }

    /// A new list named `name`, with `tasks` tasks titled `"{name} {i}"`
    /// (add_many by 500); its id and the task ids in order.
    pub fn list_with_tasks(&mut self, name: &str, tasks: usize) -> (String, Vec<String>) {
        let out = self.setup(
            "bench",
            "task_lists",
            "create",
            &serde_json::json!({ "name": name }),
        );
        let list = out["list"]["id"].as_str().expect("list id").to_string();
        let mut ids = Vec::with_capacity(tasks);
        while ids.len() < tasks {
            let batch: Vec<Json> = (ids.len()..tasks.min(ids.len() + 500))
                .map(|i| serde_json::json!({ "title": format!("{name} {i}") }))
                .collect();
            let out = self.setup(
                "bench",
                "task_items",
                "add_many",
                &serde_json::json!({ "list_id": list, "tasks": batch }),
            );
            for t in out["tasks"].as_array().expect("tasks") {
                ids.push(t["id"].as_str().expect("task id").to_string());
            }
        }
        (list, ids)
    }
}

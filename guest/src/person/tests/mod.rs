//! The person's side tested natively on a real SQLite store: actions as a
//! person (rules, audit), id resolution, the key map, the dashboard driven
//! by keys (selection, prompts, layout).

mod act;
mod called;
mod dashboard;
mod resolve;

use serde_json::{Value, json};

use crate::bindings::{CallContext, Line, PersonReply, PersonRequest, PersonSurface};
use crate::testing::Harness;

/// The workspace of every context here.
const WORKSPACE: &str = "/repo";

/// The context of `agent`, with `person` at the keyboard.
fn ctx(agent: Option<&str>, person: Option<&str>) -> CallContext {
    CallContext {
        agent_id: agent.map(String::from),
        workspace: Some(WORKSPACE.into()),
        person: person.map(String::from),
        ..Default::default()
    }
}

/// A store with a list made by `agent` and tasks in it.
struct World {
    h: Harness,
    list: String,
    tasks: Vec<String>,
}

impl World {
    fn new(titles: &[&str]) -> World {
        let h = Harness::default();
        let list = h.ok(
            "agent-1",
            "task_lists",
            "create",
            json!({"name": "Release", "scope_type": "workspace"}),
        )["list"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let items: Vec<Value> = titles.iter().map(|t| json!({"title": t})).collect();
        let tasks = h.ok(
            "agent-1",
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": items}),
        )["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect();
        World { h, list, tasks }
    }

    /// Runs a person's action as `alice` looking at agent-1's view.
    fn act(&self, action: &str, target: &str, fields: Value, confirmed: bool) -> PersonReply {
        self.act_as(Some("alice"), action, target, fields, confirmed)
    }

    fn act_as(
        &self,
        person: Option<&str>,
        action: &str,
        target: &str,
        fields: Value,
        confirmed: bool,
    ) -> PersonReply {
        let request = PersonRequest {
            action: action.into(),
            target: target.into(),
            fields: if fields.is_null() {
                String::new()
            } else {
                fields.to_string()
            },
            confirmed,
            surface: PersonSurface::Shell,
        };
        super::act(
            &request,
            &ctx(Some("agent-1"), person),
            80,
            &self.h.store,
            &self.h.clock,
        )
    }

    /// A task as `get` shows it.
    fn task(&self, id: &str) -> Value {
        let d = self.h.ok(
            "agent-1",
            "task_lists",
            "get",
            json!({"list_id": self.list}),
        );
        d["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .cloned()
            .unwrap_or(Value::Null)
    }

    /// The audit events of the list, oldest first.
    fn events(&self) -> Vec<Value> {
        let d = self.h.ok(
            "agent-1",
            "task_audit",
            "get",
            json!({"list_id": self.list}),
        );
        let mut events = d["events"].as_array().cloned().unwrap_or_default();
        events.reverse();
        events
    }
}

/// The data of a done reply (panics on anything else).
fn done(reply: PersonReply) -> Value {
    match reply {
        PersonReply::Done(d) => serde_json::from_str(&d.data).unwrap(),
        other => panic!("not done: {other:?}"),
    }
}

/// The error of a refused reply (panics on anything else).
fn refused(reply: PersonReply) -> crate::bindings::ToolError {
    match reply {
        PersonReply::Refused(r) => r.error,
        other => panic!("not refused: {other:?}"),
    }
}

/// Lines as plain text.
fn plain(lines: &[Line]) -> String {
    crate::render::to_plain(lines)
}

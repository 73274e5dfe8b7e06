//! `task-list-delete <list_id>`: asks first, naming the list and how many
//! active tasks go with it, then deletes through `task_lists delete`; as
//! the person's `delete` when a person is at the keyboard.

use serde_json::json;

use super::{Run, usage_error};
use crate::actions::lists_get::ListDetail;
use crate::bindings::{CommandEffect, Confirmation};
use crate::context::require_agent;
use crate::registry::render_result;
use crate::render::fmt;
use crate::results::from_json;
use crate::views::read::Viewer;

/// Runs `task-list-delete` with its words.
pub(crate) fn run(words: &[&str], run: &Run) -> CommandEffect {
    let [list_id] = words else {
        return run.fail(&usage_error(
            "task-list-delete",
            "task-list-delete takes exactly one list id",
        ));
    };
    // With a person at the keyboard, the person deletes (asked and
    // audited as the person's action, as on the dashboard).
    if run
        .ctx
        .person
        .as_deref()
        .is_some_and(|p| !p.trim().is_empty())
    {
        return super::approval::decide(run, "delete", list_id, json!({}));
    }
    // Without an identity the deletion would fail after the question:
    // say so before asking.
    let agent = Viewer::new(run.ctx, run.clock).map(|v| v.agent);
    if let Err(e) = agent.and_then(|a| require_agent(&a, "task_lists delete").map(|_| ())) {
        return run.fail(&e);
    }
    if run.confirmed {
        return match run.tool("task_lists", "delete", &json!({"list_id": list_id})) {
            Ok(out) => run.show(render_result("task_lists", "delete", &out.json())),
            Err(e) => run.fail(&e),
        };
    }
    let params = json!({"list_id": list_id, "include_tasks": false});
    let detail = match run.tool("task_lists", "get", &params) {
        Ok(out) => from_json::<ListDetail>(&out.json()),
        Err(e) => return run.fail(&e),
    };
    let (name, active) = detail.map_or((String::new(), 0), |d| {
        let c = d.counts.unwrap_or_default();
        (d.list.name, c.todo + c.in_progress + c.blocked)
    });
    let name = fmt::truncate(&name, 60);
    CommandEffect::Confirm(Confirmation {
        title: format!("Delete list \"{name}\"?"),
        message: format!(
            "This soft-deletes \"{name}\" ({}) and its {}; done and canceled tasks keep their history, and nothing is erased.",
            fmt::one_line(list_id),
            fmt::plural(active, "active task")
        ),
    })
}

//! `tasks <list_id> [full]`: one list read through `task_lists get` (so its
//! access rules and errors are the tool's), shown in detail or as the
//! tool's JSON; without a list id, a pick among the visible lists.

use serde_json::json;

use super::{Run, detail, lists::nothing_here, usage_error};
use crate::bindings::{Choice, CommandEffect};
use crate::contract::MAX_TASK_PAGE;
use crate::views::complete::{Lists, list_options};
use crate::views::layout::json_lines;

/// Runs `tasks` with its words.
pub(crate) fn run(words: &[&str], run: &Run) -> CommandEffect {
    let (list_id, full) = match words {
        [] => return pick(run),
        [id] => (*id, false),
        [id, "full"] => (*id, true),
        _ => {
            return run.fail(&usage_error(
                "tasks",
                format!(
                    "tasks takes a list id and optionally `full`, not {}",
                    crate::text::quote(&words.join(" "))
                ),
            ));
        }
    };
    let params = json!({"list_id": list_id, "include_times": true, "limit": MAX_TASK_PAGE});
    match run.tool("task_lists", "get", &params) {
        Ok(out) if full => run.show(json_lines(&out.json(), run.width)),
        Ok(out) => run.show(detail::lines(&out.json(), run.width)),
        Err(e) => run.fail(&e),
    }
}

/// The visible lists to choose from, or a note that there is none.
fn pick(run: &Run) -> CommandEffect {
    match list_options(run.ctx, "", run.store, run.clock, Lists::All) {
        Ok(options) if options.is_empty() => run.show(nothing_here()),
        Ok(options) => CommandEffect::Pick(Choice {
            title: "Show which task list?".into(),
            options,
        }),
        Err(e) => run.fail(&e),
    }
}

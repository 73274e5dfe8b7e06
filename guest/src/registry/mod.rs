//! The registry: the one table of the component's actions, in published
//! order, each row joining the action's spec, its handler and its renderer
//! ([`Row`]). Everything that goes by a tool's or an action's name starts
//! here: running a call ([`call_tool`]), rendering a result
//! ([`render_result`], [`render_reply`], [`render_collapsed`]), the
//! catalogue hosts publish ([`catalogue`]) and `task_help`'s listing.
//!
//! Adding an action is one row here, its type in `crate::actions` (spec,
//! result, handler) and its `Render` in `crate::render`.

mod collapsed;
mod publish;
mod row;
#[cfg(test)]
mod tests;

pub use publish::catalogue;
pub use row::{Entry, Help, Row};

use serde_json::Value as Json;

use crate::actions::{
    Output, Request, audit, claims, help, items, items_update, lists, lists_get, printable_error,
    reorder,
};
use crate::bindings::ToolReply;
use crate::clock::Clock;
use crate::context::CallContext;
use crate::contract::{self, Listing, TOOLS, ToolSpec};
use crate::error::ToolResult;
use crate::render::{Line, generic_view, render_error};
use crate::store::Store;
use crate::text::printable;

/// Every action, in the order hosts publish them: grouped by tool, the
/// tools in [`TOOLS`] order (a test holds the table to that).
pub static ACTIONS: &[&dyn Row] = &[
    &Entry::<lists::CreateList>::ROW,
    &Entry::<lists::FindLists>::ROW,
    &Entry::<lists_get::GetList>::ROW,
    &Entry::<lists::DeleteList>::ROW,
    &Entry::<items::CreateTask>::ROW,
    &Entry::<items::AddTasks>::ROW,
    &Entry::<items_update::UpdateTask>::ROW,
    &Entry::<reorder::ReorderTasks>::ROW,
    &Entry::<items::DeleteTasks>::ROW,
    &Entry::<claims::ClaimNextTask>::ROW,
    &Entry::<claims::RefreshClaim>::ROW,
    &Entry::<claims::ReleaseExpired>::ROW,
    &Entry::<audit::GetEvents>::ROW,
    &Help::new(help::ALL),
    &Help::new(help::WORKFLOW),
    &Help::new(help::SCHEMAS),
    &Help::new(help::EXAMPLES),
];

/// The rows of `tool`, in published order.
pub fn rows_of(tool: &ToolSpec) -> impl Iterator<Item = &'static dyn Row> + '_ {
    ACTIONS
        .iter()
        .copied()
        .filter(move |r| r.spec().tool.name == tool.name)
}

/// The catalogue as data: every tool with its actions' specs.
pub fn listing() -> Listing {
    TOOLS
        .iter()
        .map(|t| (*t, rows_of(t).map(|r| r.spec()).collect()))
        .collect()
}

/// The row of `tool`+`action`, or the error that answers a call of it.
fn find(tool: &str, action: &str) -> ToolResult<&'static dyn Row> {
    let spec = contract::find_tool(tool).ok_or_else(|| contract::unknown_tool(tool))?;
    rows_of(spec)
        .find(|r| r.spec().name == action)
        .ok_or_else(|| {
            let names: Vec<&str> = rows_of(spec).map(|r| r.spec().name).collect();
            contract::unknown_action(spec, action, &names)
        })
}

/// Runs `tool`+`action` with raw JSON `params`: the whole contract. The
/// summary, message and hint that come back are single lines of printable
/// text ([`printable`]), whatever the stored text holds.
pub fn call_tool(
    tool: &str,
    action: &str,
    params: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Output> {
    let req = Request::new(params, ctx, store, clock);
    find(tool, action)
        .and_then(|row| row.call(req))
        .map(|out| Output {
            summary: printable(&out.summary),
            ..out
        })
        .map_err(printable_error)
}

/// The row that renders a result of `tool`+`action`. `task_help` renders
/// every action alike (its data says which sections it holds), so even an
/// unknown help action gets the help view.
fn renderer(tool: &str, action: &str) -> Option<&'static dyn Row> {
    let spec = contract::find_tool(tool)?;
    let mut rows = rows_of(spec);
    match rows_of(spec).find(|r| r.spec().name == action) {
        Some(row) => Some(row),
        None if !spec.takes_params => rows.next(),
        None => None,
    }
}

/// Renders a successful result of tool+action (data = the JSON object the
/// tool returned): the action's renderer, else the generic view.
pub fn render_result(tool: &str, action: &str, data: &Json) -> Vec<Line> {
    // A renderer returns None when the data lacks the shape it needs; the
    // generic view still shows what came back.
    match renderer(tool, action).and_then(|row| row.render(data)) {
        Some(lines) if !lines.is_empty() => lines,
        _ => generic_view(data),
    }
}

/// Renders the reply to a call made with the agent's `arguments` (which
/// name the action): the result, or the error.
pub fn render_reply(tool: &str, arguments: &str, reply: &ToolReply) -> Vec<Line> {
    match &reply.outcome {
        Ok(_) => {
            let action = contract::parse_arguments(arguments)
                .map(|(action, _)| action)
                .unwrap_or_default();
            let data = serde_json::from_str(&reply.structured).unwrap_or(Json::Null);
            render_result(tool, &action, &data)
        }
        Err(error) => render_error(error),
    }
}

/// Renders the reply folded to what a transcript shows by default: the
/// headline of the expanded form (or the error) and how many lines it hides.
pub fn render_collapsed(tool: &str, arguments: &str, reply: &ToolReply) -> Vec<Line> {
    collapsed::render(tool, arguments, reply)
}

//! Entry point of every tool call: find the action, validate the params,
//! resolve the identity, run the action in one transaction, commit or roll back.

mod access;
pub(crate) mod audit;
mod bypass;
mod call;
pub(crate) mod claims;
mod deps;
pub(crate) mod help;
#[cfg(test)]
mod hot_path_tests;
pub(crate) mod items;
pub(crate) mod items_update;
pub(crate) mod lists;
pub(crate) mod lists_get;
mod page;
mod positions;
pub(crate) mod reorder;
pub(crate) mod summary;
#[cfg(test)]
mod tests;

pub use call::{Call, Output};
pub use help::catalogue;

use crate::clock::Clock;
use crate::context::{CallContext, effective_agent};
use crate::contract::{self, ActionSpec, Handler, ToolSpec};
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::schema;
use crate::store::Store;
use crate::text::printable;

/// Runs `tool`+`action` with raw JSON `params`: the whole contract. The
/// summary, message and hint that come back are single lines of printable
/// text ([`crate::text::printable`]), whatever the stored text holds.
pub fn call_tool(
    tool: &str,
    action: &str,
    params: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Output> {
    dispatch(tool, action, params, ctx, store, clock)
        .map(|out| Output {
            summary: printable(&out.summary),
            ..out
        })
        .map_err(|e| ToolError {
            message: printable(&e.message),
            hint: printable(&e.hint),
            ..e
        })
}

fn dispatch(
    tool: &str,
    action: &str,
    params: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<Output> {
    let tool_spec = contract::find_tool(tool).ok_or_else(|| contract::unknown_tool(tool))?;
    let action_spec = find_action(tool_spec, action)?;
    let run = match action_spec.handler {
        Handler::Help(help) => {
            check_help_params(params)?;
            return help(action_spec.name);
        }
        Handler::Call(run) => run,
    };
    let params = contract::validate(tool_spec, action_spec, params)?;
    let agent = effective_agent(ctx, params.str("agent_id"))?;
    let writes = action_spec.writes || params.bool("bypass_private") == Some(true);

    let tx = open(store, writes)?;
    let now = clock.now_ms();
    let mut call = Call {
        tx: &*tx,
        tool: tool_spec,
        action: action_spec,
        params,
        agent,
        ctx,
        now,
        bypasses: Vec::new(),
    };
    let out = run(&mut call);
    let bypasses = std::mem::take(&mut call.bypasses);
    let agent = call.agent.take();
    drop(call);
    let done = match out {
        Ok(out) => tx.commit().map(|()| out).map_err(ToolError::commit_failed),
        Err(e) => {
            // Rolled back here, so that the bypass events alone can follow.
            drop(tx);
            Err(e)
        }
    };
    // A bypass is audited whatever became of the call after it.
    done.map_err(|e| bypass::keep(store, &bypasses, now, agent.as_deref(), e))
}

/// Opens the call's transaction on an up-to-date schema. The version check
/// rides in the same transaction, so a current database costs one query.
fn open<'s>(store: &'s dyn Store, writes: bool) -> ToolResult<Box<dyn crate::store::Tx + 's>> {
    let tx = store.begin(writes)?;
    let version = schema::read_version(&*tx)?;
    if version == schema::LATEST {
        return Ok(tx);
    }
    drop(tx);
    schema::ensure(store)?;
    Ok(store.begin(writes)?)
}

fn find_action(tool: &'static ToolSpec, action: &str) -> ToolResult<&'static ActionSpec> {
    tool.action(action).ok_or_else(|| {
        let names = tool.action_names();
        let mut msg = format!(
            "{} has no action {}; valid actions: {}",
            tool.name,
            crate::text::quote(action),
            names.join(", ")
        );
        if let Some(near) = contract::closest_name(action, names.iter().copied()) {
            msg.push_str(&format!(" (did you mean {}?)", crate::text::quote(near)));
        }
        ToolError::new(
            ErrorCode::UnknownAction,
            msg,
            "task_help schemas lists every tool+action",
        )
    })
}

fn check_help_params(params: &str) -> ToolResult<()> {
    let trimmed = params.trim();
    let empty = trimmed.is_empty()
        || trimmed == "null"
        || serde_json::from_str::<serde_json::Value>(trimmed)
            .is_ok_and(|v| v.as_object().is_some_and(|m| m.is_empty()));
    if empty {
        Ok(())
    } else {
        Err(ToolError::invalid(
            "task_help takes only action, no params",
            "call task_help with {\"action\": \"all\"}",
        ))
    }
}

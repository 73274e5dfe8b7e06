//! Running one action by its type: validate the params against its spec,
//! resolve the identity, open one transaction on an up-to-date schema, run
//! the handler, commit or roll back (keeping a bypass's audit event). The
//! registry runs every call this way; a view runs the action it needs
//! the same way, by its type, and gets its typed result.

use super::action::{Action, Done};
use super::bypass;
use super::call::Call;
use crate::clock::Clock;
use crate::context::{CallContext, effective_agent};
use crate::contract;
use crate::error::{ToolError, ToolResult};
use crate::schema;
use crate::store::{Store, Tx};
use crate::text::printable;

/// What a call brings besides the action: its raw params (JSON text, `""`
/// for none), the host's context and the two imports.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The params object as the caller sent it.
    pub params: &'a str,
    /// The host's context (identity, workspace, thread).
    pub ctx: &'a CallContext,
    /// The store.
    pub store: &'a dyn Store,
    /// The clock.
    pub clock: &'a dyn Clock,
}

/// Runs action `A` for `req`. The summary, message and hint that come back
/// are single lines of printable text ([`printable`]), whatever the stored
/// text holds.
pub fn invoke<A: Action>(req: Request) -> ToolResult<Done<A::Result>> {
    run::<A>(req)
        .map(|done| Done {
            summary: printable(&done.summary),
            ..done
        })
        .map_err(printable_error)
}

/// `error` with its message and hint made printable single lines.
pub fn printable_error(error: ToolError) -> ToolError {
    ToolError {
        message: printable(&error.message),
        hint: printable(&error.hint),
        ..error
    }
}

fn run<A: Action>(req: Request) -> ToolResult<Done<A::Result>> {
    let spec = A::SPEC;
    let params = contract::validate(spec.tool, spec, req.params)?;
    let agent = effective_agent(req.ctx, params.str("agent_id"))?;
    let writes = spec.writes || params.bool("bypass_private") == Some(true);

    let tx = open(req.store, writes)?;
    let now = req.clock.now_ms();
    let mut call = Call {
        tx: &*tx,
        tool: spec.tool,
        action: spec,
        params,
        agent,
        ctx: req.ctx,
        now,
        bypasses: Vec::new(),
        person: None,
    };
    let out = A::run(&mut call);
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
    done.map_err(|e| bypass::keep(req.store, &bypasses, now, agent.as_deref(), e))
}

/// Opens the call's transaction on an up-to-date schema. The version check
/// rides in the same transaction, so a current database costs one query.
fn open<'s>(store: &'s dyn Store, writes: bool) -> ToolResult<Box<dyn Tx + 's>> {
    let tx = store.begin(writes)?;
    let version = schema::read_version(&*tx)?;
    if version == schema::LATEST {
        return Ok(tx);
    }
    drop(tx);
    schema::ensure(store)?;
    Ok(store.begin(writes)?)
}

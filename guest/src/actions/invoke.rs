//! Running one action by its type: validate the params against its spec,
//! resolve the identity, open one transaction on an up-to-date schema, run
//! the handler, commit or roll back (keeping a bypass's audit event). The
//! registry runs every call this way; a view runs the action it needs
//! the same way, by its type, and gets its typed result; a person's
//! action runs a tool action the same way with the person set
//! ([`Request::person`]), or its own step ([`invoke_fn`]).

use super::action::{Action, Done};
use super::bypass;
use super::call::{Call, Ending};
use crate::clock::Clock;
use crate::context::{CallContext, effective_agent};
use crate::contract;
use crate::contract::ActionSpec;
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::schema;
use crate::schema::dialect::{SCHEMA_CHANGED, WriteScope};
use crate::store::{Store, StoreError, Tx};
use crate::text::printable;
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// The person the call acts for (a person's action; never a tool
    /// call): the rules treat the person as the actor (a task under any
    /// agent's lease is another's), events name the person, and lists are
    /// visible as they are to the context's agent (`ctx.agent_id`), whose
    /// view the person is looking at.
    pub person: Option<&'a str>,
    /// Rehearses the call: it runs whole, then rolls back (what a
    /// `claim_next` would hand out, without claiming).
    pub rehearse: bool,
}

impl<'a> Request<'a> {
    /// A tool call's request: no person, committed.
    pub fn new(
        params: &'a str,
        ctx: &'a CallContext,
        store: &'a dyn Store,
        clock: &'a dyn Clock,
    ) -> Self {
        Request {
            params,
            ctx,
            store,
            clock,
            person: None,
            rehearse: false,
        }
    }
}

/// Runs action `A` for `req`. The summary, message and hint that come back
/// are single lines of printable text ([`printable`]), whatever the stored
/// text holds.
pub fn invoke<A: Action>(req: Request) -> ToolResult<Done<A::Result>> {
    // A tool action can run again: its lock may ride with its first
    // statement; should that find the schema changed, nothing ran, and
    // it runs again on the schema as it is now. It may also end with its
    // last statement; should it find more to do, it runs again without.
    let mut trips = Trips::OneTrip;
    let done = loop {
        match run(req, A::SPEC, A::run, trips) {
            Ok(done) => break done,
            Err(Halt::Again) if trips == Trips::OneTrip => trips = Trips::Pipelined,
            Err(Halt::Stale) if trips != Trips::Plain => trips = Trips::Plain,
            Err(_) => break Err(stale()),
        }
    };
    done.map(|done| Done {
        summary: printable(&done.summary),
        ..done
    })
    .map_err(printable_error)
}

/// Whether this instance has seen the database at [`schema::LATEST`]: a
/// write call's lock may then ride with its first statement, checking the
/// version as it goes ([`crate::schema::dialect::SqlDialect::scoped_lock_at`]).
/// Cleared by a store failure in such a call: the next call looks first.
static SCHEMA_CURRENT: AtomicBool = AtomicBool::new(false);

/// What a call gets should the schema change under it twice running.
fn stale() -> ToolError {
    ToolError::new(
        ErrorCode::Storage,
        "the database's schema changed while the call ran; nothing was changed",
        "call again",
    )
}

/// Runs `handler` as if it were the action of `spec` (its params checked
/// against `spec`, its transaction read-only unless `spec` writes): a
/// person's step that is no tool action (an approval, the dashboard's
/// reads) gets the same identity, transaction and audit as one.
pub fn invoke_fn<R>(
    req: Request,
    spec: &'static ActionSpec,
    handler: impl FnOnce(&mut Call) -> ToolResult<Done<R>>,
) -> ToolResult<Done<R>> {
    run(req, spec, handler, Trips::Plain)
        .unwrap_or_else(|_| Err(stale()))
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

/// How much of a call may ride with other requests in one round trip.
/// Anything but `Plain` only for a handler that can run again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trips {
    /// Its lock is had, and the schema checked, before anything else.
    Plain,
    /// Its lock rides with its first statement, once this instance has
    /// seen the schema current.
    Pipelined,
    /// As `Pipelined`, and it may commit with its last statement
    /// ([`Call::rows_then_commit`]).
    OneTrip,
}

/// Runs one call; [`Halt::Stale`] when its lock rode with its first
/// statement and found the schema not [`schema::LATEST`], [`Halt::Again`]
/// when it ended in one round trip without finishing
/// ([`Call::run_again`]): nothing ran, or nothing of what ran changed
/// anything, and it runs again with fewer `trips`.
fn run<R>(
    req: Request,
    spec: &'static ActionSpec,
    handler: impl FnOnce(&mut Call) -> ToolResult<Done<R>>,
    trips: Trips,
) -> Result<ToolResult<Done<R>>, Halt> {
    let params = match contract::validate(spec, req.params) {
        Ok(params) => params,
        Err(e) => return Ok(Err(e)),
    };
    match run_valid(req, spec, handler, params, trips) {
        Ok(done) => Ok(Ok(done)),
        Err(Halt::Error(e)) => Ok(Err(e)),
        Err(halt) => Err(halt),
    }
}

/// Why [`run_valid`] did not finish.
enum Halt {
    /// The call failed.
    Error(ToolError),
    /// The schema turned out not to be [`schema::LATEST`] under a
    /// pipelined lock: nothing ran.
    Stale,
    /// A call that ended with its last statement found more to do
    /// ([`Call::run_again`]): nothing of what ran changed anything.
    Again,
}

impl From<ToolError> for Halt {
    fn from(e: ToolError) -> Self {
        Halt::Error(e)
    }
}

/// [`run`] with its params validated.
fn run_valid<R>(
    req: Request,
    spec: &'static ActionSpec,
    handler: impl FnOnce(&mut Call) -> ToolResult<Done<R>>,
    params: contract::Params,
    trips: Trips,
) -> Result<Done<R>, Halt> {
    // A person acts as the person and sees what the context's agent sees.
    let (agent, viewer) = match req.person {
        Some(person) => (Some(person.to_string()), effective_agent(req.ctx, None)?),
        None => {
            let agent = effective_agent(req.ctx, params.str("agent_id"))?;
            (agent.clone(), agent)
        }
    };
    let writes = spec.writes || params.bool("bypass_private") == Some(true);

    let scope = if writes {
        write_scope(spec, &params, agent.as_deref())
    } else {
        None
    };
    let (tx, queued) = open(req.store, writes, scope, trips != Trips::Plain)?;
    // The clock is read when the handler first needs the time (`Call::now`).
    let mut call = Call {
        tx: &*tx,
        tool: spec.tool,
        action: spec,
        params,
        agent,
        ctx: req.ctx,
        clock: req.clock,
        dated: std::cell::OnceCell::new(),
        bypasses: Vec::new(),
        person: req.person.map(str::to_string),
        viewer,
        ending: Ending::new(trips == Trips::OneTrip && queued && !req.rehearse),
    };
    let out = handler(&mut call);
    if call.ending.again() {
        // Nothing it ran changed anything, and its transaction is over.
        return Err(Halt::Again);
    }
    if queued
        && let Err(e) = &out
        && e.code == ErrorCode::Storage
    {
        // Perhaps the lock's check: the next call looks first.
        SCHEMA_CURRENT.store(false, Ordering::Relaxed);
        // The check failed, or the tables are gone (a database replaced
        // under the host): run again on what is there now.
        if e.message.contains(SCHEMA_CHANGED) || e.message.contains("does not exist") {
            return Err(Halt::Stale);
        }
    }
    let bypasses = std::mem::take(&mut call.bypasses);
    let agent = call.agent.take();
    // A bypass was written at the call's time (read then).
    let now = call.now_if_read().unwrap_or_default();
    let committed = call.ending.committed();
    drop(call);
    let done = match out {
        // Rolled back: a rehearsal changes nothing.
        Ok(out) if req.rehearse => Ok(out),
        // Committed with its last statement.
        Ok(out) if committed => Ok(out),
        Ok(out) => tx.commit().map(|()| out).map_err(ToolError::commit_failed),
        Err(e) => {
            // Rolled back here, so that the bypass events alone can follow.
            drop(tx);
            Err(e)
        }
    };
    // A bypass is audited whatever became of the call after it.
    done.map_err(|e| Halt::Error(bypass::keep(req.store, &bypasses, now, agent.as_deref(), e)))
}

/// The list a write call is confined to, for the store's narrower lock:
/// the list its `list_id` names, or the list of the task its `task_id`
/// names, when its spec has that parameter and the call gives one of them,
/// not both. Every such action changes only that list's tasks, their
/// dependencies (of the same list) and its own audit events; any other
/// write (a list's creation, `release_expired` over every list, a
/// person's approval, migrations) locks the whole database. A claim
/// (`claim_next` by an agent) is narrower still: the pair (list, agent),
/// the list shared ([`WriteScope::Claim`]), and so is a change of one
/// task's own fields ([`WriteScope::TaskRow`]).
fn write_scope<'p>(
    spec: &ActionSpec,
    params: &'p contract::Params,
    agent: Option<&'p str>,
) -> Option<WriteScope<'p>> {
    let given = |name: &str| {
        spec.own_params
            .iter()
            .any(|p| p.name == name)
            .then(|| params.str(name))
            .flatten()
    };
    match (given("list_id"), given("task_id")) {
        (Some(list), None) if std::ptr::eq(spec, super::claims::ClaimNextTask::SPEC) => {
            Some(match agent {
                Some(agent) => WriteScope::Claim { list, agent },
                None => WriteScope::List(list),
            })
        }
        (Some(list), None) => Some(WriteScope::List(list)),
        (None, Some(task))
            if std::ptr::eq(spec, super::items_update::UpdateTask::SPEC)
                && super::own_fields::own_fields_only(params) =>
        {
            Some(WriteScope::TaskRow(task))
        }
        (None, Some(task)) => Some(WriteScope::Task(task)),
        _ => None,
    }
}

/// Opens the call's transaction on an up-to-date schema, with the lock of
/// its `scope` if it has one, and whether that lock was queued. The
/// version check rides in the same transaction (in the lock's own
/// statement when there is one), so a current database costs one
/// statement; once this instance has seen it current, a `pipelined`
/// call's lock (with the check) goes out with its first statement, in its
/// round trip ([`crate::store::SqlDialect::scoped_lock_at`]). What a
/// claim or a change of one task's own row makes its list's row do waits
/// for the COMMIT ([`crate::store::SqlDialect::defer_list_row`]).
fn open<'s>(
    store: &'s dyn Store,
    writes: bool,
    scope: Option<WriteScope>,
    pipelined: bool,
) -> ToolResult<(Box<dyn Tx + 's>, bool)> {
    let (tx, queued) = open_locked(store, writes, scope, pipelined)?;
    if let Some(sql) = scope.and_then(|scope| tx.dialect().defer_list_row(scope)) {
        tx.pipeline(sql, &[])?;
    }
    Ok((tx, queued))
}

/// [`open`] up to its lock.
fn open_locked<'s>(
    store: &'s dyn Store,
    writes: bool,
    scope: Option<WriteScope>,
    pipelined: bool,
) -> ToolResult<(Box<dyn Tx + 's>, bool)> {
    let tx = store.begin(writes)?;
    if pipelined
        && SCHEMA_CURRENT.load(Ordering::Relaxed)
        && let Some(scope) = scope
        && let Some((sql, params)) = tx.dialect().scoped_lock_at(scope, schema::LATEST)
    {
        tx.pipeline(&sql, &params)?;
        return Ok((tx, true));
    }
    let version = match scope.map(|scope| schema::lock_scope(&*tx, scope)) {
        None | Some(Ok(None)) => schema::read_version(&*tx)?,
        Some(Ok(Some(version))) => version?,
        // Not migrated yet (no `tasks` table): migrate, then lock again.
        Some(Err(StoreError::Sql(_))) => 0,
        Some(Err(e)) => return Err(e.into()),
    };
    if version == schema::LATEST {
        SCHEMA_CURRENT.store(true, Ordering::Relaxed);
        return Ok((tx, false));
    }
    drop(tx);
    schema::ensure(store)?;
    let tx = store.begin(writes)?;
    if let Some(scope) = scope
        && let Some(version) = schema::lock_scope(&*tx, scope)?
    {
        version?;
    }
    Ok((tx, false))
}

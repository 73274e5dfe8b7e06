//! [`Host`]: one store backend and the component, called tool by
//! tool. This file owns the instance lifecycle: limits per call, rollback
//! after every call, and handing a call that could not finish (too large,
//! trapped) to the component's `failed`, which words the reply (and a
//! call without a reply to `describe-failure`, which words the error).

use crate::bindings::exports::tasklists::component::tools::Guest as Tools;
use crate::bindings::{
    CallContext, CallFailure, FailureKind, Line, SizeLimit, Tasklists, ToolError, ToolInfo,
    ToolReply, WriteState,
};
use crate::config::{HostConfig, default_cache_dir};
use crate::engine::{self, Runtime};
use crate::error::HostError;
use crate::reply::ToolOutput;
use crate::sandbox::{self, Limiter};
use crate::state::HostState;
#[cfg(any(test, feature = "fault-injection"))]
use crate::state::faults::FaultInjection;
use crate::state::store::StoreImport;
use crate::time_source::Clock;
use crate::trap;
use std::sync::Arc;
use std::time::Duration;
use tasklists_store::limits::{
    MAX_CALLS_PER_INSTANCE, REPLY_MEMORY_BYTES, REPLY_TIMEOUT, STDERR_CAPTURE_BYTES,
};
use tasklists_store::{BackendOptions, Deadline, Session, sql_budget};
use wasmtime::Store;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;

/// A live instance and the store it lives in.
struct Live {
    store: Store<HostState>,
    bindings: Tasklists,
    /// Calls served so far.
    calls: u32,
}

/// The component behind one store connection. Not `Sync`: share it
/// between threads in a `Mutex` (it is `Send`). Opening one on an SQLite
/// store sets glibc's heap thresholds for the whole process, once
/// (`tasklists_store::sqlite::keep_heap_top`): a program that embeds it
/// shares its allocator with it.
pub struct Host {
    runtime: Arc<Runtime>,
    clock: Option<Arc<dyn Clock>>,
    call_timeout: Duration,
    memory_limit_bytes: usize,
    max_params_bytes: usize,
    /// The store while no instance is live (it moves into the instance's
    /// `Store` while one is).
    parked: Option<StoreImport>,
    live: Option<Live>,
    /// Bounds the SQL work of the call in progress ([`Deadline`]: the
    /// store's busy and progress handlers obey it).
    deadline: Deadline,
}

impl Host {
    /// Opens (or creates) the database and loads the component (compiled
    /// once per process, cached on disk). Refuses a file that is not a
    /// database without modifying it. The schema is the component's
    /// business: it migrates on its first call.
    pub fn open(config: HostConfig) -> Result<Host, HostError> {
        // The database first: a wrong path fails at once, before the
        // component is compiled (up to a second on a cold cache).
        let (mut store, deadline) = Self::store(&config);
        store.session().connect()?;
        Self::with_store(store, deadline, config)
    }

    /// Loads the component without touching the database: the file is
    /// opened by the first call that needs the store, and a call that
    /// cannot open it (or fails on an I/O error) answers `storage` with
    /// the reason and tries again on the next call. What needs no store
    /// (`task_help`, the catalogue, the renderers) always works. For a
    /// server, which must keep answering while its database is broken.
    pub fn open_lazily(config: HostConfig) -> Result<Host, HostError> {
        let (store, deadline) = Self::store(&config);
        Self::with_store(store, deadline, config)
    }

    /// The store `config` names, not opened yet, and the deadline its
    /// waits and statements obey.
    fn store(config: &HostConfig) -> (StoreImport, Deadline) {
        if config.store.file().is_some() {
            // SQLite's statements would otherwise fault their pages in
            // again on every call (heap_top.rs).
            tasklists_store::sqlite::keep_heap_top();
        }
        let deadline = Deadline::new();
        let options = BackendOptions {
            busy_timeout: config.busy_timeout,
            deadline: deadline.clone(),
            max_result_bytes: config.memory_limit_bytes,
        };
        let backend = config.store.backend(options);
        #[cfg(feature = "statement-log")]
        let backend = crate::imports::statement_log::wrap(backend, config.statement_log.clone());
        let store = StoreImport::new(Session::new(backend));
        (store, deadline)
    }

    /// Loads the component over `store`.
    #[cfg_attr(
        not(any(test, feature = "fault-injection")),
        expect(unused_mut, reason = "only faults are armed on the store")
    )]
    fn with_store(
        mut store: StoreImport,
        deadline: Deadline,
        config: HostConfig,
    ) -> Result<Host, HostError> {
        let cache_dir = config.cache_dir.clone().or_else(default_cache_dir);
        let runtime = engine::runtime(cache_dir.as_deref())?;
        #[cfg(any(test, feature = "fault-injection"))]
        store.faults.arm(config.fault_injection);
        Ok(Host {
            runtime,
            clock: config.clock,
            call_timeout: config.call_timeout,
            memory_limit_bytes: config.memory_limit_bytes,
            max_params_bytes: config.max_params_bytes,
            parked: Some(store),
            live: None,
            deadline,
        })
    }

    /// Runs the agent's call: `tool` as the agent named it and `arguments`
    /// as it sent them (`{"action": …, "params": {…}}`). The reply is the
    /// component's, whatever happened: a refused request, a trap (bug,
    /// timeout, memory cap: nothing was changed, and the next call runs in
    /// a fresh instance), arguments over the size limit. `Err` only when
    /// the component cannot run at all.
    pub fn reply(
        &mut self,
        tool: &str,
        arguments: &str,
        ctx: &CallContext,
    ) -> Result<ToolReply, HostError> {
        let size = arguments.len();
        self.run_call(true, size, |tools, store| {
            tools.call_call(store, tool, arguments, ctx)
        })
    }

    /// Runs a call whose action and params (the params object as JSON
    /// text, `""` for none) the caller holds apart, e.g. command-line words.
    pub fn reply_to_action(
        &mut self,
        tool: &str,
        action: &str,
        params: &str,
        ctx: &CallContext,
    ) -> Result<ToolReply, HostError> {
        let size = params.len() + action.len();
        self.run_call(false, size, |tools, store| {
            tools.call_call_action(store, tool, action, params, ctx)
        })
    }

    /// [`Host::reply_to_action`] as a result: the output with its data
    /// (parsed when first read), or the typed error (a component that cannot run at all is
    /// an `internal` error carrying the host's reason).
    pub fn call(
        &mut self,
        tool: &str,
        action: &str,
        params: &str,
        ctx: &CallContext,
    ) -> Result<ToolOutput, ToolError> {
        self.reply_to_action(tool, action, params, ctx)
            .map_err(host_failure)?
            .into_result()
    }

    /// [`Host::reply`] as a result, for a request in the contract's calling
    /// convention, `{"action": …, "params": {…}}`.
    pub fn call_json(
        &mut self,
        request: &str,
        tool: &str,
        ctx: &CallContext,
    ) -> Result<ToolOutput, ToolError> {
        self.reply(tool, request, ctx)
            .map_err(host_failure)?
            .into_result()
    }

    /// The component's reply to a call the host could not finish. It runs
    /// under limits of its own (at least 1 s and 16 MiB), since the call's own limits (a zero
    /// timeout, a tiny memory cap) may be what failed; a fresh instance
    /// made for it is not kept for the calls that follow.
    pub fn failed(&mut self, failure: &CallFailure) -> Result<ToolReply, HostError> {
        self.under_reply_limits(|b, store| {
            b.tasklists_component_tools().call_failed(store, failure)
        })
        .map_err(|trapped| self.trap_error(trapped))
    }

    /// Runs `f` under the limits of a failure's reply; a fresh instance
    /// made for it is not kept for the calls that follow.
    fn under_reply_limits<R>(
        &mut self,
        f: impl FnOnce(&Tasklists, &mut Store<HostState>) -> wasmtime::Result<R>,
    ) -> Result<R, trap::Trapped> {
        let limits = (self.call_timeout, self.memory_limit_bytes);
        let fresh = self.live.is_none();
        self.call_timeout = self.call_timeout.max(REPLY_TIMEOUT);
        self.memory_limit_bytes = self.memory_limit_bytes.max(REPLY_MEMORY_BYTES);
        let result = self.invoke(f);
        (self.call_timeout, self.memory_limit_bytes) = limits;
        if fresh && let Some(live) = self.live.take() {
            self.park(live.store);
        }
        result
    }

    /// The host error for a failed call that has no reply: the
    /// component's words for why (`describe-failure`, asked as `failed`
    /// is), or the failure as classified when it cannot say.
    fn trap_error(&mut self, trapped: trap::Trapped) -> HostError {
        let kind = trapped.kind;
        match self.under_reply_limits(|b, store| {
            b.tasklists_component_tools()
                .call_describe_failure(store, &kind)
        }) {
            Ok(reason) => HostError::Trap(reason),
            Err(_) => HostError::Unworded(kind),
        }
    }

    /// Runs a call that has no reply of its own (catalogue, renderers,
    /// views): a failure is the host's error, worded by the component.
    pub(crate) fn plain<R>(
        &mut self,
        f: impl FnOnce(&Tasklists, &mut Store<HostState>) -> wasmtime::Result<R>,
    ) -> Result<R, HostError> {
        self.invoke(f).map_err(|trapped| self.trap_error(trapped))
    }

    /// Runs one call within the size limit; a call that traps is answered
    /// by a fresh instance with the component's words for what happened.
    fn run_call(
        &mut self,
        whole_request: bool,
        size: usize,
        f: impl FnOnce(&Tools, &mut Store<HostState>) -> wasmtime::Result<ToolReply>,
    ) -> Result<ToolReply, HostError> {
        let failure = |kind, writes| CallFailure {
            whole_request,
            kind,
            writes,
        };
        if size > self.max_params_bytes {
            let limit = SizeLimit {
                bytes: size as u64,
                limit: self.max_params_bytes as u64,
            };
            return self.failed(&failure(
                FailureKind::TooLarge(limit),
                WriteState::NotApplied,
            ));
        }
        match self.invoke(|b, store| f(b.tasklists_component_tools(), store)) {
            Ok(reply) => Ok(reply),
            Err(trapped) => self.failed(&failure(trapped.kind, trapped.writes)),
        }
    }

    /// The five tools with descriptions, JSON Schemas and annotations.
    pub fn catalogue(&mut self) -> Result<Vec<ToolInfo>, HostError> {
        self.plain(|b, store| b.tasklists_component_tools().call_catalogue(store))
    }

    /// Renders a successful result (`data_json` as the tool returned it:
    /// [`crate::Data::json`]).
    pub fn render_result(
        &mut self,
        tool: &str,
        action: &str,
        data_json: &str,
    ) -> Result<Vec<Line>, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_render_result(store, tool, action, data_json)
        })
    }

    /// Renders the reply to a call made with `arguments`: the result, or
    /// the error and its hint.
    pub fn render_reply(
        &mut self,
        tool: &str,
        arguments: &str,
        reply: &ToolReply,
    ) -> Result<Vec<Line>, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_render_reply(store, tool, arguments, reply)
        })
    }

    /// Renders a failed call: the error, then its hint.
    pub fn render_error(&mut self, err: &ToolError) -> Result<Vec<Line>, HostError> {
        self.plain(|b, store| b.tasklists_component_ui().call_render_error(store, err))
    }

    /// Renders the call itself (tool, action, key params) in one line.
    pub fn render_call(
        &mut self,
        tool: &str,
        action: &str,
        params_json: &str,
    ) -> Result<Vec<Line>, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_render_call(store, tool, action, params_json)
        })
    }

    /// The names of the component's imports, e.g. `wasi:cli/stdin@0.2.6`
    /// and `tasklists:component/store@0.1.0`.
    pub fn component_imports(&self) -> Vec<String> {
        engine::import_names(&self.runtime)
    }

    /// Changes the per-call time limit from the next call on.
    pub fn set_call_timeout(&mut self, timeout: Duration) {
        self.call_timeout = timeout;
    }

    /// Arms (or, with `None`, disarms) a test fault from the next call on.
    #[cfg(any(test, feature = "fault-injection"))]
    pub fn set_fault_injection(&mut self, fault: Option<FaultInjection>) {
        match (&mut self.live, &mut self.parked) {
            (Some(live), _) => live.store.data_mut().store.faults.arm(fault),
            (None, Some(parked)) => parked.faults.arm(fault),
            (None, None) => {}
        }
    }

    /// Runs `f` on a live instance within the call limits, then rolls back
    /// whatever transaction it left open. A trap discards the instance.
    pub(crate) fn invoke<R>(
        &mut self,
        f: impl FnOnce(&Tasklists, &mut Store<HostState>) -> wasmtime::Result<R>,
    ) -> Result<R, trap::Trapped> {
        // The epoch ticks while this call (instantiation included) runs.
        let _ticking = engine::ticking();
        let Live {
            mut store,
            bindings,
            calls,
        } = match self.live.take() {
            Some(live) => live,
            None => self.instantiate()?,
        };
        store.set_epoch_deadline(engine::deadline_ticks(self.call_timeout));
        store.data_mut().store.begin_call();
        self.deadline.start(sql_budget(self.call_timeout));
        let result = f(&bindings, &mut store);
        self.deadline.clear();
        let session = store.data_mut().store.session();
        let left_open = session.end_call();
        let writes = session.write_state().into();
        match result {
            // Returning with a write still open is a component bug that
            // would silently lose the write: say so instead.
            Ok(_) if left_open == Some(true) => {
                self.park(store);
                Err(trap::Trapped::uncommitted())
            }
            Ok(value) => {
                let calls = calls + 1;
                let wrote_stderr = !store.data().stderr.contents().is_empty();
                if calls >= MAX_CALLS_PER_INSTANCE || wrote_stderr {
                    self.park(store);
                } else {
                    self.live = Some(Live {
                        store,
                        bindings,
                        calls,
                    });
                }
                Ok(value)
            }
            Err(error) => Err(self.discard(store, &error).writes(writes)),
        }
    }

    /// A fresh instance around the parked store state.
    fn instantiate(&mut self) -> Result<Live, trap::Trapped> {
        let store_ctx = self.parked.take().ok_or_else(trap::Trapped::lost_store)?;
        let stderr = MemoryOutputPipe::new(STDERR_CAPTURE_BYTES);
        let state = HostState {
            store: store_ctx,
            clock: self.clock.clone(),
            wasi: sandbox::deny_all_wasi(stderr.clone()),
            table: ResourceTable::new(),
            limiter: Limiter::new(self.memory_limit_bytes),
            stderr,
        };
        let mut store = Store::new(&self.runtime.engine, state);
        store.limiter(|state| &mut state.limiter);
        // Instantiation runs the component's initializers: bound them too.
        store.set_epoch_deadline(engine::deadline_ticks(self.call_timeout));
        match self.runtime.pre.instantiate(&mut store) {
            Ok(bindings) => Ok(Live {
                store,
                bindings,
                calls: 0,
            }),
            Err(error) => Err(self.discard(store, &error)),
        }
    }

    /// Keeps the connection of a store whose instance is done.
    fn park(&mut self, store: Store<HostState>) {
        self.parked = Some(store.into_data().store);
    }

    /// Describes a trap and drops the poisoned instance.
    fn discard(&mut self, store: Store<HostState>, error: &wasmtime::Error) -> trap::Trapped {
        let stderr = store.data().stderr.contents();
        let trapped = trap::Trapped::describe(error, &stderr, self.call_timeout);
        self.park(store);
        trapped
    }
}

/// A component that cannot run at all, as the `internal` error of a call.
fn host_failure(e: HostError) -> ToolError {
    ToolError {
        code: crate::bindings::ErrorCode::Internal,
        message: e.to_string(),
        hint: String::new(),
    }
}

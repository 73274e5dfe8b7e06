//! The process-wide runtime: one wasmtime `Engine` (component model, epoch
//! interruption), its epoch ticker thread (which ticks only while a call
//! runs: an idle process wakes for nothing), the component (compiled once,
//! cached on disk) and a linked `InstancePre`, so every `Host` in the
//! process shares them and a new instance costs microseconds.

use crate::bindings::{Tasklists, TasklistsPre};
use crate::cache;
use crate::error::HostError;
use crate::state::HostState;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::thread;
use std::time::Duration;
use wasmtime::component::{Component, HasSelf, Linker};
use wasmtime::{Config, Engine};

/// The component, built from `guest/` by `build.rs`.
pub(crate) static COMPONENT_WASM: &[u8] = include_bytes!(env!("TASKLISTS_COMPONENT_PATH"));
/// Its SHA-256, hex (the cache key).
pub(crate) const COMPONENT_SHA256: &str = env!("TASKLISTS_COMPONENT_SHA256");

/// How often the ticker advances the epoch: the granularity of call timeouts.
pub(crate) const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Native stack the component may use. Generous for Rust code, small
/// enough to trap long before a host thread's stack (2 MiB in tests) ends.
const MAX_WASM_STACK: usize = 1 << 20;

/// Everything shared by the hosts of a process.
pub(crate) struct Runtime {
    /// The engine (also ticked by the epoch thread).
    pub(crate) engine: Engine,
    /// The compiled component.
    pub(crate) component: Component,
    /// The component linked against WASI, `store` and `clock`.
    pub(crate) pre: TasklistsPre<HostState>,
}

static RUNTIME: Mutex<Option<Arc<Runtime>>> = Mutex::new(None);

/// Calls running in the process now: the ticker sleeps while there are
/// none (a server waiting for its next request costs no wakeups).
static RUNNING: AtomicUsize = AtomicUsize::new(0);
/// The ticker thread, woken when a call starts.
static TICKER: OnceLock<thread::Thread> = OnceLock::new();

/// A call in flight: while one exists the epoch ticks, so its deadline
/// can trap it.
pub(crate) struct Ticking(());

/// Marks a call as running until the returned guard is dropped.
pub(crate) fn ticking() -> Ticking {
    RUNNING.fetch_add(1, Ordering::SeqCst);
    if let Some(ticker) = TICKER.get() {
        // An unpark before the ticker parks is kept: it cannot be lost.
        ticker.unpark();
    }
    Ticking(())
}

impl Drop for Ticking {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The process's runtime, loading it on first use. Loading holds a lock,
/// so threads opening hosts at once compile the component only once.
pub(crate) fn runtime(cache_dir: Option<&Path>) -> Result<Arc<Runtime>, HostError> {
    let mut slot = RUNTIME.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(runtime) = slot.as_ref() {
        if let Some(dir) = cache_dir {
            cache::ensure_stored(&runtime.engine, &runtime.component, COMPONENT_SHA256, dir);
        }
        return Ok(Arc::clone(runtime));
    }
    let runtime = Arc::new(load(cache_dir)?);
    start_ticker(&runtime.engine);
    *slot = Some(Arc::clone(&runtime));
    Ok(runtime)
}

/// The engine configuration every compiled artifact depends on.
pub(crate) fn new_engine() -> Result<Engine, HostError> {
    let mut config = Config::new();
    config
        .wasm_component_model(true)
        .epoch_interruption(true)
        .max_wasm_stack(MAX_WASM_STACK);
    // For profiling only: `perf record` then names the component's
    // functions (BENCHMARKS.md, "Where a read's time goes").
    if std::env::var_os("TASKLISTS_PERFMAP").is_some() {
        config.profiler(wasmtime::ProfilingStrategy::PerfMap);
    }
    Engine::new(&config).map_err(component_error)
}

fn load(cache_dir: Option<&Path>) -> Result<Runtime, HostError> {
    let engine = new_engine()?;
    let (component, _outcome) = cache::load(&engine, COMPONENT_WASM, COMPONENT_SHA256, cache_dir)?;

    let mut linker = Linker::<HostState>::new(&engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker).map_err(component_error)?;
    Tasklists::add_to_linker::<HostState, HasSelf<HostState>>(&mut linker, |state| state)
        .map_err(component_error)?;
    let pre = linker
        .instantiate_pre(&component)
        .and_then(TasklistsPre::new)
        .map_err(component_error)?;
    Ok(Runtime {
        engine,
        component,
        pre,
    })
}

/// One thread per process advances the epoch while a call runs (parked
/// otherwise); a call's deadline is a number of ticks. It holds only a
/// weak reference to the engine.
fn start_ticker(engine: &Engine) {
    let engine = engine.weak();
    let spawned = thread::Builder::new()
        .name("tasklists-epoch".into())
        .spawn(move || {
            loop {
                if RUNNING.load(Ordering::SeqCst) == 0 {
                    // Woken by the next call (or spuriously: checked again).
                    thread::park();
                    continue;
                }
                thread::sleep(EPOCH_TICK);
                match engine.upgrade() {
                    Some(engine) => engine.increment_epoch(),
                    None => return,
                }
            }
        });
    // Without the thread, calls would simply never time out; still usable.
    if let Ok(handle) = spawned {
        let _ = TICKER.set(handle.thread().clone());
    }
}

/// The epoch deadline for `timeout`: zero traps at the first check; any
/// other timeout is rounded up, plus one tick because the next tick may
/// come at any moment after the deadline is set.
pub(crate) fn deadline_ticks(timeout: Duration) -> u64 {
    if timeout.is_zero() {
        return 0;
    }
    let ticks = timeout.as_nanos().div_ceil(EPOCH_TICK.as_nanos());
    u64::try_from(ticks).unwrap_or(u64::MAX / 2) + 1
}

fn component_error(e: wasmtime::Error) -> HostError {
    HostError::Component(format!("{e:#}"))
}

/// The names of the component's imports (`wasi:cli/environment@0.2.x`,
/// `tasklists:component/store@0.1.0`, …).
pub(crate) fn import_names(runtime: &Runtime) -> Vec<String> {
    let ty = runtime.component.component_type();
    ty.imports(&runtime.engine)
        .map(|(name, _)| name.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::CacheOutcome;

    #[test]
    fn deadline_rounds_up() {
        assert_eq!(deadline_ticks(Duration::ZERO), 0);
        assert_eq!(deadline_ticks(Duration::from_millis(1)), 2);
        assert_eq!(deadline_ticks(Duration::from_millis(10)), 2);
        assert_eq!(deadline_ticks(Duration::from_secs(10)), 1001);
    }

    #[test]
    fn cache_file_is_reused_and_repaired() {
        let dir = tempfile::tempdir().unwrap();
        let engine = new_engine().unwrap();
        let (_, first) =
            cache::load(&engine, COMPONENT_WASM, COMPONENT_SHA256, Some(dir.path())).unwrap();
        assert_eq!(first, CacheOutcome::Stored);
        let file = cache::cache_file(&engine, COMPONENT_SHA256, dir.path());
        assert!(file.is_file());
        let (_, second) =
            cache::load(&engine, COMPONENT_WASM, COMPONENT_SHA256, Some(dir.path())).unwrap();
        assert_eq!(second, CacheOutcome::Hit);

        // A damaged file is ignored and replaced.
        std::fs::write(&file, b"garbage").unwrap();
        let (_, third) =
            cache::load(&engine, COMPONENT_WASM, COMPONENT_SHA256, Some(dir.path())).unwrap();
        assert_eq!(third, CacheOutcome::Stored);
        let (_, fourth) =
            cache::load(&engine, COMPONENT_WASM, COMPONENT_SHA256, Some(dir.path())).unwrap();
        assert_eq!(fourth, CacheOutcome::Hit);
        // No temporary files are left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}

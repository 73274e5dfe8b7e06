//! The deny-all world the component runs in: what `wasm32-wasip2` std
//! imports is satisfied, but there is nothing behind it (no files, env,
//! args, stdin, network or wall time), plus per-instance resource limits.
//! The component's only real capabilities are our `store` and `clock`.

use std::fmt;
use std::time::Duration;
use wasmtime::ResourceLimiter;
use wasmtime_wasi::p2::pipe::{ClosedInputStream, MemoryOutputPipe, SinkOutputStream};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxBuilder};

/// Table elements one instance may have (Rust needs a few hundred).
const MAX_TABLE_ELEMENTS: usize = 1 << 16;
/// Core instances, tables and memories one component instance may create.
const MAX_INSTANCES: usize = 64;
const MAX_TABLES: usize = 64;
const MAX_MEMORIES: usize = 16;

/// Builds the WASI context of one instance. The builder's defaults are
/// already closed, but every door is shut explicitly so that a change of
/// defaults in wasmtime-wasi cannot silently open one.
pub(crate) fn deny_all_wasi(stderr: MemoryOutputPipe) -> WasiCtx {
    let mut builder = WasiCtxBuilder::new();
    builder
        // No preopens, env or args are ever added: the builder starts empty.
        .stdin(ClosedInputStream)
        .stdout(SinkOutputStream)
        .stderr(stderr)
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false)
        .socket_addr_check(|_, _| Box::pin(async { false }))
        // Time must come from the `clock` import (which tests drive), so
        // the WASI clocks are frozen at the epoch: code that reads them by
        // mistake gets an obviously wrong time instead of a real one.
        .wall_clock(FrozenClock)
        .monotonic_clock(FrozenClock);
    builder.build()
}

/// A clock stuck at zero.
struct FrozenClock;

impl HostWallClock for FrozenClock {
    fn resolution(&self) -> Duration {
        Duration::from_secs(1)
    }

    fn now(&self) -> Duration {
        Duration::ZERO
    }
}

impl HostMonotonicClock for FrozenClock {
    fn resolution(&self) -> u64 {
        1_000_000_000
    }

    fn now(&self) -> u64 {
        0
    }
}

/// Caps what one instance may allocate. Exceeding the memory cap traps at
/// once (instead of letting `memory.grow` fail, which Rust turns into an
/// abort with a less useful message).
pub(crate) struct Limiter {
    memory_limit_bytes: usize,
}

impl Limiter {
    /// A limiter with this memory cap.
    pub(crate) fn new(memory_limit_bytes: usize) -> Self {
        Limiter { memory_limit_bytes }
    }
}

/// The trap raised when the component outgrows its memory cap.
#[derive(Debug)]
pub(crate) struct MemoryLimitExceeded {
    /// The size the component asked for.
    pub(crate) desired: usize,
    /// The cap.
    pub(crate) limit: usize,
}

impl fmt::Display for MemoryLimitExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the component's memory would grow to {} KiB, over its limit of {} KiB",
            self.desired >> 10,
            self.limit >> 10
        )
    }
}

impl std::error::Error for MemoryLimitExceeded {}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_limit_bytes {
            return Err(MemoryLimitExceeded {
                desired,
                limit: self.memory_limit_bytes,
            }
            .into());
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }

    fn instances(&self) -> usize {
        MAX_INSTANCES
    }

    fn tables(&self) -> usize {
        MAX_TABLES
    }

    fn memories(&self) -> usize {
        MAX_MEMORIES
    }
}

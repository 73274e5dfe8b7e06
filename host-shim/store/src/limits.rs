//! The limits every host puts on one call into the component by default,
//! defined once so that the wasmtime host and the Node host agree.

use std::time::Duration;

/// Default per-call time limit of the component.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// Default cap on the component's linear memory, per instance.
pub const DEFAULT_MEMORY_LIMIT_BYTES: usize = 64 << 20;
/// Default cap on the size of a call's params (and of a whole request).
pub const DEFAULT_MAX_PARAMS_BYTES: usize = 4 << 20;
/// Default time a write waits for another process's lock before `busy`.
/// Kept well under [`DEFAULT_CALL_TIMEOUT`], so a lock held too long is a
/// typed `busy` error rather than a timeout (the wait also stops at the
/// call's own deadline).
pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How many calls one instance serves before it is replaced.
///
/// Instances are kept between calls: a fresh one per call was measured at
/// 2x the cost of a call (claim_next 460 µs fresh vs 240 µs reused,
/// task_lists get 1.29 ms vs 0.66 ms, on a busy 2-core machine), because
/// every call then re-grows linear memory and redoes the component's
/// first-call setup. What a long-lived instance could accumulate stays
/// bounded: a trap always discards the instance, so does any output on
/// stderr (only panics write there, and the capture buffer is finite),
/// and after this many calls it is recycled anyway (allocator
/// fragmentation, caches). The memory cap applies per instance.
pub const MAX_CALLS_PER_INSTANCE: u32 = 1_000;
/// How much of the component's stderr is kept per instance: Rust writes
/// its panic message there just before trapping; hosts quote it.
pub const STDERR_CAPTURE_BYTES: usize = 16 << 10;
/// The time limit of a failure's reply (`failed`), whatever the call's
/// own was: the call's limits may be what failed.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(1);
/// The memory cap of a failure's reply, whatever the call's own was.
pub const REPLY_MEMORY_BYTES: usize = 16 << 20;

"""The limits every host puts on one call by default: the same values as
the store crate's `limits.rs`, which the wasmtime and Node hosts share."""

#: Wall-time limit of one call into the component, in milliseconds.
CALL_TIMEOUT_MS = 10_000
#: Cap on the component's linear memory, per instance.
MEMORY_LIMIT_BYTES = 64 << 20
#: Arguments (or params) larger than this are refused before the component runs.
MAX_PARAMS_BYTES = 4 << 20
#: How long a write waits for another process's lock before `busy`.
BUSY_TIMEOUT_MS = 5_000
#: Calls one instance serves before it is replaced.
MAX_CALLS_PER_INSTANCE = 1_000
#: How much of the component's stderr is kept per instance (panic messages).
STDERR_CAPTURE_BYTES = 16 << 10
#: Time limit of a failure's reply (`failed`), whatever the call's own was.
REPLY_TIMEOUT_MS = 1_000
#: Memory cap of a failure's reply, whatever the call's own was.
REPLY_MEMORY_BYTES = 16 << 20
#: How often the epoch ticks while a call runs: the granularity of timeouts.
EPOCH_TICK_MS = 10
#: The SQL work of a call stops at this share of its time limit, so a lock
#: held too long is a typed `busy` rather than a timeout (`sql_budget`).
SQL_BUDGET_SHARE = 0.8

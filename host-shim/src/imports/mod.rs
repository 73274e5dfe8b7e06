//! Host implementations of the component's imports, one file per WIT
//! interface (as wasmtime-wasi lays out `host/clocks.rs`, `host/random.rs`, …).
//! WASI itself is provided by wasmtime-wasi, closed down in [`crate::sandbox`].

pub(crate) mod clock;
#[cfg(feature = "statement-log")]
pub(crate) mod statement_log;
pub(crate) mod store;

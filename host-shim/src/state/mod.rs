//! The data of one wasmtime `Store`: everything host functions can reach
//! while the component runs (the `T` of `Store<T>`, as `WasiCtx` +
//! `ResourceTable` are in wasmtime-wasi's examples).

#[cfg(any(test, feature = "fault-injection"))]
pub(crate) mod faults;
pub(crate) mod store;

use crate::sandbox::Limiter;
use crate::time_source::Clock;
use std::sync::Arc;
use store::StoreImport;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::p2::pipe::MemoryOutputPipe;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// Per-instance state. Only `store` (the connection) and `clock` survive
/// an instance: the rest is rebuilt with every fresh instance.
pub(crate) struct HostState {
    /// The `store` import: the backend (its connection) and its transactions.
    pub(crate) store: StoreImport,
    /// The `clock` import's source; `None`: the store's clock, else the
    /// system clock.
    pub(crate) clock: Option<Arc<dyn Clock>>,
    /// The deny-all WASI context.
    pub(crate) wasi: WasiCtx,
    /// Resources handed to the component (transactions, WASI streams).
    pub(crate) table: ResourceTable,
    /// Memory and table caps.
    pub(crate) limiter: Limiter,
    /// The component's stderr (its panic message), quoted on a trap.
    pub(crate) stderr: MemoryOutputPipe,
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

//! The `clock` import: the component's only time source, read from the
//! [`crate::Clock`] the host was configured with.

use crate::bindings::tasklists::component::clock as wit;
use crate::state::HostState;

impl wit::Host for HostState {
    fn now_ms(&mut self) -> wasmtime::Result<i64> {
        Ok(self.clock.now_ms())
    }
}

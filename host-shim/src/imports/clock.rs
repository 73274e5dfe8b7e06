//! The `clock` import: the component's only time source, read from the
//! [`crate::Clock`] the host was configured with, else from the store (a
//! database server that several machines share is the one clock they all
//! agree on), else from the system clock.

use crate::bindings::tasklists::component::clock as wit;
use crate::state::HostState;
use crate::time_source::{Clock, SystemClock};

impl wit::Host for HostState {
    fn now_ms(&mut self) -> wasmtime::Result<i64> {
        if let Some(clock) = &self.clock {
            return Ok(clock.now_ms());
        }
        Ok(self
            .store
            .session()
            .now_ms()
            .unwrap_or_else(|| SystemClock.now_ms()))
    }

    /// The store's clock is the one `now_ms` reads when the host was given
    /// none and the store keeps one (PostgreSQL's server).
    fn store_clock(&mut self) -> wasmtime::Result<bool> {
        Ok(self.clock.is_none() && self.store.session().keeps_clock())
    }
}

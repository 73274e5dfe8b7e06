//! The change check behind live views: a host that shows a widget or a
//! `watch` screen polls it on a timer and reads the lists again only when
//! it moved, instead of running a tool call every tick.

use crate::StoreError;
use std::time::Duration;

/// A cheap check of whether the store changed.
pub trait Watch: Send {
    /// A number that differs from the last one read whenever a write was
    /// committed in between, by any process; `None` while the store does
    /// not exist yet. An error means "unknown now": read again later.
    fn version(&mut self) -> Result<Option<u64>, StoreError>;

    /// Bounds how long one check may wait on the store (connecting and
    /// asking) from now on: a live view that polls every second wants to
    /// hear "unreachable" soon, not hold a thread on a server that does not
    /// answer. A store that never waits on anything ignores it.
    fn set_limit(&mut self, limit: Duration) {
        let _ = limit;
    }
}

//! The change check behind live views: a host that shows a widget or a
//! `watch` screen polls it on a timer and reads the lists again only when
//! it moved, instead of running a tool call every tick.

use crate::StoreError;

/// A cheap check of whether the store changed.
pub trait Watch: Send {
    /// A number that differs from the last one read whenever a write was
    /// committed in between, by any process; `None` while the store does
    /// not exist yet. An error means "unknown now": read again later.
    fn version(&mut self) -> Result<Option<u64>, StoreError>;
}

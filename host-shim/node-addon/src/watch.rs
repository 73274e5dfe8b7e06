//! The store's change check for hosts with live views (Pi's widget, a
//! `watch` screen): cheap enough to call from the main thread on a timer.

use crate::errors::store_error;
use napi_derive::napi;
use tasklists_store::{Location, Watch};

/// A change check on one store, on a connection of its own.
#[napi]
pub struct ChangeWatch {
    watch: Box<dyn Watch>,
}

#[napi]
impl ChangeWatch {
    /// A check on the store at `location`, a database file path (never
    /// created by it) or a PostgreSQL connection string, as for `Store`.
    #[napi(constructor)]
    pub fn new(location: String) -> Self {
        ChangeWatch {
            watch: tasklists_store::watch(&Location::from(location.as_str())),
        }
    }

    /// A number that changes whenever a write was committed since the last
    /// read, by any process; `null` while the database does not exist.
    /// Throws (`code` `store:…`) when it cannot tell now.
    #[napi]
    pub fn version(&mut self) -> napi::Result<Option<f64>, String> {
        let version = self.watch.version().map_err(store_error)?;
        // Only a change matters to the caller; a number carries any
        // counter below 2^53 exactly (SQLite's data_version is a small one).
        Ok(version.map(|v| v as f64))
    }
}

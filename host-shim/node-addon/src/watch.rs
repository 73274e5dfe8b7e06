//! The store's change check for hosts with live views (Pi's widget, a
//! `watch` screen). A check may wait on the network (a PostgreSQL server
//! that does not answer), so it never runs on the caller's thread: each one
//! is a task on libuv's thread pool, its answer a promise, its wait bounded
//! by a limit the host sets, and at most one runs at a time per watch.

use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Error, Status, Task};
use napi_derive::napi;
use std::sync::{Arc, Mutex, TryLockError};
use std::time::Duration;
use tasklists_store::{Location, Watch};

use crate::convert::store_error;

/// A change check on one store, on a connection of its own.
#[napi]
pub struct ChangeWatch {
    watch: Arc<Mutex<Box<dyn Watch>>>,
}

#[napi]
impl ChangeWatch {
    /// A check on the store at `location`, a database file path (never
    /// created by it) or a PostgreSQL connection string, as for `Store`;
    /// one check waits at most `limit_ms` on the store (connecting, then
    /// asking).
    #[napi(constructor)]
    pub fn new(location: String, limit_ms: u32) -> Self {
        let mut watch = Location::from(location.as_str()).watch();
        watch.set_limit(Duration::from_millis(u64::from(limit_ms)));
        ChangeWatch {
            watch: Arc::new(Mutex::new(watch)),
        }
    }

    /// Checks on libuv's thread pool: resolves with a number that changes
    /// whenever a write was committed since the last read, by any process,
    /// or `null` while the database does not exist; rejects with the
    /// store's words when it cannot tell now, and at once when a check is
    /// still running (no second pool thread waits on the same store).
    #[napi(ts_return_type = "Promise<number | null>")]
    pub fn check(&self) -> AsyncTask<Check> {
        AsyncTask::new(Check {
            watch: Arc::clone(&self.watch),
        })
    }
}

/// One check, run off the caller's thread.
pub struct Check {
    watch: Arc<Mutex<Box<dyn Watch>>>,
}

impl Task for Check {
    type Output = Option<f64>;
    type JsValue = Option<f64>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        let mut watch = match self.watch.try_lock() {
            Ok(watch) => watch,
            // A check that panicked left the watch usable: its next
            // check connects afresh if it must.
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(Error::new(
                    Status::GenericFailure,
                    "a change check of this store is still running",
                ));
            }
        };
        // Only a change matters to the caller; a number carries any
        // counter below 2^53 exactly (SQLite's data_version is a small one).
        watch
            .version()
            .map(|v| v.map(|v| v as f64))
            .map_err(|e| Error::new(Status::GenericFailure, store_error(e).reason))
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        Ok(output)
    }
}

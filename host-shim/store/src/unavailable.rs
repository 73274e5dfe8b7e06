//! The stand-in for a backend this build left out (a host built without
//! the `postgres` feature pointed at a server, say): every transaction
//! fails with a typed error saying so, instead of the host failing to
//! build or panicking.

use crate::{
    Backend, Dialect, Location, OpenError, Rows, StoreError, TxId, Value, Watch, WriteState,
};

/// A store whose engine is not in this build.
pub(crate) struct Unavailable {
    location: String,
    dialect: Dialect,
    feature: &'static str,
}

impl Unavailable {
    /// The stand-in for `location`.
    pub(crate) fn new(location: &Location) -> Self {
        let (dialect, feature) = match location {
            Location::SqliteFile(_) => (Dialect::Sqlite, "sqlite"),
            Location::Postgres(_) => (Dialect::Postgres, "postgres"),
        };
        Unavailable {
            location: location.to_string(),
            dialect,
            feature,
        }
    }

    fn reason(&self) -> String {
        format!(
            "this build has no {} support (the `{}` feature of tasklists-store)",
            match self.dialect {
                Dialect::Sqlite => "SQLite",
                Dialect::Postgres => "PostgreSQL",
            },
            self.feature
        )
    }

    fn error(&self) -> StoreError {
        StoreError::Io(format!("cannot open {}: {}", self.location, self.reason()))
    }
}

impl Backend for Unavailable {
    fn dialect(&self) -> Dialect {
        self.dialect
    }

    fn connect(&mut self) -> Result<(), OpenError> {
        Err(OpenError::Server {
            location: self.location.clone(),
            reason: self.reason(),
        })
    }

    fn begin_call(&mut self) {}

    fn end_call(&mut self) -> Option<bool> {
        None
    }

    fn write_state(&self) -> WriteState {
        WriteState::NotApplied
    }

    fn begin(&mut self, _write: bool) -> Result<TxId, StoreError> {
        Err(self.error())
    }

    fn execute(&mut self, _tx: TxId, _sql: &str, _params: &[Value]) -> Result<u64, StoreError> {
        Err(self.error())
    }

    fn query(&mut self, _tx: TxId, _sql: &str, _params: &[Value]) -> Result<Rows, StoreError> {
        Err(self.error())
    }

    fn commit(&mut self, _tx: TxId) -> Result<(), StoreError> {
        Err(self.error())
    }

    fn rollback(&mut self, _tx: TxId) -> Result<(), StoreError> {
        Err(self.error())
    }

    fn abandon(&mut self, _tx: TxId) {}
}

impl Watch for Unavailable {
    fn version(&mut self) -> Result<Option<u64>, StoreError> {
        Err(self.error())
    }
}

//! The PostgreSQL change check: the highest event number, on a connection
//! of its own that never writes. Every write of the component appends to
//! `events` (a bigint `seq`), whoever made it, so the number moves on
//! every committed write of any host; the primary key makes it one index
//! lookup.

use super::config::PgLocation;
use super::errors::{self, Failure};
use super::session::Session;
use crate::{StoreError, Watch};
use std::time::Duration;
use tokio_postgres::SimpleQueryMessage;

/// The change number.
const VERSION: &str = "SELECT COALESCE(MAX(seq), 0)::int8 FROM events";

/// How long one check may take unless the host sets a limit of its own: a
/// live view polls again soon anyway.
const CHECK_LIMIT: Duration = Duration::from_secs(5);

/// A change check on one database.
pub struct PostgresWatch {
    location: PgLocation,
    session: Option<Session>,
    /// How long connecting, and then the query, may take.
    limit: Duration,
}

impl PostgresWatch {
    /// A check on the database at `location`; nothing is connected yet.
    pub fn new(location: PgLocation) -> Self {
        PostgresWatch {
            location,
            session: None,
            limit: CHECK_LIMIT,
        }
    }
}

impl Watch for PostgresWatch {
    /// `None` while the database or its `events` table does not exist
    /// yet (nothing wrote it); an unreachable server is an error, and the
    /// next check connects again.
    fn version(&mut self) -> Result<Option<u64>, StoreError> {
        if self.session.is_none() {
            match Session::open(&self.location, Some(self.limit)) {
                Ok(session) => self.session = Some(session),
                Err(e) if e.sqlstate.as_deref() == Some("3D000") => return Ok(None),
                Err(e) => return Err(StoreError::Io(e.error.to_string())),
            }
        }
        let session = self.session.as_ref().expect("connected above");
        match session.simple(VERSION, self.limit) {
            Ok(messages) => Ok(messages
                .iter()
                .find_map(|m| match m {
                    SimpleQueryMessage::Row(row) => row.get(0)?.parse::<i64>().ok(),
                    _ => None,
                })
                .map(|seq| seq as u64)),
            Err(failure) if failure.code() == Some("42P01") => Ok(None),
            Err(failure) => {
                let closed = session.closed_reason();
                let mapped = errors::map(&failure, closed.as_deref(), &self.location);
                if mapped.lost {
                    if matches!(failure, Failure::TimedOut) {
                        session.cancel();
                    }
                    // Connect afresh next time (a restarted server).
                    self.session = None;
                }
                Err(mapped.error)
            }
        }
    }

    fn set_limit(&mut self, limit: Duration) {
        self.limit = limit.max(Duration::from_millis(1));
    }
}

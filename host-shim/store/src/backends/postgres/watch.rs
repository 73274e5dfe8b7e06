//! The PostgreSQL change check: the highest event number, and how many
//! events the last [`RECENT`] numbers hold, on a connection of its own that
//! never writes. Every write of the component appends to `events` (a
//! bigint `seq`), whoever made it. Writers to different lists commit in
//! any order, so a number taken earlier may commit after a higher one: the
//! highest number alone would not move then, the count of recent events
//! does. The primary key makes both index range reads.

use super::config::PgLocation;
use super::errors::{self, Failure};
use super::session::Session;
use crate::{StoreError, Watch};
use std::time::Duration;
use tokio_postgres::SimpleQueryMessage;

/// How far below the highest event number a write still in flight may
/// have taken its number and be counted when it commits: more events than
/// this, all written during one call of another writer (its deadline is
/// seconds), would be needed to miss it.
const RECENT: i64 = 10_000;

/// The highest event number, and the count of events above it less
/// [`RECENT`].
const VERSION: &str = "SELECT m, (SELECT count(*) FROM events WHERE seq > m - 10000)::int8 \
     FROM (SELECT COALESCE(MAX(seq), 0)::int8 AS m FROM events) AS top";

/// One change number of the two: the count is below 2^20 (at most
/// [`RECENT`]), so any change of either changes it.
pub(super) fn version_of(top: i64, recent: i64) -> u64 {
    debug_assert!((0..=RECENT).contains(&recent), "{recent}");
    ((top as u64) << 20) ^ (recent as u64)
}

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
            Ok(messages) => Ok(messages.iter().find_map(|m| match m {
                SimpleQueryMessage::Row(row) => Some(version_of(
                    row.get(0)?.parse().ok()?,
                    row.get(1)?.parse().ok()?,
                )),
                _ => None,
            })),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_commit_below_the_top_changes_the_version() {
        assert!(VERSION.contains(&RECENT.to_string()));
        assert_ne!(version_of(10, 2), version_of(10, 3));
        assert_ne!(version_of(10, 3), version_of(11, 3));
        assert_ne!(version_of(10, RECENT), version_of(11, 0));
    }
}

//! The raw-SQLite side of the baselines: a connection opened exactly as
//! the host's store opens its own (`tasklists_store::sqlite::open`: the
//! same PRAGMAs, planner stability, busy and progress handlers, statement
//! cache), with WAL on, as the store switches it on after its first write.

use rusqlite::Connection;
use std::path::Path;
use tasklists_host::DEFAULT_BUSY_TIMEOUT;
use tasklists_store::Deadline;

/// Opens (creating) the database at `path` like the host does.
pub fn open_like_host(path: &Path) -> Connection {
    let conn = tasklists_store::sqlite::open(path, DEFAULT_BUSY_TIMEOUT, &Deadline::new())
        .expect("the baseline database opens");
    tasklists_store::sqlite::enable_wal(&conn).expect("WAL");
    conn
}

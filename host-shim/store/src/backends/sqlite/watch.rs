//! The SQLite change check: `PRAGMA data_version` on a connection of its
//! own that never writes, so every commit by anyone (this process's
//! backend included) changes the number it reads. Reading it takes no
//! lock in WAL mode and never waits in rollback mode.

use super::errors::{Phase, map_error};
use crate::{StoreError, Watch};
use rusqlite::{Connection, OpenFlags};
use std::path::PathBuf;

/// A change check on one database file.
pub struct SqliteWatch {
    path: PathBuf,
    conn: Option<Connection>,
}

impl SqliteWatch {
    /// A check on the file at `path`; nothing is opened (or created) yet.
    pub fn new(path: PathBuf) -> Self {
        SqliteWatch { path, conn: None }
    }
}

impl Watch for SqliteWatch {
    fn version(&mut self) -> Result<Option<u64>, StoreError> {
        if self.conn.is_none() {
            // A check must never create the file: until a host writes it,
            // there is nothing to watch.
            if !self.path.is_file() {
                return Ok(None);
            }
            let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            let conn = Connection::open_with_flags(&self.path, flags)
                .map_err(|e| map_error(e, Phase::Run))?;
            self.conn = Some(conn);
        }
        let conn = self.conn.as_ref().expect("opened above");
        match conn.query_row("PRAGMA data_version", [], |row| row.get::<_, i64>(0)) {
            Ok(version) => Ok(Some(version as u64)),
            Err(e) => {
                // Look at the file afresh next time (it may have been
                // replaced or repaired).
                self.conn = None;
                Err(map_error(e, Phase::Run))
            }
        }
    }
}

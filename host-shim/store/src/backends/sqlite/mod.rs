//! The SQLite backend: one rusqlite connection behind [`Backend`], for
//! a location that is a file path ([`DESCRIPTOR`]).
//!
//! The connection is opened when the component first needs it (`begin`),
//! so what needs no store (`task_help`, the catalogue, the renderers)
//! works whatever state the database file is in. A call that fails on an
//! I/O error (a read-only file or `-shm`, a full disk, a file that cannot
//! be opened) closes it: the next call opens it again and sees the file
//! as it is then, so fixing permissions needs no restart.

mod busy;
mod descriptor;
mod errors;
mod heap_top;
mod open;
mod quiet_dir;
mod statements;
#[cfg(test)]
mod tests;
mod watch;

pub use descriptor::DESCRIPTOR;
pub use heap_top::keep_heap_top;
pub use open::{enable_wal, open};
pub use watch::SqliteWatch;

use crate::session::finished;
use crate::{
    Backend, BackendOptions, CommitFailure, Dialect, OpenError, Rows, StoreError, Tx, Value,
};
use errors::READ_ONLY;
use quiet_dir::{DirStamp, ends_in_link};
use rusqlite::Connection;
use statements::{run_control, run_execute, run_query};
use std::path::PathBuf;

/// A store on one SQLite file: the connection (opened on demand), and
/// what it must do when the call ends.
pub struct SqliteBackend {
    conn: Option<Connection>,
    path: PathBuf,
    options: BackendOptions,
    /// An I/O error happened in this call: close the connection when the
    /// call ends.
    reconnect: bool,
    /// Whether this connection already made sure the file is in WAL mode.
    wal: bool,
    /// Which file the connection opened (device, inode): a file renamed
    /// over the path (a restored backup) or deleted is noticed at the next
    /// `begin`, which then reopens the path instead of serving, and
    /// writing into, a file nobody else can see any more.
    opened: Option<(u64, u64)>,
    /// Which `-wal` file the connection has open (device, inode), once the
    /// database is in WAL mode: `None` before (and off unix). Someone who
    /// deletes it (`rm tasks.db-wal`) leaves every open connection writing
    /// into a file no new connection sees; the next `begin` notices,
    /// copies what that file holds into the database and reopens.
    wal_opened: Option<(u64, u64)>,
    /// The database's directory as it was (taken just before) when both
    /// files were last found unchanged, if it may stand for those checks
    /// while it stays the same (`quiet_dir.rs`).
    quiet_since: Option<DirStamp>,
    /// The path ends in a symbolic link (found once a stamp was settled):
    /// the directory is not looked at, the files are checked the full way.
    linked: bool,
    /// How many `begin`s checked the files the full way (for tests).
    #[cfg(test)]
    full_checks: usize,
}

/// What became of the `-wal` file a connection has open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WalState {
    /// Still the file at `<db>-wal` (or the connection is not in WAL mode).
    Same,
    /// Nothing at `<db>-wal`: removed, and nobody opened the database since.
    Gone,
    /// Another file at `<db>-wal`: created by a connection opened after the
    /// removal. `empty` while nobody wrote into it yet.
    Replaced { empty: bool },
}

/// The (device, inode) the path names now, if it names a file.
#[cfg(unix)]
fn file_identity(path: &std::path::Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// Without inodes the check is off: the connection is kept.
#[cfg(not(unix))]
fn file_identity(_path: &std::path::Path) -> Option<(u64, u64)> {
    None
}

/// The (device, inode) and length of the file at `path`, if there is one.
#[cfg(unix)]
fn file_identity_and_len(path: &std::path::Path) -> Option<((u64, u64), u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| ((m.dev(), m.ino()), m.len()))
}

/// The `-wal` file SQLite keeps next to the database at `path`.
fn wal_path(path: &std::path::Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push("-wal");
    PathBuf::from(name)
}

/// Copies every frame of the connection's WAL into the database and
/// empties the WAL (`TRUNCATE`). `Ok(false)`: a reader or writer kept it
/// from finishing within the busy budget.
fn checkpoint_truncate(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
        r.get::<_, i64>(0)
    })
    .map(|busy| busy == 0)
}

/// The WAL index lists frames the file this connection has open does not
/// hold: they are in the new `-wal` file, written by a connection that
/// opened it after an earlier checkpoint emptied the old one.
fn short_read(e: &rusqlite::Error) -> bool {
    e.sqlite_error()
        .is_some_and(|e| e.extended_code == rusqlite::ffi::SQLITE_IOERR_SHORT_READ)
}

impl SqliteBackend {
    /// A store on the database file at `path`, opened by the first call
    /// that needs it ([`open`] with these options).
    pub fn new(path: PathBuf, options: BackendOptions) -> Self {
        SqliteBackend {
            conn: None,
            path,
            options,
            reconnect: false,
            wal: false,
            opened: None,
            wal_opened: None,
            quiet_since: None,
            linked: false,
            #[cfg(test)]
            full_checks: 0,
        }
    }

    /// The connection, opening it if need be.
    fn connection(&mut self) -> Result<&Connection, OpenError> {
        if self.conn.is_none() {
            let options = &self.options;
            let conn = open(&self.path, options.busy_timeout, &options.deadline)?;
            self.opened = file_identity(&self.path);
            // `open` read the schema: a database already in WAL mode has
            // its `-wal` open now.
            self.wal = conn
                .query_row("PRAGMA journal_mode", [], |r| r.get::<_, String>(0))
                .is_ok_and(|mode| mode.eq_ignore_ascii_case("wal"));
            self.wal_opened = None;
            self.quiet_since = None;
            self.linked = false;
            self.conn = Some(conn);
            if self.wal {
                self.note_wal_file();
            }
        }
        Ok(self.conn.as_ref().expect("just opened"))
    }

    /// Records which `-wal` file the connection has open.
    fn note_wal_file(&mut self) {
        self.wal_opened = file_identity(&wal_path(&self.path));
    }

    /// Whether the `-wal` file the connection has open is still the one at
    /// the path: one `stat`, and none before the database is in WAL mode.
    #[cfg(unix)]
    fn wal_state(&self) -> WalState {
        let Some(opened) = self.wal_opened.filter(|_| self.conn.is_some()) else {
            return WalState::Same;
        };
        match file_identity_and_len(&wal_path(&self.path)) {
            Some((id, _)) if id == opened => WalState::Same,
            Some((_, len)) => WalState::Replaced { empty: len == 0 },
            None => WalState::Gone,
        }
    }

    /// Without inodes the check is off.
    #[cfg(not(unix))]
    fn wal_state(&self) -> WalState {
        WalState::Same
    }

    /// The `-wal` file the connection has open is no longer the one at the
    /// path: copy what it holds into the database through this connection
    /// (the only way left to reach those frames: acknowledged writes, this
    /// host's and other hosts' alike), then reopen, so the next
    /// transaction uses the file every new connection sees.
    ///
    /// Not when another connection already wrote into a new `-wal`: the
    /// WAL index then lists its frames, not the old file's (emptied by the
    /// checkpoint of whoever noticed first), so reading them from the old
    /// file would copy the wrong pages. Kept open, with a typed error, when
    /// the copy cannot finish now (a reader holds an old snapshot, the disk
    /// is full): closing would lose the frames; the next call tries again.
    fn follow_wal(&mut self, state: WalState) -> Result<(), StoreError> {
        let Some(conn) = &self.conn else {
            return Ok(());
        };
        if state == WalState::Same {
            return Ok(());
        }
        if state != (WalState::Replaced { empty: false }) {
            let failure = match checkpoint_truncate(conn) {
                Ok(true) => None,
                Err(e) if short_read(&e) => None,
                Ok(false) => Some("another connection kept it busy".to_string()),
                Err(e) => Some(e.to_string()),
            };
            if let Some(why) = failure {
                let wal = wal_path(&self.path);
                return Err(StoreError::Io(format!(
                    "{} was removed or replaced while the server ran, and the writes it held \
                     could not be copied into the database yet ({why})",
                    wal.display()
                )));
            }
        }
        self.conn = None;
        if let Err(e) = self.connection() {
            self.reconnect = true;
            return Err(open_error(&e));
        }
        Ok(())
    }

    /// An I/O error may be the connection's own state (SQLite keeps a
    /// file it opened read-only read-only): the call ends by closing it.
    /// A read-only database is told with the files SQLite needs to write:
    /// it creates `-wal` and `-shm` next to the database with the
    /// database's mode, so a file made read-only once leaves read-only
    /// companions behind.
    fn note<T>(&mut self, result: Result<T, StoreError>) -> Result<T, StoreError> {
        match result {
            Err(StoreError::Io(message)) => {
                self.reconnect = true;
                let path = self.path.display();
                Err(StoreError::Io(if message.starts_with(READ_ONLY) {
                    format!(
                        "{message}: {path}, {path}-wal, {path}-shm and their directory must all be writable"
                    )
                } else {
                    message
                }))
            }
            other => other,
        }
    }

    /// `begin`, after checking that the database file and its `-wal` at
    /// the path are still the ones the connection has open (two `stat`s),
    /// and following them if not.
    fn begin_checked(&mut self, write: bool) -> Result<(), StoreError> {
        #[cfg(test)]
        {
            self.full_checks += 1;
        }
        // Between transactions (the only time the session begins one): the
        // file the path names now is the one to serve. (Closing the old
        // connection checkpoints its WAL into the old, unlinked file: it
        // changes nothing anyone sees.)
        if self.conn.is_some() && self.opened.is_some() && file_identity(&self.path) != self.opened
        {
            // SQLite does not checkpoint-and-delete the `-wal` of a file
            // that was moved while open, and the next connection would
            // replay the old file's WAL onto the new file: empty it first
            // (its frames belong to the old file only).
            if let Some(conn) = &self.conn {
                let _ = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
            }
            self.conn = None;
        }
        // A read checks its `-wal` before it starts; a write once it holds
        // the write lock, so no other connection can empty the old file and
        // start a new one between the check and its first frame.
        if !write {
            self.follow_wal(self.wal_state())?;
        }
        if let Err(e) = self.connection() {
            self.reconnect = true;
            return Err(open_error(&e));
        }
        self.run_begin(write)?;
        if write {
            let state = self.wal_state();
            if state != WalState::Same {
                let conn = self.conn.as_ref().expect("connected");
                let _ = conn.execute_batch("ROLLBACK");
                self.follow_wal(state)?;
                self.run_begin(write)?;
            }
        }
        Ok(())
    }

    /// Runs `BEGIN IMMEDIATE` (a write) or `BEGIN DEFERRED` on the open
    /// connection.
    fn run_begin(&mut self, write: bool) -> Result<(), StoreError> {
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        if !conn.is_autocommit() {
            return Err(StoreError::InvalidState(
                "a transaction is already open; commit or roll it back first".into(),
            ));
        }
        let sql = if write {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN DEFERRED"
        };
        let begun = run_control(conn, sql);
        self.note(begun)
    }

    /// The connection, for checks in tests.
    #[cfg(test)]
    pub(crate) fn conn(&self) -> &Connection {
        self.conn.as_ref().expect("the connection is open")
    }
}

/// Why the database could not be opened, as the store error the component
/// reports (`storage`, with this message).
fn open_error(e: &OpenError) -> StoreError {
    match e {
        OpenError::NotADatabase { .. } => StoreError::Corrupt(e.to_string()),
        _ => StoreError::Io(e.to_string()),
    }
}

impl Backend for SqliteBackend {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn connect(&mut self) -> Result<(), OpenError> {
        self.connection().map(drop)
    }

    fn end_call(&mut self) -> bool {
        let mut left_open = false;
        if let Some(conn) = &self.conn
            && !conn.is_autocommit()
        {
            // If even ROLLBACK fails, SQLite rolls back when the next BEGIN
            // fails or the connection closes; there is nothing better to do.
            let _ = conn.execute_batch("ROLLBACK");
            left_open = true;
        }
        // Not while the connection holds the only way to a removed `-wal`:
        // the next `begin` copies it into the database, then reopens.
        if std::mem::take(&mut self.reconnect) && self.wal_state() == WalState::Same {
            self.conn = None;
        }
        left_open
    }

    /// `BEGIN IMMEDIATE` for writes (the write lock is taken now), a
    /// deferred `BEGIN` for reads. Opens the connection first if need be.
    /// The files are checked the full way ([`SqliteBackend::begin_checked`])
    /// unless the directory holding them is as it was when they last were
    /// (`quiet_dir.rs`): a read looks before it begins, a write once it
    /// holds the write lock, as the full checks do.
    fn begin(&mut self, write: bool) -> Result<(), StoreError> {
        if self.quiet_since.is_some() && self.conn.is_some() {
            if write {
                self.run_begin(true)?;
            }
            let stamp = DirStamp::of(&self.path);
            if stamp.is_some() && stamp == self.quiet_since {
                return if write { Ok(()) } else { self.run_begin(false) };
            }
            if let Some(conn) = self.conn.as_ref().filter(|_| write) {
                let _ = conn.execute_batch("ROLLBACK");
            }
        }
        // Taken before the checks, so that a change made during them
        // leaves the directory unlike it.
        let stamp = if self.linked {
            None
        } else {
            DirStamp::of(&self.path)
        };
        self.quiet_since = None;
        self.begin_checked(write)?;
        // Only a settled stamp is looked at further (one `lstat`, then).
        if let Some(stamp) = stamp.filter(|s| s.settled()) {
            self.linked = ends_in_link(&self.path);
            self.quiet_since = (!self.linked).then_some(stamp);
        }
        Ok(())
    }

    /// Notes an I/O error (the call then ends by closing the connection).
    fn execute(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        let result = run_execute(conn, sql, params, tx.write, &mut tx.wrote);
        self.note(result)
    }

    /// Notes an I/O error (the call then ends by closing the connection).
    fn query(&mut self, tx: &mut Tx, sql: &str, params: &[Value]) -> Result<Rows, StoreError> {
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        let max_bytes = self.options.max_result_bytes;
        let result = run_query(conn, sql, params, tx.write, max_bytes, &mut tx.wrote);
        self.note(result)
    }

    /// Some errors (disk full, I/O) make SQLite roll the transaction back
    /// by itself.
    fn in_transaction(&self) -> bool {
        self.conn.as_ref().is_some_and(|conn| !conn.is_autocommit())
    }

    /// A failed commit rolls back: the transaction is over either way, and
    /// SQLite's COMMIT outcome is always known.
    fn commit(&mut self, tx: Tx) -> Result<(), CommitFailure> {
        let conn = self
            .conn
            .as_ref()
            .ok_or_else(|| CommitFailure::Failed(finished()))?;
        let result = run_control(conn, "COMMIT");
        if result.is_err() && !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        // The first committed write switches the file to WAL. Not sooner:
        // a database the component refuses (a newer schema, checked inside
        // its first write transaction) must stay byte-identical. A failed
        // switch (busy) is retried after the next write.
        if result.is_ok() && tx.wrote && !self.wal {
            self.wal = enable_wal(conn).is_ok();
            // The switch leaves the `-wal` closed until the next
            // transaction: read the header so it is open (and created),
            // then record which file it is.
            let in_wal = self.wal
                && conn
                    .query_row("PRAGMA journal_mode", [], |r| r.get::<_, String>(0))
                    .is_ok_and(|mode| mode.eq_ignore_ascii_case("wal"))
                && conn
                    .query_row("PRAGMA schema_version", [], |r| r.get::<_, i64>(0))
                    .is_ok();
            if in_wal {
                self.note_wal_file();
            }
        }
        self.note(result).map_err(CommitFailure::Failed)
    }

    fn rollback(&mut self) -> Result<(), StoreError> {
        let conn = self.conn.as_ref().ok_or_else(finished)?;
        if conn.is_autocommit() {
            // SQLite already rolled it back (after an I/O error, say).
            return Ok(());
        }
        run_control(conn, "ROLLBACK")
    }

    fn abandon(&mut self) {
        if let Some(conn) = &self.conn
            && !conn.is_autocommit()
        {
            let _ = conn.execute_batch("ROLLBACK");
        }
    }
}

//! The SQL the backend itself sends, and what it reads off the
//! component's statements (which ones would end the transaction behind
//! the handles' back, which ones may write or change the schema).
//!
//! # The write lock
//!
//! SQLite's `BEGIN IMMEDIATE` gives one writer at a time on the whole
//! database; the component's claims rely on it (two agents can never
//! claim the same task: their claim transactions run one after the
//! other, each reading what the one before committed). A write
//! transaction here takes the same lock: a transaction-scoped advisory
//! lock, [`WRITE_LOCK_KEY`], before any statement of the component runs,
//! so writers are serialized on the database exactly as on SQLite, and
//! under READ COMMITTED each statement reads what the previous writer
//! committed. PostgreSQL releases the lock at COMMIT or ROLLBACK, and
//! when the connection dies. Readers take no lock: they read one
//! REPEATABLE READ snapshot, as an SQLite read transaction does.
//!
//! # A narrower lock
//!
//! A write transaction whose first statement takes [`WRITE_LOCK_KEY`]
//! *shared* ([`narrows_write_lock`]: it starts with [`SCOPED_LOCK`])
//! takes what that statement takes instead: the component sends it for a
//! call that touches one list, with that list's own lock (see the WIT
//! `begin`). Writers to different lists then run in parallel, writers to
//! one list one after the other, and a writer that takes the key
//! exclusively (any other write transaction: a migration, a list's
//! creation, a tool holding writers back) still waits for all of them
//! and holds all of them back.

/// The advisory lock every write transaction holds, on this database
/// only: the ASCII bytes of "tasklist" as one 64-bit key. Another program
/// that uses the same key on the same database would wait for (and hold
/// up) the component's writers; no other key interferes. Public so that a
/// tool (a backup, a test) can hold the component's writers back on purpose.
pub const WRITE_LOCK_KEY: i64 = 0x7461_736B_6C69_7374;

/// How the first statement of a write transaction that narrows the write
/// lock starts: [`WRITE_LOCK_KEY`] taken shared.
pub const SCOPED_LOCK: &str = "SELECT pg_advisory_xact_lock_shared(8386110886358119284)";

/// Whether `sql`, a write transaction's first statement, takes the write
/// lock itself, narrowed (see the module doc).
pub(super) fn narrows_write_lock(sql: &str) -> bool {
    sql.starts_with(SCOPED_LOCK)
}

/// The server's clock in Unix milliseconds, read when the statement runs
/// (`clock_timestamp`, not the transaction's start: after the whole-
/// database lock's wait; a narrowed write reads it before its list's lock,
/// and the backend dates the reading to when it was sent).
pub(super) const SERVER_TIME: &str = "SELECT (extract(epoch from clock_timestamp()) * 1000)::int8";

/// The timeouts a transaction starts with, in milliseconds (each at least
/// 1: zero would turn the server's timeout off).
#[derive(Clone, Copy, Debug)]
pub(super) struct Timeouts {
    /// `statement_timeout`: what is left of the call.
    pub(super) statement_ms: u64,
    /// `lock_timeout`: the busy timeout, or less if the call ends sooner.
    pub(super) lock_ms: u64,
    /// `idle_in_transaction_session_timeout`: a host that stops (frozen,
    /// suspended) with the write lock held loses its session a little
    /// after its call should have ended, so other writers are not blocked
    /// for ever.
    pub(super) idle_ms: u64,
}

/// The one round trip that opens a transaction and reads the server's
/// clock: settings, the write lock for a writer (unless `scoped`: its
/// first statement takes it, narrowed), then the time.
pub(super) fn begin_sql(write: bool, scoped: bool, t: Timeouts) -> String {
    let (statement, lock, idle) = (t.statement_ms, t.lock_ms, t.idle_ms);
    if write {
        let lock_sql = if scoped {
            String::new()
        } else {
            format!("SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY}); ")
        };
        format!(
            "BEGIN ISOLATION LEVEL READ COMMITTED; \
             SET LOCAL statement_timeout = {statement}; \
             SET LOCAL lock_timeout = {lock}; \
             SET LOCAL idle_in_transaction_session_timeout = {idle}; \
             {lock_sql}{SERVER_TIME}"
        )
    } else {
        format!(
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; \
             SET LOCAL statement_timeout = {statement}; \
             SET LOCAL idle_in_transaction_session_timeout = {idle}; \
             {SERVER_TIME}"
        )
    }
}

/// Whether `sql` starts, ends or hands off a transaction (BEGIN, START,
/// COMMIT, END, ABORT, ROLLBACK but not `ROLLBACK TO` a savepoint,
/// PREPARE TRANSACTION), which would desynchronize the handles.
pub(super) fn controls_transaction(sql: &str) -> bool {
    let mut words = words(sql);
    let is = |word: &str, keyword: &str| word.eq_ignore_ascii_case(keyword);
    match words.next() {
        Some(w)
            if ["BEGIN", "START", "COMMIT", "END", "ABORT"]
                .iter()
                .any(|k| is(w, k)) =>
        {
            true
        }
        Some(w) if is(w, "ROLLBACK") => !words.take(2).any(|w| is(w, "TO")),
        Some(w) if is(w, "PREPARE") => words.next().is_some_and(|w| is(w, "TRANSACTION")),
        _ => false,
    }
}

/// Whether `sql` may write: anything but a plain read (SELECT, VALUES,
/// TABLE, SHOW, EXPLAIN). A `WITH` may hold an UPDATE, so it counts.
pub(super) fn may_write(sql: &str) -> bool {
    words(sql).next().is_none_or(|w| {
        !["SELECT", "VALUES", "TABLE", "SHOW", "EXPLAIN"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
    })
}

/// Whether `sql` changes the schema (prepared statements may then return
/// other columns: the cache is emptied once it commits).
pub(super) fn changes_schema(sql: &str) -> bool {
    words(sql).next().is_some_and(|w| {
        ["CREATE", "ALTER", "DROP"]
            .iter()
            .any(|k| w.eq_ignore_ascii_case(k))
    })
}

/// The words of `sql` after its leading comments (no allocation).
fn words(sql: &str) -> impl Iterator<Item = &str> {
    crate::sql_text::strip_comments(sql)
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transaction_control_is_recognized() {
        for sql in [
            "BEGIN",
            "start transaction",
            " -- x\n COMMIT",
            "/* c */ end",
            "ABORT",
            "ROLLBACK",
            "rollback and chain",
            "PREPARE TRANSACTION 'x'",
        ] {
            assert!(controls_transaction(sql), "{sql}");
        }
        for sql in [
            "ROLLBACK TO SAVEPOINT a",
            "rollback to a",
            "SAVEPOINT a",
            "PREPARE q AS SELECT 1",
            "SELECT 'BEGIN'",
        ] {
            assert!(!controls_transaction(sql), "{sql}");
        }
    }

    #[test]
    fn reads_and_writes_are_told_apart() {
        assert!(!may_write("select 1"));
        assert!(!may_write("-- c\nVALUES (1)"));
        assert!(may_write("INSERT INTO t VALUES (1)"));
        assert!(may_write(
            "WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x"
        ));
        assert!(changes_schema("create table t (x int)"));
        assert!(!changes_schema("insert into t values (1)"));
    }

    #[test]
    fn a_write_begins_with_the_lock_before_reading_the_clock() {
        let t = Timeouts {
            statement_ms: 8000,
            lock_ms: 5000,
            idle_ms: 13000,
        };
        assert!(SCOPED_LOCK.contains(&WRITE_LOCK_KEY.to_string()));
        assert!(narrows_write_lock(&format!(
            "{SCOPED_LOCK}, pg_advisory_xact_lock(1, 2)"
        )));
        assert!(!narrows_write_lock("SELECT 1"));
        let scoped = begin_sql(true, true, t);
        assert!(!scoped.contains("advisory") && scoped.contains("lock_timeout = 5000"));
        let sql = begin_sql(true, false, t);
        let lock = sql
            .find("pg_advisory_xact_lock(8386110886358119284)")
            .unwrap();
        assert!(sql.find("clock_timestamp").unwrap() > lock, "{sql}");
        assert!(sql.contains("lock_timeout = 5000") && sql.contains("statement_timeout = 8000"));
        let read = begin_sql(false, false, t);
        assert!(read.contains("REPEATABLE READ READ ONLY") && !read.contains("advisory"));
    }
}

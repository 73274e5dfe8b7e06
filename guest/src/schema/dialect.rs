//! Everything that differs between the SQL engines a store may speak, in
//! one place. The host announces its store's dialect through the WIT
//! `store` interface; the rest of the component writes one SQL, the subset
//! SQLite and PostgreSQL share (`?` / `?N` placeholders, `string_agg`,
//! `UPDATE … FROM`, `RETURNING`), and never branches on the engine:
//!
//! - [`SqlDialect::migrations`]: the schema steps, numbered per dialect (the
//!   same numbers on both today; a step whose SQL is the same is one file,
//!   in `migrations/shared/`).
//! - [`SqlDialect::read_version`] / [`SqlDialect::set_version`]: where the
//!   schema version lives (SQLite's `PRAGMA user_version`; on PostgreSQL
//!   the comment of the `tasklists_schema` table).
//! - [`SqlDialect::foreign_tables`]: the tables of another application, which
//!   make a database without our version stamp one to leave alone.
//! - [`SqlDialect::scoped_lock`]: the lock of a write confined to one list,
//!   where the engine can lock less than the whole database.
//! - [`SqlDialect::with_event`]: a change and its audit row as one
//!   statement, where the engine has data-modifying `WITH` (PostgreSQL: one
//!   network round trip instead of two).
//! - [`SqlDialect::row_locks`]: whether the engine takes row locks (`FOR
//!   UPDATE SKIP LOCKED`) and data-modifying `WITH`, so that a claim picks
//!   and takes its task in one statement beside other claims.
//!
//! (The placeholders, rewritten for PostgreSQL's `$N`, are the store's
//! business: `store/placeholders.rs`.)

use crate::store::{SqlDialect, Value};

/// SQLite's schema steps; step `i` brings the schema to version `i + 1`.
const SQLITE: &[&str] = &[
    include_str!("migrations/sqlite/0001_init.sql"),
    include_str!("migrations/shared/0002_ready_index.sql"),
    include_str!("migrations/shared/0003_view_indexes.sql"),
    include_str!("migrations/sqlite/0004_list_counters.sql"),
    include_str!("migrations/shared/0005_person_steers.sql"),
    include_str!("migrations/shared/0006_task_refs.sql"),
    include_str!("migrations/shared/0007_tokens.sql"),
    include_str!("migrations/sqlite/0008_counters_at_commit.sql"),
    include_str!("migrations/shared/0009_task_labels.sql"),
    include_str!("migrations/shared/0010_person_called.sql"),
];

/// PostgreSQL's schema steps, numbered like SQLite's: version `N` is the
/// same schema on both.
const POSTGRES: &[&str] = &[
    include_str!("migrations/postgres/0001_init.sql"),
    include_str!("migrations/shared/0002_ready_index.sql"),
    include_str!("migrations/shared/0003_view_indexes.sql"),
    include_str!("migrations/postgres/0004_list_counters.sql"),
    include_str!("migrations/shared/0005_person_steers.sql"),
    include_str!("migrations/shared/0006_task_refs.sql"),
    include_str!("migrations/shared/0007_tokens.sql"),
    include_str!("migrations/postgres/0008_counters_at_commit.sql"),
    include_str!("migrations/shared/0009_task_labels.sql"),
    include_str!("migrations/shared/0010_person_called.sql"),
];

/// How many schema steps each dialect has: a schema version names the
/// same schema in every dialect.
pub const STEPS: usize = SQLITE.len();
const _: () = assert!(POSTGRES.len() == STEPS);

/// The version stamp of a PostgreSQL database: the comment of
/// `tasklists_schema` in the store's schema, as text (no row, read as 0,
/// when the table is not there). A row of the table would fail to read in
/// a database without it, and on PostgreSQL a failed statement spoils the
/// whole transaction. The catalogs are joined rather than looked up with
/// `to_regclass`: its name lookup may answer from a cache that has not yet
/// seen the table another host just created (a writer that waited for the
/// write lock while the first host migrated would then migrate again).
const POSTGRES_VERSION: &str = "SELECT d.description FROM pg_catalog.pg_class c \
     JOIN pg_catalog.pg_description d ON d.objoid = c.oid \
     AND d.classoid = 'pg_catalog.pg_class'::regclass AND d.objsubid = 0 \
     WHERE c.relname = 'tasklists_schema' AND c.relnamespace = current_schema()::regnamespace";

/// The tables of another application in a SQLite database.
const SQLITE_FOREIGN: &str =
    "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' LIMIT 3";

/// The tables, views and sequences in the PostgreSQL schema the store
/// connects to (the first of its `search_path`).
const POSTGRES_FOREIGN: &str = "SELECT c.relname FROM pg_catalog.pg_class c \
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f') \
     ORDER BY c.relname LIMIT 3";

/// What a write call changes, when it is confined to one list: a store
/// that can lock less than the whole database (PostgreSQL) then lets
/// writers to other lists run alongside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteScope<'a> {
    /// The list of this id.
    List(&'a str),
    /// The list of the task of this id (a task never changes list).
    Task(&'a str),
    /// A change of the task of this id confined to its own row (its
    /// status closed or paused, its notes, outcome or verification
    /// result: nothing a claim reads of other rows, and no position): on
    /// PostgreSQL the list's lock taken shared, beside claims and other
    /// such changes; the task's row is locked by the change's read (`FOR
    /// UPDATE`), so a claim taking that task and the change run one after
    /// the other.
    TaskRow(&'a str),
    /// A claim of `agent` in the list `list`: on PostgreSQL the list's lock
    /// taken shared (claims on one list run side by side; a write that
    /// needs the list to itself waits for them) and the lock of the pair
    /// (list, agent) exclusively (one claim of an agent in a list at a
    /// time: one held task per agent per list).
    Claim {
        /// The list's id.
        list: &'a str,
        /// The claiming agent.
        agent: &'a str,
    },
}

/// The whole-database write lock's key, taken shared (the store's
/// `SCOPED_LOCK`: a write transaction that starts so takes the list's lock
/// instead of the whole database's), then one list's lock, and the
/// schema version as [`SqlDialect::read_version`] reads it. The list's
/// key is in the two-integer space of advisory locks (apart from the
/// 64-bit one of the whole database): a class for tasklists' lists and
/// the list id's hash (two lists with one hash only wait for each other).
/// The `::text` casts make the `void` results a column the store reads.
const POSTGRES_LIST_LOCK: &str = "SELECT pg_advisory_xact_lock_shared(8386110886358119284)::text, \
     pg_advisory_xact_lock(1953262963, hashtext(?1))::text, (";

/// As [`POSTGRES_LIST_LOCK`], for the list of a task (its list id read in
/// the same statement: it never changes; an unknown id locks itself).
const POSTGRES_TASK_LOCK: &str = "SELECT pg_advisory_xact_lock_shared(8386110886358119284)::text, \
     pg_advisory_xact_lock(1953262963, hashtext(COALESCE((SELECT s.list_id FROM tasks s WHERE s.id = ?1), ?1)))::text, (";

/// As [`POSTGRES_TASK_LOCK`], the list's key shared ([`WriteScope::TaskRow`]).
const POSTGRES_TASK_ROW_LOCK: &str = "SELECT pg_advisory_xact_lock_shared(8386110886358119284)::text, \
     pg_advisory_xact_lock_shared(1953262963, hashtext(COALESCE((SELECT s.list_id FROM tasks s WHERE s.id = ?1), ?1)))::text, (";

/// As [`POSTGRES_LIST_LOCK`] for a claim ([`WriteScope::Claim`]): the
/// list's key shared, then the pair (list, agent)'s exclusively, in a
/// class of its own.
const POSTGRES_CLAIM_LOCK: &str = "SELECT pg_advisory_xact_lock_shared(8386110886358119284)::text, \
     pg_advisory_xact_lock_shared(1953262963, hashtext(?1))::text, \
     pg_advisory_xact_lock(1953262964, hashtext(?1::text || ' ' || ?2::text))::text, (";

/// What the error of [`SqlDialect::scoped_lock_at`] says when the schema
/// is not the one expected (another host migrated or replaced it).
pub const SCHEMA_CHANGED: &str = "tasklists schema changed:";

/// The dialect's half of what the schema module needs.
impl SqlDialect {
    /// The schema steps, in order.
    pub fn migrations(self) -> &'static [&'static str] {
        match self {
            SqlDialect::Sqlite => SQLITE,
            SqlDialect::Postgres => POSTGRES,
        }
    }

    /// A query whose one column is the schema version (an integer, text
    /// holding one, or `NULL` for none).
    pub fn read_version(self) -> &'static str {
        match self {
            SqlDialect::Sqlite => "PRAGMA user_version",
            SqlDialect::Postgres => POSTGRES_VERSION,
        }
    }

    /// The statement that stamps `version`.
    pub fn set_version(self, version: i64) -> String {
        match self {
            SqlDialect::Sqlite => format!("PRAGMA user_version = {version}"),
            SqlDialect::Postgres => format!("COMMENT ON TABLE tasklists_schema IS '{version}'"),
        }
    }

    /// The first statement of a write transaction confined to `scope`
    /// (its one parameter the id), whose last column is the schema version
    /// as [`SqlDialect::read_version`] reads it, or `None` where the
    /// store's write lock covers the whole database (SQLite). On
    /// PostgreSQL it waits for the list's lock: writers to one list (or
    /// to everything: migrations, a list's creation) run one after the
    /// other, writers to different lists alongside. The version is read
    /// as the statement began (perhaps before a migration that committed
    /// while it waited: the caller then migrates, finds nothing to do, and
    /// begins again).
    pub fn scoped_lock(self, scope: WriteScope) -> Option<(String, Vec<Value>)> {
        let text = |s: &str| Value::Text(s.to_string());
        let (head, params) = match (self, scope) {
            (SqlDialect::Sqlite, _) => return None,
            (SqlDialect::Postgres, WriteScope::List(id)) => (POSTGRES_LIST_LOCK, vec![text(id)]),
            (SqlDialect::Postgres, WriteScope::Task(id)) => (POSTGRES_TASK_LOCK, vec![text(id)]),
            (SqlDialect::Postgres, WriteScope::TaskRow(id)) => {
                (POSTGRES_TASK_ROW_LOCK, vec![text(id)])
            }
            (SqlDialect::Postgres, WriteScope::Claim { list, agent }) => {
                (POSTGRES_CLAIM_LOCK, vec![text(list), text(agent)])
            }
        };
        Some((format!("{head}{POSTGRES_VERSION})"), params))
    }

    /// [`SqlDialect::scoped_lock`] for a database known to be at `version`,
    /// for a caller that does not wait for its answer (the store's
    /// `pipeline`): its last column fails the statement, with
    /// [`SCHEMA_CHANGED`] in the message, unless the stamp is `version`
    /// (the transaction is then aborted before anything ran).
    pub fn scoped_lock_at(self, scope: WriteScope, version: i64) -> Option<(String, Vec<Value>)> {
        let (sql, params) = self.scoped_lock(scope)?;
        let head = sql.strip_suffix(&format!("({POSTGRES_VERSION})"))?;
        Some((
            format!(
                "{head}CASE WHEN btrim(({POSTGRES_VERSION})) = '{version}' THEN 0 \
                 ELSE ('{SCHEMA_CHANGED} ' || COALESCE(({POSTGRES_VERSION}), 'none') || ', not {version}')::int END"
            ),
            params,
        ))
    }

    /// The statement a write of `scope` sends after its lock (pipelined,
    /// no round trip of its own) so that what its change does to the
    /// list's row (the counters and "last changed" of migrations 0004 and
    /// 0008) waits for its COMMIT, or `None`. PostgreSQL, for a claim and
    /// a change of one task's own fields: those run side by side on one
    /// list, and the list's row would otherwise stay locked from their
    /// change until their COMMIT, a round trip later, queueing them all.
    /// `ALL` names nothing, so it is harmless on a schema before 0008.
    pub fn defer_list_row(self, scope: WriteScope) -> Option<&'static str> {
        match (self, scope) {
            (SqlDialect::Postgres, WriteScope::Claim { .. } | WriteScope::TaskRow(_)) => {
                Some("SET CONSTRAINTS ALL DEFERRED")
            }
            _ => None,
        }
    }

    /// Whether the engine has row locks that a statement can skip (`FOR
    /// UPDATE SKIP LOCKED`) and data-modifying `WITH`: then a claim picks
    /// its task, takes it and writes its audit row in one statement, and
    /// claims on one list run side by side (PostgreSQL). SQLite has one
    /// writer at a time: its claim reads, then writes, under that lock.
    pub fn row_locks(self) -> bool {
        self == SqlDialect::Postgres
    }

    /// `update` (an `UPDATE` without `RETURNING`) and `insert_event` (an
    /// `INSERT INTO events (…) VALUES (…)`) as one statement that writes the
    /// event once per row the update changed and counts those rows, its
    /// parameters the update's then the event's; `None` where the engine
    /// has no data-modifying `WITH` (SQLite: the caller runs both, which
    /// costs no round trip there).
    pub fn with_event(self, update: &str, insert_event: &str) -> Option<String> {
        if self == SqlDialect::Sqlite {
            return None;
        }
        let (insert, values) = insert_event.split_once(" VALUES (")?;
        let values = values.strip_suffix(')')?;
        Some(format!(
            "WITH changed AS ({update} RETURNING 1) {insert} SELECT {values} FROM changed"
        ))
    }

    /// A query listing up to three tables of another application.
    pub fn foreign_tables(self) -> &'static str {
        match self {
            SqlDialect::Sqlite => SQLITE_FOREIGN,
            SqlDialect::Postgres => POSTGRES_FOREIGN,
        }
    }
}

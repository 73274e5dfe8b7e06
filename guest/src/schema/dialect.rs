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
//!
//! (The placeholders, rewritten for PostgreSQL's `$N`, are the store's
//! business: `store/placeholders.rs`.)

use crate::store::SqlDialect;

/// SQLite's schema steps; step `i` brings the schema to version `i + 1`.
const SQLITE: &[&str] = &[
    include_str!("migrations/sqlite/0001_init.sql"),
    include_str!("migrations/shared/0002_ready_index.sql"),
    include_str!("migrations/shared/0003_view_indexes.sql"),
    include_str!("migrations/sqlite/0004_list_counters.sql"),
    include_str!("migrations/shared/0005_person_steers.sql"),
];

/// PostgreSQL's schema steps, numbered like SQLite's: version `N` is the
/// same schema on both.
const POSTGRES: &[&str] = &[
    include_str!("migrations/postgres/0001_init.sql"),
    include_str!("migrations/shared/0002_ready_index.sql"),
    include_str!("migrations/shared/0003_view_indexes.sql"),
    include_str!("migrations/postgres/0004_list_counters.sql"),
    include_str!("migrations/shared/0005_person_steers.sql"),
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

    /// A query listing up to three tables of another application.
    pub fn foreign_tables(self) -> &'static str {
        match self {
            SqlDialect::Sqlite => SQLITE_FOREIGN,
            SqlDialect::Postgres => POSTGRES_FOREIGN,
        }
    }
}

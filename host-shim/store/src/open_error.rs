//! Why a store could not be opened: the database is missing its directory,
//! unreadable, not a database, or refused by the engine; for a server
//! store, the server could not be reached or refused the connection, or
//! the connection string cannot be used.

use std::path::PathBuf;

/// A store that cannot be opened. Nothing was modified.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The database's directory could not be created.
    #[error("cannot create the directory {path}: {source}")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The database file could not be read to check what it is.
    #[error("cannot read {path}: {source}")]
    ReadDatabase {
        /// The database file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file exists but is not a database (or is damaged beyond
    /// opening); it was not modified.
    #[error("{path} is not a tasklists database ({reason}); it was left untouched")]
    NotADatabase {
        /// The file.
        path: PathBuf,
        /// What was wrong with it.
        reason: String,
    },
    /// The engine refused to open or configure the database.
    #[error("cannot open the database {path}: {source}")]
    Database {
        /// The database.
        path: PathBuf,
        /// The engine's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The database server could not be reached, refused the connection
    /// (password, TLS, a missing database), or this build cannot serve it.
    /// Trying again later may work: nothing was changed.
    #[error("cannot connect to {location}: {reason}")]
    Server {
        /// Where, shown without a password.
        location: String,
        /// Why, with the server's message and SQLSTATE where it gave one
        /// (never the password).
        reason: String,
    },
    /// The connection string cannot be used as written (an unknown
    /// `sslmode`, malformed text); it must be fixed before anything
    /// connects.
    #[error("the PostgreSQL connection string {location} cannot be used: {reason}")]
    ConnectionString {
        /// The string, shown without a password.
        location: String,
        /// What is wrong with it.
        reason: String,
    },
}

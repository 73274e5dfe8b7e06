//! Mapping PostgreSQL's errors onto the [`StoreError`] variants (the WIT's
//! `store-error`) by SQLSTATE, so the component can tell "retry later"
//! (busy) from "your SQL is wrong", and noting which ones cost the
//! connection (the backend then drops it and the next `begin` connects
//! anew). Every message carries the server's text and SQLSTATE, and goes
//! through [`PgLocation::scrub`]: no password ever leaves here.

use super::config::PgLocation;
use crate::StoreError;
use std::error::Error as _;
use tokio_postgres::error::{DbError, Severity};

/// What went wrong with one round trip.
#[derive(Debug)]
pub(super) enum Failure {
    /// The driver's error (the server's, or the connection's).
    Pg(tokio_postgres::Error),
    /// No answer within the client-side limit (the call's deadline plus a
    /// little): the server is gone or stuck, the connection is given up.
    TimedOut,
}

/// A failure, as the component sees it.
#[derive(Debug)]
pub(super) struct Mapped {
    /// The error the store call returns.
    pub(super) error: StoreError,
    /// The connection is unusable (lost, terminated, out of step, timed
    /// out): drop it. The server rolls back whatever it had open.
    pub(super) lost: bool,
}

/// How an interrupted statement's message starts (as the SQLite
/// backend's does).
const INTERRUPTED: &str = "interrupted: the statement ran past the call's time limit";

impl Failure {
    /// The SQLSTATE the server gave, if any.
    pub(super) fn code(&self) -> Option<&str> {
        match self {
            Failure::Pg(e) => e.as_db_error().map(|db| db.code().code()),
            Failure::TimedOut => None,
        }
    }

    /// Whether the call's time limit ended it (the server's
    /// `statement_timeout`, or no answer in time).
    pub(super) fn timed_out(&self) -> bool {
        match self {
            Failure::TimedOut => true,
            Failure::Pg(e) => e.as_db_error().is_some_and(|db| {
                db.code().code() == "57014" && db.message().contains("statement timeout")
            }),
        }
    }
}

/// Maps a failure. `closed` is why the connection ended, when its task
/// saw it end (a FATAL error sent while the client was idle, an EOF).
pub(super) fn map(failure: &Failure, closed: Option<&str>, location: &PgLocation) -> Mapped {
    let (error, lost) = match failure {
        Failure::TimedOut => (
            StoreError::Other(format!(
                "{INTERRUPTED} (the server did not answer in time; the connection was closed)"
            )),
            true,
        ),
        Failure::Pg(e) => match e.as_db_error() {
            Some(db) => by_code(db),
            None if connection_level(e) => {
                let why = closed.map_or_else(|| chain(e), str::to_string);
                (
                    StoreError::Io(format!("the connection to the server was lost: {why}")),
                    true,
                )
            }
            None => (StoreError::Other(chain(e)), false),
        },
    };
    let error = scrub(error, location);
    Mapped { error, lost }
}

/// The store error for an error the server sent.
fn by_code(db: &DbError) -> (StoreError, bool) {
    let code = db.code().code();
    let text = described(db);
    // A FATAL (or PANIC) error ends the session whatever its code.
    let fatal = matches!(
        db.parsed_severity(),
        Some(Severity::Fatal | Severity::Panic)
    );
    let class = &code[..2.min(code.len())];
    let error = match code {
        "55P03" => StoreError::Busy(format!(
            "another writer held the database past the busy timeout ({text})"
        )),
        "57014" if db.message().contains("statement timeout") => {
            StoreError::Other(format!("{INTERRUPTED} ({text})"))
        }
        "40001" | "40P01" => StoreError::Busy(format!(
            "the transaction conflicted with another one; try again ({text})"
        )),
        "57P01" | "57P02" | "57P03" | "25P03" => {
            return (
                StoreError::Io(format!("the server ended the connection ({text})")),
                true,
            );
        }
        "XX001" | "XX002" => StoreError::Corrupt(text),
        "3D000" => StoreError::Io(format!(
            "{text}; create the database first (CREATE DATABASE), or fix its name in the \
             connection string"
        )),
        _ if class == "28" => StoreError::Io(format!(
            "{text}; check the user name and password of the connection string"
        )),
        _ if class == "08" => return (StoreError::Io(text), true),
        _ if class == "53" => StoreError::Io(text),
        _ if class == "23" => StoreError::Constraint(text),
        _ if class == "42" => StoreError::Sql(text),
        _ if class == "25" => StoreError::InvalidState(text),
        _ => StoreError::Other(text),
    };
    (error, fatal)
}

/// `message: detail (SQLSTATE code)`.
fn described(db: &DbError) -> String {
    let mut text = db.message().to_string();
    if let Some(detail) = db.detail() {
        text.push_str(": ");
        text.push_str(detail);
    }
    text.push_str(&format!(" (SQLSTATE {})", db.code().code()));
    text
}

/// Whether a driver error (not one the server sent) means the connection
/// is gone or out of step.
fn connection_level(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    let mut source = e.source();
    while let Some(cause) = source {
        if cause.is::<std::io::Error>() {
            return true;
        }
        source = cause.source();
    }
    // The driver's own wording for a broken or desynchronized stream.
    let text = e.to_string();
    [
        "error communicating with the server",
        "unexpected message from server",
        "error parsing response from server",
        "timeout waiting for server",
    ]
    .iter()
    .any(|start| text.starts_with(start))
}

/// Why a connection attempt failed, for an [`crate::OpenError`]: the
/// server's message and SQLSTATE (with a hint for the usual ones), or the
/// driver's text (refused, unreachable, TLS).
pub(super) fn connect_reason(e: &tokio_postgres::Error, location: &PgLocation) -> String {
    let text = match e.as_db_error() {
        Some(db) => match by_code(db).0 {
            StoreError::Io(m) | StoreError::Other(m) => m,
            other => other.to_string(),
        },
        None => chain(e),
    };
    location.scrub(&text)
}

/// An error's text with every cause after it: the driver's own text is
/// only its kind ("error connecting to server"), the cause says why
/// ("Connection refused").
pub(super) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

/// The same error with the location's secrets masked.
fn scrub(error: StoreError, location: &PgLocation) -> StoreError {
    let s = |m: String| location.scrub(&m);
    match error {
        StoreError::Busy(m) => StoreError::Busy(s(m)),
        StoreError::Constraint(m) => StoreError::Constraint(s(m)),
        StoreError::InvalidState(m) => StoreError::InvalidState(s(m)),
        StoreError::Io(m) => StoreError::Io(s(m)),
        StoreError::Corrupt(m) => StoreError::Corrupt(s(m)),
        StoreError::Sql(m) => StoreError::Sql(s(m)),
        StoreError::Other(m) => StoreError::Other(s(m)),
    }
}

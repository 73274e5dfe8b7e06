//! The SQLite kind of store, as the registry knows it: any text that no
//! other kind recognizes is a path to a database file.

use super::{SqliteBackend, SqliteWatch};
use crate::{Descriptor, Location, no_problem, no_secrets};
use std::path::PathBuf;

/// A database file (created, with its directories, if missing).
pub static DESCRIPTOR: Descriptor = Descriptor {
    name: "sqlite",
    recognizes: |_| true,
    file: true,
    open: |location, options| Box::new(SqliteBackend::new(path(location), options)),
    watch: |location| Box::new(SqliteWatch::new(path(location))),
    show: |location| path(location).display().to_string(),
    scrub: no_secrets,
    problem: no_problem,
};

/// The file a location names.
fn path(location: &Location) -> PathBuf {
    PathBuf::from(location.text())
}

//! Which store a host is pointed at, named by location rather than by a
//! file path, so that a second kind of store (a server URL) is one more
//! variant, not a change of every configuration.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where the store is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An SQLite database file (created, with its directories, if missing).
    SqliteFile(PathBuf),
}

impl Location {
    /// The database file, for a file-backed store.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Location::SqliteFile(path) => Some(path),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::SqliteFile(path) => write!(f, "{}", path.display()),
        }
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Self {
        Location::SqliteFile(path)
    }
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Self {
        Location::SqliteFile(path.to_path_buf())
    }
}

impl From<&PathBuf> for Location {
    fn from(path: &PathBuf) -> Self {
        Location::SqliteFile(path.clone())
    }
}

impl From<&str> for Location {
    fn from(text: &str) -> Self {
        Location::SqliteFile(PathBuf::from(text))
    }
}

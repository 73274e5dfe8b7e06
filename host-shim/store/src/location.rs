//! Which store a host is pointed at, named by location rather than by a
//! file path, so that a second kind of store (a server URL) is one more
//! variant, not a change of every configuration.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where the store is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An SQLite database file (created, with its directories, if missing).
    SqliteFile(PathBuf),
}

impl Location {
    /// The store every host shares by default, from the process's
    /// environment ([`Location::default_from`]).
    pub fn default_for_user() -> Option<Location> {
        Location::default_from(|key| std::env::var_os(key))
    }

    /// The default store for an environment (tests pass a map):
    /// `$TASKLISTS_DB`, else `$XDG_DATA_HOME/tasklists/tasks.db`, else
    /// `$HOME/.local/share/tasklists/tasks.db`; `None` beyond that (no
    /// host guesses further). Every host (the native CLI and MCP server,
    /// the Node host) takes its default from here.
    pub fn default_from(env: impl Fn(&str) -> Option<OsString>) -> Option<Location> {
        // Paths stay OS strings: a file name need not be UTF-8.
        let path = |key: &str| env(key).filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(path) = path("TASKLISTS_DB") {
            return Some(path.into());
        }
        // The XDG spec says relative values are invalid and must be ignored.
        if let Some(data) = path("XDG_DATA_HOME").filter(|p| p.is_absolute()) {
            return Some(data.join("tasklists").join("tasks.db").into());
        }
        path("HOME").map(|home| home.join(".local/share/tasklists/tasks.db").into())
    }

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

//! Which store a host is pointed at, named by location rather than by a
//! file path: an SQLite file, or a PostgreSQL server named by a libpq
//! connection string (a `postgresql://` URL or `key=value` words).

use crate::PgLocation;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};

/// Where the store is. `Display` and `Debug` never show a password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// An SQLite database file (created, with its directories, if missing).
    SqliteFile(PathBuf),
    /// A database on a PostgreSQL server (which must exist: a host never
    /// creates databases).
    Postgres(PgLocation),
}

impl Location {
    /// The store every host shares by default, from the process's
    /// environment ([`Location::default_from`]).
    pub fn default_for_user() -> Option<Location> {
        Location::default_from(|key| std::env::var_os(key))
    }

    /// The default store for an environment (tests pass a map):
    /// `$TASKLISTS_DB` (a file path or a PostgreSQL connection string),
    /// else `$XDG_DATA_HOME/tasklists/tasks.db`, else
    /// `$HOME/.local/share/tasklists/tasks.db`; `None` beyond that (no
    /// host guesses further). Every host (the native CLI and MCP server,
    /// the Node host) takes its default from here.
    pub fn default_from(env: impl Fn(&str) -> Option<OsString>) -> Option<Location> {
        // Paths stay OS strings: a file name need not be UTF-8.
        let value = |key: &str| env(key).filter(|v| !v.is_empty());
        if let Some(db) = value("TASKLISTS_DB") {
            return Some(Location::from_os_str(&db));
        }
        let path = |key: &str| value(key).map(PathBuf::from);
        // The XDG spec says relative values are invalid and must be ignored.
        if let Some(data) = path("XDG_DATA_HOME").filter(|p| p.is_absolute()) {
            return Some(data.join("tasklists").join("tasks.db").into());
        }
        path("HOME").map(|home| home.join(".local/share/tasklists/tasks.db").into())
    }

    /// A location as a user writes it (`--db`, `TASKLISTS_DB`): a
    /// PostgreSQL connection string when [`PgLocation::recognizes`] it,
    /// else a file path (which need not be UTF-8).
    pub fn from_os_str(text: &OsStr) -> Location {
        match text.to_str() {
            Some(text) => Location::from(text),
            None => Location::SqliteFile(PathBuf::from(text)),
        }
    }

    /// The database file, for a file-backed store.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Location::SqliteFile(path) => Some(path),
            Location::Postgres(_) => None,
        }
    }

    /// The server store, for a PostgreSQL location.
    pub fn postgres(&self) -> Option<&PgLocation> {
        match self {
            Location::SqliteFile(_) => None,
            Location::Postgres(pg) => Some(pg),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::SqliteFile(path) => write!(f, "{}", path.display()),
            Location::Postgres(pg) => write!(f, "{pg}"),
        }
    }
}

/// A path is always a file, whatever its text looks like.
impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Self {
        Location::SqliteFile(path)
    }
}

/// A path is always a file, whatever its text looks like.
impl From<&Path> for Location {
    fn from(path: &Path) -> Self {
        Location::SqliteFile(path.to_path_buf())
    }
}

/// A path is always a file, whatever its text looks like.
impl From<&PathBuf> for Location {
    fn from(path: &PathBuf) -> Self {
        Location::SqliteFile(path.clone())
    }
}

/// Text as a user writes it: see [`Location::from_os_str`].
impl From<&str> for Location {
    fn from(text: &str) -> Self {
        if PgLocation::recognizes(text) {
            Location::Postgres(PgLocation::parse(text))
        } else {
            Location::SqliteFile(PathBuf::from(text))
        }
    }
}

impl From<PgLocation> for Location {
    fn from(pg: PgLocation) -> Self {
        Location::Postgres(pg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const SECRET: &str = "s3cr3t-Pa55";

    /// Neither `Display` nor `Debug` shows the secret.
    fn shown(location: &Location) -> String {
        let shown = location.to_string();
        let debug = format!("{location:?}");
        assert!(!shown.contains(SECRET), "{shown}");
        assert!(!debug.contains(SECRET), "{debug}");
        assert!(!shown.contains("Pa55"), "{shown}");
        shown
    }

    #[test]
    fn urls_are_postgres_and_shown_without_the_password() {
        let location = Location::from(
            format!("postgresql://agent:{SECRET}@db.example.com:5432/tasks").as_str(),
        );
        assert!(location.file().is_none());
        assert_eq!(
            shown(&location),
            "postgresql://agent@db.example.com:5432/tasks"
        );
        let pg = location.postgres().unwrap();
        assert_eq!(pg.dbname(), Some("tasks"));
        assert!(
            pg.connection_string().contains(SECRET),
            "kept for child processes"
        );

        let location = Location::from("postgres://db.example.com/tasks");
        assert_eq!(shown(&location), "postgresql://db.example.com/tasks");
    }

    #[test]
    fn a_percent_encoded_password_is_hidden_in_both_forms() {
        let encoded = SECRET.replace('-', "%2D");
        let location = Location::from(format!("postgresql://agent:{encoded}@h/tasks").as_str());
        assert_eq!(shown(&location), "postgresql://agent@h/tasks");
        let pg = location.postgres().unwrap();
        let scrubbed = pg.scrub(&format!("said {SECRET} and {encoded}"));
        assert!(!scrubbed.contains("Pa55"), "{scrubbed}");
    }

    #[test]
    fn key_value_strings_are_postgres_and_shown_without_the_password() {
        let location = Location::from(
            format!(
                "host=db.example.com port=5432 dbname=tasks user=agent password={SECRET} \
                 sslmode=verify-full"
            )
            .as_str(),
        );
        assert_eq!(
            shown(&location),
            "postgresql://agent@db.example.com:5432/tasks"
        );
        assert_eq!(
            location.postgres().unwrap().ssl_mode(),
            crate::postgres::SslMode::VerifyFull
        );
        let quoted = Location::from(format!("dbname=tasks password='{SECRET} x'").as_str());
        assert_eq!(shown(&quoted), "postgresql:///tasks");
    }

    #[test]
    fn a_password_in_the_query_string_is_hidden() {
        let location = Location::from(
            format!("postgresql://agent@h:1/tasks?sslmode=require&password={SECRET}").as_str(),
        );
        assert_eq!(shown(&location), "postgresql://agent@h:1/tasks");
        let location = Location::from(format!("postgresql://h/tasks?password={SECRET}&x").as_str());
        shown(&location);
    }

    #[test]
    fn a_unix_socket_host_is_shown_encoded() {
        let location = Location::from("host=/tmp/pgdev port=54329 user=postgres dbname=x");
        assert_eq!(
            shown(&location),
            "postgresql://postgres@%2Ftmp%2Fpgdev:54329/x"
        );
    }

    #[test]
    fn everything_else_is_a_file() {
        for text in ["tasks.db", "/tmp/host=x.db", "hosts=1", "C:\\tasks.db"] {
            assert_eq!(
                Location::from(text),
                Location::SqliteFile(PathBuf::from(text)),
                "{text}"
            );
        }
        // A path is a file even when it reads like a connection string.
        let path = Path::new("host=x");
        assert!(Location::from(path).file().is_some());
        assert!(Location::from(path.to_path_buf()).file().is_some());
    }

    #[test]
    fn the_default_comes_from_tasklists_db_then_xdg_then_home() {
        let env = |pairs: &[(&str, &str)]| {
            let map: HashMap<String, OsString> = pairs
                .iter()
                .map(|(k, v)| (k.to_string(), OsString::from(v)))
                .collect();
            Location::default_from(move |key| map.get(key).cloned())
        };
        let pg = env(&[
            ("TASKLISTS_DB", "postgresql://u@h/tasks"),
            ("HOME", "/home/u"),
        ])
        .unwrap();
        assert_eq!(pg.to_string(), "postgresql://u@h/tasks");
        let kv = env(&[("TASKLISTS_DB", "host=h dbname=tasks")]).unwrap();
        assert!(kv.postgres().is_some());
        let file = env(&[("TASKLISTS_DB", "/data/t.db")]).unwrap();
        assert_eq!(file.file(), Some(Path::new("/data/t.db")));
        let xdg = env(&[("XDG_DATA_HOME", "/x"), ("HOME", "/home/u")]).unwrap();
        assert_eq!(xdg.file(), Some(Path::new("/x/tasklists/tasks.db")));
        let home = env(&[("XDG_DATA_HOME", "rel"), ("HOME", "/home/u")]).unwrap();
        assert_eq!(
            home.file(),
            Some(Path::new("/home/u/.local/share/tasklists/tasks.db"))
        );
        assert_eq!(env(&[]), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_non_utf8_value_is_a_file() {
        use std::os::unix::ffi::OsStrExt;
        let raw = OsStr::from_bytes(b"host=\xff");
        assert!(Location::from_os_str(raw).file().is_some());
    }
}

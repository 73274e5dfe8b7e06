//! Which store a host is pointed at, named by location rather than by a
//! file path: an SQLite file, or a PostgreSQL server named by a libpq
//! connection string (a `postgresql://` URL or `key=value` words). Which
//! kinds there are, and how each reads and shows its text, is the
//! registry's (`backends/mod.rs`): this file names none of them.

use crate::backends::{file_kind, kind_of};
use crate::{Backend, BackendOptions, Descriptor, OpenError, Session, Watch};
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};

/// Where the store is: its text as given, and the kind of store it names.
/// `Display` and `Debug` never show a password.
#[derive(Clone)]
pub struct Location {
    kind: &'static Descriptor,
    text: OsString,
    /// How it is shown, worked out once.
    shown: String,
}

impl Location {
    /// A location of `kind`.
    fn new(kind: &'static Descriptor, text: OsString) -> Location {
        let mut location = Location {
            kind,
            text,
            shown: String::new(),
        };
        location.shown = (kind.show)(&location);
        location
    }

    /// The store every host shares by default, from the process's
    /// environment ([`Location::default_from`]).
    pub fn default_for_user() -> Option<Location> {
        Location::default_from(|key| std::env::var_os(key))
    }

    /// The store a host was pointed at (`--db`, a `db` option), else the
    /// default one ([`Location::default_for_user`]); an empty text counts
    /// as none, as an empty `TASKLISTS_DB` does. `None` when no store can
    /// be named.
    pub fn given_or_default(given: Option<&OsStr>) -> Option<Location> {
        match given.filter(|text| !text.is_empty()) {
            Some(text) => Some(Location::from_os_str(text)),
            None => Location::default_for_user(),
        }
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

    /// A location as a user writes it (`--db`, `TASKLISTS_DB`): the first
    /// registered kind that recognizes the text (a PostgreSQL connection
    /// string, say), else a file path (which need not be UTF-8).
    pub fn from_os_str(text: &OsStr) -> Location {
        match text.to_str() {
            Some(text) => Location::from(text),
            None => Location::new(file_kind(), text.to_owned()),
        }
    }

    /// The text as given, secrets included: for opening the same store in
    /// another process. Never print it; `Display` is for that.
    pub fn text(&self) -> &OsStr {
        &self.text
    }

    /// The text as given, as UTF-8 (what every kind but a file path is).
    pub fn text_lossy(&self) -> std::borrow::Cow<'_, str> {
        self.text.to_string_lossy()
    }

    /// The name of the kind of store (`sqlite`, `postgres`).
    pub fn kind(&self) -> &'static str {
        self.kind.name
    }

    /// The database file, for a file-backed store.
    pub fn file(&self) -> Option<&Path> {
        self.kind.file.then_some(Path::new(&self.text))
    }

    /// The session on this store, through its kind's backend (not
    /// connected yet: the first transaction connects, or
    /// [`Session::connect`] does it at once).
    pub fn open(&self, options: BackendOptions) -> Session {
        Session::new(self.backend(options))
    }

    /// This store's backend alone, for a host that wraps it (a statement
    /// log) before putting a session over it.
    pub fn backend(&self, options: BackendOptions) -> Box<dyn Backend> {
        (self.kind.open)(self, options)
    }

    /// A change check on this store (opened when first read).
    pub fn watch(&self) -> Box<dyn Watch> {
        (self.kind.watch)(self)
    }

    /// `text` with every secret of this location masked (a PostgreSQL
    /// password, as given or percent-decoded); a file path has none.
    pub fn scrub(&self, text: &str) -> String {
        (self.kind.scrub)(self, text)
    }

    /// Why the location cannot be used as written, if it cannot: for a
    /// host that reports it before anything connects (`db-path`).
    pub fn problem(&self) -> Option<OpenError> {
        (self.kind.problem)(self)
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

/// By hand: the text may hold a password.
impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Location")
            .field("kind", &self.kind.name)
            .field("shown", &self.shown)
            .finish()
    }
}

/// Two locations are the same store when their kind and text are.
impl PartialEq for Location {
    fn eq(&self, other: &Self) -> bool {
        self.kind.name == other.kind.name && self.text == other.text
    }
}

impl Eq for Location {}

/// A path is always a file, whatever its text looks like.
impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Self {
        Location::new(file_kind(), path.into_os_string())
    }
}

/// A path is always a file, whatever its text looks like.
impl From<&Path> for Location {
    fn from(path: &Path) -> Self {
        Location::from(path.to_path_buf())
    }
}

/// A path is always a file, whatever its text looks like.
impl From<&PathBuf> for Location {
    fn from(path: &PathBuf) -> Self {
        Location::from(path.clone())
    }
}

/// Text as a user writes it: see [`Location::from_os_str`].
impl From<&str> for Location {
    fn from(text: &str) -> Self {
        Location::new(kind_of(text), OsString::from(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PgLocation;
    use std::collections::HashMap;

    /// The PostgreSQL side of a location, for the checks below.
    trait Postgres {
        fn postgres(&self) -> Option<PgLocation>;
    }

    impl Postgres for Location {
        fn postgres(&self) -> Option<PgLocation> {
            (self.kind() == "postgres").then(|| PgLocation::parse(&self.text_lossy()))
        }
    }

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
                Location::from(PathBuf::from(text)),
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

//! How a [`crate::Host`] is set up: store location, clock, limits, cache, and
//! where the defaults come from.

use crate::error::HostError;
#[cfg(feature = "statement-log")]
use crate::imports::statement_log::StatementLog;
#[cfg(any(test, feature = "fault-injection"))]
use crate::state::faults::FaultInjection;
use crate::time_source::Clock;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tasklists_store::Location;

pub use tasklists_store::limits::{
    DEFAULT_BUSY_TIMEOUT, DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_PARAMS_BYTES,
    DEFAULT_MEMORY_LIMIT_BYTES,
};

/// Everything [`crate::Host::open`] needs. Build it with [`HostConfig::new`]
/// and the `with_*` methods; the fields stay public for tests.
#[derive(Clone)]
pub struct HostConfig {
    /// The store: an SQLite file (created, with its parent directories, if
    /// missing).
    pub store: Location,
    /// The component's clock; `None`: the store's own when it has one (the
    /// database server's, for a store several machines share, so leases
    /// never depend on each machine's clock), else the system clock.
    pub clock: Option<Arc<dyn Clock>>,
    /// Where the compiled component is cached; `None` = the default
    /// (`$TASKLISTS_CACHE_DIR`, `$XDG_CACHE_HOME/tasklists`, `~/.cache/tasklists`).
    pub cache_dir: Option<PathBuf>,
    /// Wall-time limit of one call into the component (zero traps at once).
    pub call_timeout: Duration,
    /// Cap on the component's linear memory.
    pub memory_limit_bytes: usize,
    /// Params (and whole requests) larger than this are refused with
    /// `invalid_params` before the component runs.
    pub max_params_bytes: usize,
    /// How long a transaction waits for another process's lock before the
    /// store reports `busy`.
    pub busy_timeout: Duration,
    /// Test-only: make the host store fail on purpose.
    #[cfg(any(test, feature = "fault-injection"))]
    pub fault_injection: Option<FaultInjection>,
    /// Benchmarks only: log every statement the component runs.
    #[cfg(feature = "statement-log")]
    pub statement_log: Option<StatementLog>,
}

impl HostConfig {
    /// A config for the store at `location` (a path converts into one)
    /// with the system clock and default limits.
    pub fn new(location: impl Into<Location>) -> Self {
        HostConfig {
            store: location.into(),
            clock: None,
            cache_dir: None,
            call_timeout: DEFAULT_CALL_TIMEOUT,
            memory_limit_bytes: DEFAULT_MEMORY_LIMIT_BYTES,
            max_params_bytes: DEFAULT_MAX_PARAMS_BYTES,
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
            #[cfg(any(test, feature = "fault-injection"))]
            fault_injection: None,
            #[cfg(feature = "statement-log")]
            statement_log: None,
        }
    }

    /// Uses `clock` as the component's time source, whatever the store.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = Some(clock);
        self
    }

    /// Caches the compiled component in `dir`.
    pub fn with_cache_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cache_dir = Some(dir.into());
        self
    }

    /// Sets the per-call time limit.
    pub fn with_call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// Sets the cap on the component's memory.
    pub fn with_memory_limit(mut self, bytes: usize) -> Self {
        self.memory_limit_bytes = bytes;
        self
    }

    /// Sets the largest accepted params / request size.
    pub fn with_max_params_bytes(mut self, bytes: usize) -> Self {
        self.max_params_bytes = bytes;
        self
    }

    /// Sets how long a transaction waits for a lock.
    pub fn with_busy_timeout(mut self, timeout: Duration) -> Self {
        self.busy_timeout = timeout;
        self
    }

    /// Arms a fault (tests only).
    #[cfg(any(test, feature = "fault-injection"))]
    pub fn with_fault_injection(mut self, fault: FaultInjection) -> Self {
        self.fault_injection = Some(fault);
        self
    }

    /// Logs every store operation of the component into `log`
    /// (benchmarks: the identical-statement baseline replays it).
    #[cfg(feature = "statement-log")]
    pub fn with_statement_log(mut self, log: StatementLog) -> Self {
        self.statement_log = Some(log);
        self
    }
}

impl fmt::Debug for HostConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostConfig")
            .field("store", &self.store)
            .field("now_ms", &self.clock.as_ref().map(|c| c.now_ms()))
            .field("cache_dir", &self.cache_dir)
            .field("call_timeout", &self.call_timeout)
            .field("memory_limit_bytes", &self.memory_limit_bytes)
            .field("max_params_bytes", &self.max_params_bytes)
            .field("busy_timeout", &self.busy_timeout)
            .finish_non_exhaustive()
    }
}

/// The store every host shares by default: `$TASKLISTS_DB`, else
/// `$XDG_DATA_HOME/tasklists/tasks.db`, else
/// `$HOME/.local/share/tasklists/tasks.db` ([`Location::default_from`]).
/// Never guesses beyond that.
pub fn default_location() -> Result<Location, HostError> {
    location_from(|key| std::env::var_os(key))
}

/// [`default_location`] over any environment (tests pass a map).
pub(crate) fn location_from(env: impl Fn(&str) -> Option<OsString>) -> Result<Location, HostError> {
    Location::default_from(env).ok_or(HostError::NoDatabasePath)
}

/// The default cache of compiled components: `$TASKLISTS_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/tasklists`, else `$HOME/.cache/tasklists`; `None` when
/// none is set (the component is then compiled in memory). Made absolute
/// against the working directory the first time it is asked for (at
/// start), so a later change of directory does not move it.
pub(crate) fn default_cache_dir() -> Option<PathBuf> {
    static DEFAULT: OnceLock<Option<PathBuf>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| {
            let cwd = std::env::current_dir().ok();
            cache_dir_from(|key| std::env::var_os(key), cwd.as_deref())
        })
        .clone()
}

/// [`default_cache_dir`] over any environment and working directory; a
/// relative path without a working directory to resolve it is no cache.
fn cache_dir_from(env: impl Fn(&str) -> Option<OsString>, cwd: Option<&Path>) -> Option<PathBuf> {
    let var = |key: &str| env(key).filter(|v| !v.is_empty()).map(PathBuf::from);
    let dir = var("TASKLISTS_CACHE_DIR")
        .or_else(|| {
            var("XDG_CACHE_HOME")
                .filter(|p| p.is_absolute())
                .map(|p| p.join("tasklists"))
        })
        .or_else(|| var("HOME").map(|home| home.join(".cache/tasklists")))?;
    if dir.is_absolute() {
        Some(dir)
    } else {
        cwd.map(|cwd| cwd.join(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let map: HashMap<String, OsString> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        move |key| map.get(key).cloned()
    }

    #[test]
    fn location_precedence() {
        let db_path_from = |env| location_from(env).map(|l| l.file().unwrap().to_path_buf());
        let all = [
            ("TASKLISTS_DB", "/x/t.db"),
            ("XDG_DATA_HOME", "/data"),
            ("HOME", "/home/a"),
        ];
        assert_eq!(db_path_from(env(&all)).unwrap(), PathBuf::from("/x/t.db"));
        assert_eq!(
            db_path_from(env(&all[1..])).unwrap(),
            PathBuf::from("/data/tasklists/tasks.db")
        );
        assert_eq!(
            db_path_from(env(&all[2..])).unwrap(),
            PathBuf::from("/home/a/.local/share/tasklists/tasks.db")
        );
        // Empty and relative values do not count.
        let odd = [
            ("TASKLISTS_DB", ""),
            ("XDG_DATA_HOME", "rel"),
            ("HOME", "/h"),
        ];
        assert_eq!(
            db_path_from(env(&odd)).unwrap(),
            PathBuf::from("/h/.local/share/tasklists/tasks.db")
        );
        assert!(matches!(
            location_from(env(&[])),
            Err(HostError::NoDatabasePath)
        ));
    }

    #[test]
    fn cache_dir_precedence() {
        let all = [
            ("TASKLISTS_CACHE_DIR", "/c"),
            ("XDG_CACHE_HOME", "/xc"),
            ("HOME", "/h"),
        ];
        let cwd = Some(Path::new("/work"));
        assert_eq!(cache_dir_from(env(&all), cwd), Some(PathBuf::from("/c")));
        assert_eq!(
            cache_dir_from(env(&all[1..]), cwd),
            Some(PathBuf::from("/xc/tasklists"))
        );
        assert_eq!(
            cache_dir_from(env(&all[2..]), cwd),
            Some(PathBuf::from("/h/.cache/tasklists"))
        );
        assert_eq!(cache_dir_from(env(&[]), cwd), None);
        // A relative path is taken from the working directory at start.
        let relative = [("TASKLISTS_CACHE_DIR", "rel/cache"), ("HOME", "/h")];
        assert_eq!(
            cache_dir_from(env(&relative), cwd),
            Some(PathBuf::from("/work/rel/cache"))
        );
        assert_eq!(cache_dir_from(env(&relative), None), None);
    }
}

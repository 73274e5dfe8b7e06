//! What the Node host takes from the native shim instead of defining it a
//! second time: which store a host opens, how a location is shown, and
//! the per-call limits.

use napi_derive::napi;
use std::ffi::OsStr;
use tasklists_store::Location;
use tasklists_store::limits;

/// The limits every host applies to one call by default.
#[napi(object)]
pub struct HostDefaults {
    /// Per-call time limit, in milliseconds.
    pub call_timeout_ms: u32,
    /// Cap on the component's linear memory, in bytes.
    pub memory_limit_bytes: u32,
    /// Largest accepted arguments (or params), in bytes.
    pub max_params_bytes: u32,
    /// How long a write waits for another process's lock, in milliseconds.
    pub busy_timeout_ms: u32,
    /// Calls one instance serves before it is replaced.
    pub max_calls_per_instance: u32,
    /// Bytes of the component's stderr kept per instance.
    pub stderr_capture_bytes: u32,
    /// Time limit of a failure's reply, in milliseconds.
    pub reply_timeout_ms: u32,
    /// Memory cap of a failure's reply, in bytes.
    pub reply_memory_bytes: u32,
}

fn ms(d: std::time::Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

fn bytes(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The limits every host applies to one call by default.
#[napi]
pub fn host_defaults() -> HostDefaults {
    HostDefaults {
        call_timeout_ms: ms(limits::DEFAULT_CALL_TIMEOUT),
        memory_limit_bytes: bytes(limits::DEFAULT_MEMORY_LIMIT_BYTES),
        max_params_bytes: bytes(limits::DEFAULT_MAX_PARAMS_BYTES),
        busy_timeout_ms: ms(limits::DEFAULT_BUSY_TIMEOUT),
        max_calls_per_instance: limits::MAX_CALLS_PER_INSTANCE,
        stderr_capture_bytes: bytes(limits::STDERR_CAPTURE_BYTES),
        reply_timeout_ms: ms(limits::REPLY_TIMEOUT),
        reply_memory_bytes: bytes(limits::REPLY_MEMORY_BYTES),
    }
}

/// The store a host opens: `db` as given when it is a non-empty text (a
/// file path or a PostgreSQL connection string), else the default every
/// host shares (`$TASKLISTS_DB`, else `$XDG_DATA_HOME/tasklists/tasks.db`,
/// else `~/.local/share/tasklists/tasks.db`), as text a `Store` opens;
/// `null` when none can be named. A connection string comes back as given,
/// password included: print it through `redactLocation`.
#[napi]
pub fn resolve_database(db: Option<String>) -> Option<String> {
    Location::given_or_default(db.as_deref().map(OsStr::new))
        .map(|location| location.text_lossy().into_owned())
}

/// `location` (what a `Store` is opened with) as it may be shown: a file
/// path as it is, a PostgreSQL connection string without its password
/// (`postgresql://agent:secret@h/tasks` → `postgresql://agent@h/tasks`).
/// The store crate's `Location` display does it, so every host shows a
/// location the same way.
#[napi]
pub fn redact_location(location: String) -> String {
    Location::from(location.as_str()).to_string()
}

/// `text` with every secret of `location` masked (a PostgreSQL password,
/// as given or percent-decoded); a file path has none. The backends already
/// scrub what they report; a host passes its own messages through this
/// too before printing them, so no path to the output misses it.
#[napi]
pub fn scrub_secrets(location: String, text: String) -> String {
    Location::from(location.as_str()).scrub(&text)
}

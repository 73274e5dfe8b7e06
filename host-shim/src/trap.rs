//! Turning a trap into words: which limit was hit, or what the component
//! said when it panicked (Rust prints the panic message to stderr, which
//! the sandbox captures, just before the `unreachable` trap).

use crate::error::{ErrorCode, HostError, ToolError};
#[cfg(any(test, feature = "fault-injection"))]
use crate::imports::faults::InjectedFault;
use crate::sandbox::MemoryLimitExceeded;
use std::time::Duration;
use wasmtime::Trap;

/// The longest panic message quoted in an error.
const MAX_PANIC_CHARS: usize = 400;

/// Why a call into the component failed to complete.
#[derive(Debug)]
pub(crate) struct Trapped {
    reason: String,
    hint: &'static str,
    /// A write was committed before the trap (the component was stopped
    /// after its commit returned): the change stands.
    committed: bool,
}

const BUG_HINT: &str = "this is a bug in tasklists; the next call starts afresh, retry once and report it if it persists";
const TIMEOUT_HINT: &str = "the call took too long and was stopped; retry with less work per call (fewer tasks, a smaller limit)";
const MEMORY_HINT: &str =
    "the call needed too much memory and was stopped; retry with less work per call";

impl Trapped {
    /// Describes `error`, raised by wasmtime while the component ran.
    pub(crate) fn describe(error: &wasmtime::Error, stderr: &[u8], timeout: Duration) -> Trapped {
        if let Some(limit) = error
            .chain()
            .find_map(|e| e.downcast_ref::<MemoryLimitExceeded>())
        {
            return Trapped {
                reason: limit.to_string(),
                hint: MEMORY_HINT,
                committed: false,
            };
        }
        #[cfg(any(test, feature = "fault-injection"))]
        if let Some(fault) = error
            .chain()
            .find_map(|e| e.downcast_ref::<InjectedFault>())
        {
            return Trapped {
                reason: fault.to_string(),
                hint: BUG_HINT,
                committed: false,
            };
        }
        let (reason, hint) = match error.downcast_ref::<Trap>() {
            Some(Trap::Interrupt) => (
                format!(
                    "the call ran past its time limit of {}",
                    format_duration(timeout)
                ),
                TIMEOUT_HINT,
            ),
            Some(trap) => match panic_message(stderr) {
                Some(panic) => (format!("{panic} ({trap})"), BUG_HINT),
                None => (trap.to_string(), BUG_HINT),
            },
            // A host function failed (e.g. an unknown resource handle).
            None => (error.root_cause().to_string(), BUG_HINT),
        };
        Trapped {
            reason,
            hint,
            committed: false,
        }
    }

    /// Marks that the call had already committed its write.
    pub(crate) fn committed(mut self, committed: bool) -> Trapped {
        self.committed = committed;
        self
    }

    /// The component returned while its write transaction was still open.
    pub(crate) fn uncommitted() -> Trapped {
        Trapped {
            reason: "the component returned without committing its write transaction, which was rolled back".into(),
            hint: BUG_HINT,
            committed: false,
        }
    }

    /// The host lost its connection (a host panic mid-call); unusable.
    pub(crate) fn lost_connection() -> Trapped {
        Trapped {
            reason: "the host lost its database connection after an earlier panic".into(),
            hint: "open a new host",
            committed: false,
        }
    }

    /// The contract's error for a trapped tool call.
    pub(crate) fn into_tool_error(self) -> ToolError {
        if self.committed {
            return ToolError::new(
                ErrorCode::Internal,
                format!(
                    "the component trapped after its change was committed: {}; the change was saved",
                    self.reason
                ),
                "do not repeat the call blindly: read the list (task_lists get) to see what was saved",
            );
        }
        ToolError::new(
            ErrorCode::Internal,
            format!(
                "the component trapped: {}; nothing was changed",
                self.reason
            ),
            self.hint,
        )
    }

    /// The host error for a trapped catalogue or renderer call.
    pub(crate) fn into_host_error(self) -> HostError {
        HostError::Trap(self.reason)
    }
}

/// `panicked at src/x.rs:1:2: message` from Rust's panic output, if any.
fn panic_message(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let start = text.find("panicked at ")?;
    let mut lines = text[start..].lines();
    let location = lines.next()?.trim_end_matches(':');
    let message: Vec<&str> = lines
        .take_while(|l| !l.starts_with("note: "))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut out = format!("{location}: {}", message.join(" "));
    if out.chars().count() > MAX_PANIC_CHARS {
        out = out.chars().take(MAX_PANIC_CHARS).collect::<String>() + "…";
    }
    Some(out.trim_end_matches(": ").to_string())
}

fn format_duration(d: Duration) -> String {
    if d.subsec_millis() == 0 && d.as_secs() > 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_rust_panic_messages() {
        let stderr = b"\nthread '<unnamed>' panicked at src/lib.rs:49:13:\nboom after insert\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            panic_message(stderr).as_deref(),
            Some("panicked at src/lib.rs:49:13: boom after insert")
        );
        assert_eq!(panic_message(b""), None);
    }

    #[test]
    fn formats_durations() {
        assert_eq!(format_duration(Duration::from_secs(10)), "10 s");
        assert_eq!(format_duration(Duration::ZERO), "0 ms");
        assert_eq!(format_duration(Duration::from_millis(1500)), "1500 ms");
    }
}

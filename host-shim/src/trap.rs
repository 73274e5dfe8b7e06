//! Telling what stopped a call: which limit was hit, or what the component
//! said when it panicked (Rust prints the panic message to stderr, which
//! the sandbox captures, just before the `unreachable` trap). The host only
//! classifies; the component words the agent's reply (`failed`), and the
//! reason of a failed call that has no reply (`describe-failure`).

use crate::bindings::{FailureKind, SizeLimit, WriteState};
use crate::sandbox::MemoryLimitExceeded;
#[cfg(any(test, feature = "fault-injection"))]
use crate::state::faults::InjectedFault;
use std::time::Duration;
use wasmtime::Trap;

/// The longest panic message passed on.
const MAX_PANIC_CHARS: usize = 400;

/// Why a call into the component failed to complete.
#[derive(Debug)]
pub(crate) struct Trapped {
    /// What happened, for the component to word.
    pub(crate) kind: FailureKind,
    /// What the call's writes came to, as the backend knows it once the
    /// call is over. Exactly known here: a deadline (an epoch) only stops
    /// the component in its own code, never inside a store import, so a
    /// commit has always returned; only a connection lost during COMMIT
    /// leaves it unknown.
    pub(crate) writes: WriteState,
}

impl Trapped {
    /// Classifies `error`, raised by wasmtime while the component ran.
    pub(crate) fn describe(error: &wasmtime::Error, stderr: &[u8], timeout: Duration) -> Trapped {
        Trapped {
            kind: classify(error, stderr, timeout),
            writes: WriteState::NotApplied,
        }
    }

    /// Records what the call's writes had come to.
    pub(crate) fn writes(mut self, writes: WriteState) -> Trapped {
        self.writes = writes;
        self
    }

    /// The component returned while its write transaction was still open.
    pub(crate) fn uncommitted() -> Trapped {
        Trapped {
            kind: FailureKind::LeftOpen,
            writes: WriteState::NotApplied,
        }
    }

    /// The host lost its store (a host panic mid-call); unusable.
    pub(crate) fn lost_store() -> Trapped {
        Trapped {
            kind: FailureKind::HostBug(
                "the host lost its store after an earlier panic; open a new host".into(),
            ),
            writes: WriteState::NotApplied,
        }
    }
}

fn classify(error: &wasmtime::Error, stderr: &[u8], timeout: Duration) -> FailureKind {
    if let Some(limit) = error
        .chain()
        .find_map(|e| e.downcast_ref::<MemoryLimitExceeded>())
    {
        return FailureKind::OutOfMemory(SizeLimit {
            bytes: limit.desired as u64,
            limit: limit.limit as u64,
        });
    }
    #[cfg(any(test, feature = "fault-injection"))]
    if let Some(fault) = error
        .chain()
        .find_map(|e| e.downcast_ref::<InjectedFault>())
    {
        return FailureKind::Trapped(fault.to_string());
    }
    match error.downcast_ref::<Trap>() {
        Some(Trap::Interrupt) => {
            FailureKind::TimedOut(u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX))
        }
        Some(trap) => FailureKind::Trapped(match panic_message(stderr) {
            Some(panic) => format!("{panic} ({trap})"),
            None => trap.to_string(),
        }),
        // A host function failed (e.g. an unknown resource handle).
        None => FailureKind::Trapped(error.root_cause().to_string()),
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
}

//! The reply to a call the host could not finish: the arguments were too
//! large, the component trapped (a bug, its time limit, its memory cap),
//! it left its write open, or the host itself failed. The host says what
//! happened and what the call's writes came to (not applied, applied, or
//! unknown because a commit had started); the words the agent reads, and
//! whether it may simply retry, are decided here, like every other reply's.

use super::reply;
use crate::bindings::{CallFailure, FailureKind, WriteState};
use crate::error::{ErrorCode, ToolError};

const BUG_HINT: &str = "this is a bug in tasklists; the next call starts afresh, retry once and report it if it persists";
const HOST_BUG_HINT: &str =
    "this is a bug in tasklists; please report it. The next call starts afresh";
const TIMEOUT_HINT: &str = "the call took too long and was stopped; retry with less work per call (fewer tasks, a smaller limit)";
const MEMORY_HINT: &str =
    "the call needed too much memory and was stopped; retry with less work per call";
const APPLIED_HINT: &str =
    "do not repeat the call: read the list (task_lists get) to see what was saved";
const MAY_BE_APPLIED_HINT: &str = "check with task_lists get before retrying: if the change is there, repeating the call would apply it twice";

/// The reply for `failure`.
pub fn failed(failure: &CallFailure) -> crate::bindings::ToolReply {
    reply(Err(error(failure)))
}

/// Why a call failed, as its reply begins (a size refused is told of the
/// whole request): the words every host shows for a failed call that has
/// no reply (WIT `describe-failure`).
pub fn describe(kind: &FailureKind) -> String {
    reason(kind, true)
}

/// Why a call failed; `whole_request`: a refused size was of the whole
/// arguments, not of the params alone.
fn reason(kind: &FailureKind, whole_request: bool) -> String {
    match kind {
        FailureKind::TooLarge(size) => {
            let what = if whole_request {
                "the request"
            } else {
                "params"
            };
            format!(
                "{what} is {} KiB, over the limit of {} KiB",
                size.bytes.div_ceil(1024),
                size.limit / 1024
            )
        }
        FailureKind::HostBug(what) => format!("the tasklists host hit a bug ({what})"),
        FailureKind::TimedOut(ms) => trapped(format!(
            "the call ran past its time limit of {}",
            format_duration(*ms)
        )),
        FailureKind::OutOfMemory(size) => trapped(format!(
            "the component's memory would grow to {} KiB, over its limit of {} KiB",
            size.bytes >> 10,
            size.limit >> 10
        )),
        FailureKind::Trapped(what) => trapped(what),
        FailureKind::LeftOpen => trapped(
            "the component returned without committing its write transaction, which was rolled back",
        ),
    }
}

fn error(failure: &CallFailure) -> ToolError {
    let head = reason(&failure.kind, failure.whole_request);
    let hint = match &failure.kind {
        FailureKind::TooLarge(_) => {
            return ToolError::invalid(head, "split the work into several smaller calls");
        }
        FailureKind::HostBug(_) => HOST_BUG_HINT,
        FailureKind::TimedOut(_) => TIMEOUT_HINT,
        FailureKind::OutOfMemory(_) => MEMORY_HINT,
        FailureKind::Trapped(_) | FailureKind::LeftOpen => BUG_HINT,
    };
    // What became of the call's writes decides the ending and, unless
    // nothing changed, the hint: an agent must never repeat a write that
    // stands, nor be told that nothing changed when it may have.
    let (ending, hint) = match failure.writes {
        WriteState::NotApplied => ("nothing was changed", hint),
        WriteState::Applied => ("its change had been committed and was saved", APPLIED_HINT),
        WriteState::MayBeApplied => (
            "its change may or may not have been saved (a commit had started and its outcome is unknown)",
            MAY_BE_APPLIED_HINT,
        ),
    };
    ToolError::new(ErrorCode::Internal, format!("{head}; {ending}"), hint)
}

/// How a reply to a stopped component begins.
fn trapped(reason: impl std::fmt::Display) -> String {
    format!("the component trapped: {reason}")
}

/// `10 s` for whole seconds, else `1500 ms`.
fn format_duration(ms: u64) -> String {
    if ms > 0 && ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::exports::tasklists::component::tools::SizeLimit;

    fn failure(kind: FailureKind, writes: WriteState) -> CallFailure {
        CallFailure {
            whole_request: false,
            kind,
            writes,
        }
    }

    #[test]
    fn each_failure_is_worded_with_what_to_do() {
        let e = error(&failure(
            FailureKind::TimedOut(10_000),
            WriteState::NotApplied,
        ));
        assert_eq!(e.code, ErrorCode::Internal);
        assert_eq!(
            e.message,
            "the component trapped: the call ran past its time limit of 10 s; nothing was changed"
        );
        assert_eq!(e.hint, TIMEOUT_HINT);
        let size = SizeLimit {
            bytes: 5 << 20,
            limit: 4 << 20,
        };
        let e = error(&failure(
            FailureKind::TooLarge(size),
            WriteState::NotApplied,
        ));
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert_eq!(e.message, "params is 5120 KiB, over the limit of 4096 KiB");
        let e = error(&failure(
            FailureKind::HostBug("a panic".into()),
            WriteState::NotApplied,
        ));
        assert_eq!(
            e.message,
            "the tasklists host hit a bug (a panic); nothing was changed"
        );
        assert_eq!(e.hint, HOST_BUG_HINT);
    }

    #[test]
    fn each_write_state_is_told_as_it_is() {
        let timeout = || FailureKind::TimedOut(2_000);
        let e = error(&failure(timeout(), WriteState::NotApplied));
        assert_eq!(
            e.message,
            "the component trapped: the call ran past its time limit of 2 s; nothing was changed"
        );
        assert_eq!(e.hint, TIMEOUT_HINT, "nothing changed: retrying is safe");

        let e = error(&failure(timeout(), WriteState::Applied));
        assert_eq!(e.code, ErrorCode::Internal);
        assert_eq!(
            e.message,
            "the component trapped: the call ran past its time limit of 2 s; its change had been committed and was saved"
        );
        assert_eq!(e.hint, APPLIED_HINT);

        let e = error(&failure(timeout(), WriteState::MayBeApplied));
        assert_eq!(e.code, ErrorCode::Internal);
        assert_eq!(
            e.message,
            "the component trapped: the call ran past its time limit of 2 s; its change may or may not have been saved (a commit had started and its outcome is unknown)"
        );
        assert!(
            e.hint
                .starts_with("check with task_lists get before retrying"),
            "{}",
            e.hint
        );

        // Only "not applied" ever says nothing changed, whatever failed.
        let kinds = [
            timeout(),
            FailureKind::Trapped("boom".into()),
            FailureKind::LeftOpen,
            FailureKind::HostBug("a panic".into()),
            FailureKind::OutOfMemory(SizeLimit {
                bytes: 9 << 20,
                limit: 8 << 20,
            }),
        ];
        for kind in kinds {
            for writes in [WriteState::Applied, WriteState::MayBeApplied] {
                let e = error(&failure(kind.clone(), writes));
                assert!(
                    !e.message.contains("nothing was changed") && !e.hint.contains("retry once"),
                    "{kind:?} {writes:?}: {} / {}",
                    e.message,
                    e.hint
                );
            }
        }
    }

    #[test]
    fn a_failure_without_a_reply_is_worded_as_a_reply_begins() {
        let kind = FailureKind::TimedOut(1_500);
        let e = error(&failure(kind.clone(), WriteState::NotApplied));
        assert_eq!(
            describe(&kind),
            "the component trapped: the call ran past its time limit of 1500 ms"
        );
        assert!(e.message.starts_with(&describe(&kind)), "{}", e.message);
        let size = SizeLimit {
            bytes: 2048,
            limit: 1024,
        };
        assert_eq!(
            describe(&FailureKind::TooLarge(size)),
            "the request is 2 KiB, over the limit of 1 KiB"
        );
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(format_duration(10_000), "10 s");
        assert_eq!(format_duration(0), "0 ms");
        assert_eq!(format_duration(1_500), "1500 ms");
    }
}

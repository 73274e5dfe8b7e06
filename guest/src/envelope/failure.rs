//! The reply to a call the host could not finish: the arguments were too
//! large, the component trapped (a bug, its time limit, its memory cap),
//! it left its write open, or the host itself failed. The host says what
//! happened; the words the agent reads are decided here, like every other
//! reply's.

use super::reply;
use crate::error::{ErrorCode, ToolError};
use crate::glue::{CallFailure, FailureKind};

const BUG_HINT: &str = "this is a bug in tasklists; the next call starts afresh, retry once and report it if it persists";
const TIMEOUT_HINT: &str = "the call took too long and was stopped; retry with less work per call (fewer tasks, a smaller limit)";
const MEMORY_HINT: &str =
    "the call needed too much memory and was stopped; retry with less work per call";

/// The reply for `failure`.
pub fn failed(failure: &CallFailure) -> crate::glue::ToolReply {
    reply(Err(error(failure)))
}

fn error(failure: &CallFailure) -> ToolError {
    let (reason, hint) = match &failure.kind {
        FailureKind::TooLarge(size) => {
            let what = if failure.whole_request {
                "the request"
            } else {
                "params"
            };
            return ToolError::invalid(
                format!(
                    "{what} is {} KiB, over the limit of {} KiB",
                    size.bytes.div_ceil(1024),
                    size.limit / 1024
                ),
                "split the work into several smaller calls",
            );
        }
        FailureKind::HostBug(what) => {
            return ToolError::new(
                ErrorCode::Internal,
                format!("the tasklists host hit a bug ({what})"),
                "this is a bug in tasklists; please report it. The call may not have completed; check before retrying",
            );
        }
        FailureKind::TimedOut(ms) => (
            format!(
                "the call ran past its time limit of {}",
                format_duration(*ms)
            ),
            TIMEOUT_HINT,
        ),
        FailureKind::OutOfMemory(size) => (
            format!(
                "the component's memory would grow to {} KiB, over its limit of {} KiB",
                size.bytes >> 10,
                size.limit >> 10
            ),
            MEMORY_HINT,
        ),
        FailureKind::Trapped(what) => (what.clone(), BUG_HINT),
        FailureKind::LeftOpen => (
            "the component returned without committing its write transaction, which was rolled back".to_string(),
            BUG_HINT,
        ),
    };
    if failure.committed {
        return ToolError::new(
            ErrorCode::Internal,
            format!(
                "the component trapped after its change was committed: {reason}; the change was saved"
            ),
            "do not repeat the call blindly: read the list (task_lists get) to see what was saved",
        );
    }
    ToolError::new(
        ErrorCode::Internal,
        format!("the component trapped: {reason}; nothing was changed"),
        hint,
    )
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
    use crate::glue::exports::tasklists::component::tools::SizeLimit;

    fn failure(kind: FailureKind, committed: bool) -> CallFailure {
        CallFailure {
            whole_request: false,
            kind,
            committed,
        }
    }

    #[test]
    fn each_failure_is_worded_with_what_to_do() {
        let e = error(&failure(FailureKind::TimedOut(10_000), false));
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
        let e = error(&failure(FailureKind::TooLarge(size), false));
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert_eq!(e.message, "params is 5120 KiB, over the limit of 4096 KiB");
        let e = error(&failure(FailureKind::Trapped("boom".into()), true));
        assert!(e.message.contains("the change was saved"), "{}", e.message);
        let e = error(&failure(FailureKind::HostBug("a panic".into()), false));
        assert!(
            e.message.contains("host hit a bug (a panic)"),
            "{}",
            e.message
        );
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(format_duration(10_000), "10 s");
        assert_eq!(format_duration(0), "0 ms");
        assert_eq!(format_duration(1_500), "1500 ms");
    }
}

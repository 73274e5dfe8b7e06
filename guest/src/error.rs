//! The contract's errors: every failed tool call is a [`ToolError`] (the
//! WIT `tool-error`) with a code, a message naming what is wrong, and a hint
//! saying what to do next. The types are the generated ones; this file adds
//! their contract spelling and constructors.

use crate::store::StoreError;

pub use crate::bindings::{ErrorCode, ToolError};

impl ErrorCode {
    /// The wire name of the code, e.g. `invalid_params`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidParams => "invalid_params",
            ErrorCode::UnknownAction => "unknown_action",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::AgentRequired => "agent_required",
            ErrorCode::Conflict => "conflict",
            ErrorCode::OutcomeRequired => "outcome_required",
            ErrorCode::VerificationRequired => "verification_required",
            ErrorCode::Cycle => "cycle",
            ErrorCode::Storage => "storage",
            ErrorCode::Internal => "internal",
        }
    }
}

impl ToolError {
    /// An error with a code, message and hint.
    pub fn new(code: ErrorCode, message: impl Into<String>, hint: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            hint: hint.into(),
        }
    }

    /// `invalid_params` with a hint.
    pub fn invalid(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidParams, message, hint)
    }

    /// `not_found` for a list or task id.
    pub fn not_found(what: &str, id: &str) -> Self {
        Self::new(
            ErrorCode::NotFound,
            format!("{what} {id} does not exist or was deleted"),
            match what {
                "list" => "check the id; task_lists find lists the lists you can see".to_string(),
                _ => format!("check the id; task_lists get shows a list's {what}s"),
            },
        )
    }

    /// `conflict` with a hint.
    pub fn conflict(message: impl Into<String>, hint: impl Into<String>) -> Self {
        Self::new(ErrorCode::Conflict, message, hint)
    }

    /// The contract's JSON error object: `{"error":{"code","message","hint"}}`.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"error": {"code": self.code.as_str(), "message": self.message, "hint": self.hint}})
    }
}

impl From<StoreError> for ToolError {
    fn from(e: StoreError) -> Self {
        let hint = match e {
            StoreError::Busy(_) => "the database stayed locked by other agents; retry the call",
            StoreError::Io(_) => {
                "for a file: check disk space, and that it, its -wal and -shm files and their directory are writable; for a server: that it is up and the URL, user and password are right; the next call tries again"
            }
            StoreError::Corrupt(_) => "the database is damaged; restore it or point --db elsewhere",
            StoreError::Constraint(_) | StoreError::Sql(_) | StoreError::InvalidState(_) => {
                "a bug in tasklists: please report it with the call that failed"
            }
            StoreError::Other(_) => "retry the call; if it persists, check the database",
        };
        ToolError::new(
            ErrorCode::Storage,
            format!("store failed: {}; nothing was changed", e.reason()),
            hint,
        )
    }
}

impl ToolError {
    /// A commit that failed on I/O (a connection lost while committing):
    /// whether the server applied it is unknown, so the agent is told to
    /// look before repeating a write.
    pub fn commit_failed(e: StoreError) -> Self {
        match e {
            StoreError::Io(_) => ToolError::new(
                ErrorCode::Storage,
                format!(
                    "store failed while committing: {}; the change may or may not have been applied",
                    e.reason()
                ),
                "read the list or task back before repeating the call; the next call tries the store again",
            ),
            other => other.into(),
        }
    }
}

/// Result of a tool action.
pub type ToolResult<T> = Result<T, ToolError>;

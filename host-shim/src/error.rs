//! The two error families of the host: [`ToolError`] is the contract's
//! answer to a tool call (what an agent sees), [`HostError`] is the host
//! itself failing (no database, a file that is not a database, a component
//! that cannot load).

use serde_json::json;
use std::fmt;
use std::str::FromStr;

/// The error codes of the tool contract (`wit/types.wit`, `error-code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// Missing, malformed, out of range or unknown parameter; wrong id kind.
    InvalidParams,
    /// The action is not defined for this tool.
    UnknownAction,
    /// The list or task does not exist (or is soft-deleted).
    NotFound,
    /// Private list of another agent without bypass; pinned identity mismatch.
    Forbidden,
    /// The action needs an identity and none was given.
    AgentRequired,
    /// Claimed by someone else, stale claim token, or a disallowed status change.
    Conflict,
    /// Closing as done/canceled without a non-empty outcome.
    OutcomeRequired,
    /// A dependency would create a cycle.
    Cycle,
    /// The store failed; nothing was changed.
    Storage,
    /// A bug inside the component or the host (a trap); nothing was changed.
    Internal,
}

impl ErrorCode {
    /// Every code, in contract order.
    pub const ALL: [ErrorCode; 10] = [
        ErrorCode::InvalidParams,
        ErrorCode::UnknownAction,
        ErrorCode::NotFound,
        ErrorCode::Forbidden,
        ErrorCode::AgentRequired,
        ErrorCode::Conflict,
        ErrorCode::OutcomeRequired,
        ErrorCode::Cycle,
        ErrorCode::Storage,
        ErrorCode::Internal,
    ];

    /// The code as the contract spells it, e.g. `"invalid_params"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidParams => "invalid_params",
            ErrorCode::UnknownAction => "unknown_action",
            ErrorCode::NotFound => "not_found",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::AgentRequired => "agent_required",
            ErrorCode::Conflict => "conflict",
            ErrorCode::OutcomeRequired => "outcome_required",
            ErrorCode::Cycle => "cycle",
            ErrorCode::Storage => "storage",
            ErrorCode::Internal => "internal",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses the contract spelling (`"not_found"`); unknown text is `Err(())`.
impl FromStr for ErrorCode {
    type Err = ();

    fn from_str(s: &str) -> Result<Self, ()> {
        ErrorCode::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or(())
    }
}

/// A failed tool call, as the contract delivers it to agents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    /// Machine-readable code.
    pub code: ErrorCode,
    /// What went wrong, with the ids involved.
    pub message: String,
    /// What to do next (may be empty).
    pub hint: String,
}

impl ToolError {
    /// Builds an error from its three parts.
    pub fn new(code: ErrorCode, message: impl Into<String>, hint: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            hint: hint.into(),
        }
    }

    /// The contract's error object: `{"error":{"code","message","hint"}}`.
    pub fn to_json(&self) -> serde_json::Value {
        json!({ "error": { "code": self.code.as_str(), "message": self.message, "hint": self.hint } })
    }

    /// [`ToolError::to_json`] as compact text, keys in the contract's
    /// order (code, message, hint: serde_json keeps insertion order here),
    /// which is what agents are sent.
    pub fn to_json_text(&self) -> String {
        self.to_json().to_string()
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ToolError {}

/// The host itself failed: nothing the component said, but the machinery
/// around it (paths, database file, loading the component).
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// No `--db`, `TASKLISTS_DB`, `XDG_DATA_HOME` or `HOME` to derive a path from.
    #[error("no database path: pass --db, or set TASKLISTS_DB, XDG_DATA_HOME or HOME")]
    NoDatabasePath,
    /// The store could not be opened (nothing was modified).
    #[error(transparent)]
    Store(#[from] tasklists_store::OpenError),
    /// The component could not be compiled, loaded, linked or instantiated.
    #[error("cannot load the tasklists component: {0}")]
    Component(String),
    /// The component trapped outside a tool call (catalogue, renderers).
    #[error("the component trapped: {0}")]
    Trap(String),
    /// The component answered something the host cannot use (e.g. a tool
    /// schema that is not JSON).
    #[error("the component returned malformed output: {0}")]
    BadOutput(String),
    /// The MCP server could not start or its connection failed.
    #[error("MCP server: {0}")]
    Mcp(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for code in ErrorCode::ALL {
            assert_eq!(code.as_str().parse::<ErrorCode>(), Ok(code));
            assert_eq!(code.to_string(), code.as_str());
        }
        assert!("nope".parse::<ErrorCode>().is_err());
    }

    #[test]
    fn error_json_keeps_contract_order() {
        let err = ToolError::new(ErrorCode::Conflict, "task_1 is \"claimed\"", "");
        let text = err.to_json_text();
        assert_eq!(
            text,
            r#"{"error":{"code":"conflict","message":"task_1 is \"claimed\"","hint":""}}"#
        );
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            err.to_json()
        );
    }
}

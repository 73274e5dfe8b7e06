//! A person's decisions on a plan: approve a list (or one task added since
//! the list was approved), reject a list with a reason, and what changed
//! since the last approval. No tool reaches these: only the person's entry
//! point (`crate::person`) calls them, with `call.person` set.
//!
//! (Interface fixed by the lead; the bodies are being written.)

use serde::{Deserialize, Serialize};

use super::action::Done;
use super::call::Call;
use crate::error::{ToolError, ToolResult};
use crate::model::ListRow;

/// What a person's approval or rejection came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decided {
    /// The list, as it stands after the decision.
    pub list: crate::results::ListJson,
    /// The tasks the decision approved (ids), if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub approved_tasks: Vec<String>,
}

/// What changed in an approved list since its approval.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ApprovalChanges {
    /// Tasks added since (waiting for their own approval): id and title.
    #[serde(default)]
    pub added: Vec<(String, String)>,
    /// Tasks deleted since: id and the approved title.
    #[serde(default)]
    pub removed: Vec<(String, String)>,
    /// Tasks retitled since: id, approved title, title now.
    #[serde(default)]
    pub retitled: Vec<(String, String, String)>,
}

fn not_yet() -> ToolError {
    ToolError::invalid("approval is not built yet", "")
}

/// Approves `list_id` (all its tasks, those added since included), or only
/// `task_id` of it, as `call.person`, with an optional note.
pub fn approve(
    _call: &Call,
    _list_id: &str,
    _task_id: Option<&str>,
    _note: Option<&str>,
) -> ToolResult<Done<Decided>> {
    Err(not_yet())
}

/// Rejects `list_id` as `call.person`, with the reason the agents read.
pub fn reject(_call: &Call, _list_id: &str, _reason: &str) -> ToolResult<Done<Decided>> {
    Err(not_yet())
}

/// What changed in `list` since its approval (empty when not approved).
pub fn changes_since_approval(_call: &Call, _list: &ListRow) -> ToolResult<ApprovalChanges> {
    Err(not_yet())
}

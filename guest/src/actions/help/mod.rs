//! `task_help`: its four actions, and what they answer: the workflow, the
//! rules, the schemas and the examples, generated from the specs (the same
//! definitions the validator uses). Help takes no params and reads no
//! store, so its actions are not [`super::Action`]s: the registry runs
//! them with the catalogue's listing.

mod reference;

use super::action::Done;
use crate::contract::{self, Access, ActionSpec, Listing, TASK_HELP};
use crate::error::{ToolError, ToolResult};
use crate::results;
use reference::{examples, schemas};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

/// A worked example call of `task_help`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HelpExample {
    /// What it does (the action's summary).
    pub title: String,
    /// The tool called.
    pub tool: String,
    /// The whole input: `{action, params}`.
    pub input: Json,
}

/// A `task_help` result: the sections its action asked for, in reading
/// order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HelpResult {
    /// The standard workflow, as steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workflow: Option<Vec<String>>,
    /// The rules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rules: Option<Vec<String>>,
    /// Tool → action → `{summary, schema}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schemas: Option<Map<String, Json>>,
    /// Worked calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub examples: Option<Vec<HelpExample>>,
}

/// `task_help all`.
pub const ALL: &ActionSpec = &ActionSpec {
    tool: &TASK_HELP,
    name: "all",
    summary: "workflow, rules, schemas and examples",
    own_params: &[],
    access: Access::None,
    writes: false,
    example: "{}",
};

/// `task_help workflow`.
pub const WORKFLOW: &ActionSpec = &ActionSpec {
    tool: &TASK_HELP,
    name: "workflow",
    summary: "the standard agent workflow and sharing rules",
    own_params: &[],
    access: Access::None,
    writes: false,
    example: "{}",
};

/// `task_help schemas`.
pub const SCHEMAS: &ActionSpec = &ActionSpec {
    tool: &TASK_HELP,
    name: "schemas",
    summary: "JSON Schema of every tool+action",
    own_params: &[],
    access: Access::None,
    writes: false,
    example: "{}",
};

/// `task_help examples`.
pub const EXAMPLES: &ActionSpec = &ActionSpec {
    tool: &TASK_HELP,
    name: "examples",
    summary: "worked example calls",
    own_params: &[],
    access: Access::None,
    writes: false,
    example: "{}",
};

/// Runs the `task_help` action named `action` over the catalogue's
/// `listing`, with its raw `params` (none are taken).
pub fn run(action: &str, params: &str, listing: &Listing) -> ToolResult<Done<HelpResult>> {
    check_no_params(params)?;
    let all = action == "all";
    let texts = |t: &[&str]| t.iter().map(|s| s.to_string()).collect();
    let workflow = all || action == "workflow";
    let result = HelpResult {
        workflow: workflow.then(|| texts(contract::WORKFLOW)),
        rules: workflow.then(|| texts(contract::RULES)),
        schemas: (all || action == "schemas").then(|| schemas(listing)),
        examples: (all || action == "examples").then(|| examples(listing)),
    };
    let data = results::to_json(&result);
    let sections: Vec<&str> = data
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let summary = format!("task_help {action}: {}", sections.join(", "));
    Ok(Done { summary, result })
}

/// `task_help` takes only its action: params must be absent, null or `{}`.
fn check_no_params(params: &str) -> ToolResult<()> {
    let trimmed = params.trim();
    let empty = trimmed.is_empty()
        || trimmed == "null"
        || serde_json::from_str::<serde_json::Value>(trimmed)
            .is_ok_and(|v| v.as_object().is_some_and(|m| m.is_empty()));
    if empty {
        Ok(())
    } else {
        Err(ToolError::invalid(
            "task_help takes only action, no params",
            "call task_help with {\"action\": \"all\"}",
        ))
    }
}

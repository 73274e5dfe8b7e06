//! `task_help`: the workflow, the rules, the schemas and the examples, and
//! the tool catalogue hosts publish, all generated from the catalogue
//! tables (the same definitions the validator uses).

mod export;
mod reference;
mod texts;

pub use export::catalogue;
pub use texts::{RULES, WORKFLOW};

use super::call::Output;
use crate::error::ToolResult;
use crate::results::{self, HelpResult};
use reference::{examples, schemas};

/// Runs a `task_help` action.
pub fn run(action: &str) -> ToolResult<Output> {
    let all = action == "all";
    let texts = |t: &[&str]| t.iter().map(|s| s.to_string()).collect();
    let workflow = all || action == "workflow";
    let data = HelpResult {
        workflow: workflow.then(|| texts(WORKFLOW)),
        rules: workflow.then(|| texts(RULES)),
        schemas: (all || action == "schemas").then(schemas),
        examples: (all || action == "examples").then(examples),
    };
    let data = results::to_json(&data);
    let sections: Vec<&str> = data
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let summary = format!("task_help {action}: {}", sections.join(", "));
    Ok(Output { summary, data })
}

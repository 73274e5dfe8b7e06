//! `task_help`: the workflow, the rules, the schemas and the examples, and
//! the tool catalogue hosts publish, all generated from the catalogue
//! tables (the same definitions the validator uses).

mod export;
mod reference;
mod texts;

pub use export::catalogue;
pub use texts::{RULES, WORKFLOW};

use serde_json::{Map, Value as Json, json};

use super::call::Output;
use crate::error::ToolResult;
use reference::{examples, schemas};

/// Runs a `task_help` action.
pub fn run(action: &str) -> ToolResult<Output> {
    let mut data = Map::new();
    let all = action == "all";
    if all || action == "workflow" {
        data.insert("workflow".into(), json!(WORKFLOW));
        data.insert("rules".into(), json!(RULES));
    }
    if all || action == "schemas" {
        data.insert("schemas".into(), schemas());
    }
    if all || action == "examples" {
        data.insert("examples".into(), examples());
    }
    let summary = format!(
        "task_help {action}: {}",
        data.keys().cloned().collect::<Vec<_>>().join(", ")
    );
    Ok(Output {
        summary,
        data: Json::Object(data),
    })
}

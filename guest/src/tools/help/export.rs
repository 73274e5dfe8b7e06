//! The tool catalogue as hosts publish it (MCP `tools/list`, Pi
//! `registerTool`): name, title, a prompt description with every action's
//! signature, the input schema and the annotations.

use serde_json::Value as Json;

use crate::catalogue::{self, ActionSpec, Annotations, BATCH_ITEM, Param, TOOLS, ToolSpec, Ty};

/// One tool as hosts publish it (MCP `tools/list`, Pi `registerTool`).
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogueEntry {
    /// Tool name.
    pub name: &'static str,
    /// Human title.
    pub title: &'static str,
    /// Prompt description: purpose and the actions with their parameters.
    pub description: String,
    /// JSON Schema of the input object.
    pub input_schema: Json,
    /// MCP annotations.
    pub annotations: Annotations,
}

/// The five tools.
pub fn catalogue() -> Vec<CatalogueEntry> {
    TOOLS
        .iter()
        .map(|t| CatalogueEntry {
            name: t.name,
            title: t.title,
            description: describe(t),
            input_schema: catalogue::tool_input_schema(t),
            annotations: t.annotations,
        })
        .collect()
}

/// `purpose` + one signature per action, e.g. `claim_next(list_id, lease_seconds?)`.
fn describe(tool: &ToolSpec) -> String {
    if !tool.takes_params {
        return format!(
            "{} Actions: {}.",
            tool.purpose,
            tool.action_names().join(", ")
        );
    }
    let sigs: Vec<String> = tool.actions.iter().map(signature).collect();
    format!(
        "{} Actions: {}. Every action accepts agent_id; actions on a list accept bypass_private+bypass_reason. See task_help.",
        tool.purpose,
        sigs.join("; ")
    )
}

fn signature(a: &ActionSpec) -> String {
    let params: Vec<String> = a.own_params.iter().map(param_sig).collect();
    format!("{}({})", a.name, params.join(", "))
}

/// `name` or `name?`; the add_many items spell out their own keys.
fn param_sig(p: &Param) -> String {
    let name = match p.ty {
        Ty::Items { .. } => {
            let keys: Vec<String> = BATCH_ITEM.iter().map(param_sig).collect();
            format!("{}[{{{}}}]", p.name, keys.join(", "))
        }
        _ => p.name.to_string(),
    };
    if p.required { name } else { format!("{name}?") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_is_small_and_complete() {
        let cat = catalogue();
        assert_eq!(cat.len(), 5);
        let size: usize = cat
            .iter()
            .map(|c| c.description.len() + c.input_schema.to_string().len())
            .sum();
        assert!(size < 4000, "catalogue is {size} bytes");
        assert!(
            cat[2]
                .description
                .contains("claim_next(list_id, lease_seconds?)")
        );
    }
}

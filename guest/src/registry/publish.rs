//! The tool catalogue as hosts publish it (MCP `tools/list`, Pi
//! `registerTool`): name, title, a prompt description with every action's
//! signature, the input schema and the annotations.

use crate::bindings::ToolInfo;
use crate::contract::{self, ActionSpec, BATCH_ITEM, Param, ToolSpec, Ty};

/// The five tools, as the WIT `catalogue` export returns them: in
/// published order, each with its actions from the registry.
pub fn catalogue() -> Vec<ToolInfo> {
    super::listing()
        .into_iter()
        .map(|(t, actions)| ToolInfo {
            name: t.name.into(),
            title: t.title.into(),
            description: describe(t, &actions),
            input_schema: contract::tool_input_schema(t, &actions).to_string(),
            annotations: t.annotations,
            prompt_snippet: t.snippet.into(),
            prompt_guidelines: t.guidelines.iter().map(|g| (*g).into()).collect(),
        })
        .collect()
}

/// `purpose` + one signature per action, e.g. `claim_next(list_id, lease_seconds?, labels?)`.
fn describe(tool: &ToolSpec, actions: &[&ActionSpec]) -> String {
    if !tool.takes_params {
        let names: Vec<&str> = actions.iter().map(|a| a.name).collect();
        return format!("{} Actions: {}.", tool.purpose, names.join(", "));
    }
    let sigs: Vec<String> = actions.iter().map(|a| signature(a)).collect();
    format!(
        "{} Actions: {}. All actions accept agent_id; list actions accept bypass_private+bypass_reason. See task_help.",
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
    fn prompt_lines_are_one_line_and_guidelines_name_their_tool() {
        for tool in catalogue() {
            assert!(!tool.prompt_snippet.is_empty() && !tool.prompt_snippet.contains('\n'));
            // Pi appends guidelines flat, without the tool's name: each
            // must say which tool it is about.
            for g in &tool.prompt_guidelines {
                assert!(g.contains(&tool.name), "{g:?} does not name {}", tool.name);
            }
        }
    }

    #[test]
    fn catalogue_is_small_and_complete() {
        let cat = catalogue();
        assert_eq!(cat.len(), 5);
        let size: usize = cat
            .iter()
            .map(|c| c.description.len() + c.input_schema.len())
            .sum();
        assert!(size < 4000, "catalogue is {size} bytes");
        assert!(
            cat[2]
                .description
                .contains("claim_next(list_id, lease_seconds?, labels?)")
        );
    }
}

//! The registry's table against the contract: one row per published
//! action, grouped by tool in the tools' order, every example valid.

use super::{ACTIONS, listing, rows_of};
use crate::contract::{self, TOOLS};

/// Rows of one tool are contiguous and the tools come in [`TOOLS`]
/// order, so the table's order is the published order.
#[test]
fn the_table_is_the_published_order() {
    let mut seen: Vec<&str> = Vec::new();
    for row in ACTIONS {
        let tool = row.spec().tool.name;
        if seen.last() != Some(&tool) {
            assert!(!seen.contains(&tool), "{tool}'s rows are not together");
            seen.push(tool);
        }
    }
    let tools: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(seen, tools);
    let published: usize = listing().iter().map(|(_, a)| a.len()).sum();
    assert_eq!(published, ACTIONS.len());
}

/// Every action has one row (hence one handler and one renderer); help
/// actions (and only they) take no params; a renderer is total.
#[test]
fn every_action_has_a_handler_and_a_renderer() {
    let rows: Vec<String> = ACTIONS
        .iter()
        .map(|r| format!("{} {}", r.spec().tool.name, r.spec().name))
        .collect();
    assert_eq!(
        rows,
        [
            "task_lists create",
            "task_lists find",
            "task_lists get",
            "task_lists delete",
            "task_items create",
            "task_items add_many",
            "task_items update",
            "task_items reorder",
            "task_items delete",
            "task_claims claim_next",
            "task_claims refresh",
            "task_claims release_expired",
            "task_audit get",
            "task_help all",
            "task_help workflow",
            "task_help schemas",
            "task_help examples",
        ]
    );
    for tool in TOOLS {
        for row in rows_of(tool) {
            // Odd data gives None, never a panic.
            let _ = row.render(&serde_json::Value::Null);
            let _ = row.render(&serde_json::json!({}));
            let _ = row.headline(&serde_json::json!({}));
        }
    }
}

#[test]
fn every_example_passes_its_own_validator() {
    for (tool, actions) in listing() {
        for a in actions {
            if !tool.takes_params {
                continue;
            }
            contract::validate(tool, a, a.example)
                .unwrap_or_else(|e| panic!("{} {}: {}", tool.name, a.name, e.message));
        }
    }
}

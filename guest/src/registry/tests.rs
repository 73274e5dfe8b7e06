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

/// Each action has one row (its handler and renderer are tied by type;
/// help actions, and only they, take no params: checked as the table
/// compiles); names are unique within a tool; a renderer is total. The published list itself is pinned by the
/// contract suite (`tests/tests/catalogue.rs`).
#[test]
fn every_row_is_one_action_with_a_total_renderer() {
    let mut names: Vec<(&str, &str)> = ACTIONS
        .iter()
        .map(|r| (r.spec().tool.name, r.spec().name))
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), ACTIONS.len(), "an action is listed twice");
    for tool in TOOLS {
        assert!(
            rows_of(tool).next().is_some(),
            "{} has no action",
            tool.name
        );
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
            contract::validate(a, a.example)
                .unwrap_or_else(|e| panic!("{} {}: {}", tool.name, a.name, e.message));
        }
    }
}

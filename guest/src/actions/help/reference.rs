//! The generated parts of `task_help`: every action's params schema and a
//! worked example call of each, both from the specs of the listing.

use serde_json::{Map, Value as Json, json};

use super::HelpExample;
use crate::contract::{self, Listing};

/// The `params` schema of every tool+action (`task_help`'s: no params).
pub(super) fn schemas(listing: &Listing) -> Map<String, Json> {
    let mut tools = Map::new();
    for (tool, specs) in listing {
        let mut actions = Map::new();
        for a in specs {
            actions.insert(
                a.name.into(),
                json!({"summary": a.summary, "schema": contract::action_schema(tool, a)}),
            );
        }
        tools.insert(tool.name.into(), Json::Object(actions));
    }
    tools
}

/// A worked call of every tool+action that takes params.
pub(super) fn examples(listing: &Listing) -> Vec<HelpExample> {
    let mut out = Vec::new();
    for (tool, specs) in listing.iter().filter(|(t, _)| t.takes_params) {
        for a in specs {
            let params: Json = serde_json::from_str(a.example).unwrap_or(Json::Null);
            out.push(HelpExample {
                title: a.summary.to_string(),
                tool: tool.name.to_string(),
                input: json!({"action": a.name, "params": params}),
            });
        }
    }
    out
}

//! `task_help` results: the workflow numbered, rules as bullets, one line
//! per tool+action signature, and examples as title + one-line JSON.

use super::fmt::{self, str_of};
use super::{Line, LineBuf, Style, line};
use crate::actions::help::HelpResult;
use serde_json::Value;

/// Examples longer than this are cut (the model got them whole).
const EXAMPLE_MAX: usize = 240;

/// Any `task_help` action: sections present in the data, in reading order.
pub(crate) fn help(help: HelpResult) -> Option<Vec<Line>> {
    let mut lines = Vec::new();
    if let Some(steps) = &help.workflow {
        lines.push(line("Workflow", Style::Strong));
        let w = steps.len().to_string().len();
        for (i, step) in steps.iter().enumerate() {
            item(&mut lines, &format!("{:>w$}. ", i + 1), step);
        }
    }
    if let Some(rules) = &help.rules {
        lines.push(line("Rules", Style::Strong));
        for rule in rules {
            item(&mut lines, "• ", rule);
        }
    }
    if let Some(schemas) = &help.schemas {
        lines.push(line("Schemas", Style::Strong));
        for (tool, actions) in schemas {
            let Some(actions) = actions.as_object() else {
                continue;
            };
            for (action, def) in actions {
                lines.push(signature(tool, action, def));
            }
        }
    }
    if let Some(examples) = &help.examples {
        lines.push(line("Examples", Style::Strong));
        for ex in examples {
            lines.push(line(
                format!("  {}", fmt::nonblank(&ex.title).unwrap_or("(untitled)")),
                Style::Text,
            ));
            let mut l = LineBuf::new();
            l.push("    ", Style::Text);
            l.push(fmt::nonblank(&ex.tool).unwrap_or("?"), Style::Accent)
                .push(" ", Style::Text);
            l.push(fmt::compact_json(&ex.input, EXAMPLE_MAX), Style::Muted);
            lines.push(l.finish());
        }
    }
    (!lines.is_empty()).then_some(lines)
}

/// A numbered or bulleted item; a multi-line text keeps its breaks,
/// continuation lines aligned under the first.
fn item(lines: &mut Vec<Line>, mark: &str, text: &str) {
    let pad = " ".repeat(fmt::width(mark) + 2);
    for (i, part) in text.lines().filter(|p| !p.trim().is_empty()).enumerate() {
        let mut l = LineBuf::new();
        if i == 0 {
            l.push("  ", Style::Text).push(mark, Style::Muted);
        } else {
            l.push(&pad, Style::Text);
        }
        l.push(part.trim_end(), Style::Text);
        lines.push(l.finish());
    }
}

/// `  task_lists create(name, scope_type?, …) — summary`: required params
/// first in schema order, then optional ones marked `?`.
fn signature(tool: &str, action: &str, def: &Value) -> Line {
    let schema = def.get("schema").unwrap_or(&Value::Null);
    // Tolerate a schema of the whole input `{action, params}` as well as
    // one of `params` alone.
    let schema = match schema.pointer("/properties/params") {
        Some(p) if p.get("properties").is_some() => p,
        _ => schema,
    };
    let required: Vec<&str> = fmt::arr(schema, "required")
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut params: Vec<String> = Vec::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        params.extend(
            required
                .iter()
                .filter(|r| props.contains_key(**r))
                .map(|r| r.to_string()),
        );
        params.extend(
            props
                .keys()
                .filter(|k| !required.contains(&k.as_str()))
                .map(|k| format!("{k}?")),
        );
    }
    let mut l = LineBuf::new();
    l.push("  ", Style::Text)
        .push(fmt::truncate(tool, 30), Style::Text)
        .push(" ", Style::Text)
        .push(fmt::truncate(action, 30), Style::Accent)
        .push(format!("({})", params.join(", ")), Style::Muted);
    if let Some(summary) = str_of(def, "summary") {
        l.push(" — ", Style::Muted)
            .push(fmt::truncate(summary, 120), Style::Text);
    }
    l.finish()
}

#[cfg(test)]
mod tests {
    use crate::registry::render_result;
    use crate::render::{Style, to_plain};
    use serde_json::json;

    #[test]
    fn all_sections() {
        let data = json!({
            "workflow": ["task_lists find an existing list", "else task_lists create", "claim with task_claims claim_next\nsave notes as you go"],
            "rules": ["two agents never run the same task at once", "done needs an outcome"],
            "schemas": {
                "task_help": {"all": {"summary": "everything", "schema": {"type": "object", "properties": {}}}},
                "task_lists": {
                    "create": {"summary": "make a list", "schema": {"type": "object", "required": ["name"], "properties": {"get_or_create": {}, "name": {"type": "string"}, "scope_type": {}}}},
                    "delete": {"summary": "soft-delete a list", "schema": {"type": "object", "required": ["list_id"], "properties": {"list_id": {}}}}
                }
            },
            "examples": [{"title": "Claim the next task", "tool": "task_claims", "input": {"action": "claim_next", "params": {"list_id": "list_1"}}}]
        });
        let out = render_result("task_help", "all", &data);
        assert_eq!(
            to_plain(&out),
            "Workflow\n\
             \x20 1. task_lists find an existing list\n\
             \x20 2. else task_lists create\n\
             \x20 3. claim with task_claims claim_next\n\
             \x20    save notes as you go\n\
             Rules\n\
             \x20 • two agents never run the same task at once\n\
             \x20 • done needs an outcome\n\
             Schemas\n\
             \x20 task_help all() — everything\n\
             \x20 task_lists create(name, get_or_create?, scope_type?) — make a list\n\
             \x20 task_lists delete(list_id) — soft-delete a list\n\
             Examples\n\
             \x20 Claim the next task\n\
             \x20   task_claims {\"action\":\"claim_next\",\"params\":{\"list_id\":\"list_1\"}}"
        );
        assert_eq!(out[0][0].style, Style::Strong);
    }

    #[test]
    fn single_sections_and_wrapped_schemas() {
        let data = json!({"rules": ["one rule"]});
        assert_eq!(
            to_plain(&render_result("task_help", "workflow", &data)),
            "Rules\n  • one rule"
        );
        let wrapped = json!({"schemas": {"task_claims": {"refresh": {"summary": "extend a lease", "schema": {
            "properties": {"action": {}, "params": {"required": ["task_id"], "properties": {"task_id": {}, "lease_seconds": {}}}}}}}}});
        assert_eq!(
            to_plain(&render_result("task_help", "schemas", &wrapped)),
            "Schemas\n  task_claims refresh(task_id, lease_seconds?) — extend a lease"
        );
    }
}

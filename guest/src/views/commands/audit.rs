//! `task-audit [list_id] [full] [bypass <reason…>]`: the audit log through
//! `task_audit get`. Without a list, the private-list bypasses the agent
//! may see; with one, that list's events, which needs access to it or an
//! explicit, audited bypass whose reason is the rest of the line.

use serde_json::{Map, Value, json};

use super::{Run, usage_error};
use crate::bindings::CommandEffect;
use crate::error::ToolError;
use crate::registry::render_result;
use crate::render::{Style, line};
use crate::views::layout::json_lines;

/// Events shown at most (the newest).
const EVENTS: i64 = 100;

/// What the words ask for.
#[derive(Debug, Default, PartialEq)]
struct Ask {
    list_id: Option<String>,
    full: bool,
    bypass: Option<String>,
}

/// Reads `[list_id] [full] [bypass <reason…>]` in any order, the reason
/// last (it is every word after `bypass`).
fn parse(words: &[&str]) -> Result<Ask, ToolError> {
    let mut ask = Ask::default();
    let mut i = 0;
    while let Some(word) = words.get(i) {
        match *word {
            "full" if !ask.full => ask.full = true,
            "bypass" => {
                let reason = words[i + 1..].join(" ");
                if reason.is_empty() {
                    return Err(usage_error(
                        "task-audit",
                        "bypass needs a reason: bypass <reason…>",
                    ));
                }
                ask.bypass = Some(reason);
                break;
            }
            id if ask.list_id.is_none() => ask.list_id = Some(id.to_string()),
            other => {
                return Err(usage_error(
                    "task-audit",
                    format!("task-audit does not take {}", crate::text::quote(other)),
                ));
            }
        }
        i += 1;
    }
    if ask.bypass.is_some() && ask.list_id.is_none() {
        return Err(usage_error(
            "task-audit",
            "bypass reads one private list of another agent: give its list_id first",
        ));
    }
    Ok(ask)
}

/// Runs `task-audit` with its words.
pub(crate) fn run(words: &[&str], run: &Run) -> CommandEffect {
    let ask = match parse(words) {
        Ok(a) => a,
        Err(e) => return run.fail(&e),
    };
    let mut params = Map::new();
    params.insert("limit".into(), json!(EVENTS));
    if let Some(id) = &ask.list_id {
        params.insert("list_id".into(), json!(id));
    }
    if let Some(reason) = &ask.bypass {
        params.insert("bypass_private".into(), json!(true));
        params.insert("bypass_reason".into(), json!(reason));
    }
    match run.tool("task_audit", "get", &Value::Object(params)) {
        Ok(out) if ask.full => run.show(json_lines(&out.json(), run.width)),
        Ok(out) => {
            // The tool's summary says what was read (whose events, how many).
            let mut lines = vec![line(&out.summary, Style::Muted)];
            lines.extend(render_result("task_audit", "get", &out.json()));
            run.show(lines)
        }
        Err(e) => run.fail(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_in_any_order_with_the_reason_last() {
        assert_eq!(parse(&[]).unwrap(), Ask::default());
        let a = parse(&["full", "list_1", "bypass", "user", "asked"]).unwrap();
        assert_eq!(a.list_id.as_deref(), Some("list_1"));
        assert!(a.full);
        assert_eq!(a.bypass.as_deref(), Some("user asked"));
        assert!(parse(&["list_1", "bypass"]).is_err());
        assert!(parse(&["bypass", "why"]).is_err());
        assert!(parse(&["list_1", "list_2"]).is_err());
    }
}

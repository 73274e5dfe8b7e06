//! The call itself, on one line: `task_items update task_…X7K9QZ ✓ done
//! outcome "…" as builder-1`. Known parameters get a readable form in a
//! fixed order (what is acted on first, who acts last); unknown ones show as
//! `key=value`, so nothing the agent sent is hidden.

use super::fmt;
use super::{Line, LineBuf, Style};
use serde_json::Value;

/// A call line never exceeds this many columns.
const CALL_MAX: usize = 160;

/// Parameters rendered by [`known`], in display order; the rest follow.
const ORDER: &[&str] = &[
    "list_id",
    "task_id",
    "task_ids",
    "name",
    "title",
    "tasks",
    "status",
    "scope_type",
    "scope_key",
    "visibility",
    "owner_agent_id",
    "get_or_create",
    "position",
    "before_task_id",
    "after_task_id",
    "depends_on",
    "assigned_to_agent_id",
    "outcome",
    "notes",
    "description",
    "include_tasks",
    "include_deleted",
    "include_times",
    "kinds",
    "since",
    "lease_seconds",
    "claim_token",
    "limit",
    "cursor",
    "bypass_private",
    "bypass_reason",
    "agent_id",
];

/// The one-line view of a call.
pub(crate) fn line(tool: &str, action: &str, params: &Value) -> Line {
    let mut l = LineBuf::new();
    l.push(fmt::truncate(tool, 40), Style::Strong);
    if !action.is_empty() {
        l.push(" ", Style::Text)
            .push(fmt::truncate(action, 40), Style::Accent);
    }
    match params {
        Value::Object(map) => {
            for key in ORDER {
                if let Some(v) = map.get(*key) {
                    known(&mut l, key, v, params);
                }
            }
            for (key, v) in map.iter().filter(|(k, _)| !ORDER.contains(&k.as_str())) {
                l.push(
                    format!(" {}={}", fmt::truncate(key, 24), fmt::compact_value(v, 30)),
                    Style::Muted,
                );
            }
        }
        Value::Null => {}
        other => {
            l.push(format!(" {}", fmt::compact_json(other, 60)), Style::Muted);
        }
    }
    l.truncate(CALL_MAX);
    l.finish()
}

/// Appends one known parameter (with its leading space).
fn known(l: &mut LineBuf, key: &str, v: &Value, params: &Value) {
    let text = |v: &Value, max: usize| match v.as_str() {
        Some(s) => fmt::truncate(s, max),
        None => fmt::compact_json(v, max),
    };
    let ids = |v: &Value| match v.as_array() {
        Some(a) if a.len() > 3 => format!("{} tasks", a.len()),
        Some(a) => a
            .iter()
            .map(|x| fmt::compact_value(x, 20))
            .collect::<Vec<_>>()
            // As task rows list dependencies.
            .join(", "),
        None => fmt::compact_value(v, 30),
    };
    match key {
        "list_id" | "task_id" | "claim_token" => {
            l.push(format!(" {}", fmt::compact_value(v, 30)), Style::Muted);
        }
        "task_ids" => {
            l.push(format!(" {}", ids(v)), Style::Muted);
        }
        "name" | "title" => {
            l.push(format!(" \"{}\"", text(v, 50)), Style::Text);
        }
        "tasks" => {
            let n = v.as_array().map(|a| fmt::plural(a.len(), "task"));
            l.push(
                format!(" {}", n.unwrap_or_else(|| text(v, 30))),
                Style::Text,
            );
        }
        "status" => match v {
            Value::String(s) => {
                let b = fmt::status(s);
                l.push(format!(" {} {}", b.symbol, b.label), b.style);
            }
            Value::Array(a) => {
                let labels: Vec<String> = a
                    .iter()
                    .map(|s| {
                        s.as_str()
                            .map(|s| fmt::status(s).label)
                            .unwrap_or_else(|| "?".into())
                    })
                    .collect();
                l.push(format!(" status={}", labels.join("|")), Style::Muted);
            }
            other => {
                l.push(
                    format!(" status={}", fmt::compact_json(other, 20)),
                    Style::Muted,
                );
            }
        },
        "scope_type" => {
            l.push(format!(" {}", fmt::scope(params)), Style::Muted);
        }
        // Shown with scope_type; alone only when the type is absent.
        "scope_key" if params.get("scope_type").is_some() => {}
        "scope_key" => {
            l.push(format!(" scope_key={}", text(v, 32)), Style::Muted);
        }
        "visibility" => {
            let style = if v.as_str() == Some("private") {
                Style::Warning
            } else {
                Style::Muted
            };
            l.push(format!(" {}", text(v, 12)), style);
        }
        "owner_agent_id" => {
            l.push(format!(" owner @{}", text(v, 24)), Style::Muted);
        }
        "get_or_create" => {
            if v.as_bool() == Some(true) {
                l.push(" get-or-create", Style::Muted);
            }
        }
        "position" => {
            l.push(format!(" at #{}", text(v, 10)), Style::Muted);
        }
        "before_task_id" => {
            l.push(
                format!(" before {}", fmt::compact_value(v, 30)),
                Style::Muted,
            );
        }
        "after_task_id" => {
            l.push(
                format!(" after {}", fmt::compact_value(v, 30)),
                Style::Muted,
            );
        }
        "depends_on" => match v.as_array() {
            Some(a) if a.is_empty() => {
                l.push(" no deps", Style::Muted);
            }
            _ => {
                l.push(format!(" after {}", ids(v)), Style::Muted);
            }
        },
        "assigned_to_agent_id" => match v.as_str() {
            Some(a) => {
                l.push(format!(" → @{}", fmt::truncate(a, 24)), Style::Text);
            }
            None => {
                l.push(" unassign", Style::Text);
            }
        },
        "outcome" | "notes" | "description" => {
            l.push(format!(" {key} \"{}\"", text(v, 40)), Style::Muted);
        }
        "include_tasks" => {
            if v.as_bool() == Some(false) {
                l.push(" no tasks", Style::Muted);
            }
        }
        "include_deleted" => {
            if v.as_bool() == Some(true) {
                l.push(" +deleted", Style::Muted);
            }
        }
        "include_times" => {
            if v.as_bool() == Some(true) {
                l.push(" +times", Style::Muted);
            }
        }
        "kinds" => {
            let kinds = match v.as_array() {
                Some(a) => a.iter().map(|k| text(k, 20)).collect::<Vec<_>>().join(","),
                None => text(v, 40),
            };
            l.push(format!(" kinds={kinds}"), Style::Muted);
        }
        "since" => {
            let since = v.as_str().map(fmt::date).unwrap_or_else(|| text(v, 24));
            l.push(format!(" since {since}"), Style::Muted);
        }
        "lease_seconds" => {
            let lease = fmt::as_int(v)
                .map(fmt::duration)
                .unwrap_or_else(|| text(v, 12));
            l.push(format!(" lease {lease}"), Style::Muted);
        }
        "limit" => {
            l.push(format!(" limit {}", text(v, 12)), Style::Muted);
        }
        "cursor" => {
            l.push(format!(" cursor {}", text(v, 16)), Style::Muted);
        }
        "bypass_private" => {
            if v.as_bool() == Some(true) {
                l.push(" bypass", Style::Warning);
            }
        }
        "bypass_reason" => {
            l.push(format!(" \"{}\"", text(v, 40)), Style::Warning);
        }
        "agent_id" => {
            l.push(format!(" as {}", text(v, 24)), Style::Muted);
        }
        _ => {
            l.push(
                format!(" {key}={}", fmt::compact_value(v, 30)),
                Style::Muted,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::render::tests::*;
    use crate::render::{Style, render_call, to_plain};
    use serde_json::json;

    fn call(tool: &str, action: &str, params: serde_json::Value) -> String {
        let out = render_call(tool, action, &params);
        assert_eq!(out.len(), 1);
        to_plain(&out)
    }

    #[test]
    fn calls_fit_one_line() {
        assert_eq!(
            call(
                "task_lists",
                "create",
                json!({"name": "Sprint 12", "scope_type": "workspace", "scope_key": "/work/main", "get_or_create": true, "agent_id": "builder-1"})
            ),
            "task_lists create \"Sprint 12\" workspace:/work/main get-or-create as builder-1"
        );
        assert_eq!(
            call(
                "task_lists",
                "find",
                json!({"scope_type": "global", "name": "sprint", "limit": 20})
            ),
            "task_lists find \"sprint\" global limit 20"
        );
        assert_eq!(
            call(
                "task_lists",
                "get",
                json!({"list_id": LIST_ID, "status": ["todo", "blocked"]})
            ),
            "task_lists get list_…3X5Z7B status=todo|paused"
        );
        assert_eq!(
            call(
                "task_lists",
                "get",
                json!({"list_id": LIST_ID, "include_times": true, "limit": 500, "cursor": "p100.task_01JDQ4ZK8M3N5P7R9T1VTASK99"})
            ),
            "task_lists get list_…3X5Z7B +times limit 500 cursor p100.task_01JDQ…"
        );
        assert_eq!(
            call("task_lists", "delete", json!({"list_id": LIST_ID})),
            "task_lists delete list_…3X5Z7B"
        );
        assert_eq!(
            call(
                "task_items",
                "create",
                json!({"list_id": LIST_ID, "title": "Deploy", "depends_on": [task_id(2), task_id(3)], "position": 4})
            ),
            "task_items create list_…3X5Z7B \"Deploy\" at #4 after task_…TASK02, task_…TASK03"
        );
        assert_eq!(
            call(
                "task_items",
                "add_many",
                json!({"list_id": LIST_ID, "tasks": [{"title": "a"}, {"title": "b"}]})
            ),
            "task_items add_many list_…3X5Z7B 2 tasks"
        );
        let update = render_call(
            "task_items",
            "update",
            &json!({"task_id": task_id(2), "status": "done", "outcome": "parser merged in #41", "agent_id": "builder-2"}),
        );
        assert_eq!(
            to_plain(&update),
            "task_items update task_…TASK02 ✓ done outcome \"parser merged in #41\" as builder-2"
        );
        assert_eq!(style_of(&update, "✓ done"), Some(Style::Success));
        assert_eq!(
            call(
                "task_items",
                "update",
                json!({"task_id": task_id(3), "status": "blocked", "assigned_to_agent_id": null})
            ),
            "task_items update task_…TASK03 ⏸ paused unassign"
        );
        assert_eq!(
            call(
                "task_items",
                "reorder",
                json!({"list_id": LIST_ID, "task_ids": [task_id(4)], "after_task_id": task_id(1)})
            ),
            "task_items reorder list_…3X5Z7B task_…TASK04 after task_…TASK01"
        );
        assert_eq!(
            call(
                "task_items",
                "delete",
                json!({"task_ids": [task_id(1), task_id(2), task_id(3), task_id(4)]})
            ),
            "task_items delete 4 tasks"
        );
        assert_eq!(
            call(
                "task_claims",
                "claim_next",
                json!({"list_id": LIST_ID, "agent_id": "builder-1", "lease_seconds": 1800})
            ),
            "task_claims claim_next list_…3X5Z7B lease 30m as builder-1"
        );
        assert_eq!(
            call("task_claims", "refresh", json!({"task_id": task_id(2)})),
            "task_claims refresh task_…TASK02"
        );
        assert_eq!(
            call("task_claims", "release_expired", json!({})),
            "task_claims release_expired"
        );
        let audit = render_call(
            "task_audit",
            "get",
            &json!({"list_id": LIST_ID, "kinds": ["private_bypass"], "bypass_private": true, "bypass_reason": "weekly review"}),
        );
        assert_eq!(
            to_plain(&audit),
            "task_audit get list_…3X5Z7B kinds=private_bypass bypass \"weekly review\""
        );
        assert_eq!(style_of(&audit, "weekly review"), Some(Style::Warning));
        assert_eq!(
            call("task_help", "workflow", json!(null)),
            "task_help workflow"
        );
        assert_eq!(
            call(
                "task_items",
                "update",
                json!({"task_id": task_id(1), "taskId": "x\ny"})
            ),
            "task_items update task_…TASK01 taskId=x y"
        );
    }

    #[test]
    fn huge_params_stay_on_one_line() {
        let long = "word ".repeat(200);
        let out = call(
            "task_items",
            "create",
            json!({"title": long, "notes": long, "extra": long, "more": long}),
        );
        assert!(crate::render::fmt::width(&out) <= 160, "{out}");
        assert!(out.ends_with('…'));
    }
}

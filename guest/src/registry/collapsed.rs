//! The collapsed form of a reply, what a transcript shows until the user
//! expands it: the expanded form's headline (or the error and its hint),
//! then a muted count of the lines expanding would add. One to three lines.

use super::{render_reply, renderer};
use crate::bindings::ToolReply;
use crate::render::{Headline, Line, Style, line};
use serde_json::Value;

/// The collapsed lines of `reply` to a call of `tool` with `arguments`.
pub(crate) fn render(tool: &str, arguments: &str, reply: &ToolReply) -> Vec<Line> {
    let expanded = render_reply(tool, arguments, reply);
    let (mut lines, rest) = match &reply.outcome {
        Err(_) => split_error(expanded),
        Ok(_) => {
            let action = crate::contract::parse_arguments(arguments)
                .map(|(action, _)| action)
                .unwrap_or_default();
            let data = serde_json::from_str(&reply.structured).unwrap_or(Value::Null);
            let headline =
                renderer(tool, &action).map_or(Headline::Lines(1), |row| row.headline(&data));
            match headline {
                // A table has no headline of its own: its size is one.
                Headline::Own(head) => {
                    let n = expanded.len();
                    (vec![head], n)
                }
                Headline::Lines(keep) => {
                    let keep = keep.min(expanded.len());
                    let n = expanded.len() - keep;
                    (expanded.into_iter().take(keep).collect(), n)
                }
            }
        }
    };
    if rest > 0 {
        let word = if rest == 1 { "line" } else { "lines" };
        lines.push(line(format!("… {rest} more {word}"), Style::Muted));
    }
    lines
}

/// The error's first line and its hint's first line; the rest counted.
fn split_error(expanded: Vec<Line>) -> (Vec<Line>, usize) {
    let is_hint = |l: &Line| {
        l.first()
            .is_some_and(|s| s.text.trim_start().starts_with("hint:"))
    };
    let total = expanded.len();
    let mut kept: Vec<Line> = expanded.iter().take(1).cloned().collect();
    if let Some(hint) = expanded.iter().skip(1).find(|l| is_hint(l)) {
        kept.push(hint.clone());
    }
    let n = kept.len();
    (kept, total - n)
}

#[cfg(test)]
mod tests {
    use crate::envelope::call;
    use crate::registry::{render_collapsed, render_reply};
    use crate::render::to_plain;
    use crate::testing::Harness;
    use serde_json::json;

    fn ctx() -> crate::context::CallContext {
        crate::context::CallContext {
            agent_id: Some("me".into()),
            ..Default::default()
        }
    }

    /// Collapsed and expanded forms of one call.
    fn both(h: &Harness, tool: &str, arguments: serde_json::Value) -> (String, usize) {
        let args = arguments.to_string();
        let reply = call(tool, &args, &ctx(), &h.store, &h.clock);
        let collapsed = render_collapsed(tool, &args, &reply);
        assert!((1..=3).contains(&collapsed.len()), "{collapsed:?}");
        (
            to_plain(&collapsed),
            render_reply(tool, &args, &reply).len(),
        )
    }

    #[test]
    fn collapsed_forms_keep_the_headline_and_count_the_rest() {
        let h = Harness::default();
        let (c, _) = both(
            &h,
            "task_lists",
            json!({"action": "create", "params": {"name": "Sprint"}}),
        );
        assert!(c.starts_with("✓ created list Sprint  list_…"), "{c}");
        assert!(c.ends_with("\n… 1 more line"), "{c}");
        let found = h.ok("me", "task_lists", "find", json!({}));
        let id = found["lists"][0]["id"].as_str().unwrap().to_string();
        let tasks: Vec<_> = (1..=5).map(|i| json!({"title": format!("t{i}")})).collect();
        h.ok(
            "me",
            "task_items",
            "add_many",
            json!({"list_id": id, "tasks": tasks}),
        );
        let (c, _) = both(&h, "task_lists", json!({"action": "find"}));
        assert_eq!(c, "1 list\n… 1 more line");
        let (c, n) = both(
            &h,
            "task_lists",
            json!({"action": "get", "params": {"list_id": id}}),
        );
        assert_eq!(n, 7);
        assert!(c.starts_with("Sprint  list_…"), "{c}");
        assert!(c.contains("\n  custom · shared · todo 5"), "{c}");
        assert!(c.ends_with("\n… 5 more lines"), "{c}");
        let (c, _) = both(
            &h,
            "task_claims",
            json!({"action": "claim_next", "params": {"list_id": id}}),
        );
        assert!(c.starts_with("▶ claimed #1 t1"), "{c}");
        let (c, _) = both(
            &h,
            "task_audit",
            json!({"action": "get", "params": {"list_id": id}}),
        );
        assert_eq!(c, "7 events\n… 7 more lines");
    }

    #[test]
    fn an_error_collapses_to_its_line_and_hint() {
        let h = Harness::default();
        let (c, n) = both(&h, "task_lists", json!({"action": "nope"}));
        assert!(
            c.starts_with("✗ unknown_action: task_lists has no action"),
            "{c}"
        );
        assert!(c.contains("\n  hint: "), "{c}");
        assert!(n >= 2);
        let (c, _) = both(
            &h,
            "task_lists",
            json!({"action": "get", "params": {"list_id": "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"}}),
        );
        assert_eq!(
            c,
            "✗ not_found: list list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B does not exist or was deleted\n  hint: check the id; task_lists find lists the lists you can see"
        );
    }
}

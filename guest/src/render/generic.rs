//! The fallback view: any JSON as compact `key  value` lines. Used for
//! unknown tools/actions and for data without the shape a specific renderer
//! needs, so a host always has something readable to show.

use super::fmt;
use super::table::{Table, cell};
use super::{Line, Style, line};
use serde_json::Value;

/// Lines shown before `… N more`.
const ROWS_MAX: usize = 30;
/// Width of one value.
const VALUE_MAX: usize = 100;

/// Renders any value compactly; never empty.
pub fn render(data: &Value) -> Vec<Line> {
    match data {
        Value::Object(map) if map.is_empty() => vec![line("ok", Style::Muted)],
        Value::Object(map) => {
            let mut t = Table::new(&[]);
            for (k, v) in map.iter().take(ROWS_MAX) {
                t.row(vec![
                    cell(fmt::truncate(k, 30), Style::Muted),
                    cell(fmt::compact_value(v, VALUE_MAX), Style::Text),
                ]);
            }
            let mut lines = t.lines();
            lines.extend(more(map.len()));
            lines
        }
        Value::Array(items) if items.is_empty() => vec![line("(empty)", Style::Muted)],
        Value::Array(items) => {
            let mut lines: Vec<Line> = items
                .iter()
                .take(ROWS_MAX)
                .map(|v| {
                    line(
                        format!("• {}", fmt::compact_value(v, VALUE_MAX)),
                        Style::Text,
                    )
                })
                .collect();
            lines.extend(more(items.len()));
            lines
        }
        Value::Null => vec![line("(no data)", Style::Muted)],
        other => vec![line(fmt::compact_value(other, VALUE_MAX), Style::Text)],
    }
}

/// `… N more` past the row cap.
fn more(total: usize) -> Option<Line> {
    (total > ROWS_MAX).then(|| line(format!("… {} more", total - ROWS_MAX), Style::Muted))
}

#[cfg(test)]
mod tests {
    use crate::registry::render_result;
    use crate::render::to_plain;
    use serde_json::json;

    #[test]
    fn unknown_tools_get_key_values() {
        let data = json!({"count": 3, "list_id": "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B", "nested": {"a": [1, 2]}, "text": "two\nlines"});
        assert_eq!(
            to_plain(&render_result("task_other", "frob", &data)),
            "count    3\nlist_id  list_…3X5Z7B\nnested   {\"a\":[1,2]}\ntext     two lines"
        );
        assert_eq!(
            to_plain(&render_result("task_other", "frob", &json!({}))),
            "ok"
        );
        assert_eq!(
            to_plain(&render_result("task_other", "frob", &json!(null))),
            "(no data)"
        );
        assert_eq!(
            to_plain(&render_result("task_other", "frob", &json!([1, "a"]))),
            "• 1\n• a"
        );
        let big: serde_json::Map<String, serde_json::Value> =
            (0..40).map(|i| (format!("k{i:02}"), json!(i))).collect();
        let plain = to_plain(&render_result("x", "y", &serde_json::Value::Object(big)));
        assert!(plain.ends_with("k29  29\n… 10 more"), "{plain}");
    }

    #[test]
    fn known_tools_with_odd_data_fall_back() {
        assert_eq!(
            to_plain(&render_result(
                "task_lists",
                "find",
                &json!({"lists": "nope"})
            )),
            "lists  nope"
        );
    }
}

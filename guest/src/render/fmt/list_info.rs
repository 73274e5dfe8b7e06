//! List details: status counters, scope and visibility tokens.

use super::{nonblank, str_of, truncate, truncate_left};
use crate::model::Counts;
use crate::render::{Span, Style};
use crate::results::TaskJson;
use serde_json::Value;

/// `todo N · run N · blocked N · done N`, plus `· canceled N` only when
/// non-zero (canceled work is rarely what a person looks for). Zero counts
/// are muted so the eye lands on the others.
pub(crate) fn counters(counts: &Counts) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let fields = [
        (counts.todo, "todo", Style::Text),
        (counts.in_progress, "run", Style::Accent),
        (counts.blocked, "blocked", Style::Warning),
        (counts.done, "done", Style::Success),
        (counts.canceled, "canceled", Style::Muted),
    ];
    for (n, label, style) in fields {
        if label == "canceled" && n == 0 {
            continue;
        }
        if !out.is_empty() {
            out.push(Span {
                text: " · ".into(),
                style: Style::Muted,
            });
        }
        out.push(Span {
            text: format!("{label} "),
            style: Style::Muted,
        });
        let style = if n == 0 { Style::Muted } else { style };
        out.push(Span {
            text: n.to_string(),
            style,
        });
    }
    out
}

/// Counts of tasks by status, computed from the tasks themselves when a
/// result carries tasks but no counts object.
pub(crate) fn count_tasks(tasks: &[TaskJson]) -> Counts {
    let mut counts = Counts::default();
    for t in tasks {
        if let Some(s) = t.status {
            counts.add(s.as_str(), 1);
        }
    }
    counts
}

/// `workspace:/work/main`, `thread:abc`, `global`: scope type and key in one
/// token; long keys (paths) keep their tail.
pub(crate) fn scope(list: &Value) -> String {
    scope_of(str_of(list, "scope_type"), str_of(list, "scope_key"))
}

/// [`scope`] from the scope type and key (blank ones count as absent).
pub(crate) fn scope_of(ty: Option<&str>, key: Option<&str>) -> String {
    let ty = ty
        .and_then(nonblank)
        .map(|t| truncate(t, 12))
        .unwrap_or_default();
    match key.and_then(nonblank).map(str::trim) {
        Some(key) if !key.is_empty() => format!("{ty}:{}", truncate_left(key, 32)),
        _ => ty,
    }
}

/// Visibility word and its style: `private` stands out (other agents cannot
/// see the list), `shared` is the quiet default.
pub(crate) fn visibility(v: &str) -> Option<Span> {
    let v = nonblank(v)?;
    let style = if v == "private" {
        Style::Warning
    } else {
        Style::Muted
    };
    Some(Span {
        text: truncate(v, 12),
        style,
    })
}

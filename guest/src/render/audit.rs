//! `task_audit get` results: an aligned table of events (time, agent, kind,
//! target, compact data), newest first as returned.

use super::action::{Headline, Render};
use super::fmt::{self, str_of};
use super::lists::more_line;
use super::lists::table_size;
use super::table::{Table, cell};
use super::{Line, LineBuf, Span, Style, line};
use crate::actions::audit;
use crate::actions::audit::AuditPage;
use serde_json::Value;

/// Data columns are cut to this width: the JSON has the rest.
const DATA_MAX: usize = 80;

/// `get` → `{events, next_cursor}`.
pub(crate) fn events(page: AuditPage) -> Option<Vec<Line>> {
    let events = &page.events;
    let mut lines = Vec::new();
    if events.is_empty() {
        lines.push(line("no events", Style::Muted));
    } else {
        let mut t = Table::new(&[]);
        for e in events {
            let kind = e.kind().and_then(fmt::nonblank).unwrap_or("?");
            // Bypasses and expiries are what an audit is read for.
            let kind_style = match kind {
                "private_bypass" | "expired" | "rejected" => Style::Warning,
                "approved" => Style::Success,
                _ => Style::Text,
            };
            // A person's action names the person, marked as one.
            let data = e.data.value();
            let by_person = str_of(&data, "by") == Some("person");
            let target = e
                .task_id()
                .and_then(fmt::nonblank)
                .or_else(|| e.list_id().and_then(fmt::nonblank))
                .map(fmt::short_id);
            t.row(vec![
                cell(
                    e.at()
                        .and_then(fmt::nonblank)
                        .map(fmt::date)
                        .unwrap_or_default(),
                    Style::Muted,
                ),
                match e.agent_id().and_then(fmt::nonblank) {
                    Some(a) if by_person => {
                        cell(format!("{} (person)", fmt::truncate(a, 24)), Style::Accent)
                    }
                    Some(a) => cell(fmt::truncate(a, 24), Style::Text),
                    None => cell("—", Style::Muted),
                },
                cell(fmt::truncate(kind, 20), kind_style),
                cell(target.unwrap_or_else(|| "—".into()), Style::Muted),
                event_data(kind, &data),
            ]);
        }
        lines.extend(t.lines());
    }
    lines.extend(more_line(page.next_cursor.as_deref()));
    Some(lines)
}

/// The event's data in a few words, by kind; unknown shapes as `key=value`.
fn event_data(kind: &str, data: &Value) -> Vec<Span> {
    let mut l = LineBuf::new();
    match kind {
        "status_changed" if str_of(data, "to").is_some() => {
            if let Some(from) = str_of(data, "from") {
                let b = fmt::status(from);
                l.push(b.label, b.style).push(" → ", Style::Muted);
            }
            let b = fmt::status(str_of(data, "to").unwrap_or("?"));
            l.push(b.label, b.style);
            // The fields changed in the same update (a close's outcome).
            let fields: Vec<&str> = data
                .get("fields")
                .and_then(Value::as_array)
                .map(|f| f.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if !fields.is_empty() {
                l.push(
                    format!(" · {}", fmt::truncate(&fields.join(", "), 40)),
                    Style::Muted,
                );
            }
        }
        "claimed" | "refreshed" if data.get("lease_seconds").is_some() => {
            let secs = fmt::int(data, "lease_seconds").unwrap_or(0);
            l.push(format!("lease {}", fmt::duration(secs)), Style::Muted);
            if data.get("resumed").and_then(Value::as_bool) == Some(true) {
                l.push(" · resumed", Style::Muted);
            }
        }
        "private_bypass" => {
            let tool = str_of(data, "tool").unwrap_or("?");
            let action = str_of(data, "action").unwrap_or("?");
            l.push(
                format!("{} {}", fmt::truncate(tool, 20), fmt::truncate(action, 20)),
                Style::Text,
            );
            if let Some(reason) = str_of(data, "reason") {
                l.push(
                    format!(" · \"{}\"", fmt::truncate(reason, 50)),
                    Style::Warning,
                );
            }
            if let Some(owner) = str_of(data, "owner_agent_id") {
                l.push(
                    format!(" · owner @{}", fmt::truncate(owner, 24)),
                    Style::Muted,
                );
            }
        }
        "approved" => {
            if let Some(title) = str_of(data, "title") {
                l.push(format!("\"{}\"", fmt::truncate(title, 40)), Style::Text);
            } else {
                let tasks = fmt::int(data, "tasks").unwrap_or(0);
                l.push(
                    format!("plan of {tasks} task{}", if tasks == 1 { "" } else { "s" }),
                    Style::Text,
                );
            }
            if let Some(note) = str_of(data, "note") {
                l.push(format!(" · \"{}\"", fmt::truncate(note, 40)), Style::Muted);
            }
        }
        "rejected" | "returned" => {
            let reason = str_of(data, "reason").unwrap_or("?");
            l.push(format!("\"{}\"", fmt::truncate(reason, 60)), Style::Warning);
        }
        "asked" | "answered" | "submitted" => {
            let key = match kind {
                "asked" => "question",
                "answered" => "answer",
                _ => "outcome",
            };
            let text = str_of(data, key).unwrap_or("?");
            l.push(
                format!("{key}: \"{}\"", fmt::truncate(text, 60)),
                Style::Text,
            );
        }
        "imported" => {
            let tasks = fmt::int(data, "tasks").unwrap_or(0);
            let format = str_of(data, "format").unwrap_or("?");
            l.push(
                format!(
                    "{tasks} task{} from {format}",
                    if tasks == 1 { "" } else { "s" }
                ),
                Style::Text,
            );
            if let Some(file) = str_of(data, "file").filter(|f| !f.is_empty()) {
                l.push(format!(" {}", fmt::truncate_left(file, 30)), Style::Muted);
            }
            for (key, said) in [
                ("changed", "changed"),
                ("kept_as_refs", "kept as refs"),
                ("dropped", "dropped"),
            ] {
                let n = fmt::int(data, key).unwrap_or(0);
                if n > 0 {
                    l.push(format!(" · {said} {n}"), Style::Warning);
                }
            }
        }
        "released" if str_of(data, "from").is_some() => {
            let from = str_of(data, "from").unwrap_or("?");
            l.push(format!("from @{}", fmt::truncate(from, 24)), Style::Text);
            if let Some(to) = str_of(data, "to") {
                l.push(format!(" · for @{}", fmt::truncate(to, 24)), Style::Muted);
            }
        }
        _ => {
            l.push(key_values(data), Style::Muted);
        }
    }
    l.truncate(DATA_MAX);
    l.finish()
}

/// `key=value key=value` for small objects; compact JSON otherwise. A
/// person's mark (`by`) is left out: the agent column shows it.
fn key_values(data: &Value) -> String {
    match data.as_object() {
        Some(map) => map
            .iter()
            .filter(|(k, v)| !(k.as_str() == "by" && v.as_str() == Some("person")))
            .map(|(k, v)| format!("{}={}", fmt::truncate(k, 20), fmt::compact_value(v, 30)))
            .collect::<Vec<_>>()
            .join(" "),
        None if data.is_null() => String::new(),
        None => fmt::compact_json(data, DATA_MAX),
    }
}

impl Render for audit::GetEvents {
    fn render(result: AuditPage) -> Option<Vec<Line>> {
        events(result)
    }

    /// A bare table: its headline is its size (`12 events`).
    fn headline(result: &AuditPage) -> Headline {
        Headline::Own(table_size(
            result.events.len(),
            "event",
            &result.next_cursor,
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::registry::render_result;
    use crate::render::tests::*;
    use crate::render::{Style, to_plain};
    use serde_json::json;

    fn event(
        n: u32,
        at: &str,
        agent: serde_json::Value,
        kind: &str,
        task: bool,
        data: serde_json::Value,
    ) -> serde_json::Value {
        json!({
            "id": format!("evt_01JDQ4ZK8M3N5P7R9T1VEVT{n:03}"),
            "at": at,
            "agent_id": agent,
            "kind": kind,
            "list_id": LIST_ID,
            "task_id": if task { json!(task_id(2)) } else { json!(null) },
            "data": data,
        })
    }

    #[test]
    fn a_persons_decisions_read_as_the_persons() {
        let data = json!({"events": [
            event(3, "2026-11-30T12:20:00.000Z", json!("ana"), "rejected", false,
                json!({"reason": "split step two first", "by": "person"})),
            event(2, "2026-11-30T12:10:00.000Z", json!("ana"), "approved", true,
                json!({"title": "late step", "by": "person"})),
            event(1, "2026-11-30T12:00:00.000Z", json!("ana"), "approved", false,
                json!({"tasks": 3, "note": "go", "by": "person"})),
            event(0, "2026-11-30T11:50:00.000Z", json!("ana"), "updated", true,
                json!({"fields": ["title"], "by": "person"})),
        ], "next_cursor": null});
        let out = render_result("task_audit", "get", &data);
        assert_eq!(
            to_plain(&out),
            "2026-11-30 12:20  ana (person)  rejected  list_…3X5Z7B  \"split step two first\"\n\
             2026-11-30 12:10  ana (person)  approved  task_…TASK02  \"late step\"\n\
             2026-11-30 12:00  ana (person)  approved  list_…3X5Z7B  plan of 3 tasks · \"go\"\n\
             2026-11-30 11:50  ana (person)  updated   task_…TASK02  fields=[\"title\"]"
        );
        assert_eq!(style_of(&out, "ana (person)"), Some(Style::Accent));
        assert_eq!(style_of(&out, "rejected"), Some(Style::Warning));
        assert_eq!(style_of(&out, "approved"), Some(Style::Success));
    }

    #[test]
    fn events_are_an_aligned_table() {
        let data = json!({"events": [
            event(5, "2026-11-30T12:20:00.000Z", json!("auditor"), "private_bypass", false,
                json!({"tool": "task_lists", "action": "get", "reason": "user asked for a status report", "owner_agent_id": "builder-1"})),
            event(4, "2026-11-30T12:16:00.000Z", json!(null), "expired", true, json!({})),
            event(3, "2026-11-30T12:05:00.000Z", json!("builder-2"), "status_changed", true, json!({"from": "in_progress", "to": "blocked"})),
            event(2, "2026-11-30T12:00:00.000Z", json!("builder-2"), "claimed", true, json!({"lease_seconds": 900, "resumed": true})),
            event(1, "2026-11-30T11:58:00.000Z", json!("builder-1"), "reordered", false, json!({"ids": [task_id(1)], "moved": 2})),
        ], "next_cursor": "evt_01JDQ4ZK8M3N5P7R9T1VEVT001"});
        let out = render_result("task_audit", "get", &data);
        assert_eq!(
            to_plain(&out),
            "2026-11-30 12:20  auditor    private_bypass  list_…3X5Z7B  task_lists get · \"user asked for a status report\" · owner @builder-1\n\
             2026-11-30 12:16  —          expired         task_…TASK02\n\
             2026-11-30 12:05  builder-2  status_changed  task_…TASK02  run → paused\n\
             2026-11-30 12:00  builder-2  claimed         task_…TASK02  lease 15m · resumed\n\
             2026-11-30 11:58  builder-1  reordered       list_…3X5Z7B  ids=[task_…TASK01] moved=2\n\
             more: cursor evt_01JDQ4ZK8M3N5P7R9T1VEVT001"
        );
        assert_eq!(style_of(&out, "private_bypass"), Some(Style::Warning));
        assert_eq!(style_of(&out, "paused"), Some(Style::Warning));
        assert_eq!(
            to_plain(&render_result(
                "task_audit",
                "get",
                &json!({"events": [], "next_cursor": null})
            )),
            "no events"
        );
    }
}

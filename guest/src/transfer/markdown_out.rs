//! A list as a Markdown checklist a person can paste anywhere:
//!
//! ```markdown
//! # Release 1.2
//!
//! <!-- tasklists export: texts escaped (…); tasklists import reads them back exactly -->
//!
//! - [x] Design the schema
//!   - outcome: two tables and an index
//! - [ ] Write the API
//!   - priority: high
//!   - status: blocked
//!   - assigned: @builder-1
//!   - after: #1 Design the schema
//!   - refs: github://acme/api/12 https://example.com/spec
//!   - labels: backend db
//!   - notes: first line
//!     \- [x] a line that would read as a checkbox
//!
//!     after an empty line
//! - [-] Drop the legacy path
//!   - outcome: not needed
//! ```
//!
//! `[ ]` open (todo, in progress or blocked: the `status` line says which
//! but todo), `[x]` done, `[-]` canceled; a dependency by the `#N` (the
//! file's N-th task) and title of the task it waits for. A text's lines go
//! under its `key:` line, indented by four spaces; every title, text and
//! name is escaped ([`super::markdown_escape`]): syntax at the start of a
//! line, white space at either end, controls and invisible characters, so
//! that nothing in a text reads as structure or reaches a screen raw. An
//! empty text is a bare `key:` line.
//!
//! [`super::markdown_in`] reads this back as the same tasks: titles and
//! every text byte for byte, statuses, priorities, assignees, refs, labels
//! and dependencies. What it cannot keep: an in-progress task comes back todo
//! and unclaimed (an import claims nothing, so the claim, its holder and
//! lease are lost), times (created, updated, started, completed) are the
//! import's, ids are new, the list's name is trimmed, and the audit log is
//! the import's own. The JSON export keeps those.

use std::collections::HashMap;

use super::markdown_escape::{self as escape, MARKER};
use super::snapshot::Snapshot;
use crate::model::{Priority, Status, TaskRow};

/// The snapshot as a Markdown checklist.
pub fn write(snap: &Snapshot) -> String {
    let mut out = format!("# {}\n\n{MARKER}\n\n", escape::line(&snap.list.name));
    // A dependency names the task by its place in the file, which is what
    // the reader counts (positions could have gaps).
    let place: HashMap<&str, (usize, &TaskRow)> = snap
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), (i + 1, t)))
        .collect();
    for t in &snap.tasks {
        out.push_str(&format!(
            "- [{}] {}\n",
            mark(t.status),
            escape::line(&t.title)
        ));
        if t.priority != Priority::Medium {
            field(&mut out, "priority", t.priority.as_str());
        }
        match t.status {
            Status::Blocked => field(&mut out, "status", "blocked"),
            Status::InProgress => {
                let by = t
                    .claimed_by_agent_id
                    .as_deref()
                    .map(|a| format!(" (claimed by @{})", escape::line(a)))
                    .unwrap_or_default();
                field(&mut out, "status", &format!("in progress{by}"));
            }
            _ => {}
        }
        if let Some(a) = &t.assigned_to_agent_id {
            field(&mut out, "assigned", &format!("@{}", escape::line(a)));
        }
        for d in crate::actions::deps::get(&snap.deps, &t.id) {
            if let Some((n, dep)) = place.get(d.as_str()) {
                field(
                    &mut out,
                    "after",
                    &format!("#{n} {}", escape::line(&dep.title)),
                );
            }
        }
        if !t.refs.is_empty() {
            // A ref holds no white space and no unsafe character
            // (contract::refs): it is written as it is.
            field(&mut out, "refs", &t.refs.join(" "));
        }
        if !t.labels.is_empty() {
            // A label holds no white space and no unsafe character
            // (contract::labels) either.
            field(&mut out, "labels", &t.labels.join(" "));
        }
        texts(&mut out, t);
    }
    out
}

fn texts(out: &mut String, t: &TaskRow) {
    for (key, text) in [
        ("description", &t.description),
        ("notes", &t.notes),
        ("outcome", &t.outcome),
        ("verification", &t.verification),
        ("verification result", &t.verification_result),
    ] {
        if let Some(text) = text {
            let mut lines = escape::text(text).into_iter();
            field(out, key, &lines.next().unwrap_or_default());
            for line in lines {
                if line.is_empty() {
                    out.push('\n');
                } else {
                    out.push_str(&format!("    {line}\n"));
                }
            }
        }
    }
}

/// `  - key: value` (`value` already escaped), or `  - key:` when empty.
fn field(out: &mut String, key: &str, value: &str) {
    if value.is_empty() {
        out.push_str(&format!("  - {key}:\n"));
    } else {
        out.push_str(&format!("  - {key}: {value}\n"));
    }
}

/// The checkbox of a status.
fn mark(status: Status) -> char {
    match status {
        Status::Done => 'x',
        Status::Canceled => '-',
        _ => ' ',
    }
}

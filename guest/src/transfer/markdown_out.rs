//! A list as a Markdown checklist a person can paste anywhere:
//!
//! ```markdown
//! # Release 1.2
//!
//! - [x] Design the schema
//!   - outcome: two tables and an index
//! - [ ] Write the API
//!   - priority: high
//!   - status: blocked
//!   - assigned: @builder-1
//!   - after: #1 Design the schema
//!   - refs: github://acme/api/12 https://example.com/spec
//!   - notes: first line
//!     second line
//! - [-] Drop the legacy path
//!   - outcome: not needed
//! ```
//!
//! `[ ]` open (todo, in progress or blocked: the `status` line says which
//! but todo), `[x]` done, `[-]` canceled; a dependency by the `#position`
//! and title of the task it waits for. [`super::markdown_in`] reads this
//! back (keys and all), as well as a plain checklist.

use super::snapshot::Snapshot;
use crate::model::{Priority, Status, TaskRow};

/// The snapshot as a Markdown checklist.
pub fn write(snap: &Snapshot) -> String {
    let mut out = format!("# {}\n\n", one_line(&snap.list.name));
    let by_id = |id: &str| snap.tasks.iter().find(|t| t.id == id);
    for t in &snap.tasks {
        out.push_str(&format!("- [{}] {}\n", mark(t.status), one_line(&t.title)));
        if t.priority != Priority::Medium {
            field(&mut out, "priority", t.priority.as_str());
        }
        match t.status {
            Status::Blocked => field(&mut out, "status", "blocked"),
            Status::InProgress => {
                let by = t
                    .claimed_by_agent_id
                    .as_deref()
                    .map(|a| format!(" (claimed by @{})", one_line(a)))
                    .unwrap_or_default();
                field(&mut out, "status", &format!("in progress{by}"));
            }
            _ => {}
        }
        if let Some(a) = &t.assigned_to_agent_id {
            field(&mut out, "assigned", &format!("@{}", one_line(a)));
        }
        for d in crate::actions::deps::get(&snap.deps, &t.id) {
            if let Some(dep) = by_id(d) {
                field(
                    &mut out,
                    "after",
                    &format!("#{} {}", dep.position, one_line(&dep.title)),
                );
            }
        }
        if !t.refs.is_empty() {
            field(&mut out, "refs", &t.refs.join(" "));
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
        if let Some(text) = text.as_deref().filter(|s| !s.trim().is_empty()) {
            field(out, key, text);
        }
    }
}

/// `  - key: value`, the value's further lines indented under it.
fn field(out: &mut String, key: &str, value: &str) {
    let mut lines = value.lines();
    out.push_str(&format!(
        "  - {key}: {}\n",
        lines.next().unwrap_or_default()
    ));
    for line in lines {
        if line.trim().is_empty() {
            out.push('\n');
        } else {
            out.push_str(&format!("    {line}\n"));
        }
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

/// `s` on one line: line breaks as spaces.
fn one_line(s: &str) -> String {
    s.split(['\n', '\r']).collect::<Vec<_>>().join(" ")
}

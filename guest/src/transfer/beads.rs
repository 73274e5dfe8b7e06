//! Beads' JSONL (`.beads/issues.jsonl`, one issue a line; the schema of
//! `internal/types/types.go` in github.com/steveyegge/beads) read as tasks:
//!
//! - `id` kept as the ref `beads://./<id>`; `title`; `description` (with
//!   `design` after it); `acceptance_criteria` as the verification;
//!   `notes`; `assignee`;
//! - `status`: `open` todo, `in_progress` todo (nothing is claimed by an
//!   import), `blocked` and `deferred` blocked, `closed` done (its
//!   `close_reason` the outcome), `tombstone` (deleted) left out;
//! - `priority` 0–4: 0 and 1 high, 2 medium, 3 and 4 low;
//! - `dependencies` of type `blocks`: a dependency (the issue it names
//!   must be in the file); `parent-child`, `related` and
//!   `discovered-from`: a `beads://` ref to the other issue;
//! - `external_ref`, when it is a URI a ref may hold, a ref.
//!
//! Issues in file order. A line that is not a JSON object, or a field of
//! the wrong type, is refused with its line number.

use serde_json::Value as Json;

use super::plan::{Fields, Item, Plan, join, malformed};
use crate::error::{ToolError, ToolResult};
use crate::model::{Priority, Status};
use crate::text::quote;

/// The ref of a Beads issue.
fn beads_ref(id: &str) -> String {
    format!("beads://./{id}")
}

/// Parses a Beads JSONL file.
pub fn parse(text: &str) -> ToolResult<Plan> {
    let mut plan = Plan::default();
    let mut blocks: Vec<(usize, String)> = Vec::new();
    let mut deleted: Vec<String> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("line {n}");
        let value: Json = serde_json::from_str(line).map_err(|e| {
            malformed(
                &at,
                format!("not a JSON object: {e}"),
                "a Beads file has one issue as JSON per line",
            )
        })?;
        let f = Fields::of(&value, at.clone())?;
        let id = f.required("id")?.to_string();
        let status = f.str("status")?.unwrap_or("open");
        let status = match status {
            "open" => Status::Todo,
            "in_progress" => {
                plan.notes.push(format!(
                    "{at} ({id}): in_progress, imported as todo (an import claims nothing)"
                ));
                Status::Todo
            }
            "blocked" | "deferred" => Status::Blocked,
            "closed" => Status::Done,
            "tombstone" => {
                deleted.push(id);
                continue;
            }
            other => {
                return Err(malformed(
                    &f.path("status"),
                    format!(
                        "{} is not a Beads status (open, in_progress, blocked, deferred, closed, tombstone)",
                        quote(other)
                    ),
                    "",
                ));
            }
        };
        let mut item = Item::new(at.clone(), id.clone(), f.required("title")?);
        item.status = status;
        item.description = join(
            f.text("description")?,
            f.text("design")?.map(|d| format!("Design:\n{d}")),
        );
        item.verification = f.text("acceptance_criteria")?;
        item.notes = f.text("notes")?;
        item.assigned = f.text("assignee")?;
        if status == Status::Done {
            item.outcome = Some(
                f.text("close_reason")?
                    .unwrap_or_else(|| "closed in Beads".into()),
            );
        }
        item.priority = match f.map.get("priority") {
            None | Some(Json::Null) => Priority::Medium,
            Some(p) => match p.as_i64() {
                Some(0 | 1) => Priority::High,
                Some(2) => Priority::Medium,
                Some(3 | 4) => Priority::Low,
                _ => {
                    return Err(malformed(
                        &f.path("priority"),
                        format!("{p} is not a Beads priority (an integer from 0 to 4)"),
                        "",
                    ));
                }
            },
        };
        item.add_ref(beads_ref(&id));
        if let Some(ext) = f.str("external_ref")?
            && crate::contract::refs::check_ref(ext).is_ok()
        {
            item.add_ref(ext.to_string());
        }
        for (j, d) in f.array("dependencies")?.iter().enumerate() {
            let df = Fields::of(d, format!("{at}: dependencies[{j}]"))?;
            let on = df.required("depends_on_id")?;
            let issue = df.str("issue_id")?.unwrap_or(&id);
            if issue != id {
                // A dependency of another issue, listed here: the other
                // issue's line carries it too.
                continue;
            }
            match df.str("type")?.unwrap_or("blocks") {
                "blocks" => blocks.push((plan.items.len(), on.to_string())),
                "parent-child" | "related" | "discovered-from" => item.add_ref(beads_ref(on)),
                other => {
                    return Err(ToolError::invalid(
                        format!(
                            "{}: {} is not a Beads dependency type (blocks, parent-child, related, discovered-from)",
                            df.path("type"),
                            quote(other)
                        ),
                        "",
                    ));
                }
            }
        }
        plan.items.push(item);
    }
    for (idx, on) in blocks {
        // A deleted issue no longer blocks anything.
        if !deleted.contains(&on) {
            plan.items[idx].add_dep(on);
        }
    }
    plan.name = Some("Beads issues".into());
    Ok(plan)
}

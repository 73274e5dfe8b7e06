//! The tasklists JSON format ([`super::json_out`]), read back: the same
//! tasks, statuses, positions (their order), priorities, texts, outcomes,
//! assignees, dependencies, refs, labels and times (created, updated,
//! started, completed), and the list's approval requirement (its approval
//! comes back pending: a person approves the imported plan anew, or
//! imports it with `--approve`). Claims
//! and the audit log stay with the list they came from: the import is one
//! event of its own, and an `in_progress` task comes back `todo` (nothing
//! is claimed by an import).

use serde_json::Value as Json;

use super::json_out::{FORMAT, VERSION};
use super::plan::{Fields, Item, Plan, Times, malformed};
use crate::error::{ToolError, ToolResult};
use crate::model::{Priority, Status};
use crate::text::quote;

/// Parses a tasklists JSON export.
pub fn parse(text: &str) -> ToolResult<Plan> {
    let doc: Json = serde_json::from_str(text).map_err(|e| {
        ToolError::invalid(
            format!("line {}: not valid JSON: {e}", e.line()),
            "a tasklists JSON file is what tasklists export --format json writes",
        )
    })?;
    let top = Fields::of(&doc, "the file")?;
    match top.map.get("format").and_then(Json::as_str) {
        Some(FORMAT) => {}
        other => {
            return Err(ToolError::invalid(
                format!(
                    "format is {}, not \"{FORMAT}\"",
                    other.map_or_else(|| "missing".to_string(), quote)
                ),
                "pass --format beads or taskmaster for those files",
            ));
        }
    }
    match top.map.get("version").and_then(Json::as_i64) {
        Some(VERSION) => {}
        v => {
            return Err(ToolError::invalid(
                format!(
                    "version is {}; this tasklists reads version {VERSION}",
                    v.map_or_else(|| "missing".into(), |v| v.to_string())
                ),
                "export it again with this version of tasklists",
            ));
        }
    }
    let list = top.map.get("list");
    let mut plan = Plan {
        name: list
            .and_then(|l| l.get("name"))
            .and_then(Json::as_str)
            .map(str::to_string),
        requires_approval: list
            .and_then(|l| l.get("approval"))
            .is_some_and(|a| !a.is_null()),
        requires_review: list
            .and_then(|l| l.get("requires_review"))
            .and_then(Json::as_bool)
            .unwrap_or(false),
        ..Plan::default()
    };
    for (i, t) in top.array("tasks")?.iter().enumerate() {
        let f = Fields::of(t, format!("tasks[{i}]"))?;
        let mut item = Item::new(f.at.clone(), f.id("id")?, f.required("title")?);
        item.description = f.str("description")?.map(str::to_string);
        item.notes = f.str("notes")?.map(str::to_string);
        item.outcome = f.str("outcome")?.map(str::to_string);
        item.verification = f.str("verification")?.map(str::to_string);
        item.verification_result = f.str("verification_result")?.map(str::to_string);
        item.assigned = f.str("assigned_to_agent_id")?.map(str::to_string);
        if let Some(p) = f.str("priority")? {
            item.priority = Priority::parse(p).ok_or_else(|| {
                malformed(
                    &f.path("priority"),
                    format!("{} is not high, medium or low", quote(p)),
                    "",
                )
            })?;
        }
        let status = f.str("status")?.unwrap_or("todo");
        item.status = match Status::parse(status) {
            Some(Status::InProgress) => {
                plan.report.changed(
                    "status in_progress imported as todo (an import claims nothing)",
                    item.place(),
                );
                Status::Todo
            }
            Some(s) => s,
            None => {
                return Err(malformed(
                    &f.path("status"),
                    format!(
                        "{} is not one of {}",
                        quote(status),
                        crate::contract::STATUSES.join(", ")
                    ),
                    "",
                ));
            }
        };
        if item.status.is_closed() && item.outcome.as_deref().is_none_or(|o| o.trim().is_empty()) {
            return Err(malformed(
                &f.path("outcome"),
                format!("a {} task needs a non-empty outcome", item.status),
                "",
            ));
        }
        for (j, d) in f.array("depends_on")?.iter().enumerate() {
            let d = d.as_str().ok_or_else(|| {
                ToolError::invalid(
                    format!("{}[{j}] must be a task id", f.path("depends_on")),
                    "",
                )
            })?;
            item.add_dep(d.to_string());
        }
        for (j, r) in f.array("refs")?.iter().enumerate() {
            let r = r.as_str().ok_or_else(|| {
                ToolError::invalid(format!("{}[{j}] must be a string", f.path("refs")), "")
            })?;
            item.add_ref(r.to_string());
        }
        for (j, l) in f.array("labels")?.iter().enumerate() {
            let l = l.as_str().ok_or_else(|| {
                ToolError::invalid(format!("{}[{j}] must be a string", f.path("labels")), "")
            })?;
            item.add_label(l.to_string());
        }
        item.requires_review = t.get("requires_review").and_then(Json::as_bool) == Some(true);
        keep_exchange(&mut item, t, &mut plan.report);
        item.times = Times {
            created: time(&f, "created_at")?,
            updated: time(&f, "updated_at")?,
            started: time(&f, "started_at")?,
            completed: time(&f, "completed_at")?,
        };
        plan.items.push(item);
    }
    Ok(plan)
}

/// A task's exchange with its person (its question and answer, its
/// review) comes back in its notes, one line each: the wait itself does
/// not (the import's task is its own, and nobody is asked anything by
/// an import), so a task that waited on a person is plainly blocked.
fn keep_exchange(item: &mut Item, t: &Json, report: &mut super::report::Report) {
    let mut lines: Vec<String> = Vec::new();
    if let Some(ask) = t
        .get("ask")
        .and_then(|a| serde_json::from_value::<crate::waits::Ask>(a.clone()).ok())
    {
        lines.push(format!(
            "Asked by {} at {}: {}",
            ask.by, ask.at, ask.question
        ));
        if let Some(answer) = ask.answer {
            let by = ask.answered_by.unwrap_or_default();
            lines.push(format!("Answered by {by}: {answer}"));
        }
    }
    if let Some(review) = t
        .get("review")
        .and_then(|r| serde_json::from_value::<crate::waits::Review>(r.clone()).ok())
    {
        let mut line = format!("Review: {}", review.state.as_str());
        if let Some(by) = review.by {
            line.push_str(&format!(" by {by}"));
        }
        if let Some(reason) = review.reason {
            line.push_str(&format!(": {reason}"));
        }
        lines.push(line);
    }
    if lines.is_empty() {
        return;
    }
    report.changed(
        "a question or review imported into the notes (the import asks nobody)",
        item.place(),
    );
    let kept = lines.join("\n");
    item.notes = Some(match item.notes.take().filter(|n| !n.trim().is_empty()) {
        Some(notes) => format!("{notes}\n{kept}"),
        None => kept,
    });
}

/// A time field (RFC 3339, as the export writes it), in ms.
fn time(f: &Fields, key: &str) -> ToolResult<Option<i64>> {
    let Some(text) = f.str(key)? else {
        return Ok(None);
    };
    crate::clock::parse_timestamp(text)
        .map(|t| Some(t.as_millisecond()))
        .ok_or_else(|| {
            malformed(
                &f.path(key),
                format!("{} is no RFC 3339 time", quote(text)),
                "",
            )
        })
}

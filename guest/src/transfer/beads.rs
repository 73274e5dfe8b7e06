//! Beads' JSONL (`.beads/issues.jsonl`, one issue a line; the schema of
//! `internal/types/types.go` in github.com/steveyegge/beads) read as tasks,
//! leniently: every issue of the file comes across, and what does not fit
//! is said in the report.
//!
//! | Beads | tasklists |
//! |---|---|
//! | `id` | the ref `beads://./<id>` (and the key dependencies name) |
//! | `title`, `description` (+ `design`), `notes` | the same (`design` after the description) |
//! | `acceptance_criteria` | verification |
//! | `assignee` | assignee (dropped, and said, if it is no agent id) |
//! | `status` `open` | todo |
//! | `in_progress`, `hooked` (claimed by a worker) | todo (changed: an import claims nothing) |
//! | `pinned` (stays open) | todo, with the label `pinned` (changed) |
//! | `blocked` | blocked |
//! | `deferred` | blocked (changed) |
//! | `closed` | done, `close_reason` the outcome (else "closed in Beads") |
//! | `tombstone` (deleted) | left out (dropped) |
//! | any other (a custom status) | todo (changed) |
//! | `priority` 0 and 1, 2, 3 and 4 | high, medium, low |
//! | `labels` | labels (each made a valid label; changed when it had to be) |
//! | `issue_type` other than `task` | the label of the type (`bug`, `epic`, …) |
//! | `created_at`, `updated_at`, `closed_at` | created, updated, closed times |
//! | dependencies `blocks`, `conditional-blocks`, `waits-for` | dependencies |
//! | the other dependency types (`parent-child`, `related`, `tracks`, …) | a `beads://` ref to the other issue (kept as refs) |
//! | a dependency on an issue not in the file (an ephemeral wisp) | a `beads://` ref, and a line of the notes naming it (kept as refs) |
//! | `parent` | a `beads://` ref |
//! | `external_ref` | a ref when it is a URI a ref may hold (else dropped) |
//! | `owner`, `created_by` | a line of the notes |
//! | `ephemeral: true` (a wisp) | the label `ephemeral` |
//! | counts (`dependency_count`, …), `pinned` (the status says it) | not kept (derived) |
//! | agent and wisp fields (`agent_state`, `hook_bead`, …) | dropped (said) |
//!
//! Issues in file order. Only a line that is not a JSON object, an issue
//! without an id or a title, or a field of the wrong type, refuses the file.

use serde_json::Value as Json;

use super::plan::{Fields, Item, Plan, join, malformed};
use super::report::Report;
use crate::error::ToolResult;
use crate::model::{Priority, Status};

/// The dependency types that hold an issue back until the other closes.
const BLOCKING: [&str; 3] = ["blocks", "conditional-blocks", "waits-for"];

/// Fields read into a task, or knowingly not kept.
const READ: [&str; 20] = [
    "id",
    "title",
    "description",
    "design",
    "acceptance_criteria",
    "notes",
    "assignee",
    "status",
    "priority",
    "labels",
    "issue_type",
    "created_at",
    "updated_at",
    "closed_at",
    "close_reason",
    "dependencies",
    "parent",
    "external_ref",
    "owner",
    "created_by",
];

/// Fields Beads derives from others, or that the status already says:
/// nothing is lost without them.
const DERIVED: [&str; 5] = [
    "dependency_count",
    "dependent_count",
    "comment_count",
    "pinned",
    "ephemeral",
];

/// The ref of a Beads issue.
fn beads_ref(id: &str) -> String {
    format!("beads://./{id}")
}

/// Parses a Beads JSONL file.
pub fn parse(text: &str) -> ToolResult<Plan> {
    let mut plan = Plan {
        name: Some("Beads issues".into()),
        ..Plan::default()
    };
    let mut links: Vec<(usize, String, String)> = Vec::new();
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
        let place = format!("{at} ({id})");
        let status = f.str("status")?.unwrap_or("open");
        if status == "tombstone" {
            deleted.push(id);
            plan.report
                .dropped("a deleted issue (status tombstone)", place);
            continue;
        }
        let mut item = Item::new(at.clone(), id.clone(), f.required("title")?);
        item.source_ref = Some(beads_ref(&id));
        item.add_ref(beads_ref(&id));
        item.status = status_of(status, &mut item, &place, &mut plan.report);
        item.description = join(
            f.text("description")?,
            f.text("design")?.map(|d| format!("Design:\n{d}")),
        );
        item.verification = f.text("acceptance_criteria")?;
        item.assigned = f.text("assignee")?;
        let people: Vec<String> = [("owner", "owner"), ("created_by", "created by")]
            .into_iter()
            .filter_map(|(key, said)| {
                f.text(key)
                    .ok()
                    .flatten()
                    .map(|who| format!("Beads {said}: {who}"))
            })
            .collect();
        item.notes = join(
            f.text("notes")?,
            (!people.is_empty()).then(|| people.join("\n")),
        );
        if item.status == Status::Done {
            item.outcome = Some(
                f.text("close_reason")?
                    .unwrap_or_else(|| "closed in Beads".into()),
            );
        }
        item.priority = priority_of(&f, &place, &mut plan.report)?;
        for (j, l) in f.array("labels")?.iter().enumerate() {
            let Some(raw) = l.as_str() else {
                plan.report
                    .dropped("a label that is no string", format!("{place}: labels[{j}]"));
                continue;
            };
            label(raw, &mut item, &place, &mut plan.report);
        }
        if let Some(kind) = f.str("issue_type")?.filter(|k| *k != "task") {
            label(kind, &mut item, &place, &mut plan.report);
        }
        if f.map.get("ephemeral").and_then(Json::as_bool) == Some(true) {
            // A wisp: short-lived work Beads may delete in bulk.
            item.add_label("ephemeral".into());
        }
        item.times.created = time_of(&f, "created_at", &place, &mut plan.report)?;
        item.times.updated = time_of(&f, "updated_at", &place, &mut plan.report)?;
        item.times.completed = time_of(&f, "closed_at", &place, &mut plan.report)?;
        if let Some(parent) = f.text("parent")? {
            item.add_ref(beads_ref(&parent));
        }
        if let Some(ext) = f.str("external_ref")?.filter(|e| !e.trim().is_empty()) {
            if crate::contract::refs::check_ref(ext).is_ok() {
                item.add_ref(ext.to_string());
            } else {
                plan.report.dropped(
                    "an external_ref that is no URI a ref may hold",
                    place.clone(),
                );
            }
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
            let kind = df.str("type")?.unwrap_or("blocks");
            links.push((plan.items.len(), on.to_string(), kind.to_string()));
        }
        for key in f.map.keys() {
            if !READ.contains(&key.as_str()) && !DERIVED.contains(&key.as_str()) {
                plan.report.dropped(
                    format!("the field {key} (nothing here keeps it)"),
                    place.clone(),
                );
            }
        }
        plan.items.push(item);
    }
    let known: std::collections::HashSet<String> =
        plan.items.iter().map(|i| i.key.clone()).collect();
    for (idx, on, kind) in links {
        let item = &mut plan.items[idx];
        let place = item.place();
        if deleted.contains(&on) {
            // A deleted issue no longer holds anything back.
            plan.report
                .dropped("a link to a deleted issue", format!("{place} → {on}"));
        } else if !known.contains(&on) {
            item.add_ref(beads_ref(&on));
            // Said on the task too: whoever works it sees what it was
            // linked to (a blocking link no longer holds it back).
            item.notes = join(
                item.notes.take(),
                Some(format!(
                    "Beads {kind} link to {on}, an issue not in the imported file (kept as a ref)"
                )),
            );
            plan.report.kept_as_ref(
                "a dependency on an issue not in the file (an ephemeral wisp?), kept as a ref",
                format!("{place} → {on}"),
            );
        } else if BLOCKING.contains(&kind.as_str()) {
            item.add_dep(on);
        } else {
            item.add_ref(beads_ref(&on));
            plan.report.kept_as_ref(
                format!("a {kind} link (no dependency here), kept as a ref"),
                place,
            );
        }
    }
    Ok(plan)
}

/// The status a Beads status becomes, what it changed said.
fn status_of(status: &str, item: &mut Item, place: &str, report: &mut Report) -> Status {
    match status {
        "open" => Status::Todo,
        "blocked" => Status::Blocked,
        "closed" => Status::Done,
        "in_progress" | "hooked" => {
            report.changed(
                format!("status {status} imported as todo (an import claims nothing)"),
                place,
            );
            Status::Todo
        }
        "pinned" => {
            item.add_label("pinned".into());
            report.changed(
                "status pinned imported as todo with the label pinned",
                place,
            );
            Status::Todo
        }
        "deferred" => {
            report.changed("status deferred imported as blocked", place);
            Status::Blocked
        }
        other => {
            report.changed(format!("custom status {other} imported as todo"), place);
            Status::Todo
        }
    }
}

/// The priority of Beads' 0–4 (a missing one: medium).
fn priority_of(f: &Fields, place: &str, report: &mut Report) -> ToolResult<Priority> {
    Ok(match f.map.get("priority") {
        None | Some(Json::Null) => Priority::Medium,
        Some(p) => match p.as_i64() {
            Some(0 | 1) => Priority::High,
            Some(2) => Priority::Medium,
            Some(3 | 4) => Priority::Low,
            _ => {
                report.changed(
                    "a priority outside 0–4 imported as medium",
                    format!("{place}: {p}"),
                );
                Priority::Medium
            }
        },
    })
}

/// Adds `raw` as a label, made valid (said when it had to change).
fn label(raw: &str, item: &mut Item, place: &str, report: &mut Report) {
    match crate::contract::labels::label_from(raw) {
        Some(l) if l == raw => item.add_label(l),
        Some(l) => {
            report.changed(
                "a label made valid (spaces and other characters replaced)",
                format!("{place}: {raw}"),
            );
            item.add_label(l);
        }
        None => report.dropped(
            "a label with nothing valid in it",
            format!("{place}: {raw}"),
        ),
    }
}

/// A time field in RFC 3339, in ms; one that does not parse is reported
/// and left to the import's time.
fn time_of(f: &Fields, key: &str, place: &str, report: &mut Report) -> ToolResult<Option<i64>> {
    let Some(text) = f.str(key)?.filter(|t| !t.trim().is_empty()) else {
        return Ok(None);
    };
    match crate::clock::parse_timestamp(text) {
        Some(ts) => Ok(Some(ts.as_millisecond())),
        None => {
            report.dropped(
                format!("a {key} that is no RFC 3339 time"),
                format!("{place}: {text}"),
            );
            Ok(None)
        }
    }
}

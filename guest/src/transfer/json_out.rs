//! The tasklists JSON format, written: the whole list with every field
//! and its audit log, versioned so that a later reader knows what it holds.
//!
//! ```json
//! {"format": "tasklists", "version": 1, "exported_at": "…",
//!  "list": {…the list object…}, "counts": {…},
//!  "tasks": [{…every field of the task object, times included…}],
//!  "events": [{…audit events, oldest first…}], "events_complete": true}
//! ```
//!
//! `tasks` are in position order; `depends_on` and the events name the
//! tasks by the ids they had here. [`super::json_in`] reads it back.

use serde::Serialize;

use super::snapshot::Snapshot;
use crate::actions::audit::AuditEvent;
use crate::clock::format_ms;
use crate::model::{Counts, TaskForm};
use crate::results::{ListJson, TaskJson};

/// The `format` key's value.
pub const FORMAT: &str = "tasklists";
/// The version this component writes (and the newest it reads).
pub const VERSION: i64 = 1;

#[derive(Serialize)]
struct Export<'a> {
    format: &'static str,
    version: i64,
    exported_at: String,
    list: ListJson,
    counts: Counts,
    tasks: Vec<TaskJson>,
    events: &'a [AuditEvent],
    events_complete: bool,
}

/// The snapshot as the JSON format (pretty, one field a line: a file a
/// person may read and diff).
pub fn write(snap: &Snapshot, now: i64) -> String {
    let export = Export {
        format: FORMAT,
        version: VERSION,
        exported_at: format_ms(now),
        list: ListJson::from(&snap.list),
        counts: snap.list.counts,
        tasks: snap
            .tasks
            .iter()
            .map(|t| {
                TaskJson::new(
                    t,
                    crate::actions::deps::get(&snap.deps, &t.id),
                    TaskForm::Whole,
                )
            })
            .collect(),
        events: &snap.events,
        events_complete: snap.events_complete,
    };
    let mut text = serde_json::to_string_pretty(&export).unwrap_or_default();
    text.push('\n');
    text
}

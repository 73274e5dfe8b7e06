//! Audit events on a page: the terminal's audit table (`task_audit get`'s
//! rendering), newest first, and a link to the older ones.

use super::html::Html;
use crate::actions::audit::AuditPage;

/// `events` as the audit table, then "older events" linking to `older`
/// with the page's cursor when there are more.
pub(crate) fn write(h: &mut Html, events: &AuditPage, older: Option<&str>) {
    h.open("div", &[("class", "timeline lines")]);
    let lines = crate::render::audit::events(AuditPage {
        events: events.events.clone(),
        next_cursor: None,
    })
    .unwrap_or_default();
    h.lines(&lines);
    h.close("div");
    if let (Some(cursor), Some(base)) = (events.next_cursor.as_deref(), older) {
        let before = cursor.strip_prefix('e').unwrap_or(cursor);
        h.open("p", &[("class", "older")])
            .elem(
                "a",
                &[(
                    "href",
                    &format!("{base}?before={}", super::route::encode(before)),
                )],
                "older events",
            )
            .close("p");
    }
}

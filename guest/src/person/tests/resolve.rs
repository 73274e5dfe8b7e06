//! Targets from a full id, a unique prefix (with or without its kind) or a
//! unique tail, among what the context sees.

use serde_json::json;

use super::*;
use crate::bindings::ErrorCode;

#[test]
fn prefixes_and_tails_resolve_when_unique() {
    let w = World::new(&["One", "Two"]);
    let t = &w.tasks[1];
    let tail = &t[t.len() - 6..];
    let d = done(w.act("block", tail, json!(null), false));
    assert_eq!(d["task"]["id"], t.as_str());
    // Lowercase is the same id (ULIDs are uppercase).
    let d = done(w.act("unblock", &tail.to_lowercase(), json!(null), false));
    assert_eq!(d["task"]["id"], t.as_str());
    // The list by the start of its ULID, with or without `list_`.
    let list_ulid = &w.list[5..];
    let PersonReply::Confirm(_) = w.act(
        "delete",
        &format!("list_{}", &list_ulid[..20]),
        json!(null),
        false,
    ) else {
        panic!("not the list");
    };
    // Tasks made in the same millisecond share their start: ambiguous.
    let task_ulid = &t[5..];
    let e = refused(w.act("block", &task_ulid[..10], json!(null), false));
    assert_eq!(e.code, ErrorCode::InvalidParams, "{}", e.message);
    assert!(e.message.contains(&w.tasks[0]), "{}", e.message);
    assert!(e.message.contains(&w.tasks[1]), "{}", e.message);
}

#[test]
fn unknown_and_invisible_targets_are_not_found() {
    let w = World::new(&["One"]);
    let e = refused(w.act("block", "ZZZZZZ", json!(null), false));
    assert_eq!(e.code, ErrorCode::NotFound);
    // Another agent's private list is not among what the person sees.
    let private = w.h.ok(
        "agent-9",
        "task_lists",
        "create",
        json!({"name": "Mine", "scope_type": "workspace", "visibility": "private"}),
    )["list"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let tail = &private[private.len() - 8..];
    assert_eq!(
        refused(w.act("delete", tail, json!(null), false)).code,
        ErrorCode::NotFound
    );
    // By its full id: the tools' own refusal.
    assert_eq!(
        refused(w.act("delete", &private, json!(null), true)).code,
        ErrorCode::Forbidden
    );
}

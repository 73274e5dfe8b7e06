//! Shared fixtures for the renderer tests, the error view, and the
//! robustness sweep: every tool+action fed garbage must render without
//! panicking, on clean single lines.

use super::*;
use crate::error::{ErrorCode, ToolError};
use crate::registry::render_result;
use serde_json::json;

/// The list id used throughout the fixtures.
pub(crate) const LIST_ID: &str = "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B";

/// `task_…TASKnn`: readable fixture ids with a real id's shape.
pub(crate) fn task_id(n: u32) -> String {
    format!("task_01JDQ4ZK8M3N5P7R9T1VTASK{n:02}")
}

/// A realistic list object.
pub(crate) fn list_json() -> Value {
    json!({
        "id": LIST_ID,
        "name": "Sprint 12",
        "scope_type": "workspace",
        "scope_key": "/work/main",
        "visibility": "shared",
        "created_by_agent_id": "builder-1",
        "created_at": "2026-11-30T09:00:00.000Z",
        "updated_at": "2026-11-30T12:00:00.000Z",
    })
}

/// A realistic task object with the given position, status and title.
pub(crate) fn task_json(position: u32, status: &str, title: &str) -> Value {
    json!({
        "id": task_id(position),
        "list_id": LIST_ID,
        "position": position,
        "title": title,
        "status": status,
        "created_at": "2026-11-30T09:00:00.000Z",
        "updated_at": "2026-11-30T11:00:00.000Z",
    })
}

/// Five tasks, one per status, with claims, assignments, deps and memos.
pub(crate) fn sample_tasks() -> Vec<Value> {
    let mut t1 = task_json(1, "done", "Set up CI");
    t1["assigned_to_agent_id"] = json!("builder-1");
    t1["outcome"] = json!("CI green on main, 3 jobs");
    t1["notes"] = json!("used the cached toolchain");
    let mut t2 = task_json(2, "in_progress", "Write the parser");
    t2["claimed_by_agent_id"] = json!("builder-2");
    t2["claim_expires_at"] = json!("2026-11-30T12:15:00.000Z");
    t2["updated_at"] = json!("2026-11-30T12:00:00.000Z");
    t2["notes"] = json!("tokenizer done; next: expressions");
    let mut t3 = task_json(3, "blocked", "Review API naming");
    t3["assigned_to_agent_id"] = json!("builder-1");
    t3["depends_on"] = json!([task_id(2)]);
    t3["notes"] = json!("waiting for a decision from the user");
    let mut t4 = task_json(4, "todo", "Deploy to staging");
    t4["depends_on"] = json!([task_id(2), task_id(3)]);
    let mut t5 = task_json(5, "canceled", "Support Windows 95");
    t5["outcome"] = json!("out of scope");
    // Out of order on purpose: renderers sort by position.
    vec![t3, t1, t2, t5, t4]
}

/// Style of the first span containing `needle`.
pub(crate) fn style_of(lines: &[Line], needle: &str) -> Option<Style> {
    lines
        .iter()
        .flatten()
        .find(|s| s.text.contains(needle))
        .map(|s| s.style)
}

#[test]
fn errors_render_code_message_and_hint() {
    let err = ToolError::new(
        ErrorCode::Conflict,
        "task_01J… is claimed by builder-2 until 2026-11-30T12:30:00.000Z",
        "call task_claims claim_next to get another task",
    );
    let out = render_error(&err);
    assert_eq!(
        to_plain(&out),
        "✗ conflict: task_01J… is claimed by builder-2 until 2026-11-30T12:30:00.000Z\n  hint: call task_claims claim_next to get another task"
    );
    assert!(out[0].iter().all(|s| s.style == Style::Error));
    assert!(out[1].iter().all(|s| s.style == Style::Muted));

    let bare = ToolError::new(ErrorCode::Storage, "store failed: busy", "");
    assert_eq!(
        to_plain(&render_error(&bare)),
        "✗ storage: store failed: busy"
    );

    let multi = ToolError::new(
        ErrorCode::UnknownAction,
        "unknown action \"claim\"\nvalid: claim_next, refresh",
        "see task_help",
    );
    assert_eq!(
        to_plain(&render_error(&multi)),
        "✗ unknown_action: unknown action \"claim\"\n  valid: claim_next, refresh\n  hint: see task_help"
    );
}

/// Every (tool, action) a host may render, plus unknown ones.
const CALLS: &[(&str, &str)] = &[
    ("task_lists", "create"),
    ("task_lists", "find"),
    ("task_lists", "get"),
    ("task_lists", "delete"),
    ("task_items", "create"),
    ("task_items", "add_many"),
    ("task_items", "update"),
    ("task_items", "reorder"),
    ("task_items", "delete"),
    ("task_claims", "claim_next"),
    ("task_claims", "refresh"),
    ("task_claims", "release_expired"),
    ("task_audit", "get"),
    ("task_help", "all"),
    ("task_help", "workflow"),
    ("task_help", "schemas"),
    ("task_help", "examples"),
    ("task_nope", "whatever"),
    ("", ""),
];

/// Data that is wrong in every way a buggy or future guest could make it.
fn garbage() -> Vec<Value> {
    // C0 and C1 escape sequences (CSI as U+009B, OSC as U+009D), DEL,
    // bidi overrides and isolates, zero-width and tag characters.
    let weird = "ctrl\u{0}\u{1b}[31mred\r\n\ttab \u{9b}2J\u{9d}0;title\u{7}\u{7f} \u{202e}evil\u{2066}\u{200b}\u{feff}\u{e0041} 日本語 😀 é\u{301}";
    let huge = "x".repeat(5000);
    let mut out = vec![
        json!(null),
        json!(true),
        json!(-1),
        json!(u64::MAX),
        json!(1e300),
        json!(weird),
        json!([]),
        json!([null, 1, "a", {}]),
        json!({}),
        json!({"list": 5, "lists": {}, "tasks": "x", "task": [], "events": 3, "released": {}, "deleted": "x"}),
        json!({"list": {}, "created": "yes", "counts": [], "tasks": [null, 1, {}, {"position": "x", "status": 7, "depends_on": [1, null, {}]}]}),
        json!({"lists": [null, {}, {"counts": {"todo": "many", "done": -5, "blocked": 1e20}, "scope_key": huge, "name": weird}], "next_cursor": 5}),
        json!({"task": {}, "claim": {"expires_at": "not a date", "token": 3}, "resumed": "yes"}),
        json!({"task": null, "waiting": {"claimed_by_others": "2", "blocked": u64::MAX, "new_reason": 3, "zero": 0}}),
        json!({"task": {"title": huge, "notes": weird, "position": i64::MIN, "claim_expires_at": "2026-13-45T99:99:99Z", "claimed_by_agent_id": ""}}),
        json!({"tasks": [{"id": null, "position": null}, {"id": 5}, "task_x"]}),
        json!({"deleted": [null, 1, {"a": 1}, weird], "released": [[], huge]}),
        json!({"events": [null, {}, {"kind": "status_changed", "data": {"to": 5}}, {"kind": "claimed", "data": {"lease_seconds": "long"}}, {"kind": "private_bypass", "data": null, "at": 7, "agent_id": ["x"]}], "next_cursor": weird}),
        json!({"workflow": [1, null, weird], "rules": "x", "schemas": {"t": 5, "u": {"a": null, "b": {"schema": {"required": "x", "properties": []}}}}, "examples": [null, {"input": huge}]}),
        json!({"list_id": 5, "deleted_tasks": "three"}),
    ];
    let mut deep = json!(1);
    for _ in 0..100 {
        deep = json!({"a": [deep]});
    }
    out.push(deep);
    out
}

/// No span may carry a line break, a control character (C0, DEL, C1) or
/// an invisible one (bidi, zero-width, tags): hosts lay lines out
/// themselves, and a terminal must never receive an escape sequence.
pub(crate) fn assert_clean(lines: &[Line], ctx: &str) {
    for span in lines.iter().flatten() {
        assert!(
            !span.text.chars().any(char::is_control),
            "{ctx}: control char in {:?}",
            span.text
        );
        assert_eq!(
            crate::text::for_screen(&span.text),
            span.text,
            "{ctx}: unsafe character in {:?}",
            span.text
        );
    }
}

#[test]
fn garbage_never_panics_and_stays_clean() {
    for (tool, action) in CALLS {
        for (i, data) in garbage().iter().enumerate() {
            let ctx = format!("{tool} {action} garbage #{i}");
            let out = render_result(tool, action, data);
            assert!(!out.is_empty(), "{ctx}: nothing rendered");
            assert_clean(&out, &ctx);
            let call = render_call(tool, action, data);
            assert_eq!(call.len(), 1, "{ctx}: call must be one line");
            assert_clean(&call, &ctx);
            assert!(fmt::width(&to_plain(&call)) <= 160, "{ctx}: call too wide");
        }
    }
    let odd = ToolError::new(ErrorCode::Internal, "\n\n", "\r\n");
    let out = render_error(&odd);
    assert_eq!(to_plain(&out), "✗ internal");
    assert_clean(&out, "error");
}

#[test]
fn plain_text_joins_spans_and_lines() {
    let lines = vec![
        vec![
            Span {
                text: "a".into(),
                style: Style::Text,
            },
            Span {
                text: "b".into(),
                style: Style::Muted,
            },
        ],
        vec![],
        vec![Span {
            text: "c".into(),
            style: Style::Error,
        }],
    ];
    assert_eq!(to_plain(&lines), "ab\n\nc");
    assert_eq!(to_plain(&[]), "");
}

//! Completions of the commands' arguments.

use insta::assert_snapshot;
use serde_json::json;

use super::*;
use crate::views::complete;

fn show(f: &Fixture, name: &str, prefix: &str) -> String {
    let out = complete(name, prefix, &ctx(Some("me")), &f.h.store, &f.h.clock);
    assert!(out.len() <= 50);
    for c in &out {
        let all = format!("{}{}{}", c.value, c.label, c.description);
        assert!(!all.chars().any(char::is_control), "{all:?}");
    }
    let text = out
        .iter()
        .map(|c| format!("{} | {} | {}", c.value, c.label, c.description))
        .collect::<Vec<_>>()
        .join("\n");
    f.redact(&text)
}

#[test]
fn list_ids_by_prefix_or_name() {
    let mut f = Fixture::new();
    let release = f.list("planner", "Release 2.0", json!({}));
    f.list("planner", "Docs", json!({}));
    f.list("planner", &format!("Odd {NASTY}"), json!({}));
    f.list("owner", "Secret release", json!({"visibility": "private"}));
    let mut out = Vec::new();
    for (name, prefix) in [
        ("tasks", ""),
        ("tasks", "rel"),
        ("tasks", "DOC"),
        ("tasks", &release[..8]),
        ("tasks", &release),
        ("tasks", &format!("{release} f")),
        ("tasks", &format!("{release} x")),
        ("task-list-delete", &release),
        ("task-audit", ""),
        ("task-audit", &format!("{release} ")),
        ("tasks", "nothing matches"),
    ] {
        out.push(format!("{name} {prefix:?}\n{}", show(&f, name, prefix)));
    }
    assert_snapshot!("complete_lists", f.redact(&out.join("\n\n")));
}

#[test]
fn keywords() {
    let f = Fixture::new();
    let mut out = Vec::new();
    for (name, prefix) in [
        ("task-widget", ""),
        ("task-widget", "f"),
        ("task-widget", "o"),
        ("task-lists", ""),
        ("task-lists", "x"),
        ("no-such-command", ""),
    ] {
        out.push(format!("{name} {prefix:?}\n{}", show(&f, name, prefix)));
    }
    assert_snapshot!("complete_keywords", out.join("\n\n"));
}

#[test]
fn at_most_fifty() {
    let mut f = Fixture::new();
    for i in 0..60 {
        f.list("planner", &format!("L{i}"), json!({}));
    }
    let out = complete("tasks", "", &ctx(Some("me")), &f.h.store, &f.h.clock);
    assert_eq!(out.len(), 50);
    assert!(complete("tasks", "", &ctx(Some("me")), &BrokenStore, &f.h.clock).is_empty());
}

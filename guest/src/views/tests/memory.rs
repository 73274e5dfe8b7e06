//! The compaction memory: the agent's claims with full ids, bounded, clean.

use insta::assert_snapshot;
use serde_json::json;

use super::*;
use crate::views::compaction_memory;

fn memory(f: &Fixture, agent: Option<&str>) -> String {
    let text = compaction_memory(&ctx(agent), &f.h.store, &f.h.clock);
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(
        !text.contains('\u{202e}') && !text.contains('\u{2066}'),
        "{text}"
    );
    f.redact(&text)
}

#[test]
fn nothing_without_identity_or_claim() {
    let mut f = Fixture::new();
    let l = f.list("planner", "Work", json!({}));
    f.tasks("planner", &l, &["one"]);
    assert_eq!(memory(&f, None), "");
    assert_eq!(memory(&f, Some("me")), "");
    f.claim("me", &l);
    // An expired claim is no longer held.
    f.h.advance_secs(3600);
    assert_eq!(memory(&f, Some("me")), "");
}

#[test]
fn claims_with_notes_across_lists() {
    let mut f = Fixture::new();
    let a = f.list("planner", "Parser", json!({}));
    let b = f.list("planner", "Docs", json!({"scope_type": "global"}));
    let ids = f.tasks("planner", &a, &["Write the tokenizer", "Write the parser"]);
    f.tasks("planner", &b, &[&format!("Explain {NASTY}")]);
    let t = f.claim("me", &a);
    assert_eq!(t, ids[0]);
    f.update(
        "me",
        &t,
        json!({"notes": "done: numbers, strings\nnext: comments\n\ttabs too"}),
    );
    f.h.advance_secs(10);
    let d = f.claim("me", &b);
    f.update(
        "me",
        &d,
        json!({"notes": format!("{} end", "long notes ".repeat(80))}),
    );
    // Another agent's claim is not this agent's memory.
    f.claim("other", &a);
    assert_snapshot!("memory_two_claims", memory(&f, Some("me")));
}

#[test]
fn at_most_twenty_claims() {
    let mut f = Fixture::new();
    for i in 0..23 {
        let l = f.list("planner", &format!("List {i}"), json!({}));
        f.tasks("planner", &l, &[&format!("Task {i}")]);
        f.claim("me", &l);
    }
    let text = memory(&f, Some("me"));
    assert_eq!(text.matches("\n- task ").count(), 20, "{text}");
    assert!(
        text.ends_with("… 3 more claims not shown (task_lists get on your lists shows them)\n"),
        "{text}"
    );
}

/// A held task's verification comes back with the rule it brings, on one
/// clean line.
#[test]
fn a_verification_comes_back_with_its_rule() {
    let mut f = Fixture::new();
    let l = f.list("planner", "Parser", json!({}));
    let ids = f.tasks("planner", &l, &["Write the parser"]);
    f.update(
        "planner",
        &ids[0],
        json!({"verification": format!("cargo test\n{NASTY}")}),
    );
    f.claim("me", &l);
    let text = memory(&f, Some("me"));
    let line = text
        .lines()
        .find(|l| l.contains("verification"))
        .expect("a verification line");
    assert!(
        line.starts_with("  verification (done needs verification_result): cargo test / "),
        "{line}"
    );
}

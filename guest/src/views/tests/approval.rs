//! `task-approve` and `task-reject`: run as the person at the keyboard
//! through the person's entry point, completing the lists that await a
//! person's decision.

use serde_json::json;

use super::*;
use crate::bindings::{CommandEffect, CommandOutput};
use crate::views::{complete, run_command};

/// Runs `name args` as agent `me` with `person` at the keyboard: the
/// lines shown and whether it failed.
fn run(f: &Fixture, person: Option<&str>, name: &str, args: &str) -> (String, bool) {
    let ctx = CallContext {
        person: person.map(String::from),
        ..ctx(Some("me"))
    };
    let effect = run_command(
        name,
        args,
        &ctx,
        80,
        false,
        &f.h.store,
        &f.h.clock,
        crate::person::act,
    );
    let CommandEffect::Show(CommandOutput { lines, failed }) = effect else {
        panic!("{effect:?}");
    };
    assert_clean(&lines);
    assert_width(&lines, 80);
    (f.redact(&crate::render::to_plain(&lines)), failed)
}

/// Sets a list's approval state as the approval step stores it.
fn set_approval(f: &Fixture, list: &str, state: &str) {
    let tx = f.h.store.begin(true).unwrap();
    tx.execute(
        "UPDATE lists SET approval = ? WHERE id = ?",
        crate::params![state, list],
    )
    .unwrap();
    tx.commit().unwrap();
}

#[test]
fn arguments_are_checked_before_anything_runs() {
    let mut f = Fixture::new();
    let list = f.list("me", "Plan", json!({}));
    let (text, failed) = run(&f, Some("alice"), "task-approve", "");
    assert!(
        failed && text.contains("usage: task-approve <list_id> [note…]"),
        "{text}"
    );
    let (text, failed) = run(&f, Some("alice"), "task-reject", &list);
    assert!(failed && text.contains("reason"), "{text}");
    assert!(
        text.contains("usage: task-reject <list_id> <reason…>"),
        "{text}"
    );
}

#[test]
fn without_a_person_they_are_refused_with_how_to_give_one() {
    let mut f = Fixture::new();
    let list = f.list("me", "Plan", json!({}));
    for (name, args) in [
        ("task-approve", list.clone()),
        ("task-reject", format!("{list} too vague")),
    ] {
        let (text, failed) = run(&f, None, name, &args);
        assert!(failed, "{text}");
        assert!(text.contains("read-only"), "{text}");
        assert!(text.contains("--person NAME"), "{text}");
    }
    let (text, failed) = run(&f, Some("alice"), "task-reject", "list_nothing too vague");
    assert!(failed && text.contains("not_found"), "{text}");
}

#[test]
fn they_complete_the_lists_awaiting_a_decision() {
    let mut f = Fixture::new();
    let plain = f.list("me", "Plain list", json!({}));
    let pending = f.list("me", "Pending plan", json!({}));
    let rejected = f.list("me", "Rejected plan", json!({}));
    let approved = f.list("me", "Approved plan", json!({}));
    let grown = f.list("me", "Grown plan", json!({}));
    set_approval(&f, &pending, "pending");
    set_approval(&f, &rejected, "rejected");
    set_approval(&f, &approved, "approved");
    set_approval(&f, &grown, "approved");
    let added = f.tasks("me", &grown, &["Added since"]);
    let tx = f.h.store.begin(true).unwrap();
    tx.execute(
        "UPDATE tasks SET awaits_approval = 1 WHERE id = ?",
        crate::params![added[0].as_str()],
    )
    .unwrap();
    tx.commit().unwrap();
    for name in ["task-approve", "task-reject"] {
        let out = complete(name, "", &ctx(Some("me")), &f.h.store, &f.h.clock);
        let values: Vec<&str> = out.iter().map(|c| c.value.as_str()).collect();
        for awaiting in [&pending, &rejected, &grown] {
            assert!(values.contains(&awaiting.as_str()), "{name}: {values:?}");
        }
        for not in [&plain, &approved] {
            assert!(!values.contains(&not.as_str()), "{name}: {values:?}");
        }
        // By a piece of the name, as every list completion.
        let out = complete(name, "pend", &ctx(Some("me")), &f.h.store, &f.h.clock);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].value, pending);
    }
}

#[test]
fn a_person_deletes_a_list_as_the_person() {
    let mut f = Fixture::new();
    let list = f.list("me", "Plan", json!({}));
    let ctx = CallContext {
        person: Some("alice".into()),
        ..ctx(Some("me"))
    };
    let go = |confirmed| {
        run_command(
            "task-list-delete",
            &list,
            &ctx,
            80,
            confirmed,
            &f.h.store,
            &f.h.clock,
            crate::person::act,
        )
    };
    assert!(matches!(go(false), CommandEffect::Confirm(_)));
    let CommandEffect::Show(CommandOutput { failed, .. }) = go(true) else {
        panic!("deleted without a question");
    };
    assert!(!failed);
    let events = f.h.ok(
        "me",
        "task_audit",
        "get",
        json!({"list_id": list, "kinds": "deleted"}),
    );
    let e = &events["events"][0];
    assert_eq!(e["agent_id"], "alice", "{events}");
    assert_eq!(e["data"]["by"], "person", "{events}");
}

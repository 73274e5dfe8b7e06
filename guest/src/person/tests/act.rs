//! A person's actions: each one carried out as the person (events name
//! the person, marked `"by": "person"`), the tools' rules kept.

use serde_json::json;

use super::*;
use crate::bindings::ErrorCode;

/// The last event of the list, checked to name alice as a person.
fn last_event_by_alice(w: &World, kind: &str) -> Value {
    let e = w.events().pop().unwrap();
    assert_eq!(e["kind"], kind, "{e}");
    assert_eq!(e["agent_id"], "alice", "{e}");
    assert_eq!(e["data"]["by"], "person", "{e}");
    e
}

#[test]
fn without_a_person_every_write_is_refused_with_the_hint() {
    let w = World::new(&["One"]);
    for action in [
        "block", "add", "priority", "delete", "approve", "reject", "done",
    ] {
        let e = refused(w.act_as(None, action, &w.tasks[0], json!(null), true));
        assert_eq!(e.code, ErrorCode::AgentRequired, "{action}");
        assert!(e.message.contains("read-only"), "{action}: {}", e.message);
        // At a shell: the shell's flag and variable, not another host's.
        assert!(e.hint.contains("--person NAME"), "{}", e.hint);
        assert!(e.hint.contains("TASKLISTS_PERSON"), "{}", e.hint);
        assert!(!e.hint.contains("pi --"), "{}", e.hint);
    }
    // The dashboard runs in `tasklists watch` and in Pi: both ways.
    let request = PersonRequest {
        action: "block".into(),
        target: w.tasks[0].clone(),
        fields: String::new(),
        confirmed: false,
        surface: PersonSurface::Dashboard,
    };
    let e = refused(super::super::act(
        &request,
        &ctx(Some("agent-1"), None),
        80,
        &w.h.store,
        &w.h.clock,
    ));
    assert!(e.hint.contains("tasklists --person NAME"), "{}", e.hint);
    assert!(e.hint.contains("pi --tasklists-person NAME"), "{}", e.hint);
    // A name that breaks the agent-id rule is refused too.
    for name in ["bad\nname", "al\u{202e}ice"] {
        let e = refused(w.act_as(Some(name), "block", &w.tasks[0], json!(null), false));
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert!(e.message.contains("person's name"), "{}", e.message);
    }
    assert_eq!(w.task(&w.tasks[0])["status"], "todo");
}

#[test]
fn block_unblock_cancel_restore_done_as_the_person() {
    let w = World::new(&["One", "Two"]);
    let t = &w.tasks[0];
    let d = done(w.act("block", t, json!(null), false));
    assert_eq!(d["task"]["status"], "blocked");
    // A person's pause keeps the reservation as it was (none).
    assert!(d["task"].get("assigned_to_agent_id").is_none(), "{d}");
    last_event_by_alice(&w, "status_changed");
    // ... and an assignee as it was.
    done(w.act("assign", &w.tasks[1], json!({"agent": "builder-2"}), false));
    let d = done(w.act("block", &w.tasks[1], json!(null), false));
    assert_eq!(d["task"]["status"], "blocked", "{d}");
    assert_eq!(w.task(&w.tasks[1])["assigned_to_agent_id"], "builder-2");
    assert_eq!(
        done(w.act("unblock", t, json!(null), false))["task"]["status"],
        "todo"
    );
    let e = refused(w.act("unblock", t, json!(null), false));
    assert_eq!(e.code, ErrorCode::Conflict);
    let e = refused(w.act("cancel", t, json!({}), false));
    assert_eq!(e.code, ErrorCode::InvalidParams, "{}", e.message);
    let d = done(w.act("cancel", t, json!({"outcome": "not needed"}), false));
    assert_eq!(d["task"]["status"], "canceled");
    assert_eq!(d["task"]["outcome"], "not needed");
    // Reopening asks first; the old outcome then leaves the task's
    // current fields for its notes (and the audit event).
    let PersonReply::Confirm(q) = w.act("restore", t, json!(null), false) else {
        panic!("restore acts without asking")
    };
    assert!(q.title.starts_with("Reopen task"), "{}", q.title);
    assert_eq!(
        w.task(t)["status"],
        "canceled",
        "nothing changed before the yes"
    );
    let d = done(w.act("restore", t, json!(null), true));
    assert_eq!(d["task"]["status"], "todo");
    assert!(d["task"].get("outcome").is_none(), "{d}");
    let notes = d["task"]["notes"].as_str().unwrap_or_default();
    assert!(
        notes.contains("Reopened by alice") && notes.contains("canceled: not needed"),
        "{notes}"
    );
    let d = done(w.act("done", t, json!({"outcome": "shipped"}), false));
    assert_eq!(d["task"]["status"], "done");
    last_event_by_alice(&w, "status_changed");
}

#[test]
fn assign_edit_move_add_as_the_person() {
    let w = World::new(&["One", "Two", "Three"]);
    let d = done(w.act("assign", &w.tasks[0], json!({"agent": "bob"}), false));
    assert_eq!(d["task"]["assigned_to_agent_id"], "bob");
    let d = done(w.act("unassign", &w.tasks[0], json!(null), false));
    assert!(d["task"].get("assigned_to_agent_id").is_none());
    let d = done(w.act("edit", &w.tasks[1], json!({"title": "Two, better"}), false));
    assert_eq!(d["task"]["title"], "Two, better");
    last_event_by_alice(&w, "updated");
    assert_eq!(
        refused(w.act("edit", &w.tasks[1], json!({}), false)).code,
        ErrorCode::InvalidParams
    );

    done(w.act("move", &w.tasks[2], json!({"to": "first"}), false));
    assert_eq!(w.task(&w.tasks[2])["position"], 1);
    last_event_by_alice(&w, "reordered");
    done(w.act("move", &w.tasks[2], json!({"to": "down"}), false));
    assert_eq!(w.task(&w.tasks[2])["position"], 2);
    done(w.act("move", &w.tasks[2], json!({"to": "last"}), false));
    assert_eq!(w.task(&w.tasks[2])["position"], 3);
    done(w.act("move", &w.tasks[2], json!({"to": 1}), false));
    assert_eq!(w.task(&w.tasks[2])["position"], 1);
    done(w.act("move", &w.tasks[2], json!({"to": "up"}), false));
    assert_eq!(w.task(&w.tasks[2])["position"], 1);
    assert_eq!(
        refused(w.act("move", &w.tasks[2], json!({"to": "sideways"}), false)).code,
        ErrorCode::InvalidParams
    );

    // Added to the list (last), or after a task.
    let d = done(w.act("add", &w.list, json!({"title": "Four"}), false));
    assert_eq!(d["task"]["position"], 4);
    last_event_by_alice(&w, "created");
    let d = done(w.act("add", &w.tasks[2], json!({"title": "After first"}), false));
    assert_eq!(d["task"]["position"], 2);
    let d = done(w.act(
        "add",
        &w.list,
        json!({"title": "Also", "after": w.tasks[2]}),
        false,
    ));
    assert_eq!(d["task"]["position"], 2);
    assert_eq!(
        refused(w.act("add", &w.list, json!({}), false)).code,
        ErrorCode::InvalidParams
    );
    let e = refused(w.act("add", &w.list, json!({"title": "x", "color": "red"}), false));
    assert!(e.message.contains("color"), "{}", e.message);
}

#[test]
fn a_task_under_an_agents_lease_is_refused_to_the_person() {
    let w = World::new(&["One"]);
    w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    for (action, fields) in [
        ("block", json!(null)),
        ("done", json!({"outcome": "x"})),
        ("edit", json!({"title": "y"})),
        ("cancel", json!({"outcome": "x"})),
        ("assign", json!({"agent": "z"})),
        ("priority", json!({"priority": "high"})),
        ("unassign", json!(null)),
        ("delete", json!(null)),
    ] {
        let e = refused(w.act(action, &w.tasks[0], fields, true));
        assert_eq!(e.code, ErrorCode::Conflict, "{action}: {}", e.message);
        assert!(
            e.message.contains("claimed by agent-2 until"),
            "{}",
            e.message
        );
        assert!(
            e.message.contains("(in "),
            "the time as screens show it: {}",
            e.message
        );
        // The task's id is random and may hold "T0" itself.
        let around_the_id = e.message.replace(&w.tasks[0], "");
        assert!(
            !around_the_id.contains("T0") && !around_the_id.contains(".000Z"),
            "no raw timestamp: {}",
            e.message
        );
        assert!(e.hint.contains("`tasklists release "), "{}", e.hint);
    }
    assert_eq!(w.task(&w.tasks[0])["status"], "in_progress");
    // A move changes only the order, nothing the agent works on: allowed.
    let two = w.h.add(&w.list, &["Two"]);
    done(w.act("move", &w.tasks[0], json!({"to": "last"}), false));
    assert_eq!(w.task(&two[0])["position"], 1);
    assert_eq!(w.task(&w.tasks[0])["status"], "in_progress");
    // Once its lease runs out, the person may act.
    w.h.advance_secs(3600);
    done(w.act("block", &w.tasks[0], json!(null), false));
    // Even the context's own agent's claim: the person does not act under it.
    let w = World::new(&["One"]);
    w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    let e = refused(w.act("block", &w.tasks[0], json!(null), false));
    assert_eq!(e.code, ErrorCode::Conflict);
    // Nor under a claim held by an agent named as the person is.
    let w = World::new(&["One"]);
    w.h.ok(
        "alice",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    for (action, fields) in [
        ("edit", json!({"title": "y"})),
        ("priority", json!({"priority": "high"})),
        ("block", json!(null)),
        ("done", json!({"outcome": "x"})),
        ("delete", json!(null)),
    ] {
        let e = refused(w.act(action, &w.tasks[0], fields, true));
        assert_eq!(e.code, ErrorCode::Conflict, "{action}: {}", e.message);
        assert!(e.message.contains("claimed by alice"), "{}", e.message);
    }
    let task = w.task(&w.tasks[0]);
    assert_eq!(task["status"], "in_progress", "{task}");
    assert_eq!(task["title"], "One", "{task}");
}

#[test]
fn delete_asks_first_then_deletes() {
    let w = World::new(&["One", "Two"]);
    let PersonReply::Confirm(q) = w.act("delete", &w.tasks[0], json!(null), false) else {
        panic!("no question");
    };
    assert!(q.title.contains("One"), "{}", q.title);
    assert_eq!(w.task(&w.tasks[0])["status"], "todo");
    let d = done(w.act("delete", &w.tasks[0], json!(null), true));
    assert_eq!(d["deleted"][0], w.tasks[0].as_str());
    last_event_by_alice(&w, "deleted");
    // A list too, after its own question.
    let PersonReply::Confirm(q) = w.act("delete", &w.list, json!(null), false) else {
        panic!("no question");
    };
    assert!(q.title.contains("Release"), "{}", q.title);
    done(w.act("delete", &w.list, json!(null), true));
    last_event_by_alice(&w, "deleted");
}

#[test]
fn priority_cycles_medium_high_low() {
    let w = World::new(&["One"]);
    let t = &w.tasks[0];
    for want in ["high", "low", "medium", "high"] {
        let d = done(w.act("priority", t, json!({"priority": "cycle"}), false));
        // Absent means medium.
        assert_eq!(d["task"]["priority"].as_str().unwrap_or("medium"), want);
        last_event_by_alice(&w, "updated");
    }
    let d = done(w.act("priority", t, json!({"priority": "low"}), false));
    assert_eq!(d["task"]["priority"], "low");
    let e = refused(w.act("priority", t, json!({"priority": "urgent"}), false));
    assert_eq!(e.code, ErrorCode::InvalidParams);
}

#[test]
fn next_says_what_claim_next_would_hand_out_without_claiming() {
    let w = World::new(&["One", "Two"]);
    // Allowed without a person: it changes nothing.
    let d = done(w.act_as(None, "next", &w.list, json!(null), false));
    assert_eq!(d["task"]["id"], w.tasks[0].as_str());
    assert_eq!(d["task"]["status"], "todo");
    assert_eq!(w.task(&w.tasks[0])["status"], "todo");
    assert!(w.events().iter().all(|e| e["kind"] != "claimed"));
    // The agent's held claim is what it gets back.
    w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    let d = done(w.act("next", &w.list, json!(null), false));
    assert_eq!(d["resumed"], true);
    // Nothing ready: why, as claim_next says it.
    w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    let reply = super::super::act(
        &PersonRequest {
            action: "next".into(),
            target: w.list.clone(),
            fields: String::new(),
            confirmed: false,
            surface: PersonSurface::Shell,
        },
        &ctx(Some("agent-3"), None),
        80,
        &w.h.store,
        &w.h.clock,
    );
    let d = done(reply);
    assert!(d["task"].is_null(), "{d}");
    assert_eq!(d["waiting"]["claimed_by_others"], 2, "{d}");
}

#[test]
fn unknown_actions_and_fields_are_refused_naming_the_right_ones() {
    let w = World::new(&["One"]);
    let e = refused(w.act("blok", &w.tasks[0], json!(null), false));
    assert!(e.message.contains("did you mean block"), "{}", e.message);
    let e = refused(w.act("reject", &w.tasks[0], json!({"reason": "no"}), false));
    assert_eq!(e.code, ErrorCode::InvalidParams, "{}", e.message);
    assert!(e.message.contains("acts on a list"), "{}", e.message);
    let e = refused(w.act("block", &w.list, json!(null), false));
    assert!(
        e.message.contains("is a list; this action acts on a task"),
        "{}",
        e.message
    );
}

#[test]
fn done_needs_the_verification_result_of_a_task_that_has_one() {
    let w = World::new(&["One"]);
    let t = &w.tasks[0];
    done(w.act(
        "edit",
        t,
        json!({"verification": "cargo test passes"}),
        false,
    ));
    let e = refused(w.act("done", t, json!({"outcome": "shipped"}), false));
    assert_eq!(e.code, ErrorCode::VerificationRequired, "{}", e.message);
    let d = done(w.act(
        "done",
        t,
        json!({"outcome": "shipped", "verification_result": "42 passed"}),
        false,
    ));
    assert_eq!(d["task"]["verification_result"], "42 passed");
    // Added with its verification.
    let d = done(w.act(
        "add",
        &w.list,
        json!({"title": "Two", "verification": "a check", "priority": "high"}),
        false,
    ));
    assert_eq!(d["task"]["verification"], "a check");
    assert_eq!(d["task"]["priority"], "high");
}

#[test]
fn a_person_takes_a_claim_back_and_the_agent_is_told_on_its_next_call() {
    let w = World::new(&["One", "Two"]);
    let claimed = w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    let token = claimed["claim"]["token"].as_str().unwrap().to_string();
    let t = &w.tasks[0];
    // It asks first; nothing changes before the yes.
    let PersonReply::Confirm(q) = w.act("release", t, json!(null), false) else {
        panic!("release acts without asking")
    };
    assert!(
        q.message.contains("agent-2's claim ends now"),
        "{}",
        q.message
    );
    assert_eq!(w.task(t)["status"], "in_progress");
    let d = done(w.act("release", t, json!({"agent": "agent-3"}), true));
    assert_eq!(d["task"]["status"], "todo");
    assert_eq!(d["task"]["assigned_to_agent_id"], "agent-3");
    assert!(d["task"].get("claimed_by_agent_id").is_none(), "{d}");
    let event = w.events().pop().unwrap();
    assert_eq!(event["kind"], "released");
    assert_eq!(event["agent_id"], "alice");
    assert_eq!(event["data"]["from"], "agent-2");
    assert_eq!(event["data"]["by"], "person");
    // The agent's next call with its token: its claim is lost, and why.
    for (tool, action, params) in [
        (
            "task_items",
            "update",
            json!({"task_id": t, "status": "done", "outcome": "x", "claim_token": token}),
        ),
        (
            "task_claims",
            "refresh",
            json!({"task_id": t, "claim_token": token}),
        ),
    ] {
        let Err(e) = w.h.call(Some("agent-2"), tool, action, params) else {
            panic!("{action} was carried out")
        };
        assert_eq!(e.code, ErrorCode::Conflict, "{}", e.message);
        assert!(
            e.message.contains("your claim on task")
                && e.message.contains("alice (a person) released it"),
            "{action}: {}",
            e.message
        );
    }
    assert_eq!(w.task(t)["status"], "todo", "nothing the agent sent landed");
    // The task goes to the agent it was reserved for.
    let next = w.h.ok(
        "agent-3",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    assert_eq!(next["task"]["id"], t.as_str());
    // Nothing to release on a task nobody runs; a tool never releases.
    let e = refused(w.act("release", &w.tasks[1], json!(null), true));
    assert_eq!(e.code, ErrorCode::Conflict, "{}", e.message);
    assert!(e.message.contains("no agent holds it"), "{}", e.message);
    let e = refused(w.act_as(None, "release", t, json!(null), true));
    assert_eq!(e.code, ErrorCode::AgentRequired);
}

#[test]
fn refusals_name_what_the_surface_offers() {
    let w = World::new(&["One"]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "verification": "cargo test"}),
    );
    let t = &w.tasks[0];
    let at = |surface| {
        let request = PersonRequest {
            action: "done".into(),
            target: t.clone(),
            fields: json!({"outcome": "shipped"}).to_string(),
            confirmed: false,
            surface,
        };
        refused(super::super::act(
            &request,
            &ctx(Some("agent-1"), Some("alice")),
            80,
            &w.h.store,
            &w.h.clock,
        ))
    };
    // A shell's flag, elsewhere plain words; never the tool's parameter.
    let shell = at(PersonSurface::Shell);
    assert_eq!(shell.code, ErrorCode::VerificationRequired);
    assert!(shell.hint.contains("--verified"), "{}", shell.hint);
    let board = at(PersonSurface::Board);
    assert!(board.hint.contains("verification result"), "{}", board.hint);
    assert!(
        !board.hint.contains("--") && !board.hint.contains("verification_result"),
        "{}",
        board.hint
    );
    // A missing required field, as the shell names it.
    let e = refused(w.act("done", t, json!({}), false));
    assert_eq!(e.message, "done needs --outcome", "{}", e.message);
    assert!(e.hint.contains("--outcome, --verified"), "{}", e.hint);
    assert!(!e.hint.contains("verification_result"), "{}", e.hint);
    // A closed task: reopening, as each surface offers it.
    done(w.act("cancel", t, json!({"outcome": "dropped"}), false));
    let e = refused(w.act("block", t, json!(null), false));
    assert!(
        e.hint.contains(&format!("`tasklists restore {t}`")),
        "{}",
        e.hint
    );
    assert!(!e.hint.contains("/task-"), "{}", e.hint);
    // An unknown id: where the shell shows ids.
    let e = refused(w.act("block", "ZZZZZZ", json!(null), false));
    assert!(e.hint.contains("tasklists task-lists"), "{}", e.hint);
    assert!(!e.hint.contains("/task-lists"), "{}", e.hint);
}

#[test]
fn every_verb_has_a_handler() {
    for verb in crate::person::verbs::VERBS {
        assert!(
            crate::person::act::has_handler(verb),
            "{} has no handler in act.rs HANDLERS",
            verb.name
        );
    }
}

#[test]
fn every_key_fills_fields_its_verb_declares() {
    use crate::person::verbs::{Ask, VERBS};
    for verb in VERBS {
        for key in verb.keys {
            let mut named: Vec<&str> = key.preset.iter().map(|(f, _)| *f).collect();
            if let Ask::Text(p) = key.ask {
                named.push(p.field);
                named.extend(p.then.map(|(f, _, _)| f));
            }
            for field in named {
                assert!(
                    verb.field(field).is_some(),
                    "the key {} of {} fills {field}, which {} does not take",
                    key.key,
                    verb.name,
                    verb.name
                );
            }
        }
    }
}

//! The person is called: an agent's question waits for the person's
//! answer and comes back to the same agent first; a task that requires
//! review waits for the person's acceptance or return. Natively, through
//! the tools and the person's verbs; the contract suite repeats the
//! journeys on both stores (`tests/tests/called.rs`).

use serde_json::json;

use super::{World, done, refused};
use crate::error::ErrorCode;

fn claim(w: &World, agent: &str) -> serde_json::Value {
    w.h.ok(
        agent,
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    )
}

#[test]
fn a_question_waits_for_the_answer_then_goes_back_to_its_agent_first() {
    let w = World::new(&["first", "second", "third"]);
    let c = claim(&w, "agent-1");
    assert_eq!(c["task"]["id"], w.tasks[0]);
    let asked = w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "question": "Postgres or SQLite for the cache?", "notes": "both work"}),
    );
    let t = &asked["task"];
    assert_eq!(t["status"], "blocked", "{t}");
    assert_eq!(t["waits_on"], "answer");
    assert_eq!(t["ask"]["question"], "Postgres or SQLite for the cache?");
    assert_eq!(t["ask"]["by"], "agent-1");
    assert_eq!(t["assigned_to_agent_id"], "agent-1");
    assert!(t.get("claimed_by_agent_id").is_none(), "lease ended: {t}");

    // Nobody takes it meanwhile; the asking agent cannot unblock it.
    let other = claim(&w, "agent-2");
    assert_eq!(other["task"]["id"], w.tasks[1]);
    let e =
        w.h.call(
            Some("agent-1"),
            "task_items",
            "update",
            json!({"task_id": w.tasks[0], "status": "todo"}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Conflict, "{e:?}");
    assert!(
        e.message.contains("waits for a person's answer"),
        "{}",
        e.message
    );

    let answered = done(w.act(
        "answer",
        &w.tasks[0],
        json!({"answer": "SQLite: one file"}),
        false,
    ));
    assert_eq!(answered["task"]["status"], "todo", "{answered}");
    assert_eq!(answered["task"]["ask"]["answer"], "SQLite: one file");
    assert_eq!(answered["task"]["ask"]["answered_by"], "alice");

    // agent-1's next claim hands it out before the ready third task.
    let back = claim(&w, "agent-1");
    assert_eq!(back["task"]["id"], w.tasks[0], "{back}");
    assert_eq!(back["task"]["ask"]["answer"], "SQLite: one file");
    let kinds: Vec<String> = w
        .events()
        .iter()
        .map(|e| e["kind"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(kinds.contains(&"asked".to_string()), "{kinds:?}");
    assert!(kinds.contains(&"answered".to_string()), "{kinds:?}");
}

#[test]
fn review_at_the_finish_accepts_or_returns_with_the_reason() {
    let w = World::new(&["elsewhere"]);
    let list = w.h.create_list(
        "agent-1",
        json!({"name": "Reviewed", "requires_review": true}),
    );
    let ids = w.h.add(&list, &["build", "ship", "later"]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": ids[1], "depends_on": [ids[0]]}),
    );
    let c = w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(c["task"]["id"], ids[0]);
    assert_eq!(c["task"]["requires_review"], true);
    let sent = w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "outcome": "built"}),
    );
    assert_eq!(sent["task"]["status"], "blocked", "{sent}");
    assert_eq!(sent["task"]["waits_on"], "review");
    assert_eq!(sent["task"]["outcome"], "built");
    assert_eq!(sent["task"]["review"]["state"], "pending");
    // Its dependent still waits: the next ready task is the third.
    let next = w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(next["task"]["id"], ids[2], "{next}");

    // Returned: back to agent-1 first, the reason in view.
    let r = refused(w.act("return", &ids[0], json!({"reason": " "}), false));
    assert_eq!(r.code, crate::bindings::ErrorCode::InvalidParams);
    let returned = done(w.act("return", &ids[0], json!({"reason": "add the tests"}), false));
    assert_eq!(returned["task"]["status"], "todo");
    assert_eq!(returned["task"]["review"]["reason"], "add the tests");
    assert!(returned["task"].get("outcome").is_none());
    let again = w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(again["task"]["id"], ids[0], "{again}");
    assert_eq!(again["task"]["review"]["state"], "returned");
    assert!(
        again["task"]["notes"]
            .as_str()
            .unwrap()
            .contains("add the tests")
    );

    // Finished again, then accepted: done, and the dependent is ready.
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": ids[0], "status": "done", "outcome": "built, with tests"}),
    );
    let accepted = done(w.act("accept", &ids[0], json!(null), false));
    assert_eq!(accepted["task"]["status"], "done", "{accepted}");
    assert_eq!(accepted["task"]["review"]["state"], "accepted");
    assert_eq!(accepted["task"]["review"]["by"], "alice");
    let dependent = w.h.ok(
        "agent-3",
        "task_claims",
        "claim_next",
        json!({"list_id": list}),
    );
    assert_eq!(dependent["task"]["id"], ids[1], "{dependent}");
}

#[test]
fn only_a_waiting_task_is_answered_accepted_or_returned() {
    let w = World::new(&["one"]);
    for (verb, fields) in [
        ("answer", json!({"answer": "yes"})),
        ("accept", json!(null)),
        ("return", json!({"reason": "no"})),
    ] {
        let e = refused(w.act(verb, &w.tasks[0], fields, false));
        assert_eq!(
            e.code,
            crate::bindings::ErrorCode::Conflict,
            "{verb}: {e:?}"
        );
        assert!(e.message.contains("does not wait"), "{}", e.message);
    }
    // Asking needs the claim.
    let e =
        w.h.call(
            Some("agent-1"),
            "task_items",
            "update",
            json!({"task_id": w.tasks[0], "question": "why?"}),
        )
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::Conflict, "{e:?}");
}

#[test]
fn the_dashboard_heads_with_the_inbox_and_answers_on_a_key() {
    let w = World::new(&["Pick the cache", "Other"]);
    claim(&w, "agent-1");
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "question": "Postgres or SQLite?"}),
    );
    let view = crate::bindings::DashboardView {
        width: 120,
        height: 0,
        list_id: None,
    };
    let ctx = super::ctx(Some("agent-1"), Some("alice"));
    let mut state = String::new();
    let mut press = |input: crate::bindings::DashboardInput| {
        let screen = crate::person::dashboard(&state, &input, &view, &ctx, &w.h.store, &w.h.clock);
        state = screen.state.clone();
        super::plain(&screen.lines)
    };
    let first = press(crate::bindings::DashboardInput::Refresh);
    assert!(first.contains("Inbox: 1 needs you"), "{first}");
    assert!(first.contains("Postgres or SQLite?"), "{first}");
    assert!(first.contains("? asks"), "the row names the wait: {first}");
    // The first task is selected: n asks for the answer, enter sends it.
    press(crate::bindings::DashboardInput::Key("n".into()));
    press(crate::bindings::DashboardInput::Paste("SQLite".into()));
    let after = press(crate::bindings::DashboardInput::Key("enter".into()));
    assert!(after.contains("answered"), "{after}");
    assert!(
        !after.contains("needs you"),
        "answered: nothing left: {after}"
    );
    assert_eq!(w.task(&w.tasks[0])["ask"]["answer"], "SQLite");
}

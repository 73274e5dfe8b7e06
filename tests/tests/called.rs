//! The person is called, through the real component on the suite's store
//! (SQLite, and PostgreSQL in the contract pass): an agent's question
//! waits for the person, leaves the agent's hands without leaving the
//! agent, and comes back to it first with the answer; review at the
//! finish accepts, or returns with the reason the agent reads on its next
//! claim; the inbox lists what needs the person and only what they may
//! see; stalled work enters it; notices are sent once per channel. That
//! no tool call answers, accepts or returns is fuzzed in `fuzz.rs`.

use tasklists_host::InboxView;
use tasklists_tests::*;

const AGENT: &str = "builder-1";

fn ana() -> CallContext {
    person_ctx(AGENT, Some("ana"))
}

/// The inbox as `ctx` sees it: its JSON.
fn inbox(db: &TestDb, ctx: &CallContext) -> Value {
    let out = db
        .host()
        .inbox(
            ctx,
            &InboxView {
                width: 100,
                stalled_after_minutes: None,
            },
        )
        .expect("the host answers")
        .expect("the inbox is read");
    let data: Value = serde_json::from_str(&out.data).expect("JSON");
    assert_eq!(data["count"], out.count, "{data}");
    data
}

/// A list whose tasks go to review when done; its id.
fn reviewed_list(db: &TestDb, name: &str) -> String {
    s(
        &db.ok(
            AGENT,
            "task_lists",
            "create",
            json!({"name": name, "requires_review": true}),
        ),
        "/list/id",
    )
}

fn kinds(inbox: &Value) -> Vec<String> {
    inbox["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn ask_inbox_answer_then_the_same_agent_claims_it_first() {
    let db = TestDb::new();
    let list = db.list(AGENT, "Cache");
    let ids = db.add(&list, &["Pick the cache", "Write the docs"]);
    assert_eq!(s(&db.claim(AGENT, &list), "/task/id"), ids[0]);
    let asked = db.update(
        AGENT,
        json!({"task_id": ids[0], "question": "Postgres or SQLite for the cache?"}),
    );
    assert_eq!(asked["task"]["status"], "blocked");
    assert_eq!(asked["task"]["waits_on"], "answer");
    assert!(asked["task"]["claimed_by_agent_id"].is_null());

    let seen = inbox(&db, &ana());
    assert_eq!(kinds(&seen), ["question"], "{seen}");
    let entry = &seen["entries"][0];
    assert_eq!(entry["task_id"], ids[0].as_str());
    assert_eq!(entry["said"], "Postgres or SQLite for the cache?");
    assert_eq!(entry["agent"], AGENT);
    assert_eq!(entry["actions"][0], "answer");

    // Another agent gets the other task, never the asked one.
    assert_eq!(s(&db.claim("builder-2", &list), "/task/id"), ids[1]);
    db.update("builder-2", json!({"task_id": ids[1], "status": "todo"}));

    let answered = db.person_ok(&ana(), "answer", &ids[0], json!({"answer": "SQLite"}));
    assert_eq!(answered["task"]["status"], "todo", "{answered}");
    assert_eq!(answered["task"]["ask"]["answer"], "SQLite");
    assert_eq!(answered["task"]["ask"]["answered_by"], "ana");
    assert_eq!(inbox(&db, &ana())["count"], 0);

    // builder-2 asks first: the asked task is still not its.
    assert_eq!(s(&db.claim("builder-2", &list), "/task/id"), ids[1]);
    let back = db.out(AGENT, "task_claims", "claim_next", json!({"list_id": list}));
    assert_eq!(s(&back.data, "/task/id"), ids[0], "{}", back.data);
    assert_eq!(
        back.data["task"]["ask"]["question"],
        "Postgres or SQLite for the cache?"
    );
    assert_eq!(back.data["task"]["ask"]["answer"], "SQLite");
    // The answer is in what the agent reads: the text content too.
    assert!(back.text.contains("SQLite"), "{}", back.text);

    let events = db.ok(AGENT, "task_audit", "get", json!({"task_id": ids[0]}));
    let kinds: Vec<&str> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"asked") && kinds.contains(&"answered"),
        "{kinds:?}"
    );
    let answered_event = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "answered")
        .unwrap();
    assert_eq!(answered_event["agent_id"], "ana", "{answered_event}");
}

#[test]
fn review_accept_and_review_return_with_the_reason_reaching_the_agent() {
    let db = TestDb::new();
    let list = reviewed_list(&db, "Reviewed");
    let ids = db.add(&list, &["Build", "Ship"]);
    db.update(AGENT, json!({"task_id": ids[1], "depends_on": [ids[0]]}));
    db.claim(AGENT, &list);
    let sent = db.update(
        AGENT,
        json!({"task_id": ids[0], "status": "done", "outcome": "built"}),
    );
    assert_eq!(sent["task"]["waits_on"], "review", "{sent}");
    assert_eq!(sent["task"]["outcome"], "built");
    assert_eq!(kinds(&inbox(&db, &ana())), ["review"]);
    // Dependents still wait.
    let none = db.claim("builder-2", &list);
    assert!(none["task"].is_null(), "{none}");

    let returned = db.person_ok(&ana(), "return", &ids[0], json!({"reason": "add a test"}));
    assert_eq!(returned["task"]["status"], "todo");
    assert_eq!(returned["task"]["review"]["state"], "returned");
    let back = db.out(AGENT, "task_claims", "claim_next", json!({"list_id": list}));
    assert_eq!(s(&back.data, "/task/id"), ids[0]);
    assert_eq!(back.data["task"]["review"]["reason"], "add a test");
    assert!(back.text.contains("add a test"), "{}", back.text);

    db.update(
        AGENT,
        json!({"task_id": ids[0], "status": "done", "outcome": "built, tested"}),
    );
    let accepted = db.person_ok(&ana(), "accept", &ids[0], json!(null));
    assert_eq!(accepted["task"]["status"], "done", "{accepted}");
    assert_eq!(accepted["task"]["review"]["state"], "accepted");
    assert_eq!(accepted["task"]["outcome"], "built, tested");
    assert_eq!(s(&db.claim("builder-2", &list), "/task/id"), ids[1]);
}

#[test]
fn no_tool_call_answers_accepts_or_settles_a_wait() {
    let db = TestDb::new();
    let list = reviewed_list(&db, "R");
    let ids = db.add(&list, &["asked", "reviewed"]);
    db.claim(AGENT, &list);
    db.update(AGENT, json!({"task_id": ids[0], "question": "which?"}));
    db.claim("builder-2", &list);
    db.update(
        "builder-2",
        json!({"task_id": ids[1], "status": "done", "outcome": "done"}),
    );
    for (task, status) in [
        (&ids[0], "todo"),
        (&ids[0], "done"),
        (&ids[1], "done"),
        (&ids[1], "todo"),
    ] {
        let e = db.err(
            AGENT,
            "task_items",
            "update",
            json!({"task_id": task, "status": status, "outcome": "me"}),
        );
        assert_eq!(e.code, ErrorCode::Conflict, "{status}: {e:?}");
    }
    // Unknown parameters for the person's fields; a person in the
    // context changes nothing for a tool call.
    for key in ["answer", "accept", "review", "reason"] {
        let e = db.err(
            AGENT,
            "task_items",
            "update",
            json!({"task_id": ids[0], key: "yes"}),
        );
        assert_eq!(e.code, ErrorCode::InvalidParams, "{key}: {e:?}");
    }
    let e = db.err_ctx(
        &ana(),
        "task_items",
        "update",
        json!({"task_id": ids[1], "status": "done", "outcome": "accepted?"}),
    );
    assert_eq!(e.code, ErrorCode::Conflict, "{e:?}");
    let seen = inbox(&db, &ana());
    assert_eq!(kinds(&seen), ["question", "review"], "{seen}");
}

#[test]
fn stalled_work_and_failed_checks_enter_the_inbox() {
    let db = TestDb::new();
    let list = db.list(AGENT, "Slow");
    let ids = db.add_tasks(
        &list,
        &[
            json!({"title": "slow"}),
            json!({"title": "checked", "verification": "cargo test"}),
        ],
    );
    db.claim_lease(AGENT, &list, 7200);
    db.advance(29 * 60);
    assert_eq!(inbox(&db, &ana())["count"], 0);
    db.advance(2 * 60);
    let seen = inbox(&db, &ana());
    assert_eq!(kinds(&seen), ["stalled"], "{seen}");
    assert_eq!(seen["entries"][0]["agent"], AGENT);
    // A note renews it: no longer stalled.
    db.update(AGENT, json!({"task_id": ids[0], "notes": "still on it"}));
    assert_eq!(inbox(&db, &ana())["count"], 0);

    // A person sets the threshold for every surface.
    let out = db
        .host()
        .inbox(
            &ana(),
            &InboxView {
                width: 80,
                stalled_after_minutes: Some(5),
            },
        )
        .unwrap()
        .unwrap();
    assert_eq!(out.count, 0);
    db.advance(6 * 60);
    assert_eq!(kinds(&inbox(&db, &ana())), ["stalled"]);
    // Without a person, the threshold cannot be set.
    let refused = db
        .host()
        .inbox(
            &ctx(AGENT),
            &InboxView {
                width: 80,
                stalled_after_minutes: Some(60),
            },
        )
        .unwrap();
    assert!(refused.is_err(), "{refused:?}");

    // A check that failed: paused with what it showed.
    db.claim("builder-2", &list);
    db.update(
        "builder-2",
        json!({"task_id": ids[1], "status": "blocked", "verification_result": "2 tests failed"}),
    );
    let seen = inbox(&db, &ana());
    assert_eq!(kinds(&seen), ["stalled", "failed_check"], "{seen}");
    assert_eq!(seen["entries"][1]["said"], "2 tests failed");
}

#[test]
fn private_lists_never_reach_another_persons_inbox_nor_notices() {
    let db = TestDb::new();
    let private = db.private_list("owner-1", "Mine");
    let ids = [s(
        &db.ok(
            "owner-1",
            "task_items",
            "create",
            json!({"list_id": private, "title": "secret"}),
        ),
        "/task/id",
    )];
    db.claim("owner-1", &private);
    db.update(
        "owner-1",
        json!({"task_id": ids[0], "question": "secret question"}),
    );
    let theirs = person_ctx("owner-1", Some("olga"));
    let other = person_ctx("someone-else", Some("ana"));
    assert_eq!(inbox(&db, &theirs)["count"], 1);
    assert_eq!(inbox(&db, &other)["count"], 0);
    let lines = db
        .host()
        .inbox(
            &other,
            &InboxView {
                width: 100,
                stalled_after_minutes: None,
            },
        )
        .unwrap()
        .unwrap()
        .lines;
    assert!(!plain(&lines).contains("secret"), "{}", plain(&lines));
    let notices = db
        .host()
        .notices(&other, "webhook:x", "http://127.0.0.1:1")
        .unwrap()
        .unwrap();
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn each_notice_is_sent_once_per_channel() {
    let db = TestDb::new();
    let list = db.list(AGENT, "N");
    let ids = db.add(&list, &["asked"]);
    db.claim(AGENT, &list);
    db.update(AGENT, json!({"task_id": ids[0], "question": "go?"}));
    let pending = |channel: &str| {
        db.host()
            .notices(&ana(), channel, "http://127.0.0.1:7000/?token=secret#x")
            .unwrap()
            .unwrap()
    };
    let first = pending("webhook:a");
    assert_eq!(first.len(), 1);
    let payload: Value = serde_json::from_str(&first[0].payload).unwrap();
    assert_eq!(payload["kind"], "question");
    assert_eq!(payload["task_id"], ids[0].as_str());
    assert_eq!(payload["title"], "asked");
    assert_eq!(
        payload["link"],
        format!("http://127.0.0.1:7000/tasks/{}", ids[0]),
        "no token in a link"
    );
    assert!(!first[0].payload.contains("secret"));
    db.host()
        .notices_sent(&ana(), "webhook:a", &[first[0].key.clone()])
        .unwrap()
        .unwrap();
    assert!(pending("webhook:a").is_empty());
    assert_eq!(pending("desktop").len(), 1, "another channel still gets it");
    // A new question on the same task is a new entry.
    db.person_ok(&ana(), "answer", &ids[0], json!({"answer": "yes"}));
    db.claim(AGENT, &list);
    db.update(AGENT, json!({"task_id": ids[0], "question": "and then?"}));
    assert_eq!(pending("webhook:a").len(), 1);
}

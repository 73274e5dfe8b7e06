//! The person's side through the real component (`ui.person-act`,
//! `ui.key-map`, `ui.dashboard`), on the suite's store: every person's
//! action carried out and audited under the person (`"by": "person"`),
//! targets by prefix or tail (matched by the store's SQL), plans approved
//! and rejected, and the dashboard driven by keys as a host drives it,
//! its state passed back each time. What a person may do and what asks
//! first are rules, tested once in the guest (`guest/src/person/tests/`).

use tasklists_tests::*;

const AGENT: &str = "planner";

/// The last event of `list`, checked to name `alice` as a person.
#[track_caller]
fn by_alice(db: &TestDb, list: &str, kind: &str) -> Value {
    let e = db.events(AGENT, list).remove(0);
    assert_eq!(e["kind"], kind, "{e}");
    assert_eq!(e["agent_id"], "alice", "{e}");
    assert_eq!(e["data"]["by"], "person", "{e}");
    e
}

fn alice() -> CallContext {
    person_ctx(AGENT, Some("alice"))
}

#[test]
fn every_action_is_carried_out_and_audited_as_the_person() {
    let db = TestDb::new();
    let list = db.list(AGENT, "Release");
    let ids = db.add(&list, &["One", "Two", "Three"]);
    let p = alice();

    let d = db.person_ok(
        &p,
        "add",
        &list,
        json!({"title": "Four", "description": "d"}),
    );
    assert_eq!(d["task"]["position"], 4);
    by_alice(&db, &list, "created");
    let d = db.person_ok(&p, "add", &ids[0], json!({"title": "After one"}));
    assert_eq!(d["task"]["position"], 2);

    let d = db.person_ok(
        &p,
        "edit",
        &ids[1],
        json!({"title": "Two, better", "notes": "n"}),
    );
    assert_eq!(d["task"]["title"], "Two, better");
    by_alice(&db, &list, "updated");

    for (action, fields, status) in [
        ("block", json!(null), "blocked"),
        ("unblock", json!(null), "todo"),
        ("cancel", json!({"outcome": "not needed"}), "canceled"),
        ("restore", json!(null), "todo"),
        ("done", json!({"outcome": "shipped"}), "done"),
    ] {
        let d = db.person_ok(&p, action, &ids[1], fields);
        assert_eq!(d["task"]["status"], status, "{action}");
        by_alice(&db, &list, "status_changed");
    }

    for want in ["high", "low", "medium"] {
        let d = db.person_ok(&p, "priority", &ids[2], json!({"priority": "cycle"}));
        assert_eq!(d["task"]["priority"].as_str().unwrap_or("medium"), want);
        by_alice(&db, &list, "updated");
    }
    let d = db.person_ok(&p, "priority", &ids[2], json!({"priority": "high"}));
    assert_eq!(d["task"]["priority"], "high");
    // A verification asks its result when the task is closed.
    db.person_ok(
        &p,
        "edit",
        &ids[0],
        json!({"verification": "the tests pass"}),
    );
    expect(
        &db.person_err(&p, "done", &ids[0], json!({"outcome": "ok"})),
        ErrorCode::VerificationRequired,
        &[],
    );
    db.person_ok(
        &p,
        "done",
        &ids[0],
        json!({"outcome": "ok", "verification_result": "all green"}),
    );
    db.person_ok(&p, "restore", &ids[0], json!(null));

    let d = db.person_ok(&p, "assign", &ids[2], json!({"agent": "builder-2"}));
    assert_eq!(d["task"]["assigned_to_agent_id"], "builder-2");
    by_alice(&db, &list, "updated");
    let d = db.person_ok(&p, "unassign", &ids[2], json!(null));
    assert!(d["task"].get("assigned_to_agent_id").is_none(), "{d}");

    db.person_ok(&p, "move", &ids[2], json!({"to": "first"}));
    assert_eq!(db.order(&list)[0], ids[2]);
    by_alice(&db, &list, "reordered");
    db.person_ok(&p, "move", &ids[2], json!({"to": 3}));
    assert_eq!(db.order(&list)[2], ids[2]);

    let d = db.person_ok(&p, "delete", &ids[0], json!(null));
    assert_eq!(d["deleted"], json!([ids[0]]));
    by_alice(&db, &list, "deleted");

    // `next` reads only: nothing claimed, no event.
    let before = db.events(AGENT, &list).len();
    let d = db.person_ok(&p, "next", &list, json!(null));
    assert_eq!(d["task"]["status"], "todo", "{d}");
    assert_eq!(db.events(AGENT, &list).len(), before);

    // The person's events are the only ones naming alice, each marked.
    for e in db.events(AGENT, &list) {
        if e["agent_id"] == "alice" {
            assert_eq!(e["data"]["by"], "person", "{e}");
        } else {
            assert!(e["data"].get("by").is_none(), "{e}");
        }
    }
}

#[test]
fn targets_by_prefix_or_tail_and_ambiguity_refused() {
    let db = TestDb::new();
    let list = db.list(AGENT, "Release");
    // Made in one millisecond: their ids share a long prefix.
    let ids = db.add(&list, &["One", "Two"]);
    let tail = &ids[1][ids[1].len() - 6..];
    let d = db.person_ok(&alice(), "block", tail, json!(null));
    assert_eq!(d["task"]["id"], ids[1]);
    let prefix = &ids[1][..15];
    let e = db.person_err(&alice(), "block", prefix, json!(null));
    expect(
        &e,
        ErrorCode::InvalidParams,
        &["more than one", &ids[0], &ids[1]],
    );
    let e = db.person_err(&alice(), "block", &prefix[5..], json!(null));
    expect(&e, ErrorCode::InvalidParams, &["more than one"]);
    expect(
        &db.person_err(&alice(), "block", "QQQQQQQ", json!(null)),
        ErrorCode::NotFound,
        &[],
    );
    // Another agent's private list is not there to match.
    let private = db.private_list("other", "Secret");
    expect(
        &db.person_err(
            &alice(),
            "delete",
            &private[private.len() - 8..],
            json!(null),
        ),
        ErrorCode::NotFound,
        &[],
    );
}

/// A dashboard session: the state passed back with every input.
struct Dash<'d> {
    db: &'d TestDb,
    ctx: CallContext,
    state: String,
    screen: Option<DashboardScreen>,
}

impl<'d> Dash<'d> {
    fn open(db: &'d TestDb, ctx: CallContext) -> Dash<'d> {
        let mut d = Dash {
            db,
            ctx,
            state: String::new(),
            screen: None,
        };
        d.input(DashboardInput::Refresh);
        d
    }

    fn input(&mut self, input: DashboardInput) -> &mut Self {
        let view = DashboardView {
            width: 100,
            height: 30,
            list_id: None,
        };
        let screen = self.db.dashboard(&self.state, &input, &view, &self.ctx);
        assert!(screen.lines.len() <= 30);
        self.state = screen.state.clone();
        self.screen = Some(screen);
        self
    }

    fn keys(&mut self, keys: &[&str]) -> &mut Self {
        for k in keys {
            self.input(DashboardInput::Key((*k).into()));
        }
        self
    }

    fn text(&self) -> String {
        plain(&self.screen.as_ref().unwrap().lines)
    }

    fn selected(&self) -> String {
        self.text()
            .lines()
            .find(|l| l.starts_with("▸ "))
            .unwrap_or_default()
            .to_string()
    }
}

#[test]
fn the_dashboard_is_driven_by_the_key_maps_keys() {
    let db = TestDb::new();
    let list = db.list(AGENT, "Release");
    let ids = db.add(&list, &["One", "Two"]);
    let map = db.key_map();
    let key = |action: &str| {
        map.iter()
            .find(|k| k.action == action)
            .unwrap_or_else(|| panic!("no key for {action}"))
            .key
            .clone()
    };
    assert_eq!(key("close"), "escape");
    let mut d = Dash::open(&db, alice());
    assert!(d.selected().contains("One"), "{}", d.text());
    // Select, block.
    d.keys(&[&key("select-next"), &key("block")]);
    assert_eq!(db.task(AGENT, &list, &ids[1])["status"], "blocked");
    by_alice(&db, &list, "status_changed");
    assert!(d.selected().contains("paused"), "{}", d.text());
    // Cycle the priority: medium to high.
    d.keys(&[&key("priority")]);
    assert_eq!(db.task(AGENT, &list, &ids[1])["priority"], "high");
    assert!(d.selected().contains('↑'), "{}", d.text());
    // Add through the prompt: `q` types, it does not close.
    d.keys(&[&key("add"), "q", "space", "x", "enter"]);
    assert!(!d.screen.as_ref().unwrap().closed);
    assert!(d.selected().contains("q x"), "{}", d.text());
    by_alice(&db, &list, "created");
    // Done, with its outcome.
    d.keys(&[&key("done"), "o", "k", "enter"]);
    assert!(d.selected().contains("done"), "{}", d.text());
    by_alice(&db, &list, "status_changed");
    // Delete, then yes: the question is held in the state.
    d.keys(&[&key("delete"), "y"]);
    by_alice(&db, &list, "deleted");
    // Escape closes.
    d.keys(&["escape"]);
    assert!(d.screen.as_ref().unwrap().closed);
}

#[test]
fn a_person_approves_and_rejects_plans() {
    let db = TestDb::new();
    let plan = s(
        &db.ok(
            AGENT,
            "task_lists",
            "create",
            json!({"name": "Plan", "requires_approval": true}),
        ),
        "/list/id",
    );
    let ids = db.add(&plan, &["Step one", "Step two"]);
    // Rejected with the reason the agents read.
    expect(
        &db.person_err(&alice(), "reject", &plan, json!(null)),
        ErrorCode::InvalidParams,
        &["reason"],
    );
    db.person_ok(&alice(), "reject", &plan, json!({"reason": "too vague"}));
    by_alice(&db, &plan, "rejected");
    let got = db.get(AGENT, &plan);
    assert_eq!(got["list"]["approval"]["state"], "rejected", "{got}");
    assert_eq!(got["list"]["approval"]["reason"], "too vague", "{got}");
    // Approved through the slash command, by a tail of its id.
    let out = db
        .host()
        .run_command(
            "task-approve",
            &format!("{} looks right", &plan[plan.len() - 6..]),
            &alice(),
            100,
            false,
        )
        .expect("the command runs");
    let CommandEffect::Show(shown) = out else {
        panic!("{out:?}")
    };
    assert!(!shown.failed, "{}", plain(&shown.lines));
    by_alice(&db, &plan, "approved");
    let got = db.get(AGENT, &plan);
    assert_eq!(got["list"]["approval"]["state"], "approved", "{got}");
    assert_eq!(got["list"]["approval"]["note"], "looks right", "{got}");
    assert_eq!(s(&db.claim("builder-1", &plan), "/task/id"), ids[0]);
    // A task added since waits for its own approval, which the person gives.
    let added = db.add(&plan, &["Step three"]);
    let d = db.person_ok(&alice(), "approve", &added[0], json!(null));
    assert!(d.to_string().contains(&added[0]), "{d}");
    by_alice(&db, &plan, "approved");
    // A step the person adds is approved by adding it, audited as both.
    let d = db.person_ok(&alice(), "add", &plan, json!({"title": "Step four"}));
    let four = s(&d, "/task/id");
    assert!(d["task"].get("awaits_approval").is_none(), "{d}");
    let events = db.events(AGENT, &plan);
    assert_eq!(kinds(&events[..2]), ["approved", "created"]);
    for e in &events[..2] {
        assert_eq!(e["task_id"], four.as_str(), "{e}");
        assert_eq!(e["data"]["by"], "person", "{e}");
    }
    let got = db.task(AGENT, &plan, &four);
    assert!(got.get("awaits_approval").is_none(), "{got}");
}

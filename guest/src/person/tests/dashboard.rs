//! The dashboard driven by keys, as a host drives it: every input with the
//! state the last screen returned.

use serde_json::json;

use super::*;
use crate::bindings::{DashboardInput, DashboardScreen, DashboardView, KeyInput};
use crate::person::{dashboard, key_map};

/// A dashboard session on a world.
struct Dash<'w> {
    w: &'w World,
    ctx: CallContext,
    view: DashboardView,
    state: String,
    screen: DashboardScreen,
}

impl<'w> Dash<'w> {
    fn open(w: &'w World, person: Option<&str>, width: u32, height: u32) -> Dash<'w> {
        let mut d = Dash {
            w,
            ctx: ctx(Some("agent-1"), person),
            view: DashboardView {
                width,
                height,
                list_id: None,
            },
            state: String::new(),
            screen: DashboardScreen {
                state: String::new(),
                lines: Vec::new(),
                closed: false,
            },
        };
        d.input(DashboardInput::Refresh);
        d
    }

    fn input(&mut self, input: DashboardInput) -> &DashboardScreen {
        self.screen = dashboard(
            &self.state,
            &input,
            &self.view,
            &self.ctx,
            &self.w.h.store,
            &self.w.h.clock,
        );
        self.state = self.screen.state.clone();
        for l in &self.screen.lines {
            let width: usize = l.iter().map(|s| crate::render::fmt::width(&s.text)).sum();
            assert!(width <= self.view.width as usize, "{}", self.text());
        }
        if self.view.height > 0 {
            assert!(
                self.screen.lines.len() <= self.view.height as usize,
                "{}",
                self.text()
            );
        }
        &self.screen
    }

    fn key(&mut self, key: &str) -> &mut Self {
        self.input(DashboardInput::Key(key.into()));
        self
    }

    fn keys(&mut self, keys: &[&str]) -> &mut Self {
        for k in keys {
            self.key(k);
        }
        self
    }

    fn typing(&mut self, text: &str) -> &mut Self {
        for c in text.chars() {
            self.key(&c.to_string());
        }
        self
    }

    fn text(&self) -> String {
        plain(&self.screen.lines)
    }

    /// The line with the selection marker.
    fn selected(&self) -> String {
        self.text()
            .lines()
            .find(|l| l.starts_with("▸ "))
            .unwrap_or_default()
            .to_string()
    }
}

#[test]
fn the_key_map_is_one_table_without_a_key_twice() {
    let map = key_map();
    let mut seen = std::collections::HashSet::new();
    for k in &map {
        assert!(seen.insert(k.key.clone()), "{} twice", k.key);
        assert!(!k.label.is_empty());
    }
    let find = |key: &str| map.iter().find(|k| k.key == key).unwrap();
    assert_eq!(find("q").action, "close");
    assert_eq!(find("escape").action, "close");
    assert_eq!(find("j").action, "select-next");
    assert_eq!(find("A").input, KeyInput::Confirm);
    assert_eq!(find("d").input, KeyInput::Confirm);
    assert_eq!(find("R").input, KeyInput::Text);
    assert_eq!(find("p").input, KeyInput::None);
    assert!(find("b").writes && !find("f").writes && !find("enter").writes);
    // Every write key runs a person's action by its name.
    for k in map.iter().filter(|k| k.writes) {
        assert!(
            crate::person::verbs::find(&k.action).is_ok(),
            "{}",
            k.action
        );
    }
}

#[test]
fn one_list_opens_at_once_and_keys_move_the_selection() {
    let w = World::new(&["One", "Two", "Three"]);
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    let text = d.text();
    assert!(text.contains("Release"), "{text}");
    assert!(d.selected().contains("One"), "{text}");
    assert!(text.contains("as @alice"), "{text}");
    assert!(text.contains("b block/unblock"), "{text}");
    d.keys(&["j", "down"]);
    assert!(d.selected().contains("Three"), "{}", d.text());
    d.key("j");
    assert!(d.selected().contains("Three"), "stays on the last row");
    d.keys(&["k", "up"]);
    assert!(d.selected().contains("One"), "{}", d.text());
    // Details, then back.
    d.key("enter");
    assert!(d.text().contains(&w.tasks[0]), "{}", d.text());
    assert!(d.selected().is_empty());
    d.key("backspace");
    assert!(d.selected().contains("One"));
    // Back to the lists, and in again.
    d.key("left");
    assert!(d.selected().contains("Release"), "{}", d.text());
    d.key("enter");
    assert!(d.selected().contains("One"));
    assert!(d.key("q").screen.closed);
}

#[test]
fn read_only_without_a_person_hides_write_keys_and_refuses_them() {
    let w = World::new(&["One"]);
    let mut d = Dash::open(&w, None, 100, 0);
    let text = d.text();
    assert!(text.contains("read-only"), "{text}");
    assert!(!text.contains("block/unblock"), "{text}");
    assert!(text.contains("select"), "{text}");
    // The footer offers closing and no key that writes.
    let footer = text.lines().last().unwrap_or_default();
    assert!(footer.contains("esc/q close"), "{text}");
    for k in key_map().iter().filter(|k| k.writes) {
        assert!(!footer.contains(&k.label), "{} shown: {text}", k.label);
    }
    // How to act is said before a write key is tried.
    assert!(
        text.contains("to act, name yourself: TASKLISTS_PERSON"),
        "{text}"
    );
    d.key("b");
    assert!(d.text().contains("--person NAME"), "{}", d.text());
    assert_eq!(w.task(&w.tasks[0])["status"], "todo");
}

#[test]
fn keys_act_on_the_selected_task_and_say_what_happened() {
    let w = World::new(&["One", "Two"]);
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    d.key("b");
    assert_eq!(w.task(&w.tasks[0])["status"], "blocked");
    assert!(d.text().contains("✓ blocked \"One\""), "{}", d.text());
    assert!(d.selected().contains("paused"), "{}", d.text());
    d.key("b");
    assert_eq!(w.task(&w.tasks[0])["status"], "todo");
    // Moves: the selection follows the task.
    d.keys(&["j", "K"]);
    assert_eq!(w.task(&w.tasks[1])["position"], 1);
    assert!(d.selected().contains("Two"), "{}", d.text());
    d.key("J");
    assert_eq!(w.task(&w.tasks[1])["position"], 2);
    d.key("T");
    assert_eq!(w.task(&w.tasks[1])["position"], 1);
    // A claimed task: refused, the reason on screen.
    w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    d.input(DashboardInput::Refresh);
    assert!(d.selected().contains("@agent-2"), "{}", d.text());
    d.key("b");
    assert!(d.text().contains("✗ task"), "{}", d.text());
    assert!(d.text().contains("claimed by agent-2"), "{}", d.text());
}

#[test]
fn prompts_take_typed_keys_and_paste_then_run() {
    let w = World::new(&["One"]);
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    // `a` opens the prompt; q and j type into it instead of acting.
    d.key("a").typing("quick jump");
    assert!(
        d.text().contains("New task after \"One\": quick jump▏"),
        "{}",
        d.text()
    );
    assert!(!d.screen.closed);
    d.keys(&["backspace", "backspace"])
        .input(DashboardInput::Paste("ed\nover".into()));
    assert!(d.text().contains("quick jued over▏"), "{}", d.text());
    d.key("enter");
    assert!(d.selected().contains("quick jued over"), "{}", d.text());
    assert!(d.text().contains("✓ added"), "{}", d.text());
    // Escape cancels a prompt (and does not close).
    d.key("a").typing("nope").key("escape");
    assert!(!d.screen.closed);
    assert!(!d.text().contains("nope"));
    // Done asks the outcome.
    d.key("x").typing("shipped").key("enter");
    let done =
        w.h.ok("agent-1", "task_lists", "get", json!({"list_id": w.list}))["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["status"] == "done")
            .count();
    assert_eq!(done, 1, "{}", d.text());
    // Cancel asks the outcome; on a closed task it asks, then restores.
    d.key("c");
    assert!(d.text().contains("Reopen task"), "{}", d.text());
    d.key("y");
    assert!(d.text().contains("restored"), "{}", d.text());
    d.key("c").typing("dropped").key("enter");
    assert!(d.text().contains("✓ canceled"), "{}", d.text());
    // Hide finished.
    d.key("f");
    assert!(d.text().contains("1 finished task hidden"), "{}", d.text());
    d.key("f");
    // Assign, then unassign with an empty answer.
    d.key("s").typing("bob").key("enter");
    assert!(d.selected().contains("→bob"), "{}", d.text());
    d.key("s");
    assert!(d.text().contains(": bob▏"), "prefilled: {}", d.text());
    d.keys(&["backspace", "backspace", "backspace", "enter"]);
    assert!(!d.selected().contains("→bob"), "{}", d.text());
    // Edit, prefilled with the title.
    d.key("e").typing("!").key("enter");
    assert!(d.selected().contains("!"), "{}", d.text());
}

#[test]
fn delete_asks_yes_or_no() {
    let w = World::new(&["One", "Two"]);
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    d.key("d");
    assert!(
        d.text().contains("Delete task \"One\"?  y/n"),
        "{}",
        d.text()
    );
    d.key("n");
    assert_eq!(w.task(&w.tasks[0])["status"], "todo");
    d.keys(&["d", "y"]);
    assert!(w.task(&w.tasks[0]).is_null());
    assert!(d.selected().contains("Two"), "{}", d.text());
}

#[test]
fn the_layout_fits_the_height_keeping_the_selection_in_sight() {
    let titles: Vec<String> = (1..=30).map(|i| format!("Task {i}")).collect();
    let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
    let w = World::new(&refs);
    let mut d = Dash::open(&w, Some("alice"), 60, 12);
    for _ in 0..20 {
        d.key("j");
    }
    assert!(d.selected().contains("Task 21"), "{}", d.text());
    assert!(d.text().contains("more"), "{}", d.text());
    // Narrow: still within the width (checked on every input).
    let mut d = Dash::open(&w, Some("alice"), 20, 8);
    d.keys(&["j", "a"]).typing(&"long ".repeat(20));
}

#[test]
fn a_state_from_elsewhere_is_a_fresh_dashboard() {
    let w = World::new(&["One"]);
    let mut d = Dash::open(&w, Some("alice"), 80, 0);
    d.state = "{not json".into();
    d.input(DashboardInput::Refresh);
    assert!(d.selected().contains("One"), "{}", d.text());
}

/// The screens of a short session as snapshots: the lists (names in a
/// column), a list's tasks (priority, claimer and lease, assignee), a
/// prompt, a task's details; ids made stable.
#[test]
fn screens() {
    let w = World::new(&["Write the migration", "Review", "Ship it"]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[1], "priority": "high", "verification": "cargo test"}),
    );
    w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[2], "assigned_to_agent_id": "bob", "priority": "low"}),
    );
    w.h.advance_secs(1);
    let docs = w.h.ok(
        "agent-1",
        "task_lists",
        "create",
        json!({"name": "Docs", "scope_type": "workspace"}),
    )["list"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Stable ids of the same shape: `list_000…RELEASE`, `task_000…TASK01`.
    let mut ids = vec![
        (w.list.clone(), format!("list_{:0>26}", "RELEASE")),
        (docs, format!("list_{:0>26}", "DOCS")),
    ];
    for (i, t) in w.tasks.iter().enumerate() {
        ids.push((t.clone(), format!("task_{:0>26}", format!("TASK{i:02}"))));
    }
    let redact = |text: String| {
        ids.iter().fold(text, |out, (real, fake)| {
            let short = crate::render::fmt::short_id(real);
            out.replace(real.as_str(), fake)
                .replace(&short, &crate::render::fmt::short_id(fake))
        })
    };
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    // Docs, the newest, comes first; Release is opened.
    d.key("j");
    let mut shots = vec![d.text()];
    d.key("enter");
    shots.push(d.text());
    d.keys(&["j", "x"]).typing("tests pass");
    shots.push(d.text());
    d.keys(&["escape", "j", "enter"]);
    shots.push(d.text());
    insta::assert_snapshot!("dashboard_screens", redact(shots.join("\n-----\n")));
}

#[test]
fn done_asks_the_verification_result_after_the_outcome() {
    let w = World::new(&["One"]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "verification": "cargo test"}),
    );
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    d.key("x").typing("shipped").key("enter");
    assert!(
        d.text().contains("What the verification showed: ▏"),
        "{}",
        d.text()
    );
    assert_eq!(w.task(&w.tasks[0])["status"], "todo");
    d.typing("all green").key("enter");
    let t = w.task(&w.tasks[0]);
    assert_eq!(t["status"], "done", "{}", d.text());
    assert_eq!(t["verification_result"], "all green");
    // `p` cycles the priority: medium, high.
    d.key("c").key("y");
    d.key("p");
    assert_eq!(w.task(&w.tasks[0])["priority"], "high", "{}", d.text());
}

/// A plan's approval on the dashboard: awaiting first, then approved with
/// the person and note, what changed since, the task awaiting its own.
#[test]
fn plans_awaiting_approval() {
    let w = World::new(&["Plain task"]);
    w.h.advance_secs(1);
    let plan = w.h.ok(
        "agent-1",
        "task_lists",
        "create",
        json!({"name": "Plan", "scope_type": "workspace", "requires_approval": true}),
    )["list"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let steps = w.h.ok(
        "agent-1",
        "task_items",
        "add_many",
        json!({"list_id": plan, "tasks": [{"title": "Step one"}, {"title": "Step two"}]}),
    );
    let step_one = steps["tasks"][0]["id"].as_str().unwrap().to_string();
    w.h.advance_secs(1);
    // The plain list is touched last, yet the plan comes first.
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "notes": "n"}),
    );
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    assert!(d.selected().contains("Plan"), "{}", d.text());
    assert!(
        d.selected().contains("⏳ awaiting approval"),
        "{}",
        d.text()
    );
    d.key("A");
    assert!(
        d.text().contains("Approve list \"Plan\"?  y/n"),
        "{}",
        d.text()
    );
    d.key("y");
    assert!(
        d.text().contains("✓ approved list \"Plan\""),
        "{}",
        d.text()
    );
    let approved = |w: &World, list: &str| {
        let events = w.h.ok(
            "agent-1",
            "task_audit",
            "get",
            json!({"list_id": list, "kinds": "approved"}),
        );
        let e = events["events"][0].clone();
        assert_eq!(e["agent_id"], "alice", "{events}");
        assert_eq!(e["data"]["by"], "person", "{events}");
        events["events"].as_array().map_or(0, Vec::len)
    };
    assert_eq!(approved(&w, &plan), 1);
    // Changed since: one retitled, one added (awaiting its own approval).
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": step_one, "title": "Step 1"}),
    );
    w.h.ok(
        "agent-1",
        "task_items",
        "create",
        json!({"list_id": plan, "title": "Step three"}),
    );
    d.input(DashboardInput::Refresh);
    assert!(
        d.selected().contains("1 task awaiting approval"),
        "{}",
        d.text()
    );
    d.key("enter");
    let text = d.text();
    assert!(text.contains("✓ approved by @alice"), "{text}");
    assert!(
        text.contains("since approval: 1 added, 1 retitled"),
        "{text}"
    );
    assert!(text.contains("Step three  ⏳ awaits approval"), "{text}");
    d.keys(&["j", "j", "A"]);
    assert!(
        d.text().contains("Approve task \"Step three\"?"),
        "{}",
        d.text()
    );
    d.key("y");
    assert!(
        d.text().contains("✓ approved task \"Step three\""),
        "{}",
        d.text()
    );
    assert!(!d.text().contains("awaits approval"), "{}", d.text());
    assert_eq!(approved(&w, &plan), 2);
    // Approved, the plan hands out its tasks.
    let claimed = w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": plan}),
    );
    assert!(claimed["task"]["id"].is_string(), "{claimed}");
    // Rejected with a reason: the reason on the list's header.
    d.keys(&["R"]).typing("too vague").key("enter");
    let text = d.text();
    assert!(text.contains("✗ rejected by @alice"), "{text}");
    assert!(text.contains("reason: too vague"), "{text}");
}

#[test]
fn a_required_prompt_stays_open_until_answered_or_cancelled() {
    let w = World::new(&["One"]);
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    // An empty outcome: the prompt stays, and what is typed next is its
    // text, never keys (`a` would add a task, `d` delete, `x` done).
    d.key("x").key("enter");
    assert!(d.text().contains("an answer is needed"), "{}", d.text());
    d.typing("all done").key("enter");
    let t = w.task(&w.tasks[0]);
    assert_eq!(t["status"], "done", "{}", d.text());
    assert_eq!(t["outcome"], "all done");
    assert_eq!(
        w.h.ok("agent-1", "task_lists", "get", json!({"list_id": w.list}))["tasks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // Escape still cancels it.
    d.key("a").key("enter").key("escape");
    assert!(!d.text().contains("New task"), "{}", d.text());
}

#[test]
fn a_pending_confirmation_acts_on_the_task_it_named_never_a_neighbour() {
    let w = World::new(&["One", "Two", "Three"]);
    let mut d = Dash::open(&w, Some("alice"), 100, 0);
    d.key("down");
    assert!(d.selected().contains("Two"), "{}", d.text());
    d.key("d");
    assert!(d.text().contains("Delete task \"Two\"?"), "{}", d.text());
    // Meanwhile an agent moves it to the top: the yes deletes Two.
    w.h.ok(
        "agent-1",
        "task_items",
        "reorder",
        json!({"list_id": w.list, "task_ids": [w.tasks[1]], "position": 1}),
    );
    d.input(DashboardInput::Refresh);
    d.key("y");
    assert!(w.task(&w.tasks[1]).is_null(), "Two deleted");
    assert!(!w.task(&w.tasks[0]).is_null() && !w.task(&w.tasks[2]).is_null());
    // Asked about Three, which an agent deletes first: the yes changes nothing else.
    d.key("down");
    let asked = d.selected().to_string();
    d.key("d");
    let target = if asked.contains("Three") {
        &w.tasks[2]
    } else {
        &w.tasks[0]
    };
    w.h.ok(
        "agent-1",
        "task_items",
        "delete",
        json!({"task_id": target}),
    );
    d.key("y");
    let left: Vec<Value> =
        w.h.ok("agent-1", "task_lists", "get", json!({"list_id": w.list}))["tasks"]
            .as_array()
            .unwrap()
            .clone();
    assert_eq!(left.len(), 1, "only the neighbour is left: {}", d.text());
    assert!(
        d.text().contains("was deleted"),
        "the refusal is shown: {}",
        d.text()
    );
}

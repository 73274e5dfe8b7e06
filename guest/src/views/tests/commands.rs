//! The slash commands: every command's output (shown, picked, confirmed,
//! widget changes, failures) as the host receives it.

use insta::assert_snapshot;
use serde_json::json;

use super::*;
use crate::bindings::{CommandEffect, CommandOutput};
use crate::views::{commands, run_command};

/// Runs a command as `agent` at `width` and describes its effect; every
/// line it shows fits the width and carries no raw control.
fn run(
    f: &Fixture,
    agent: Option<&str>,
    name: &str,
    args: &str,
    width: u32,
    confirmed: bool,
) -> String {
    let effect = run_command(
        name,
        args,
        &ctx(agent),
        width,
        confirmed,
        &f.h.store,
        &f.h.clock,
        crate::person::act,
    );
    let text = match effect {
        CommandEffect::Show(CommandOutput { lines, failed }) => {
            assert_clean(&lines);
            assert_width(&lines, width as usize);
            format!("show (failed: {failed})\n{}", f.show(&lines))
        }
        CommandEffect::Confirm(c) => format!("confirm\ntitle: {}\nmessage: {}", c.title, c.message),
        CommandEffect::Pick(p) => {
            let options: Vec<String> = p
                .options
                .iter()
                .map(|o| format!("  {} | {} | {}", o.value, o.label, o.description))
                .collect();
            format!("pick\ntitle: {}\n{}", p.title, options.join("\n"))
        }
        CommandEffect::SetWidget(w) => {
            assert_width(&w.lines, width as usize);
            format!("set-widget {:?}\n{}", w.action, f.show(&w.lines))
        }
    };
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{9b}') && !text.contains('\u{202e}'),
        "{text}"
    );
    f.redact(&text)
}

/// Two lists in the workspace: a release with tasks in every state, and an
/// empty one; plus another agent's private list.
fn fixture() -> (Fixture, String, String) {
    let mut f = Fixture::new();
    let release = f.list("planner", "Release 2.0", json!({}));
    let ids = f.tasks(
        "planner",
        &release,
        &[
            "Write the changelog",
            "Tag the release",
            "Announce it",
            "Drop Windows 95",
        ],
    );
    f.update("planner", &ids[0], json!({"description": "Every change since 1.9, grouped by area.", "notes": "features done\nfixes: half"}));
    f.claim("builder-2", &release);
    f.update(
        "planner",
        &ids[1],
        json!({"status": "blocked", "assigned_to_agent_id": "me", "notes": "waiting for CI"}),
    );
    f.update(
        "planner",
        &ids[3],
        json!({"status": "canceled", "outcome": "out of scope"}),
    );
    let empty = f.list(
        "me",
        "Empty one",
        json!({"scope_type": "custom", "scope_key": "k"}),
    );
    f.list("owner", "Secret", json!({"visibility": "private"}));
    (f, release, empty)
}

#[test]
fn the_menu() {
    let menu: Vec<String> = commands()
        .iter()
        .map(|c| format!("{} {} — {}", c.name, c.usage, c.description))
        .collect();
    assert_snapshot!("commands_menu", menu.join("\n"));
}

#[test]
fn task_lists_plain_and_full() {
    let (f, _, _) = fixture();
    assert_snapshot!(
        "task_lists",
        run(&f, Some("me"), "task-lists", "", 80, false)
    );
    assert_snapshot!(
        "task_lists_full",
        run(&f, Some("me"), "task-lists", "full", 80, false)
    );
    assert_snapshot!(
        "task_lists_40",
        run(&f, Some("me"), "task-lists", "", 40, false)
    );
    assert_snapshot!(
        "task_lists_bad_arg",
        run(&f, Some("me"), "task-lists", "all", 80, false)
    );
    let none = Fixture::new();
    assert_snapshot!(
        "task_lists_none",
        run(&none, Some("me"), "task-lists", "", 80, false)
    );
}

#[test]
fn tasks_detail_full_and_pick() {
    let (f, release, empty) = fixture();
    assert_snapshot!(
        "tasks_detail",
        run(&f, Some("me"), "tasks", &release, 80, false)
    );
    assert_snapshot!(
        "tasks_detail_40",
        run(&f, Some("me"), "tasks", &release, 40, false)
    );
    assert_snapshot!(
        "tasks_empty",
        run(&f, Some("me"), "tasks", &empty, 80, false)
    );
    assert_snapshot!(
        "tasks_full",
        run(&f, Some("me"), "tasks", &format!("{empty} full"), 80, false)
    );
    assert_snapshot!("tasks_pick", run(&f, Some("me"), "tasks", "", 80, false));
    let none = Fixture::new();
    assert_snapshot!(
        "tasks_pick_none",
        run(&none, Some("me"), "tasks", "  ", 80, false)
    );
}

#[test]
fn tasks_failures() {
    let (f, release, _) = fixture();
    let secret = f
        .ids
        .iter()
        .filter(|(r, _)| r.starts_with("list_"))
        .nth(2)
        .unwrap()
        .0
        .clone();
    assert_snapshot!(
        "tasks_unknown_list",
        run(
            &f,
            Some("me"),
            "tasks",
            "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
            80,
            false
        )
    );
    assert_snapshot!(
        "tasks_not_an_id",
        run(&f, Some("me"), "tasks", "release", 80, false)
    );
    assert_snapshot!(
        "tasks_private",
        run(&f, Some("me"), "tasks", &secret, 80, false)
    );
    assert_snapshot!(
        "tasks_bad_args",
        run(
            &f,
            Some("me"),
            "tasks",
            &format!("{release} fulll"),
            80,
            false
        )
    );
    assert_snapshot!(
        "tasks_failure_40",
        run(
            &f,
            Some("me"),
            "tasks",
            "list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
            40,
            false
        )
    );
}

#[test]
fn task_audit_forms() {
    let (f, release, _) = fixture();
    let secret = f
        .ids
        .iter()
        .filter(|(r, _)| r.starts_with("list_"))
        .nth(2)
        .unwrap()
        .0
        .clone();
    assert_snapshot!(
        "audit_none_yet",
        run(&f, Some("me"), "task-audit", "", 100, false)
    );
    assert_snapshot!(
        "audit_private_refused",
        run(&f, Some("me"), "task-audit", &secret, 100, false)
    );
    assert_snapshot!(
        "audit_bypass",
        run(
            &f,
            Some("me"),
            "task-audit",
            &format!("{secret} bypass the owner asked for a review"),
            100,
            false
        )
    );
    // The bypass is itself audited, and shows up among the caller's own.
    assert_snapshot!(
        "audit_after_bypass",
        run(&f, Some("me"), "task-audit", "", 100, false)
    );
    assert_snapshot!(
        "audit_list",
        run(&f, Some("me"), "task-audit", &release, 100, false)
    );
    assert_snapshot!(
        "audit_list_full",
        run(
            &f,
            Some("me"),
            "task-audit",
            &format!("full {secret}"),
            100,
            false
        )
    );
    assert_snapshot!(
        "audit_bypass_without_list",
        run(&f, Some("me"), "task-audit", "bypass because", 100, false)
    );
    assert_snapshot!(
        "audit_bypass_without_reason",
        run(
            &f,
            Some("me"),
            "task-audit",
            &format!("{secret} bypass"),
            100,
            false
        )
    );
    assert_snapshot!(
        "audit_anonymous",
        run(&f, None, "task-audit", "", 100, false)
    );
}

#[test]
fn task_list_delete_asks_then_deletes() {
    let (f, release, _) = fixture();
    assert_snapshot!(
        "delete_confirm",
        run(&f, Some("me"), "task-list-delete", &release, 80, false)
    );
    // Asking deleted nothing.
    f.h.ok("me", "task_lists", "get", json!({"list_id": release}));
    assert_snapshot!(
        "delete_anonymous",
        run(&f, None, "task-list-delete", &release, 80, false)
    );
    assert_snapshot!(
        "delete_no_arg",
        run(&f, Some("me"), "task-list-delete", "", 80, false)
    );
    // builder-2 holds a task: the tool refuses, and says why.
    assert_snapshot!(
        "delete_refused",
        run(&f, Some("me"), "task-list-delete", &release, 80, true)
    );
    f.h.advance_secs(3600);
    assert_snapshot!(
        "delete_done",
        run(&f, Some("me"), "task-list-delete", &release, 80, true)
    );
    assert_snapshot!(
        "delete_again",
        run(&f, Some("me"), "task-list-delete", &release, 80, false)
    );
}

#[test]
fn task_widget_actions() {
    let f = Fixture::new();
    let mut out = Vec::new();
    for arg in ["on", "off", "compact", "full", "refresh"] {
        out.push(run(&f, Some("me"), "task-widget", arg, 80, false));
    }
    assert_snapshot!("widget_actions", out.join("\n\n"));
    assert_snapshot!(
        "widget_no_action",
        run(&f, Some("me"), "task-widget", "", 80, false)
    );
    assert_snapshot!(
        "widget_bad_action",
        run(&f, Some("me"), "task-widget", "big", 80, false)
    );
}

#[test]
fn unknown_commands_are_refused_with_the_list() {
    let f = Fixture::new();
    assert_snapshot!(
        "unknown_command",
        run(&f, Some("me"), "task-list", "", 80, false)
    );
    assert_snapshot!(
        "unknown_command_far",
        run(&f, Some("me"), "hello", "", 80, false)
    );
}

#[test]
fn hostile_text_in_commands() {
    let mut f = Fixture::new();
    let l = f.list("me", &format!("List {NASTY}"), json!({}));
    let t = f.tasks("me", &l, &[&format!("Task {NASTY}")])[0].clone();
    f.update(
        "me",
        &t,
        json!({"notes": format!("notes {NASTY}"), "description": format!("desc {NASTY}")}),
    );
    for (name, args) in [
        ("task-lists", String::new()),
        ("task-lists", "full".into()),
        ("tasks", l.clone()),
        ("tasks", format!("{l} full")),
        ("task-audit", l.clone()),
        ("task-list-delete", l.clone()),
    ] {
        run(&f, Some("me"), name, &args, 80, false);
    }
    assert_snapshot!("hostile_tasks", run(&f, Some("me"), "tasks", &l, 80, false));
    assert_snapshot!(
        "hostile_delete_confirm",
        run(&f, Some("me"), "task-list-delete", &l, 80, false)
    );
}

#[test]
fn a_store_failure_is_shown_as_a_failure() {
    let effect = run_command(
        "task-lists",
        "",
        &ctx(Some("me")),
        80,
        false,
        &BrokenStore,
        &crate::testing::TestClock::default(),
        crate::person::act,
    );
    let CommandEffect::Show(out) = effect else {
        panic!("{effect:?}")
    };
    assert!(out.failed);
    assert_snapshot!("store_failure", styled(&out.lines));
}

#[test]
fn tasks_detail_lines_up_positions_of_two_digits() {
    let mut f = Fixture::new();
    let list = f.list("me", "Long", json!({}));
    let titles: Vec<String> = (1..=12).map(|i| format!("Step {i}")).collect();
    let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
    f.tasks("me", &list, &titles);
    let CommandEffect::Show(out) = run_command(
        "tasks",
        &list,
        &ctx(Some("me")),
        80,
        false,
        &f.h.store,
        &f.h.clock,
        crate::person::act,
    ) else {
        panic!("tasks shows its list");
    };
    let plain: Vec<String> = out
        .lines
        .iter()
        .map(|l| l.iter().map(|s| s.text.as_str()).collect())
        .collect();
    let text = plain.join("\n");
    let lines: Vec<&str> = plain.iter().map(String::as_str).collect();
    let head = |n: usize| {
        let title = format!("Step {n}");
        lines
            .iter()
            .position(|l| l.ends_with(&title))
            .unwrap_or_else(|| panic!("no line for {title} in\n{text}"))
    };
    let (nine, ten) = (head(9), head(10));
    // The badge, and the id line under it, start in the same column for
    // one-digit and two-digit positions.
    let column = |l: &str| l.find('○').expect("a todo badge");
    assert_eq!(column(lines[nine]), column(lines[ten]), "{text}");
    let indent = |l: &str| l.len() - l.trim_start().len();
    assert_eq!(indent(lines[nine + 1]), indent(lines[ten + 1]), "{text}");
    assert!(lines[nine].starts_with("   9. "), "{text}");
}

/// A list whose steps carry priorities and verifications: the detail
/// shows the priority (a mark before the title and its word) and both
/// texts; medium shows nothing.
#[test]
fn tasks_detail_shows_priority_and_verification() {
    let mut f = Fixture::new();
    let plan = f.list("planner", "Plan", json!({}));
    let ids = f.tasks(
        "planner",
        &plan,
        &["Write the parser", "Fix the docs", "Ship it"],
    );
    f.update(
        "planner",
        &ids[0],
        json!({"priority": "high", "verification": "cargo test -p parser passes"}),
    );
    f.update("planner", &ids[1], json!({"priority": "low"}));
    f.update(
        "planner",
        &ids[2],
        json!({"verification": "the release page lists 2.0\nand the tag exists"}),
    );
    f.update(
        "planner",
        &ids[2],
        json!({"status": "done", "outcome": "shipped", "verification_result": "page shows 2.0; tag v2.0 exists"}),
    );
    assert_snapshot!(
        "tasks_detail_priority_verification",
        run(&f, Some("me"), "tasks", &plan, 80, false)
    );
    assert_snapshot!(
        "tasks_detail_priority_verification_40",
        run(&f, Some("me"), "tasks", &plan, 40, false)
    );
}

#[test]
fn task_inbox_lists_what_needs_the_person_it_may_see() {
    let mut f = Fixture::new();
    let shared = f.list("me", "Release", json!({"scope_type": "workspace"}));
    let mine = f.tasks("me", &shared, &["Pick the cache"]);
    f.claim("me", &shared);
    f.update(
        "me",
        &mine[0],
        json!({"question": "Postgres\u{1b}[31m or SQLite? \u{202e}"}),
    );
    let private = f.list(
        "other",
        "Secret",
        json!({"visibility": "private", "scope_type": "workspace"}),
    );
    let theirs = f.tasks("other", &private, &["Hidden work"]);
    f.claim("other", &private);
    f.update("other", &theirs[0], json!({"question": "secret question"}));

    let out = run(&f, Some("me"), "task-inbox", "", 100, false);
    assert!(out.contains("Inbox: [/][warning]1 needs you"), "{out}");
    assert!(out.contains("question"), "{out}");
    assert!(out.contains("Pick the cache"), "{out}");
    assert!(out.contains("Postgres"), "{out}");
    assert!(
        !out.contains("secret question"),
        "another's private list: {out}"
    );
    assert!(!out.contains("Hidden work"), "{out}");
    // The widget names it on a line of its own.
    let widget = crate::views::widget(
        &ctx(Some("me")),
        &crate::bindings::WidgetView {
            mode: crate::bindings::WidgetMode::Compact,
            width: 80,
            list_id: None,
            every_list: false,
        },
        &f.h.store,
        &f.h.clock,
    );
    assert!(
        f.show(&widget).contains("1 needs you"),
        "{}",
        f.show(&widget)
    );
    // Acting needs a person: this context has none.
    let refused = run(
        &f,
        Some("me"),
        "task-inbox",
        &format!("answer {} SQLite", mine[0]),
        100,
        false,
    );
    assert!(refused.starts_with("show (failed: true)"), "{refused}");
    let bad = run(&f, Some("me"), "task-inbox", "accept", 100, false);
    assert!(bad.contains("usage: task-inbox"), "{bad}");
}

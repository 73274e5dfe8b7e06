//! The widget: framing, ordering, the ten-line bound, hidden summaries,
//! narrow terminals, hostile text, one list, failures.

use insta::assert_snapshot;
use serde_json::json;

use super::*;
use crate::bindings::{WidgetMode, WidgetView};
use crate::views::widget;

/// The widget of `agent` at `width`, checked against the hard rules (ten
/// lines, width, no raw control), as snapshot text.
fn draw(f: &Fixture, agent: Option<&str>, mode: WidgetMode, width: u32) -> String {
    draw_view(
        f,
        agent,
        &WidgetView {
            mode,
            width,
            list_id: None,
            every_list: false,
        },
    )
}

fn draw_view(f: &Fixture, agent: Option<&str>, view: &WidgetView) -> String {
    let lines = widget(&ctx(agent), view, &f.h.store, &f.h.clock);
    assert!(
        lines.len() <= 10,
        "{} lines:\n{}",
        lines.len(),
        styled(&lines)
    );
    assert_width(&lines, view.width.max(10) as usize);
    assert_clean(&lines);
    f.show(&lines)
}

/// Four lists of ten tasks: `me` holds one task in the third list and has
/// one reserved in the fourth; two other agents run tasks; one is paused.
fn busy() -> Fixture {
    let mut f = Fixture::new();
    let names = ["Release 1.4", "Docs", "Refactor auth", "Bugs"];
    let mut lists = Vec::new();
    for name in names {
        let l = f.list("planner", name, json!({}));
        let titles: Vec<String> = (1..=10).map(|i| format!("{name} step {i}")).collect();
        let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
        let ids = f.tasks("planner", &l, &titles);
        lists.push((l, ids));
    }
    f.claim("builder-2", &lists[0].0);
    f.claim("builder-3", &lists[1].0);
    f.claim("me", &lists[2].0);
    f.update(
        "planner",
        &lists[3].1[4],
        json!({"assigned_to_agent_id": "me"}),
    );
    f.update(
        "planner",
        &lists[0].1[5],
        json!({"status": "blocked", "assigned_to_agent_id": "builder-2"}),
    );
    let done = &lists[1].1[9];
    f.update(
        "planner",
        done,
        json!({"status": "done", "outcome": "written"}),
    );
    f
}

#[test]
fn no_visible_list_hides_the_widget() {
    let f = Fixture::new();
    assert!(
        widget(
            &ctx(Some("me")),
            &WidgetView {
                mode: WidgetMode::Full,
                width: 80,
                list_id: None,
                every_list: false,
            },
            &f.h.store,
            &f.h.clock
        )
        .is_empty()
    );
    // Lists the viewer does not see: another workspace, another thread,
    // another agent's private list, a deleted list.
    let mut f = Fixture::new();
    f.list("other", "Elsewhere", json!({"scope_key": "/other"}));
    f.list(
        "other",
        "Other thread",
        json!({"scope_type": "thread", "scope_key": "thread-2"}),
    );
    f.list(
        "other",
        "Secret",
        json!({"scope_type": "global", "visibility": "private"}),
    );
    let gone = f.list("other", "Gone", json!({}));
    f.h.ok("other", "task_lists", "delete", json!({"list_id": gone}));
    assert_eq!(draw(&f, Some("me"), WidgetMode::Full, 80), "");
    assert_eq!(draw(&f, None, WidgetMode::Full, 80), "");
}

#[test]
fn one_empty_list() {
    let mut f = Fixture::new();
    f.list("planner", "Sprint 12", json!({}));
    assert_snapshot!(
        "widget_one_empty_list",
        draw(&f, Some("me"), WidgetMode::Compact, 80)
    );
    assert_snapshot!(
        "widget_one_empty_list_anonymous",
        draw(&f, None, WidgetMode::Full, 80)
    );
}

#[test]
fn lists_the_agent_made_or_works_in_are_visible() {
    let mut f = Fixture::new();
    f.list(
        "me",
        "My own custom",
        json!({"scope_type": "custom", "scope_key": "x"}),
    );
    let far = f.list(
        "planner",
        "Far away",
        json!({"scope_type": "custom", "scope_key": "y"}),
    );
    f.tasks("planner", &far, &["Reserved for me", "Not mine"]);
    let t = f.tasks("planner", &far, &["Assigned"])[0].clone();
    f.update("planner", &t, json!({"assigned_to_agent_id": "me"}));
    f.list(
        "me",
        "Mine, private",
        json!({"scope_type": "agent", "visibility": "private"}),
    );
    f.list(
        "planner",
        "Not here",
        json!({"scope_type": "custom", "scope_key": "z"}),
    );
    assert_snapshot!(
        "widget_made_or_assigned",
        draw(&f, Some("me"), WidgetMode::Full, 80)
    );
}

#[test]
fn four_lists_of_forty_tasks_compact_and_full() {
    let f = busy();
    assert_snapshot!(
        "widget_busy_compact",
        draw(&f, Some("me"), WidgetMode::Compact, 100)
    );
    assert_snapshot!(
        "widget_busy_full",
        draw(&f, Some("me"), WidgetMode::Full, 100)
    );
    // Another agent sees the same lists without own tasks.
    assert_snapshot!(
        "widget_busy_full_planner",
        draw(&f, Some("planner"), WidgetMode::Full, 100)
    );
}

#[test]
fn own_tasks_come_first_with_their_lease() {
    let mut f = Fixture::new();
    let a = f.list("planner", "Alpha", json!({}));
    let b = f.list("planner", "Beta", json!({}));
    f.tasks("planner", &a, &["Alpha one", "Alpha two"]);
    f.tasks("planner", &b, &["Beta one", "Beta two", "Beta three"]);
    f.claim("other", &b);
    f.claim("me", &b);
    assert_snapshot!(
        "widget_own_first",
        draw(&f, Some("me"), WidgetMode::Full, 80)
    );
    // Past the lease, the claim shows as expired (still the agent's own
    // until someone takes it over).
    f.h.advance_secs(3600);
    assert_snapshot!(
        "widget_own_expired",
        draw(&f, Some("me"), WidgetMode::Compact, 80)
    );
}

#[test]
fn paused_tasks_read_paused() {
    let mut f = Fixture::new();
    let l = f.list("planner", "Review", json!({}));
    let ids = f.tasks(
        "planner",
        &l,
        &["Waiting on design", "Waiting on legal", "Ready"],
    );
    let mine = f.claim("me", &l);
    assert_eq!(mine, ids[0]);
    f.update("me", &mine, json!({"status": "blocked"}));
    f.update(
        "planner",
        &ids[1],
        json!({"status": "blocked", "assigned_to_agent_id": "legal-bot"}),
    );
    assert_snapshot!("widget_paused", draw(&f, Some("me"), WidgetMode::Full, 80));
}

#[test]
fn long_titles_and_names_are_cut_to_the_width() {
    let mut f = Fixture::new();
    let long_name = format!("A list with a very long name {}", "x".repeat(170));
    let l = f.list("planner", &long_name, json!({}));
    let title = format!(
        "{} end",
        "Refactor the whole authentication layer ".repeat(8)
    );
    let title: String = title.chars().take(300).collect();
    f.tasks(
        "planner",
        &l,
        &[
            title.as_str(),
            "日本語のタイトルがとても長い場合の表示を確認するためのタスク",
        ],
    );
    f.claim("me", &l);
    assert_snapshot!(
        "widget_long_titles_120",
        draw(&f, Some("me"), WidgetMode::Full, 120)
    );
    assert_snapshot!(
        "widget_long_titles_40",
        draw(&f, Some("me"), WidgetMode::Full, 40)
    );
}

#[test]
fn forty_columns() {
    let f = busy();
    assert_snapshot!(
        "widget_40_compact",
        draw(&f, Some("me"), WidgetMode::Compact, 40)
    );
    assert_snapshot!("widget_40_full", draw(&f, Some("me"), WidgetMode::Full, 40));
    // Absurdly narrow: still a frame, still within the width.
    for width in [10, 15, 20, 25] {
        let view = WidgetView {
            mode: WidgetMode::Full,
            width,
            list_id: None,
            every_list: false,
        };
        let tiny = widget(&ctx(Some("me")), &view, &f.h.store, &f.h.clock);
        assert!(tiny.len() <= 10);
        assert_width(&tiny, width as usize);
        assert_clean(&tiny);
    }
    assert_snapshot!("widget_20_full", draw(&f, Some("me"), WidgetMode::Full, 20));
}

#[test]
fn escape_sequences_never_reach_the_screen() {
    let mut f = Fixture::new();
    let l = f.list("planner", &format!("Name {NASTY}"), json!({}));
    f.tasks("planner", &l, &[&format!("Title {NASTY}"), "plain"]);
    f.claim("me", &l);
    let other = f.list("planner", "Other", json!({}));
    f.tasks("planner", &other, &["x"]);
    f.claim("builder-2", &other);
    for mode in [WidgetMode::Compact, WidgetMode::Full] {
        let out = draw(&f, Some("me"), mode, 120);
        assert!(!out.contains('\u{1b}') && !out.contains('\u{9b}') && !out.contains('\u{202e}'));
    }
    assert_snapshot!(
        "widget_escapes",
        draw(&f, Some("me"), WidgetMode::Full, 120)
    );
}

#[test]
fn many_lists_are_summarised() {
    let mut f = Fixture::new();
    for i in 1..=60 {
        f.list("planner", &format!("List {i:02}"), json!({}));
    }
    assert_snapshot!(
        "widget_sixty_lists",
        draw(&f, Some("me"), WidgetMode::Compact, 80)
    );
}

#[test]
fn one_list_by_id() {
    let f = busy();
    let id = f.ids[0].0.clone();
    let view = WidgetView {
        mode: WidgetMode::Full,
        width: 80,
        list_id: Some(id),
        every_list: false,
    };
    assert_snapshot!("widget_watch_one_list", draw_view(&f, Some("me"), &view));
    let unknown = WidgetView {
        list_id: Some("list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B".into()),
        every_list: false,
        ..view
    };
    assert_snapshot!("widget_watch_unknown", draw_view(&f, Some("me"), &unknown));
    let garbage = WidgetView {
        list_id: Some("nope".into()),
        every_list: false,
        ..unknown
    };
    assert_snapshot!("widget_watch_garbage", draw_view(&f, Some("me"), &garbage));
}

#[test]
fn another_agents_private_list_is_refused_by_id() {
    let mut f = Fixture::new();
    let secret = f.list("owner", "Secret", json!({"visibility": "private"}));
    let view = WidgetView {
        mode: WidgetMode::Full,
        width: 80,
        list_id: Some(secret),
        every_list: false,
    };
    assert_snapshot!("widget_watch_private", draw_view(&f, Some("me"), &view));
    assert_snapshot!(
        "widget_watch_private_owner",
        draw_view(&f, Some("owner"), &view)
    );
}

#[test]
fn a_store_failure_is_one_error_line() {
    let view = WidgetView {
        mode: WidgetMode::Full,
        width: 60,
        list_id: None,
        every_list: false,
    };
    let lines = widget(
        &ctx(Some("me")),
        &view,
        &BrokenStore,
        &crate::testing::TestClock::default(),
    );
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0][0].style, Style::Error);
    assert_width(&lines, 60);
    assert_snapshot!("widget_store_failure", styled(&lines));
}

#[test]
fn every_scope_of_the_context_is_visible() {
    let mut f = Fixture::new();
    f.list("planner", "This workspace", json!({}));
    f.list(
        "planner",
        "This thread",
        json!({"scope_type": "thread", "scope_key": "thread-1"}),
    );
    f.list("planner", "Everywhere", json!({"scope_type": "global"}));
    f.list(
        "planner",
        "For me",
        json!({"scope_type": "agent", "scope_key": "me"}),
    );
    f.list(
        "planner",
        "For someone else",
        json!({"scope_type": "agent", "scope_key": "you"}),
    );
    f.list(
        "planner",
        "Planner's private",
        json!({"scope_type": "global", "visibility": "private"}),
    );
    f.list(
        "planner",
        "Made for me, private",
        json!({"visibility": "private", "owner_agent_id": "me"}),
    );
    assert_snapshot!(
        "widget_scopes",
        draw(&f, Some("me"), WidgetMode::Compact, 60)
    );
}

/// A high or low priority shows as a mark before the title; medium as
/// nothing.
#[test]
fn priorities_show_as_a_mark_before_the_title() {
    let mut f = Fixture::new();
    let l = f.list("planner", "Plan", json!({}));
    let ids = f.tasks("planner", &l, &["Urgent fix", "Routine step", "Someday"]);
    f.update("planner", &ids[0], json!({"priority": "high"}));
    f.update("planner", &ids[2], json!({"priority": "low"}));
    assert_snapshot!(
        "widget_priorities",
        draw(&f, Some("me"), WidgetMode::Full, 60)
    );
}

/// A plan that waits for a person says so in its header, in the header's
/// own budget of columns (the counters line up with the other lists').
#[test]
fn a_plan_awaiting_approval_says_so_in_its_header() {
    let mut f = Fixture::new();
    let l = f.list("planner", "Plan", json!({"requires_approval": true}));
    f.tasks("planner", &l, &["step one"]);
    let plain = f.list("planner", "Plain", json!({}));
    f.tasks("planner", &plain, &["other"]);
    let out = draw(&f, Some("me"), WidgetMode::Compact, 80);
    let header = out
        .lines()
        .find(|l| l.contains("]Plan[/]"))
        .unwrap_or_else(|| panic!("no header of Plan:\n{out}"));
    assert!(header.contains("awaiting approval"), "{out}");
    let other = out.lines().find(|l| l.contains("Plain")).unwrap();
    assert!(!other.contains("approval"), "{out}");
    // Narrow: still within the width (draw checks it), the mark kept or cut.
    draw(&f, Some("me"), WidgetMode::Compact, 30);
}

//! The board's search and filters through `web::handle` on a real SQLite
//! store: each filter of the address keeps only its tasks (and they AND
//! together), the page says what it shows of how many and keeps the
//! filters in its links, a bad value is the component's refusal, and the
//! overview finds across the lists the agent may see, never another
//! agent's private one.

use serde_json::json;

use super::tests::{World, assert_no_inline, ok_html};

/// Whether `body` shows task `id`'s card.
fn shows(body: &str, id: &str) -> bool {
    body.contains(&format!("data-task=\"{id}\""))
}

/// The three tasks `api`, `schema`, `docs` set apart by every filter:
/// texts in each field, priorities, labels, an assignee, one held.
fn world() -> World {
    let w = World::new(&["Build the API", "Schema migration", "Docs"]);
    let t = &w.tasks;
    for (task, update) in [
        (
            &t[0],
            json!({"description": "the REST endpoints", "priority": "high", "labels": ["backend"],
                   "assigned_to_agent_id": "carol"}),
        ),
        (
            &t[1],
            json!({"notes": "Postgres first\nthen SQLite", "labels": ["backend", "db"]}),
        ),
        (
            &t[2],
            json!({"priority": "low", "assigned_to_agent_id": "carol"}),
        ),
    ] {
        let mut params = update;
        params["task_id"] = json!(task);
        w.h.ok("agent-1", "task_items", "update", params);
    }
    w
}

#[test]
fn the_search_matches_every_word_in_any_text_whatever_its_case() {
    let w = world();
    let list = format!("/lists/{}", w.list);
    for (q, want) in [
        ("rest", [true, false, false]),
        ("POSTGRES sqlite", [false, true, false]),
        ("schema postgres", [false, true, false]),
        ("api rest", [true, false, false]),
        ("api postgres", [false, false, false]),
        ("%", [false, false, false]),
    ] {
        let r = w.get(
            &list,
            &format!("q={}", super::route::encode(q)),
            Some("ann"),
        );
        let body = ok_html(&r);
        assert_no_inline(body);
        for (id, shown) in w.tasks.iter().zip(want) {
            assert_eq!(shows(body, id), shown, "{q}: {id}");
        }
    }
    let r = w.get(&list, "q=postgres", Some("ann"));
    let body = ok_html(&r);
    assert!(
        body.contains("showing only the tasks matching &quot;postgres&quot; (1 of 3 tasks)"),
        "{body}"
    );
    assert!(
        body.contains(&format!(
            "class=\"clear\" href=\"/lists/{}?view=columns\">show every task",
            w.list
        )),
        "{body}"
    );
    // The search box holds what was searched.
    assert!(body.contains("name=\"q\" value=\"postgres\""), "{body}");
    // Nothing found says so.
    let r = w.get(&list, "q=nowhere", Some("ann"));
    assert!(ok_html(&r).contains("no task matches what is searched"));
}

#[test]
fn filters_and_together_and_every_link_keeps_them() {
    let w = world();
    let list = format!("/lists/{}", w.list);
    let t = &w.tasks;
    for (query, want) in [
        ("assignee=carol", [true, false, true]),
        ("assignee=%40carol", [true, false, true]),
        ("assignee=carol&priority=high", [true, false, false]),
        ("priority=medium", [false, true, false]),
        ("label=backend&q=api", [true, false, false]),
        ("status=todo", [true, true, true]),
        ("status=closed", [false, false, false]),
        ("status=in_progress", [false, false, false]),
        (
            "q=&assignee=&priority=&status=&label=&running=&needs=",
            [true, true, true],
        ),
    ] {
        let body = ok_html(&w.get(&list, query, Some("ann"))).to_string();
        for (id, shown) in t.iter().zip(want) {
            assert_eq!(shows(&body, id), shown, "{query}: {id}");
        }
    }
    let r = w.get(
        &list,
        "view=order&assignee=carol&priority=high",
        Some("ann"),
    );
    let body = ok_html(&r);
    assert!(body.contains("(1 of 3 tasks)"), "{body}");
    // The views' links, the finished toggle and a card's labels keep them.
    assert!(
        body.contains("?view=columns&amp;assignee=carol&amp;priority=high\""),
        "{body}"
    );
    assert!(
        body.contains("?view=order&amp;finished=hide&amp;assignee=carol&amp;priority=high\""),
        "{body}"
    );
    assert!(
        body.contains("?view=order&amp;assignee=carol&amp;priority=high&amp;label=backend\""),
        "{body}"
    );
    // The form keeps the view and shows what is picked.
    assert!(body.contains("name=\"view\" value=\"order\""), "{body}");
    assert!(
        body.contains("<option value=\"high\" selected=\"selected\">high priority</option>"),
        "{body}"
    );
    assert!(
        body.contains("<option value=\"carol\" selected=\"selected\">@carol</option>"),
        "{body}"
    );
    // A live refresh (`part=main`) keeps them too.
    let r = w.get(&list, "part=main&assignee=carol&priority=high", Some("ann"));
    assert!(
        shows(&r.body, &t[0]) && !shows(&r.body, &t[2]),
        "{}",
        r.body
    );
}

#[test]
fn running_now_and_needs_a_person() {
    let w = world();
    let list = format!("/lists/{}", w.list);
    // agent-2 claims the one task not reserved for carol.
    let claimed = w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    let held = claimed["task"]["id"].as_str().unwrap().to_string();
    assert_eq!(held, w.tasks[1]);
    let body = ok_html(&w.get(&list, "running=1", Some("ann"))).to_string();
    assert!(shows(&body, &held) && !shows(&body, &w.tasks[0]), "{body}");
    assert!(body.contains("(1 of 3 tasks)"), "{body}");
    // Held by: the holder is an assignee too.
    let body = ok_html(&w.get(&list, "assignee=agent-2", Some("ann"))).to_string();
    assert!(shows(&body, &held) && !shows(&body, &w.tasks[0]), "{body}");
    assert!(!shows(
        ok_html(&w.get(&list, "needs=1", Some("ann"))),
        &held
    ));
    // Its lease runs out: no longer running now.
    w.h.advance_secs(3 * 3600);
    assert!(!shows(
        ok_html(&w.get(&list, "running=1", Some("ann"))),
        &held
    ));
    let w = world();
    let list = format!("/lists/{}", w.list);
    let claimed = w.h.ok(
        "agent-2",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    let asked = claimed["task"]["id"].as_str().unwrap().to_string();
    w.h.ok(
        "agent-2",
        "task_items",
        "update",
        json!({"task_id": asked, "question": "which database?"}),
    );
    let body = ok_html(&w.get(&list, "needs=1", Some("ann"))).to_string();
    assert!(shows(&body, &asked) && !shows(&body, &w.tasks[0]), "{body}");
    assert!(body.contains("needing a person"), "{body}");
}

#[test]
fn a_bad_filter_is_the_components_refusal_with_what_it_may_be() {
    let w = world();
    let list = format!("/lists/{}", w.list);
    for (query, says) in [
        ("priority=urgent", "priority=high, medium or low"),
        ("status=later", "status=todo, running, paused, closed"),
        ("running=yes", "running=1 shows only the tasks running now"),
        ("needs=2", "needs=1 shows only the tasks that need a person"),
        ("label=two%20words", "ASCII letters"),
        ("assignee=%E2%80%AEevil", "agent ids:"),
        (
            "q=a%20b%20c%20d%20e%20f%20g%20h%20i%20j%20k",
            "at most 10 words",
        ),
    ] {
        for path in [list.as_str(), "/"] {
            let r = w.get(path, query, Some("ann"));
            assert_eq!(r.status, 400, "{path}?{query}: {}", r.body);
            assert!(r.body.contains(says), "{path}?{query}: {}", r.body);
            assert_no_inline(&r.body);
        }
        // The live refresh gets the refusal as a fragment.
        let r = w.get(&list, &format!("part=main&{query}"), Some("ann"));
        assert_eq!(r.status, 400, "{}", r.body);
        assert!(!r.body.starts_with("<!doctype"), "{}", r.body);
    }
    let long = "x".repeat(201);
    let r = w.get(&list, &format!("q={long}"), Some("ann"));
    assert_eq!(r.status, 400, "{}", r.body);
}

/// Adds a task titled `title` to `list` as `agent`; its id.
fn add_as(w: &World, agent: &str, list: &str, title: &str) -> String {
    let d = w.h.ok(
        agent,
        "task_items",
        "create",
        json!({"list_id": list, "title": title}),
    );
    d["task"]["id"].as_str().unwrap().to_string()
}

#[test]
fn the_overview_finds_across_lists_never_in_another_agents_private_list() {
    let w = world();
    let other = w.h.create_list(
        "agent-1",
        json!({"name": "Other", "scope_type": "workspace"}),
    );
    let theirs = w.h.create_list(
        "agent-2",
        json!({"name": "Theirs", "visibility": "private"}),
    );
    let mine =
        w.h.create_list("agent-1", json!({"name": "Mine", "visibility": "private"}));
    let in_other = w.h.add(&other, &["Postgres backup"])[0].clone();
    let secret = add_as(&w, "agent-2", &theirs, "Postgres secret");
    let own = add_as(&w, "agent-1", &mine, "Postgres private of mine");
    let r = w.get("/", "q=postgres", Some("ann"));
    let body = ok_html(&r);
    assert_no_inline(body);
    for (id, shown) in [
        (&w.tasks[1], true),
        (&in_other, true),
        (&own, true),
        (&secret, false),
        (&w.tasks[0], false),
    ] {
        assert_eq!(shows(body, id), shown, "{id}: {body}");
    }
    assert!(!body.contains("Theirs"), "{body}");
    assert!(!body.contains(&theirs), "{body}");
    // Grouped by list, each linking to its board searched the same way.
    assert!(
        body.contains(&format!("href=\"/lists/{other}?q=postgres\">Other</a>")),
        "{body}"
    );
    assert!(body.contains("(3 tasks)"), "{body}");
    // Every filter works across lists; without one, the lists as before.
    let body = ok_html(&w.get("/", "assignee=carol&priority=low", Some("ann"))).to_string();
    assert!(
        shows(&body, &w.tasks[2]) && !shows(&body, &w.tasks[0]),
        "{body}"
    );
    let body = ok_html(&w.get("/", "", Some("ann"))).to_string();
    assert!(!body.contains("class=\"found\""), "{body}");
    assert!(body.contains("form class=\"find\""), "{body}");
}

#[test]
fn the_search_key_is_in_the_key_map_and_the_keys_panel_not_the_terminals() {
    let map = crate::person::key_map();
    let find = map.iter().find(|k| k.action == "find").expect("find key");
    assert_eq!(find.key, "/");
    assert!(!find.writes);
    let w = world();
    let body = ok_html(&w.get(&format!("/lists/{}", w.list), "", Some("ann"))).to_string();
    assert!(body.contains("<tr data-keys=\"/\">"), "{body}");
    assert!(
        body.contains("aria-keyshortcuts=\"/ Control+K Meta+K\""),
        "{body}"
    );
    let key = crate::person::keys::find("/").unwrap();
    assert!(!key.on_terminal());
}

#[test]
fn a_task_the_filter_leaves_out_is_still_named_by_its_title_where_a_shown_one_waits_for_it() {
    let w = world();
    let t = &w.tasks;
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": t[0], "depends_on": [t[1]]}),
    );
    let r = w.get(&format!("/lists/{}", w.list), "q=rest", Some("ann"));
    let body = ok_html(&r);
    assert!(shows(body, &t[0]) && !shows(body, &t[1]), "{body}");
    assert!(
        body.contains("Schema migration"),
        "the dependency by its title: {body}"
    );
}

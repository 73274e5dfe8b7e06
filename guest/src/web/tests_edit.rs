//! Every field of a task from the board: the task page's edit form (its
//! fields, what it suggests, texts shown and kept as written), the edit
//! and the full create carried out through the person's verbs (an empty
//! field of the form clears, a cycle or a bad label is refused changing
//! nothing), and the "New task" fold's suggestions.

use serde_json::json;

use super::tests::{HOSTILE, World, assert_no_inline, ok_html};

/// A form body: each pair encoded.
fn body(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", enc(k), enc(v)))
        .collect::<Vec<_>>()
        .join("&")
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The edit form's own fields, as the page writes them.
fn edit_of(task: &str) -> Vec<(&'static str, String)> {
    vec![
        ("action", "edit".into()),
        ("target", task.into()),
        ("return", format!("/tasks/{task}")),
        (
            "blank",
            "description verification notes labels depends_on assignee".into(),
        ),
    ]
}

fn post(w: &World, pairs: &[(&str, String)]) -> (u16, String) {
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = w.post("", &body(&pairs), Some("ann"));
    (r.status, r.body)
}

/// The task's whole row as `task_items get` would not: its list's view,
/// with its dependencies.
fn row(w: &World, id: &str) -> serde_json::Value {
    w.task(id)
}

#[test]
fn the_task_page_has_a_form_with_every_field_and_suggests_the_lists_tasks_and_agents() {
    let w = World::new(&["One", "Two", HOSTILE]);
    let text = "first line\n  - a\n\n  - <b>b</b>\n";
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "description": text, "verification": "run it\nsee it",
               "labels": ["db", "ui"], "depends_on": [w.tasks[1]],
               "assigned_to_agent_id": "agent-7"}),
    );
    let page = w.get(&format!("/tasks/{}", w.tasks[0]), "", Some("ann"));
    let html = ok_html(&page);
    assert_no_inline(html);
    assert!(
        html.contains(r#"<form class="act edit-task" method="post" action="/act" data-action="edit" data-key="e""#),
        "{html}"
    );
    // The texts as written, escaped: every line break kept.
    assert!(
        html.contains(
            "<textarea name=\"description\" rows=\"4\">\nfirst line\n  - a\n\n  - &lt;b&gt;b&lt;/b&gt;\n</textarea>"
        ),
        "{html}"
    );
    assert!(
        html.contains("<textarea name=\"verification\" rows=\"4\">\nrun it\nsee it</textarea>"),
        "{html}"
    );
    assert!(html.contains(r#"<option value="medium" selected="selected">"#));
    assert!(html.contains(r#"name="labels" value="db ui""#), "{html}");
    assert!(
        html.contains(&format!(
            r#"<input type="checkbox" name="depends_on" value="{}" checked="checked">"#,
            w.tasks[1]
        )),
        "{html}"
    );
    assert!(
        html.contains(r#"name="assignee" value="agent-7""#),
        "{html}"
    );
    // The picker suggests the other tasks by id, labelled by title; the
    // hostile title escaped; not the task itself.
    let tasks = format!("<datalist id=\"tasks-of-{}\">", w.list);
    assert!(html.contains(&tasks), "{html}");
    assert!(html.contains(&format!(
        r##"<option value="{}" label="#2 Two">"##,
        w.tasks[1]
    )));
    assert!(html.contains("&lt;script&gt;alert(1)"));
    assert!(!html.contains("<script>alert"));
    assert!(!html.contains(&format!(r#"<option value="{}""#, w.tasks[0])));
    // Agents: the one assigned, the one that wrote in the list; never the
    // person.
    assert!(html.contains(r#"<option value="agent-7">"#), "{html}");
    assert!(html.contains(r#"<option value="agent-1">"#), "{html}");
    // The card's rename form gives way to the whole form on the page.
    assert!(!html.contains(">rename<"), "{html}");
    // Read-only: no form.
    let page = w.get(&format!("/tasks/{}", w.tasks[0]), "", None);
    assert!(!ok_html(&page).contains("edit-task\" method"));
}

#[test]
fn the_edit_form_changes_every_field_in_one_audited_update() {
    let w = World::new(&["One", "Two", "Three"]);
    let mut form = edit_of(&w.tasks[2]);
    form.extend([
        ("title", "Three, better".to_string()),
        ("description", "line 1\r\nline 2\r\n\r\nline 4".to_string()),
        ("verification", "- a\r\n- b".to_string()),
        ("notes", "kept".to_string()),
        ("priority", "high".to_string()),
        ("labels", "db, ui api".to_string()),
        ("depends_on", w.tasks[0].clone()),
        // A tail of an id, as the views show them, resolves.
        ("depends_on", w.tasks[1][w.tasks[1].len() - 6..].to_string()),
        ("assignee", "agent-7".to_string()),
    ]);
    let (status, said) = post(&w, &form);
    assert_eq!(status, 303, "{said}");
    let t = row(&w, &w.tasks[2]);
    assert_eq!(t["title"], "Three, better");
    assert_eq!(t["description"], "line 1\nline 2\n\nline 4");
    assert_eq!(t["verification"], "- a\n- b");
    assert_eq!(t["notes"], "kept");
    assert_eq!(t["priority"], "high");
    assert_eq!(t["labels"], json!(["db", "ui", "api"]));
    assert_eq!(t["depends_on"], json!([w.tasks[0], w.tasks[1]]));
    assert_eq!(t["assigned_to_agent_id"], "agent-7");
    // One event, by the person, naming what changed.
    let events = w.h.ok(
        "agent-1",
        "task_audit",
        "get",
        json!({"task_id": w.tasks[2]}),
    );
    let updated: Vec<&serde_json::Value> = events["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "updated")
        .collect();
    assert_eq!(updated.len(), 1, "{events}");
    assert_eq!(updated[0]["agent_id"], "ann", "{events}");
    // The same form sent again changes nothing: no event more.
    let (status, _) = post(&w, &form);
    assert_eq!(status, 303);
    let again = w.h.ok(
        "agent-1",
        "task_audit",
        "get",
        json!({"task_id": w.tasks[2]}),
    );
    assert_eq!(events["events"], again["events"]);
}

#[test]
fn an_empty_field_of_the_edit_form_clears_it() {
    let w = World::new(&["One", "Two"]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[1], "description": "d", "verification": "v",
               "labels": ["db"], "depends_on": [w.tasks[0]],
               "assigned_to_agent_id": "agent-7"}),
    );
    // As the board's script sends it: empty fields left out.
    let mut form = edit_of(&w.tasks[1]);
    form.extend([
        ("title", "Two".to_string()),
        ("priority", "low".to_string()),
    ]);
    let (status, said) = post(&w, &form);
    assert_eq!(status, 303, "{said}");
    let t = row(&w, &w.tasks[1]);
    assert!(t["description"].as_str().is_none_or(str::is_empty), "{t}");
    assert!(t.get("verification").is_none(), "{t}");
    assert!(t.get("labels").is_none_or(|l| l == &json!([])), "{t}");
    assert!(t.get("depends_on").is_none_or(|d| d == &json!([])), "{t}");
    assert!(t.get("assigned_to_agent_id").is_none(), "{t}");
    assert_eq!(t["priority"], "low");
}

#[test]
fn a_cycle_or_a_bad_field_is_refused_with_the_components_words_and_changes_nothing() {
    let w = World::new(&["One", "Two"]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[1], "depends_on": [w.tasks[0]]}),
    );
    let before = row(&w, &w.tasks[0]);
    let mut form = edit_of(&w.tasks[0]);
    form.extend([
        ("title", "One renamed".to_string()),
        ("depends_on", w.tasks[1].clone()),
    ]);
    let (status, said) = post(&w, &form);
    assert_eq!(status, 409, "{said}");
    assert!(said.contains("would create a cycle"), "{said}");
    assert_eq!(row(&w, &w.tasks[0]), before);
    // As the script reads it: the code and the component's lines.
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = w.post("part=json", &body(&pairs), Some("ann"));
    let reply: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(reply["code"], "cycle", "{reply}");
    for (field, value, words) in [
        ("labels", "ok <b>bad</b>", "label"),
        ("priority", "urgent", "not one of high, medium, low"),
        ("depends_on", "task_nope", "task_nope"),
    ] {
        let mut form = edit_of(&w.tasks[0]);
        form.push((field, value.to_string()));
        let (status, said) = post(&w, &form);
        assert!(status == 400 || status == 404, "{field}: {status} {said}");
        assert!(said.contains(words), "{field}: {said}");
        assert!(!said.contains("<b>bad"), "{said}");
        assert_eq!(row(&w, &w.tasks[0]), before, "{field}");
    }
}

#[test]
fn the_new_task_fold_creates_a_task_with_every_field() {
    let w = World::new(&["One", "Two"]);
    let board = w.get(&format!("/lists/{}", w.list), "", Some("ann"));
    let html = ok_html(&board);
    assert_no_inline(html);
    assert!(
        html.contains(
            r#"<form class="act new-task" method="post" action="/act" data-action="add""#
        ),
        "{html}"
    );
    for field in [
        r#"name="title""#,
        r#"<textarea name="description""#,
        r#"<textarea name="verification""#,
        r#"<select name="priority">"#,
        r#"name="labels""#,
        r#"name="depends_on""#,
        r#"name="assignee""#,
    ] {
        assert!(html.contains(field), "{field}: {html}");
    }
    let ret = format!("/lists/{}", w.list);
    let (status, said) = post(
        &w,
        &[
            ("action", "add".into()),
            ("target", w.list.clone()),
            ("return", ret),
            ("title", "Three".into()),
            ("description", "what\r\nand why".into()),
            ("verification", "cargo test".into()),
            ("priority", "low".into()),
            ("labels", "db".into()),
            ("depends_on", w.tasks[0].clone()),
            ("depends_on", w.tasks[1].clone()),
            ("assignee", "agent-7".into()),
        ],
    );
    assert_eq!(status, 303, "{said}");
    let list =
        w.h.ok("agent-1", "task_lists", "get", json!({"list_id": w.list}));
    let t = list["tasks"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(t["title"], "Three");
    assert_eq!(t["description"], "what\nand why");
    assert_eq!(t["verification"], "cargo test");
    assert_eq!(t["priority"], "low");
    assert_eq!(t["labels"], json!(["db"]));
    assert_eq!(t["depends_on"], json!([w.tasks[0], w.tasks[1]]));
    assert_eq!(t["assigned_to_agent_id"], "agent-7");
}

#[test]
fn the_boards_suggestions_come_as_a_fragment_for_a_person_only() {
    let w = World::new(&["One", "Two"]);
    let path = format!("/lists/{}", w.list);
    let r = w.get(&path, "part=suggest", Some("ann"));
    let html = ok_html(&r);
    assert!(html.starts_with(&format!("<datalist id=\"tasks-of-{}\">", w.list)));
    assert!(html.contains(&format!(r##"value="{}" label="#1 One""##, w.tasks[0])));
    assert!(html.contains(r#"<option value="agent-1">"#));
    let r = w.get(&path, "part=suggest", None);
    assert_eq!(ok_html(&r), "");
}

/// The `was` digests of the task page's edit form for `task`.
fn shown_was(w: &World, task: &str) -> String {
    let answer = w.get(&format!("/tasks/{task}"), "", Some("ann"));
    let page = ok_html(&answer);
    let at = page
        .find(r#"name="was" value=""#)
        .expect("the form names what it showed");
    let rest = &page[at + r#"name="was" value=""#.len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

#[test]
fn the_edit_form_writes_only_what_the_person_changed_never_back_over_an_agents_change() {
    let w = World::new(&["One", "Two"]);
    let t = &w.tasks[1];
    let was = shown_was(&w, t);
    // The page as it was read: title "Two", no description, no notes.
    let mut form = edit_of(t);
    form.extend([
        ("was", was.clone()),
        ("title", "Two".to_string()),
        ("description", "the person's words".to_string()),
        ("priority", "medium".to_string()),
    ]);
    // Meanwhile an agent renames the task and writes notes.
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": t, "title": "Two, renamed by the agent", "notes": "agent's notes"}),
    );
    let (status, said) = post(&w, &form);
    assert_eq!(status, 303, "{said}");
    let row = row(&w, t);
    assert_eq!(row["title"], "Two, renamed by the agent", "{row}");
    assert_eq!(row["notes"], "agent's notes", "{row}");
    assert_eq!(row["description"], "the person's words", "{row}");

    // The form sent as it was shown: nothing to save, no event.
    let before =
        w.h.ok("agent-1", "task_audit", "get", json!({"task_id": t}));
    let was = shown_was(&w, t);
    let mut same = edit_of(t);
    same.extend([
        ("was", was),
        ("title", "Two, renamed by the agent".to_string()),
        ("description", "the person's words".to_string()),
        ("notes", "agent's notes".to_string()),
        ("priority", "medium".to_string()),
    ]);
    let pairs: Vec<(&str, &str)> = same.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = w.post("part=json", &body(&pairs), Some("ann"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("nothing to save"), "{}", r.body);
    let after =
        w.h.ok("agent-1", "task_audit", "get", json!({"task_id": t}));
    assert_eq!(before["events"], after["events"]);
}

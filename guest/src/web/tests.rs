//! The web board through `web::handle` on a real SQLite store: each page's
//! `data-*` contract, escaping of hostile texts, the order of the
//! overview, a person's forms carried out (and refused, changing
//! nothing), the read-only board, fragments, assets and bad input.

use serde_json::json;

use super::{handle, refusal};
use crate::bindings::{CallContext, WebMethod, WebRefusal, WebRequest, WebResponse};
use crate::testing::Harness;

/// The hostile title: markup, quotes, an ampersand, an escape sequence, a
/// bidi override and a zero-width space.
pub(super) const HOSTILE: &str =
    "<script>alert(1)</script> \"q\" 'a' & \u{1b}[31mred \u{202e}evil\u{200b}x";

pub(super) fn ctx(person: Option<&str>) -> CallContext {
    CallContext {
        agent_id: Some("agent-1".into()),
        workspace: Some("/repo".into()),
        person: person.map(String::from),
        ..Default::default()
    }
}

pub(super) struct World {
    pub(super) h: Harness,
    pub(super) list: String,
    pub(super) tasks: Vec<String>,
}

impl World {
    pub(super) fn new(titles: &[&str]) -> World {
        let h = Harness::default();
        let list = h.create_list(
            "agent-1",
            json!({"name": "Release", "scope_type": "workspace"}),
        );
        let tasks = if titles.is_empty() {
            Vec::new()
        } else {
            h.add(&list, titles)
        };
        World { h, list, tasks }
    }

    pub(super) fn get(&self, path: &str, query: &str, person: Option<&str>) -> WebResponse {
        let request = WebRequest {
            method: WebMethod::Get,
            path: path.into(),
            query: query.into(),
            body: String::new(),
            changes: 0,
        };
        handle(&request, &ctx(person), &self.h.store, &self.h.clock)
    }

    pub(super) fn post(&self, query: &str, body: &str, person: Option<&str>) -> WebResponse {
        let request = WebRequest {
            method: WebMethod::Post,
            path: "/act".into(),
            query: query.into(),
            body: body.into(),
            changes: 0,
        };
        handle(&request, &ctx(person), &self.h.store, &self.h.clock)
    }

    pub(super) fn task(&self, id: &str) -> serde_json::Value {
        self.list_data()["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .cloned()
            .unwrap()
    }

    fn list_data(&self) -> serde_json::Value {
        self.h.ok(
            "agent-1",
            "task_lists",
            "get",
            json!({"list_id": self.list}),
        )
    }
}

pub(super) fn ok_html(r: &WebResponse) -> &str {
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.content_type, "text/html; charset=utf-8");
    &r.body
}

/// The page has no inline script, style attribute or handler.
pub(super) fn assert_no_inline(body: &str) {
    assert!(!body.contains("<script>"), "inline script: {body}");
    assert!(!body.contains("style="), "inline style: {body}");
    assert!(!body.contains("<style"), "style element: {body}");
    for handler in [
        " onclick",
        " onload",
        " onerror",
        " onsubmit",
        " onmouseover",
    ] {
        assert!(!body.contains(handler), "handler {handler}: {body}");
    }
}

#[test]
fn the_overview_keeps_the_contract_and_puts_awaiting_lists_first() {
    let w = World::new(&["one"]);
    let pending = w.h.create_list(
        "agent-1",
        json!({"name": "Plan", "scope_type": "workspace", "requires_approval": true}),
    );
    let r = w.get("/", "", Some("ann"));
    let body = ok_html(&r);
    assert!(body.starts_with("<!doctype html>"));
    assert!(body.contains("<html lang=\"en\">"));
    assert!(body.contains("<meta charset=\"utf-8\">"));
    assert!(body.contains("name=\"viewport\""));
    assert!(body.contains("<link rel=\"stylesheet\" href=\"/assets/board.css?v="));
    assert!(body.contains("<script src=\"/assets/board.js?v="));
    assert!(body.contains("data-person=\"ann\""));
    assert!(body.contains("data-keys=\"[{&quot;key&quot;:&quot;up&quot;"));
    assert!(body.contains("<div id=\"flash\" role=\"status\" aria-live=\"polite\"></div>"));
    assert!(body.contains("<main id=\"board\" data-refresh-at=\"\">"));
    assert!(body.contains("as @ann"));
    assert_no_inline(body);
    let pending_at = body
        .find(&format!(
            "data-list=\"{pending}\" data-approval=\"pending\""
        ))
        .expect("pending list");
    let other_at = body
        .find(&format!("data-list=\"{}\" data-approval=\"none\"", w.list))
        .expect("other list");
    assert!(pending_at < other_at, "awaiting approval first");
    assert!(body.contains("Awaiting approval"));
    assert!(body.contains(&format!(
        "<a class=\"name\" href=\"/lists/{pending}\">Plan</a>"
    )));
    assert!(body.contains("⏳ awaiting approval"));
    // The pending list can be approved from here.
    assert!(body.contains("data-action=\"approve\" data-key=\"A\""));
}

#[test]
fn the_overview_shows_every_list_the_person_may_see_whatever_its_scope() {
    let w = World::new(&["one"]);
    // Made by agents elsewhere: another workspace, a custom scope, a
    // private list of another agent, and one of the viewer's own.
    let elsewhere = w.h.create_list(
        "agent-2",
        json!({"name": "Elsewhere", "scope_type": "workspace", "scope_key": "/other"}),
    );
    let custom = w.h.create_list("agent-2", json!({"name": "Custom"}));
    let theirs = w.h.create_list(
        "agent-2",
        json!({"name": "Theirs", "visibility": "private"}),
    );
    let mine =
        w.h.create_list("agent-1", json!({"name": "Mine", "visibility": "private"}));
    let r = w.get("/", "", Some("ann"));
    let body = ok_html(&r);
    for shown in [&w.list, &elsewhere, &custom, &mine] {
        assert!(
            body.contains(&format!("data-list=\"{shown}\"")),
            "{shown} shown"
        );
    }
    assert!(
        !body.contains(&theirs),
        "another agent's private list never"
    );
    assert!(!body.contains("Theirs"));
}

#[test]
fn the_board_has_columns_cards_and_forms() {
    let w = World::new(&["first", "second", "third"]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "priority": "low"}),
    );
    // claim_next takes the first by priority: the second task.
    w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list, "lease_seconds": 600}),
    );
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[2], "priority": "high", "depends_on": [w.tasks[0]],
               "notes": "looked\nstill failing"}),
    );
    let r = w.get(&format!("/lists/{}", w.list), "", Some("ann"));
    let body = ok_html(&r);
    assert_no_inline(body);
    for column in ["todo", "running", "paused", "closed"] {
        assert!(
            body.contains(&format!(
                "<section class=\"column\" data-column=\"{column}\">"
            )),
            "column {column}"
        );
    }
    assert!(body.contains(&format!(
        "data-task=\"{}\" data-status=\"in_progress\" tabindex=\"0\"",
        w.tasks[1]
    )));
    assert!(body.contains(&format!(
        "<a href=\"/tasks/{}\"><span class=\"title\">third</span></a>",
        w.tasks[2]
    )));
    assert!(body.contains("↑ high"));
    assert!(body.contains("@agent-1"));
    assert!(body.contains("until "));
    assert!(body.contains("notes (2 lines):"));
    assert!(body.contains("still failing"));
    assert!(body.contains("#1 first"), "dependency by title");
    assert!(body.contains("data-action=\"add\" data-key=\"a\" data-input=\"text\""));
    // A card carries no forms: its bar comes when it is selected.
    assert!(!body.contains("data-action=\"done\""), "{body}");
    let bar = w.get(
        &format!("/lists/{}", w.list),
        &format!("part=actions&task={}", w.tasks[0]),
        Some("ann"),
    );
    let bar = ok_html(&bar);
    assert!(
        bar.starts_with("<div class=\"bar\"><div class=\"actions\">"),
        "{bar}"
    );
    assert!(bar.contains("data-action=\"done\" data-key=\"x\" data-input=\"text\""));
    assert!(bar.contains(&format!(
        "<input type=\"hidden\" name=\"target\" value=\"{}\">",
        w.tasks[0]
    )));
    assert!(bar.contains(&format!(
        "<input type=\"hidden\" name=\"return\" value=\"/lists/{}\">",
        w.list
    )));
    assert!(bar.contains("<details class=\"more\"><summary>more</summary>"));
    // The lease's end is when the page refreshes itself.
    let expires = w.task(&w.tasks[1])["claim_expires_at"]
        .as_str()
        .unwrap()
        .to_string();
    let ms = crate::clock::parse_rfc3339(&expires).unwrap();
    assert!(
        body.contains(&format!("data-refresh-at=\"{ms}\"")),
        "{body}"
    );
    // The order view lists them by position.
    let r = w.get(&format!("/lists/{}", w.list), "view=order", Some("ann"));
    let body = ok_html(&r);
    let at = |id: &str| body.find(&format!("data-task=\"{id}\"")).unwrap();
    assert!(at(&w.tasks[0]) < at(&w.tasks[1]) && at(&w.tasks[1]) < at(&w.tasks[2]));
    assert!(!body.contains("data-column"));
}

#[test]
fn a_hostile_title_is_escaped_and_cleaned_everywhere() {
    let w = World::new(&[HOSTILE]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "notes": HOSTILE, "description": HOSTILE}),
    );
    for path in [
        "/".to_string(),
        format!("/lists/{}", w.list),
        format!("/tasks/{}", w.tasks[0]),
        format!("/lists/{}/audit", w.list),
    ] {
        let r = w.get(&path, "", Some("ann"));
        let body = ok_html(&r);
        assert!(!body.contains("<script>alert"), "{path}: {body}");
        assert!(!body.contains('\u{1b}'), "{path}: ESC");
        assert!(!body.contains('\u{202e}'), "{path}: bidi override");
        assert!(!body.contains('\u{200b}'), "{path}: zero-width");
        // The hostile `"q" 'a'` raw (the search form's own `name="q"` is markup).
        assert!(!body.contains("\"q\" '"), "{path}: raw quotes");
        assert!(!body.contains("'a'"), "{path}: raw apostrophes");
        assert_no_inline(body);
        if !path.ends_with("/audit") && path != "/" {
            assert!(
                body.contains(
                    "&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &#39;a&#39; &amp;"
                ),
                "{path}: {body}"
            );
        }
    }
    // In an attribute too: the edit form carries the title as its value.
    let r = w.get(&format!("/tasks/{}", w.tasks[0]), "", Some("ann"));
    assert!(r.body.contains("name=\"title\" value=\"&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &#39;a&#39; &amp;"));
}

#[test]
fn an_approved_plan_with_new_tasks_stays_first_past_the_overviews_limit() {
    let w = World::new(&[]);
    let plan = w.h.create_list(
        "agent-1",
        json!({"name": "Approved plan", "scope_type": "workspace", "requires_approval": true}),
    );
    let r = w.post(
        "part=json",
        &format!("action=approve&target={plan}&return=%2F"),
        Some("ann"),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let added = w.h.add(&plan, &["Added after approval"]);
    // More lists than the overview shows, every one updated after the plan.
    for i in 0..crate::views::visible::MAX_LISTS {
        w.h.advance_secs(1);
        w.h.create_list(
            "agent-1",
            json!({"name": format!("Newer {i}"), "scope_type": "workspace"}),
        );
    }
    let body = ok_html(&w.get("/", "", Some("ann"))).to_string();
    assert!(body.contains("only the 50 most recently updated lists are shown"));
    let from = body.find("Awaiting approval").expect("the section");
    let awaiting = &body[from..from + body[from..].find("</section>").unwrap()];
    assert!(
        awaiting.contains(&format!("href=\"/lists/{plan}\">Approved plan</a>")),
        "the plan with a task awaiting approval ({added:?}) is kept: {body}"
    );
}

#[test]
fn approving_through_the_web_changes_the_plan() {
    let w = World::new(&[]);
    let plan = w.h.create_list(
        "agent-1",
        json!({"name": "Plan", "scope_type": "workspace", "requires_approval": true}),
    );
    let r = w.post(
        "part=json",
        &format!("action=approve&target={plan}&return=%2F"),
        Some("ann"),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.content_type, "application/json");
    let reply: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(reply["outcome"], "done");
    assert!(reply["html"].as_str().unwrap().contains("approved list"));
    let list =
        w.h.ok("agent-1", "task_lists", "get", json!({"list_id": plan}));
    assert_eq!(list["list"]["approval"]["state"], "approved", "{list}");
    // Without script: a 303 back to the page.
    let r = w.post(
        "",
        &format!("action=reject&target={plan}&reason=too+big&return=%2Flists%2F{plan}"),
        Some("ann"),
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location, format!("/lists/{plan}"));
}

#[test]
fn a_refused_action_answers_409_and_changes_nothing() {
    let w = World::new(&["one"]);
    let before = w.list_data();
    let r = w.post(
        "part=json",
        &format!("action=unblock&target={}", w.tasks[0]),
        Some("ann"),
    );
    assert_eq!(r.status, 409, "{}", r.body);
    let reply: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(reply["outcome"], "refused");
    assert_eq!(reply["code"], "conflict");
    assert!(
        reply["html"].as_str().unwrap().contains("not blocked"),
        "{reply}"
    );
    assert_eq!(w.list_data(), before);
    // Without script: a page with the same words and the same status.
    let r = w.post(
        "",
        &format!("action=unblock&target={}&return=%2F", w.tasks[0]),
        Some("ann"),
    );
    assert_eq!(r.status, 409);
    assert!(r.body.contains("conflict"));
    assert!(r.body.contains("not blocked"));
    assert_eq!(w.list_data(), before);
}

#[test]
fn deleting_asks_first() {
    let w = World::new(&["one"]);
    let body = format!("action=delete&target={}&return=%2F", w.tasks[0]);
    let r = w.post("part=json", &body, Some("ann"));
    let reply: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(reply["outcome"], "confirm", "{reply}");
    assert!(reply["title"].as_str().unwrap().starts_with("Delete task"));
    assert_eq!(w.task(&w.tasks[0])["status"], "todo");
    let r = w.post("", &body, Some("ann"));
    assert_eq!(r.status, 200);
    assert!(
        r.body
            .contains("<input type=\"hidden\" name=\"confirmed\" value=\"1\">")
    );
    let r = w.post("part=json", &format!("{body}&confirmed=1"), Some("ann"));
    let reply: serde_json::Value = serde_json::from_str(&r.body).unwrap();
    assert_eq!(reply["outcome"], "done", "{reply}");
    assert_eq!(reply["location"], "/");
    assert!(w.list_data()["tasks"].as_array().unwrap().is_empty());
}

#[test]
fn a_read_only_board_has_no_forms_and_refuses_posts() {
    let w = World::new(&["one"]);
    for path in [
        "/".to_string(),
        format!("/lists/{}", w.list),
        format!("/tasks/{}", w.tasks[0]),
    ] {
        let r = w.get(&path, "", None);
        let body = ok_html(&r);
        // No action form (each posts); the search form only reads.
        assert!(!body.contains("method=\"post\""), "{path}: {body}");
        assert!(body.contains("data-person=\"\""));
        assert!(body.contains("TASKLISTS_PERSON"), "{path}");
        assert!(body.contains("--person"), "{path}");
    }
    let before = w.list_data();
    let r = w.post(
        "part=json",
        &format!("action=block&target={}", w.tasks[0]),
        None,
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("read-only"));
    let r = w.post("", &format!("action=block&target={}", w.tasks[0]), None);
    assert_eq!(r.status, 403);
    assert!(r.body.contains("TASKLISTS_PERSON"));
    assert_eq!(w.list_data(), before);
}

#[test]
fn part_main_is_the_fragment_only() {
    let w = World::new(&["one"]);
    let r = w.get(
        &format!("/lists/{}", w.list),
        "view=order&part=main",
        Some("ann"),
    );
    let body = ok_html(&r);
    assert!(!body.contains("<html"));
    assert!(!body.contains("<main"));
    assert!(!body.contains("id=\"flash\""));
    assert!(
        body.starts_with("<div class=\"refresh\" hidden=\"hidden\" data-refresh-at=\"\"></div>")
    );
    assert!(body.contains(&format!("data-task=\"{}\"", w.tasks[0])));
    // Forms return to the page, not to its fragment.
    assert!(body.contains(&format!(
        "name=\"return\" value=\"/lists/{}?view=order\"",
        w.list
    )));
    let r = w.get(
        "/lists/list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
        "part=main",
        Some("ann"),
    );
    assert_eq!(r.status, 404);
    assert!(!r.body.contains("<html"));
}

/// The versions (`data-v`) of the cards in `body`, in order.
fn versions(body: &str) -> Vec<String> {
    body.split(" data-v=\"")
        .skip(1)
        .map(|v| v.split('"').next().unwrap().to_string())
        .collect()
}

#[test]
fn a_refresh_gets_only_the_cards_the_page_does_not_hold() {
    let w = World::new(&["one", "two", "three", "four"]);
    let path = format!("/lists/{}", w.list);
    let first = ok_html(&w.get(&path, "part=main", Some("ann"))).to_string();
    let held = versions(&first);
    assert_eq!(held.len(), 4, "{first}");
    assert!(first.contains(&format!(
        "<article data-v=\"{}\" class=\"task prio-",
        held[0]
    )));
    // Nothing changed: every card is a mark, in one run.
    let have = format!("part=main&have={}", held.join("."));
    let same = ok_html(&w.get(&path, &have, Some("ann"))).to_string();
    assert!(!same.contains("<article"), "{same}");
    assert!(same.contains(&format!(
        "<i class=\"keep\" data-keep=\"{}\"></i>",
        held.join(" ")
    )));
    // One task claimed: its card alone travels, in its new column, and the
    // rest is as the whole board: the same page once the marks are filled.
    w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list, "lease_seconds": 600}),
    );
    let after = ok_html(&w.get(&path, &have, Some("ann"))).to_string();
    assert_eq!(after.matches("<article").count(), 1, "{after}");
    assert!(after.contains(&format!(
        "data-task=\"{}\" data-status=\"in_progress\"",
        w.tasks[0]
    )));
    let whole = ok_html(&w.get(&path, "part=main", Some("ann"))).to_string();
    let mut filled = after.clone();
    for run in after.split("<i class=\"keep\" data-keep=\"").skip(1) {
        let run = run.split('"').next().unwrap();
        let cards: String = run
            .split(' ')
            .map(|v| {
                let at = first.find(&format!("<article data-v=\"{v}\"")).unwrap();
                let end = at + first[at..].find("</article>").unwrap() + "</article>".len();
                first[at..end].to_string()
            })
            .collect();
        filled = filled.replace(
            &format!("<i class=\"keep\" data-keep=\"{run}\"></i>"),
            &cards,
        );
    }
    assert_eq!(filled, whole);
    // A whole document is always whole (it has no cards to fill marks).
    let document =
        ok_html(&w.get(&path, &format!("have={}", held.join(".")), Some("ann"))).to_string();
    assert_eq!(versions(&document).len(), 4);
    assert!(!document.contains("data-keep"));
    // A version it does not know, or no version, is no harm: sent whole.
    let odd = ok_html(&w.get(&path, "part=main&have=zz.123", Some("ann"))).to_string();
    assert_eq!(odd, whole);
}

#[test]
fn a_cards_bar_is_for_a_person_who_may_act() {
    let w = World::new(&["one"]);
    let path = format!("/lists/{}", w.list);
    let query = format!("view=order&part=actions&task={}", w.tasks[0]);
    let bar = ok_html(&w.get(&path, &query, Some("ann"))).to_string();
    assert!(!bar.contains("<html"));
    assert!(bar.contains(&format!(
        "name=\"return\" value=\"/lists/{}?view=order\"",
        w.list
    )));
    let read_only = w.get(&path, &query, None);
    assert_eq!(read_only.status, 200);
    assert_eq!(read_only.body, "");
    let nowhere = w.get(
        &path,
        "part=actions&task=task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B",
        Some("ann"),
    );
    assert_eq!(nowhere.status, 404);
    assert!(!nowhere.body.contains("<html"));
}

#[test]
fn the_assets_are_immutable_and_typed() {
    let w = World::new(&[]);
    let js = w.get("/assets/board.js", "v=whatever", None);
    assert_eq!(js.status, 200);
    assert!(js.immutable);
    assert_eq!(js.content_type, "text/javascript; charset=utf-8");
    assert!(js.body.contains("EventSource"));
    let css = w.get("/assets/board.css", "", None);
    assert!(css.immutable);
    assert_eq!(css.content_type, "text/css; charset=utf-8");
    assert!(css.body.contains("prefers-color-scheme: dark"));
    // The script adds no inline style, handler or evaluated code. A
    // dragged card's geometry is the one style it sets, through the CSSOM
    // (numbers in px; the CSP's `style-src 'self'` binds markup, not the
    // CSSOM): any other property is refused here.
    for inline in [
        "setAttribute('style",
        "setAttribute('on",
        "setAttribute(\"",
        "eval(",
        "new Function",
        ".onclick",
        "javascript:",
        "innerHTML = `",
    ] {
        assert!(!js.body.contains(inline), "board.js uses {inline}");
    }
    for (at, _) in js.body.match_indices(".style.") {
        let set = &js.body[at + ".style.".len()..];
        assert!(
            ["width = `", "height = `", "transform = `translate("]
                .iter()
                .any(|geometry| set.starts_with(geometry)),
            "board.js sets a style other than a dragged card's geometry: {}",
            &set[..set.len().min(40)]
        );
    }
    let page = w.get("/", "", None);
    assert!(!page.immutable);
    assert!(page.body.contains(&super::assets::JS.address()));
    let r = w.get("/assets/other.js", "", None);
    assert_eq!(r.status, 404);
    assert!(!r.immutable);
}

#[test]
fn bad_input_gets_an_error_page_and_changes_nothing() {
    let w = World::new(&["one"]);
    let before = w.list_data();
    let r = w.get("/nowhere", "", Some("ann"));
    assert_eq!(r.status, 404);
    assert!(r.body.contains("no page at"));
    let r = w.get("/lists/not-an-id", "", Some("ann"));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("invalid_params"));
    let r = w.get("/tasks/task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B", "", Some("ann"));
    assert_eq!(r.status, 404);
    assert!(r.body.contains("not_found"));
    let r = w.get("/lists/%FF", "", Some("ann"));
    assert_eq!(r.status, 400);
    let huge = format!(
        "action=edit&target={}&title={}",
        w.tasks[0],
        "a".repeat(super::route::MAX_BODY)
    );
    let r = w.post("part=json", &huge, Some("ann"));
    assert_eq!(r.status, 400);
    for broken in [
        "action=block&target=%E0%A4%A",
        "action=block&action=done",
        "title=%FF%FE",
    ] {
        let r = w.post("part=json", broken, Some("ann"));
        assert_eq!(r.status, 400, "{broken}: {}", r.body);
    }
    let r = w.post(
        "part=json",
        &format!("action=explode&target={}", w.tasks[0]),
        Some("ann"),
    );
    assert_eq!(r.status, 400);
    assert!(r.body.contains("unknown action"));
    // A GET of /act and a POST elsewhere are no pages.
    assert_eq!(w.get("/act", "", Some("ann")).status, 404);
    assert_eq!(w.list_data(), before);
}

#[test]
fn refusals_say_why_with_their_status() {
    for (why, status, words) in [
        (WebRefusal::Unauthenticated, 401, "token"),
        (WebRefusal::WrongHost, 421, "--allow-host"),
        (WebRefusal::CrossOrigin, 403, "another"),
        (WebRefusal::TooLarge, 413, "larger"),
        (WebRefusal::Busy, 503, "again"),
        (WebRefusal::AgentToken, 403, "--person"),
        (WebRefusal::TooMany, 429, "in progress"),
        (WebRefusal::TooSlow, 408, "in time"),
    ] {
        let r = refusal(why);
        assert_eq!(r.status, status);
        assert_eq!(r.content_type, "text/html; charset=utf-8");
        assert!(r.body.contains(words), "{}", r.body);
        assert_no_inline(&r.body);
    }
}

#[test]
fn a_task_page_and_the_audit_show_the_events() {
    let w = World::new(&["one", "two"]);
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[1], "depends_on": [w.tasks[0]]}),
    );
    let r = w.get(&format!("/tasks/{}", w.tasks[0]), "", Some("ann"));
    let body = ok_html(&r);
    assert!(body.contains(&format!(
        "data-task=\"{}\" data-status=\"todo\"",
        w.tasks[0]
    )));
    assert!(body.contains("needed by"));
    assert!(body.contains("#2 two"));
    assert!(body.contains("created"));
    assert!(body.contains("data-action=\"delete\" data-key=\"d\" data-input=\"confirm\""));
    // Deleted from its own page, the task returns to its list.
    let delete = body.split("data-action=\"delete\"").nth(1).unwrap();
    assert!(delete.contains(&format!("name=\"return\" value=\"/lists/{}\"", w.list)));
    let r = w.get(&format!("/lists/{}/audit", w.list), "", Some("ann"));
    let body = ok_html(&r);
    assert!(body.contains("class=\"timeline lines\""));
    assert!(body.contains("created"));
}

#[test]
fn a_lease_that_ran_out_says_so_and_sets_no_refresh() {
    let w = World::new(&["one"]);
    w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list, "lease_seconds": 60}),
    );
    let path = format!("/lists/{}", w.list);
    let body = w.get(&path, "", Some("ann")).body;
    assert!(body.contains("until "));
    assert!(
        !body.contains("data-refresh-at=\"\""),
        "a lease to wait for"
    );
    w.h.advance_secs(61);
    let body = w.get(&path, "", Some("ann")).body;
    assert!(body.contains("lease expired"), "{body}");
    assert!(body.contains("<main id=\"board\" data-refresh-at=\"\">"));
}

#[test]
fn every_form_key_is_a_key_of_the_key_map() {
    let w = World::new(&["one", "two"]);
    let keys = crate::person::key_map();
    for (path, query) in [
        (
            format!("/lists/{}", w.list),
            format!("part=actions&task={}", w.tasks[0]),
        ),
        (format!("/tasks/{}", w.tasks[0]), String::new()),
    ] {
        let body = w.get(&path, &query, Some("ann")).body;
        let mut seen = 0;
        for form in body.split("<form class=\"act").skip(1) {
            let key = form
                .split("data-key=\"")
                .nth(1)
                .and_then(|k| k.split('"').next())
                .expect("data-key");
            if key.is_empty() {
                continue;
            }
            let binding = keys
                .iter()
                .find(|k| k.key == key)
                .unwrap_or_else(|| panic!("{key}"));
            assert!(binding.writes, "{key} writes");
            seen += 1;
        }
        assert!(seen >= 8, "{path}: {seen} keyed forms");
    }
}

#[test]
fn the_audit_pages_back_through_older_events() {
    let w = World::new(&["one"]);
    for i in 0..60 {
        w.h.ok(
            "agent-1",
            "task_items",
            "update",
            json!({"task_id": w.tasks[0], "notes": format!("note {i}")}),
        );
    }
    let path = format!("/lists/{}/audit", w.list);
    let body = w.get(&path, "", Some("ann")).body;
    let older = body
        .split(&format!("<a href=\"{path}?before="))
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("an older-events link")
        .to_string();
    let r = w.get(&path, &format!("before={older}"), Some("ann"));
    let body = ok_html(&r);
    assert!(
        body.contains("planner  created"),
        "the oldest events: {body}"
    );
    let r = w.get(&path, "before=abc", Some("ann"));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("cursor"));
}

/// The element of `body` that opens with `start` (up to its `>`), or
/// a failure naming it.
fn tag<'b>(body: &'b str, start: &str) -> &'b str {
    let at = body
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in {body}"));
    let end = body[at..].find('>').expect("a closed tag");
    &body[at..=at + end]
}

#[test]
fn every_page_has_its_liveness_notes_hidden_with_the_components_words() {
    let w = World::new(&["one"]);
    for (path, person) in [
        ("/".to_string(), Some("ann")),
        (format!("/lists/{}", w.list), Some("ann")),
        (format!("/tasks/{}", w.tasks[0]), None),
    ] {
        let r = w.get(&path, "", person);
        let body = ok_html(&r);
        assert_no_inline(body);
        assert_eq!(
            tag(body, "<div id=\"liveness\""),
            "<div id=\"liveness\" class=\"liveness\" role=\"status\" aria-live=\"polite\">"
        );
        for id in ["offline", "unsent", "paused"] {
            let open = tag(body, &format!("<p id=\"{id}\""));
            assert!(open.contains("hidden=\"hidden\""), "{path}: {open}");
        }
        // Before main: the notes are the page's, never replaced by a refresh.
        assert!(body.find("id=\"liveness\"") < body.find("<main"));
        assert!(body.contains("<strong>not live: reconnecting…</strong>"));
        assert!(body.contains("start it again (tasklists serve, on the same port)"));
        assert!(body.contains("<strong>Not sent:</strong> the server did not answer."));
        assert!(body.contains("updates paused while you type"));
    }
    // A refresh's fragment carries none of them.
    let r = w.get(&format!("/lists/{}", w.list), "part=main", Some("ann"));
    for id in ["liveness", "offline", "keys", "ask"] {
        assert!(!r.body.contains(&format!("id=\"{id}\"")), "{id}");
    }
}

#[test]
fn the_keys_panel_lists_every_key_of_the_key_map_with_its_label() {
    let w = World::new(&["one"]);
    let body = w.get(&format!("/lists/{}", w.list), "", Some("ann")).body;
    assert!(body.contains("<kbd>?</kbd> keys</button>"), "the hint");
    assert_eq!(
        tag(&body, "<aside id=\"keys\""),
        "<aside id=\"keys\" class=\"keys\" aria-labelledby=\"keys-title\" data-toggle=\"?\" hidden=\"hidden\">"
    );
    let panel = &body[body.find("<aside id=\"keys\"").unwrap()..body.find("</aside>").unwrap()];
    let keys = crate::person::key_map();
    for k in &keys {
        let row = row_of(panel, &k.key).unwrap_or_else(|| panic!("no row for {}: {panel}", k.key));
        assert!(
            row.contains(&format!("<td>{}", k.label)),
            "{}: {row}",
            k.key
        );
        if k.input == crate::bindings::KeyInput::Confirm {
            assert!(row.contains("(asks first)"), "{row}");
        }
    }
    assert!(
        panel.contains(
            "<tr data-keys=\"up k\"><th><kbd>↑</kbd> <kbd>k</kbd></th><td>select</td></tr>"
        )
    );
    assert!(panel.contains(
        "<tr data-keys=\"?\"><th><kbd>?</kbd></th><td>show or hide these keys</td></tr>"
    ));
    // Read-only: the keys that change nothing, and how to act.
    let body = w.get(&format!("/lists/{}", w.list), "", None).body;
    let panel = &body[body.find("<aside id=\"keys\"").unwrap()..body.find("</aside>").unwrap()];
    for k in &keys {
        assert_eq!(row_of(panel, &k.key).is_some(), !k.writes, "{}", k.key);
    }
    assert!(panel.contains("to act, "));
}

/// The row of the keys' panel that names `key` among its `data-keys`.
fn row_of<'p>(panel: &'p str, key: &str) -> Option<&'p str> {
    panel.split("<tr data-keys=\"").skip(1).find(|row| {
        row.split('"')
            .next()
            .is_some_and(|names| names.split(' ').any(|n| n == super::html::attr(key)))
    })
}

#[test]
fn the_keys_that_ask_first_have_their_questions_from_the_key_map() {
    let w = World::new(&["one"]);
    let body = w.get(&format!("/lists/{}", w.list), "", Some("ann")).body;
    let dialog = &body[body.find("<dialog id=\"ask\"").unwrap()..body.find("</dialog>").unwrap()];
    let keys = crate::person::key_map();
    let asking: Vec<_> = keys
        .iter()
        .filter(|k| k.input == crate::bindings::KeyInput::Confirm)
        .collect();
    assert!(asking.iter().any(|k| k.key == "A"), "approve asks first");
    for k in &keys {
        for kind in ["list", "task"] {
            let template = format!("<template data-key=\"{}\" data-kind=\"{kind}\">", k.key);
            assert_eq!(
                dialog.contains(&template),
                k.input == crate::bindings::KeyInput::Confirm,
                "{template}"
            );
        }
    }
    assert!(dialog.contains(
        "<template data-key=\"A\" data-kind=\"list\"><p class=\"title\">Approve this list?</p><p class=\"what\"></p>"
    ));
    assert!(dialog.contains("<p class=\"title\">Approve this task?</p>"));
    assert!(dialog.contains("<p class=\"title\">Delete this task?</p>"));
    assert!(
        dialog.contains("<button value=\"yes\" class=\"yes\" autofocus=\"autofocus\">Yes</button>")
    );
    assert!(dialog.contains("<button value=\"no\" class=\"no\">No</button>"));
    assert!(dialog.contains("<p id=\"ask-gone\" hidden=\"hidden\">Not done: "));
    // A read-only board asks nothing (and has no form at all).
    let body = w.get(&format!("/lists/{}", w.list), "", None).body;
    assert!(!body.contains("<dialog"));
}

#[test]
fn board_js_is_transport_only_and_never_leaves_a_form_for_the_browsers_error_page() {
    let js = super::assets::JS.body;
    // No plain submit when the fetch gets no answer: that lands on the
    // browser's error page and loses what was typed.
    assert!(
        !js.contains(".submit()"),
        "board.js submits a form the plain way"
    );
    // Which keys ask first is the key map's, which key shows the help is
    // the page's: no key of either is named in the script.
    assert!(js.contains("binding.input === 'confirm'"));
    assert!(js.contains("help.dataset.toggle"));
    for named in ["'?'", "\"?\"", "'A'", "'d'", "'approve'", "'delete'"] {
        assert!(!js.contains(named), "board.js names {named}");
    }
    // Its words are the page's: it shows, hides and copies them.
    for words in [
        "not live:",
        "reconnecting…",
        "Not sent:",
        "updates paused while you type",
        "this list?",
    ] {
        assert!(!js.contains(words), "board.js says {words}");
    }
}

#[test]
fn labels_show_on_cards_and_link_to_the_board_filtered_by_each() {
    let w = World::new(&["api", "schema", "docs"]);
    for (task, labels) in [
        (&w.tasks[0], json!(["backend", "gt:merge-request"])),
        (&w.tasks[1], json!(["backend", "db"])),
    ] {
        w.h.ok(
            "agent-1",
            "task_items",
            "update",
            json!({"task_id": task, "labels": labels}),
        );
    }
    let list = &w.list;
    let board = w.get(&format!("/lists/{list}"), "", Some("ann"));
    let body = ok_html(&board);
    // Each label a link to the board filtered by it (escaped in the URL).
    assert!(
        body.contains(&format!(
            "<a class=\"tag\" data-label=\"gt:merge-request\" href=\"/lists/{list}?label=gt%3Amerge-request\">gt:merge-request</a>"
        )),
        "{body}"
    );
    assert!(!body.contains("class=\"filter\""), "{body}");
    // Filtered: the tasks carrying it, the note and the way back.
    let r = w.get(&format!("/lists/{list}"), "label=backend", Some("ann"));
    let body = ok_html(&r);
    assert_no_inline(body);
    assert!(body.contains("data-label=\"backend\""), "{body}");
    assert!(body.contains("showing only the tasks labeled"), "{body}");
    assert!(body.contains("(2 of 3 tasks)"), "{body}");
    assert!(
        body.contains(&format!(
            "href=\"/lists/{list}?view=columns\">show every task"
        )),
        "{body}"
    );
    for (id, shown) in [
        (&w.tasks[0], true),
        (&w.tasks[1], true),
        (&w.tasks[2], false),
    ] {
        assert_eq!(body.contains(&format!("/tasks/{id}\"")), shown, "{id}");
    }
    // The views' links keep the filter; the order view's labels keep it.
    assert!(body.contains("?view=order&amp;label=backend"), "{body}");
    let r = w.get(
        &format!("/lists/{list}"),
        "view=order&label=db",
        Some("ann"),
    );
    let body = ok_html(&r);
    assert!(body.contains("(1 of 3 tasks)"), "{body}");
    assert!(body.contains("?view=order&amp;label=backend"), "{body}");
    // Exact and case-sensitive; a label no task carries says so.
    let r = w.get(&format!("/lists/{list}"), "label=Backend", Some("ann"));
    assert!(ok_html(&r).contains("no task carries this label"));
    // An empty one filters nothing; a bad one is refused with the rule.
    let r = w.get(&format!("/lists/{list}"), "label=", Some("ann"));
    assert!(!ok_html(&r).contains("class=\"filter\""));
    let r = w.get(&format!("/lists/{list}"), "label=two%20words", Some("ann"));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("ASCII letters"), "{}", r.body);
    // The task page shows them too, linking the same way.
    let r = w.get(&format!("/tasks/{}", w.tasks[1]), "", Some("ann"));
    assert!(
        ok_html(&r).contains(&format!("href=\"/lists/{list}?label=db\">db</a>")),
        "{}",
        r.body
    );
}

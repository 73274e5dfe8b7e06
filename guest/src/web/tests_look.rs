//! The board read at a glance: a card's texts in one block, as written
//! (lines kept, markup escaped); a card that needs the person marked so;
//! every page's key legend (each key of the key map) and theme switch,
//! and the theme's blocking script before the stylesheet.

use serde_json::json;

use super::tests::{HOSTILE, World, assert_no_inline, ok_html};
use crate::person::keys::KEYS;

/// The `<article …>` of `task` on `body`, up to its close.
fn card_of<'b>(body: &'b str, task: &str) -> &'b str {
    let at = body
        .find(&format!("data-task=\"{task}\""))
        .unwrap_or_else(|| panic!("the card of {task}: {body}"));
    let start = body[..at].rfind("<article").unwrap();
    let end = at + body[at..].find("</article>").unwrap();
    &body[start..end]
}

#[test]
fn a_cards_texts_sit_in_one_block_as_written() {
    let w = World::new(&["first", "second"]);
    let verification = format!("- unit tests green\n- {HOSTILE}\n\n- docs");
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": w.tasks[0], "verification": verification, "outcome": "kept\nas is"}),
    );
    let r = w.get(&format!("/lists/{}", w.list), "", Some("ann"));
    let body = ok_html(&r);
    assert_no_inline(body);
    let card = card_of(body, &w.tasks[0]);
    let texts = &card[card.find("<div class=\"texts\">").expect(card)..];
    assert!(
        texts.contains(
            "<div class=\"verification\"><span class=\"label\">verification:</span> \
             <span class=\"text\">- unit tests green\n- &lt;script&gt;"
        ),
        "{texts}"
    );
    assert!(texts.contains("\n\n- docs</span>"), "{texts}");
    assert!(
        texts.contains("<span class=\"text\">kept\nas is</span>"),
        "{texts}"
    );
    assert!(!texts.contains("<script>"), "{texts}");
    // A card without texts has no block.
    assert!(!card_of(body, &w.tasks[1]).contains("texts"), "{body}");
}

#[test]
fn a_card_that_needs_the_person_says_so() {
    let w = World::new(&["ask", "quiet"]);
    let claimed = w.h.ok(
        "agent-1",
        "task_claims",
        "claim_next",
        json!({"list_id": w.list}),
    );
    let id = claimed["task"]["id"].as_str().unwrap().to_string();
    w.h.ok(
        "agent-1",
        "task_items",
        "update",
        json!({"task_id": id, "question": "which?"}),
    );
    let r = w.get(&format!("/lists/{}", w.list), "", Some("ann"));
    let body = ok_html(&r);
    assert!(card_of(body, &id).contains(" needs\""), "{body}");
    assert!(!card_of(body, &w.tasks[1]).contains(" needs\""), "{body}");
}

#[test]
fn every_page_has_the_key_legend_and_the_theme_switch() {
    let w = World::new(&["one"]);
    for path in [
        "/".to_string(),
        format!("/lists/{}", w.list),
        format!("/tasks/{}", w.tasks[0]),
    ] {
        let r = w.get(&path, "", Some("ann"));
        let body = ok_html(&r);
        let legend = &body[body.find("<footer id=\"legend\"").expect(body)..];
        let legend = &legend[..legend.find("</footer>").unwrap()];
        for k in KEYS.iter() {
            let entry = legend
                .split("<span class=\"key\" data-keys=\"")
                .find(|e| e.split('"').next().unwrap().split(' ').any(|n| n == k.key))
                .unwrap_or_else(|| panic!("{} in the legend of {path}: {legend}", k.key));
            assert!(entry.contains(k.label), "{}: {entry}", k.key);
            assert!(
                entry.contains(&format!("<kbd>{}</kbd>", k.shown())),
                "{entry}"
            );
        }
        assert!(legend.contains("<kbd>?</kbd> all keys"), "{legend}");
        for theme in ["system", "light", "dark"] {
            assert!(
                body.contains(&format!("data-theme-choice=\"{theme}\"")),
                "{theme}: {body}"
            );
        }
        let script = body.find("<script src=\"/assets/theme.js?v=").expect(body);
        let sheet = body.find("<link rel=\"stylesheet\"").unwrap();
        assert!(script < sheet, "the theme before the stylesheet");
        assert!(!body[script..sheet].contains("defer"), "blocking");
    }
    // Read-only: only the keys that change nothing.
    let r = w.get("/", "", None);
    let body = ok_html(&r);
    let legend = &body[body.find("<footer id=\"legend\"").unwrap()..];
    let legend = &legend[..legend.find("</footer>").unwrap()];
    let named: Vec<&str> = legend
        .split("data-keys=\"")
        .skip(1)
        .flat_map(|e| e.split('"').next().unwrap().split(' '))
        .collect();
    for k in KEYS.iter() {
        assert_eq!(
            named.contains(&k.key),
            !k.writes(),
            "{} on a read-only page",
            k.key
        );
    }
}

#[test]
fn the_theme_script_is_served() {
    let w = World::new(&[]);
    let r = w.get("/assets/theme.js", "", None);
    assert_eq!(r.status, 200);
    assert!(r.content_type.starts_with("text/javascript"));
    assert!(r.body.contains("tasklists-theme"), "{}", r.body);
}

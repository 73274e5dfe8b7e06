//! Drag and drop on the board: the drop map the page carries (`#drops`)
//! covers every pair of its columns, each drop's verb, run as drag.js
//! sends it, puts the card in the column it was dropped on, the refusals
//! and the done dialog carry the component's words, and a read-only
//! board carries no drops.

use serde_json::json;

use super::drop::{self, Drop};
use super::tests::{HOSTILE, World, assert_no_inline, ok_html};
use crate::person::verbs;

/// The `data-column`s of a board page, in order.
fn columns(body: &str) -> Vec<String> {
    body.split("data-column=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

/// The column task `id`'s card stands in on `body`.
fn column_of(body: &str, id: &str) -> String {
    let at = body
        .find(&format!("data-task=\"{id}\""))
        .unwrap_or_else(|| panic!("the card of {id}: {body}"));
    let col = body[..at].rfind("data-column=\"").expect("a column") + 13;
    body[col..col + body[col..].find('"').unwrap()].to_string()
}

/// The `#drops` block of `body`.
fn drops(body: &str) -> &str {
    let start = body.find("<div id=\"drops\"").expect("the drops");
    // Its last child is a template.
    let end = start + body[start..].find("</template></div>").expect("its end") + 17;
    &body[start..end]
}

#[test]
fn the_page_carries_a_rule_for_every_pair_of_its_columns() {
    let w = World::new(&["one"]);
    let body = ok_html(&w.get(&format!("/lists/{}", w.list), "", Some("ann"))).to_string();
    assert_no_inline(&body);
    let cols = columns(&body);
    assert_eq!(cols, ["todo", "running", "paused", "closed"]);
    let map = drops(&body);
    assert!(map.contains("data-within=\"move\""), "{map}");
    for from in &cols {
        for to in cols.iter().filter(|to| *to != from) {
            let rule = format!("data-from=\"{from}\" data-to=\"{to}\"");
            assert_eq!(map.matches(&rule).count(), 1, "{rule}: {map}");
            match drop::between(from, to) {
                Drop::Runs(verb) => assert!(
                    map.contains(&format!("{rule} data-verb=\"{}\"", verb.name)),
                    "{rule}: {map}"
                ),
                Drop::Refused(words) => {
                    let escaped = super::html::escape(words);
                    assert!(
                        map.contains(&format!("{rule}><p>{escaped}</p>")),
                        "{rule}: {map}"
                    )
                }
            }
        }
    }
}

#[test]
fn the_rules_are_the_keys_verbs_and_refuse_what_no_verb_does() {
    use Drop::{Refused, Runs};
    let cases = [
        ("todo", "paused", Runs(&verbs::BLOCK)),
        ("paused", "todo", Runs(&verbs::UNBLOCK)),
        ("todo", "closed", Runs(&verbs::DONE)),
        ("paused", "closed", Runs(&verbs::DONE)),
        ("closed", "todo", Runs(&verbs::RESTORE)),
        ("running", "todo", Runs(&verbs::RELEASE)),
        ("todo", "todo", Runs(&verbs::MOVE)),
        ("closed", "closed", Runs(&verbs::MOVE)),
        ("todo", "running", Refused(drop::AGENTS_RUN)),
        ("closed", "running", Refused(drop::AGENTS_RUN)),
        ("running", "paused", Refused(drop::RELEASE_FIRST)),
        ("running", "closed", Refused(drop::RELEASE_FIRST)),
        ("closed", "paused", Refused(drop::RESTORE_FIRST)),
        ("todo", "elsewhere", Refused(drop::NO_COLUMN)),
        ("<b>", "todo", Refused(drop::NO_COLUMN)),
    ];
    for (from, to, want) in cases {
        assert_eq!(drop::between(from, to), want, "{from} → {to}");
    }
}

/// Puts the one task of `w` in column `from`.
fn stand(w: &World, from: &str) {
    let id = &w.tasks[0];
    let post = |body: String| {
        let r = w.post("part=json", &body, Some("ann"));
        assert_eq!(r.status, 200, "{body}: {}", r.body);
    };
    match from {
        "todo" => {}
        "paused" => post(format!("action=block&target={id}")),
        "closed" => post(format!("action=done&target={id}&outcome=shipped")),
        "running" => {
            w.h.ok(
                "agent-1",
                "task_claims",
                "claim_next",
                json!({"list_id": w.list}),
            );
        }
        other => panic!("no column {other}"),
    }
}

#[test]
fn each_drops_verb_puts_the_card_in_the_column_it_was_dropped_on() {
    let cols = ["todo", "running", "paused", "closed"];
    for from in cols {
        for to in cols.iter().filter(|to| **to != from) {
            let Drop::Runs(verb) = drop::between(from, to) else {
                continue;
            };
            let w = World::new(&["one"]);
            stand(&w, from);
            let board = format!("/lists/{}", w.list);
            let before = ok_html(&w.get(&board, "", Some("ann"))).to_string();
            assert_eq!(column_of(&before, &w.tasks[0]), from);
            // As drag.js sends it: the verb, the asked fields, confirmed
            // once the component asked.
            let mut body = format!("action={}&target={}", verb.name, w.tasks[0]);
            if verb == &verbs::DONE {
                body.push_str("&outcome=dropped");
            }
            let mut r = w.post("part=json", &body, Some("ann"));
            if r.body.contains("\"confirm\"") {
                r = w.post("part=json", &format!("{body}&confirmed=1"), Some("ann"));
            }
            assert_eq!(r.status, 200, "{from} → {to}: {}", r.body);
            let after = ok_html(&w.get(&board, "", Some("ann"))).to_string();
            assert_eq!(column_of(&after, &w.tasks[0]), *to, "{from} → {to}");
        }
    }
}

#[test]
fn the_done_dialog_asks_the_keys_words_and_the_verification_result() {
    let w = World::new(&[HOSTILE]);
    let body = ok_html(&w.get(&format!("/lists/{}", w.list), "", Some("ann"))).to_string();
    let map = drops(&body);
    let at = map
        .find("<template class=\"drop-ask\" data-verb=\"done\">")
        .expect("the done dialog");
    let dialog = &map[at..at + map[at..].find("</template>").unwrap()];
    // "Done {}, outcome": the card's title goes in `.what`.
    assert!(
        dialog.contains("<span class=\"prompt\">Done <q class=\"what\"></q>, outcome</span>"),
        "{dialog}"
    );
    assert!(dialog.contains("name=\"outcome\""), "{dialog}");
    assert!(dialog.contains("What the verification showed"), "{dialog}");
    assert!(dialog.contains("name=\"verification_result\""), "{dialog}");
    assert!(dialog.contains(">done</button>"), "{dialog}");
    // Only one dialog however many drops run done; none for the verbs
    // that ask nothing.
    assert_eq!(map.matches("<template class=\"drop-ask\"").count(), 1);
    // The hostile title is nowhere in the map (drag.js copies it as text).
    assert!(!map.contains("<script>"), "{map}");
}

#[test]
fn the_order_view_drops_within_and_a_read_only_board_carries_no_drops() {
    let w = World::new(&["one", "two"]);
    let board = format!("/lists/{}", w.list);
    let order = ok_html(&w.get(&board, "view=order", Some("ann"))).to_string();
    assert!(drops(&order).contains("data-within=\"move\""));
    let read_only = ok_html(&w.get(&board, "", None)).to_string();
    assert!(!read_only.contains("id=\"drops\""), "{read_only}");
    // A live refresh carries the same map (main's inner HTML).
    let fragment = ok_html(&w.get(&board, "part=main", Some("ann"))).to_string();
    assert!(fragment.contains("id=\"drops\""));
}

#[test]
fn drag_js_names_no_verb_no_column_and_no_words() {
    let js = include_str!("assets/drag.js");
    // What a drop does is the page's map: the script names none of it.
    for named in [
        "'todo'",
        "'running'",
        "'paused'",
        "'closed'",
        "'block'",
        "'unblock'",
        "'done'",
        "'restore'",
        "'release'",
        "'move'",
        "outcome",
    ] {
        assert!(!js.contains(named), "drag.js names {named}");
    }
    assert!(!js.contains("Not moved"), "drag.js says the refusal itself");
    assert!(
        super::assets::JS.body.contains(js),
        "drag.js is part of board.js"
    );
}

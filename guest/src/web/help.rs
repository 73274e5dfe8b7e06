//! What the page says of its keys: the always-visible hint that `?` shows
//! them, the legend at the foot of every page (each key of the key map,
//! short), the panel `?` opens (every key of the key map with its label, as
//! the dashboard's footer groups them, and the page's own `?`), and the
//! questions asked before a key whose binding asks first (`input:
//! confirm`): one per such key and kind of card, which board.js shows in
//! its dialog with the card's name. Every word is here; board.js only
//! shows, hides and copies them.

use super::html::Html;
use crate::bindings::KeyInput;
use crate::person::identity::NO_PERSON_HINT;
use crate::person::keys::{KEYS, Key};

/// The page's own key: shows or hides the panel (not in the key map,
/// which the terminal's dashboard reads too and has no help to show).
pub(crate) const TOGGLE: &str = "?";

/// The kinds of card a key that asks may act on: the `data-kind` board.js
/// looks up by the card's own `data-task` or `data-list`.
const KINDS: [&str; 2] = ["list", "task"];

/// The header's hint: a button showing `? keys` that opens the panel too.
pub(crate) fn hint(h: &mut Html) {
    h.open(
        "button",
        &[
            ("type", "button"),
            ("class", "keys-hint"),
            ("aria-controls", "keys"),
            ("aria-expanded", "false"),
            ("title", "show the keys (?)"),
        ],
    )
    .elem("kbd", &[], TOGGLE)
    .text(" keys")
    .close("button");
}

/// The legend at the foot of the page, always shown: every key of the key
/// map the person may use (as the panel groups them: `↑ k select`), with
/// its label, and `?` for the panel that says more. The keys act on the
/// selected card, so the legend says so first.
pub(crate) fn legend(h: &mut Html, can_act: bool) {
    h.open(
        "footer",
        &[
            ("id", "legend"),
            ("class", "legend"),
            ("aria-label", "keys"),
        ],
    );
    h.elem("span", &[("class", "lead")], "keys:");
    for group in groups(can_act) {
        let names: Vec<&str> = group.iter().map(|k| k.key).collect();
        h.open("span", &[("class", "key"), ("data-keys", &names.join(" "))]);
        for k in &group {
            h.elem("kbd", &[], k.shown()).text(" ");
        }
        h.text(group[0].label).close("span");
    }
    h.open("span", &[("class", "key"), ("data-keys", TOGGLE)])
        .elem("kbd", &[], TOGGLE)
        .text(" all keys")
        .close("span");
    h.close("footer");
}

/// The keys' panel, hidden until `?`: the key map's keys (those that
/// change nothing only, on a read-only board, as the footer shows them),
/// each row the keys of one action and label with that label.
pub(crate) fn panel(h: &mut Html, can_act: bool) {
    h.open(
        "aside",
        &[
            ("id", "keys"),
            ("class", "keys"),
            ("aria-labelledby", "keys-title"),
            ("data-toggle", TOGGLE),
            ("hidden", "hidden"),
        ],
    );
    h.elem("h2", &[("id", "keys-title")], "Keys");
    h.open("table", &[]).open("tbody", &[]);
    for group in groups(can_act) {
        // The row names its keys as the key map does (`data-keys`, a
        // space-separated list), its cells as the footer shows them.
        let names: Vec<&str> = group.iter().map(|k| k.key).collect();
        h.open("tr", &[("data-keys", &names.join(" "))])
            .open("th", &[]);
        for (i, k) in group.iter().enumerate() {
            if i > 0 {
                h.text(" ");
            }
            h.elem("kbd", &[], k.shown());
        }
        h.close("th").open("td", &[]).text(group[0].label);
        if group[0].input == KeyInput::Confirm {
            h.text(" ")
                .elem("span", &[("class", "s-muted")], "(asks first)");
        }
        h.close("td").close("tr");
    }
    h.open("tr", &[("data-keys", TOGGLE)])
        .open("th", &[])
        .elem("kbd", &[], TOGGLE)
        .close("th")
        .elem("td", &[], "show or hide these keys")
        .close("tr");
    h.close("tbody").close("table");
    if !can_act {
        h.elem(
            "p",
            &[("class", "s-muted")],
            &format!("The keys that change the board need a person: to act, {NO_PERSON_HINT}."),
        );
    }
    h.elem(
        "p",
        &[("class", "s-muted")],
        "? or esc closes this. The keys act on the selected card (click it, or select it with the keys above); in a field they type (esc leaves it).",
    );
    h.close("aside");
}

/// The key map's keys the panel shows, side by side where one action has
/// them under one label (`↑ k select`, `esc q close`), in the map's order.
fn groups(can_act: bool) -> Vec<Vec<&'static Key>> {
    let mut groups: Vec<Vec<&'static Key>> = Vec::new();
    for k in KEYS.iter().filter(|k| can_act || !k.writes()) {
        match groups.last_mut() {
            Some(g) if g[0].action == k.action && g[0].label == k.label => g.push(k),
            _ => groups.push(vec![k]),
        }
    }
    groups
}

/// The dialog a key that asks first opens (and its form's button): for
/// each such key of the key map and each kind of card, a template of its
/// question (`.what` takes the card's name), then Yes and No; and the
/// words for an answer that came too late (the card gone or changed).
pub(crate) fn ask(h: &mut Html) {
    h.open(
        "dialog",
        &[
            ("id", "ask"),
            ("class", "ask"),
            ("aria-labelledby", "ask-question"),
        ],
    );
    for k in KEYS.iter().filter(|k| k.input == KeyInput::Confirm) {
        for kind in KINDS {
            let (title, detail) = question(k, kind);
            h.open("template", &[("data-key", k.key), ("data-kind", kind)]);
            h.elem("p", &[("class", "title")], &title);
            h.elem("p", &[("class", "what")], "");
            if !detail.is_empty() {
                h.elem("p", &[("class", "detail s-muted")], detail);
            }
            h.close("template");
        }
    }
    h.open("form", &[("method", "dialog")]);
    h.open("div", &[("id", "ask-question"), ("class", "question")])
        .close("div");
    h.open("div", &[("class", "buttons")]);
    h.elem(
        "button",
        &[
            ("value", "yes"),
            ("class", "yes"),
            ("autofocus", "autofocus"),
        ],
        "Yes",
    );
    h.elem("button", &[("value", "no"), ("class", "no")], "No");
    h.close("div").close("form");
    h.elem(
        "p",
        &[("id", "ask-gone"), ("hidden", "hidden")],
        "Not done: what you chose is no longer on this page as it was when you were asked (deleted, moved or changed meanwhile), so nothing was sent. Look at it again, then act on it.",
    );
    h.close("dialog");
}

/// The question of key `k` on a card of `kind`: its title (from the key
/// map's label) and what saying yes does.
fn question(k: &Key, kind: &str) -> (String, &'static str) {
    let mut label = k.label.chars();
    let verb = match label.next() {
        Some(first) => first.to_uppercase().chain(label).collect::<String>(),
        None => String::new(),
    };
    let detail = match (k.action, kind) {
        ("approve", "list") => "Agents may then claim its tasks; the audit log names you.",
        ("approve", _) => {
            "It was added after the plan was approved; agents may claim it once you approve it."
        }
        ("delete", "list") => {
            "It and its tasks are soft-deleted; nothing is erased and the audit log keeps their history."
        }
        ("delete", _) => "It is soft-deleted from its list; its history stays in the audit log.",
        ("accept", _) => "It is done: the tasks that wait for it may start.",
        _ => "",
    };
    (format!("{verb} this {kind}?"), detail)
}

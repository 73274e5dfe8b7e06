//! What dropping a task's card does on the board: the rules are here,
//! drag.js only moves the card and sends what they say. A drop within a
//! column (or the order view) runs `move` to where the card landed; a
//! drop on another column runs the person's verb that puts a task there
//! (todo → paused: block, paused → todo: unblock, open → closed: done,
//! closed → todo: restore, running → todo: release), with the same
//! questions as its key; any other drop is refused with the words below,
//! and changes nothing.
//!
//! The page carries the rules in `#drops` (written only where the person
//! may act): one `<template>` per pair of columns (`data-verb`, or the
//! refusal's words), and, for a verb whose key asks for text (done: the
//! outcome, then the verification result where the task has one), the
//! dialog asking it.

use super::columns::COLUMNS;
use super::html::Html;
use crate::person::verbs::{self, Ask, Verb};

/// What a drop of a card from one column onto another does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Drop {
    /// The person's verb runs on the card's task.
    Runs(&'static Verb),
    /// Nothing changes: the component's words say why.
    Refused(&'static str),
}

/// Onto running: only an agent's claim starts a task.
pub(crate) const AGENTS_RUN: &str = "Not moved: a task runs when an agent claims it, so no card \
     can be dropped on running. Drop it on todo and an agent takes it in its turn.";
/// From running onto paused or closed: the agent's claim comes first.
pub(crate) const RELEASE_FIRST: &str = "Not moved: an agent is running this task. Take it back \
     first (drop it on todo: release), then pause or close it.";
/// From closed onto paused: a closed task opens again as todo.
pub(crate) const RESTORE_FIRST: &str = "Not moved: a closed task opens again as todo. Drop it on \
     todo first (restore), then pause it.";
/// A column the board does not have.
pub(crate) const NO_COLUMN: &str = "Not moved: the board has no such column.";

/// The words of the dialog's "no" (the question's own yes is the key's
/// label).
const NO: &str = "No";

/// What dropping a card standing in column `from` onto column `to` does
/// (the columns' `data-column`, board.rs).
pub(crate) fn between(from: &str, to: &str) -> Drop {
    let column = |key: &str| COLUMNS.iter().any(|(k, _, _)| *k == key);
    if !column(from) || !column(to) {
        return Drop::Refused(NO_COLUMN);
    }
    match (from, to) {
        _ if from == to => Drop::Runs(&verbs::MOVE),
        (_, "running") => Drop::Refused(AGENTS_RUN),
        ("todo", "paused") => Drop::Runs(&verbs::BLOCK),
        ("paused", "todo") => Drop::Runs(&verbs::UNBLOCK),
        ("todo" | "paused", "closed") => Drop::Runs(&verbs::DONE),
        ("closed", "todo") => Drop::Runs(&verbs::RESTORE),
        ("running", "todo") => Drop::Runs(&verbs::RELEASE),
        ("running", _) => Drop::Refused(RELEASE_FIRST),
        _ => Drop::Refused(RESTORE_FIRST),
    }
}

/// Writes `#drops`: the rules between the board's `columns` (each pair),
/// the verb a drop within one runs (`data-within`), and the dialogs of
/// the verbs that ask for text.
pub(crate) fn write<'a>(h: &mut Html, columns: impl Iterator<Item = &'a str> + Clone) {
    h.open(
        "div",
        &[
            ("id", "drops"),
            ("class", "drops"),
            ("hidden", "hidden"),
            ("data-within", verbs::MOVE.name),
        ],
    );
    let mut asking: Vec<&'static Verb> = Vec::new();
    for from in columns.clone() {
        for to in columns.clone().filter(|to| *to != from) {
            match between(from, to) {
                Drop::Runs(verb) => {
                    h.elem(
                        "template",
                        &[
                            ("data-from", from),
                            ("data-to", to),
                            ("data-verb", verb.name),
                        ],
                        "",
                    );
                    if prompt(verb).is_some() && !asking.contains(&verb) {
                        asking.push(verb);
                    }
                }
                Drop::Refused(words) => {
                    h.open("template", &[("data-from", from), ("data-to", to)]);
                    h.elem("p", &[], words);
                    h.close("template");
                }
            }
        }
    }
    for verb in asking {
        ask(h, verb);
    }
    h.close("div");
}

/// The key of `verb` that asks for text, and what it asks.
fn prompt(verb: &Verb) -> Option<(&'static verbs::Key, verbs::Prompt)> {
    verb.keys.iter().find_map(|k| match k.ask {
        Ask::Text(p) => Some((k, p)),
        _ => None,
    })
}

/// The dialog asking what `verb`'s key asks (its prompt, then the field
/// it asks next when the task needs it: drag.js keeps the fields the
/// card's own form of the verb holds), as a template drag.js shows.
fn ask(h: &mut Html, verb: &'static Verb) {
    let Some((key, prompt)) = prompt(verb) else {
        return;
    };
    h.open(
        "template",
        &[("class", "drop-ask"), ("data-verb", verb.name)],
    );
    h.open(
        "form",
        &[
            ("method", "dialog"),
            ("class", "drop-ask"),
            ("data-verb", verb.name),
        ],
    );
    field(h, verb, prompt.field, prompt.on_task);
    if let Some((name, words, _)) = prompt.then {
        field(h, verb, name, words);
    }
    h.open("div", &[("class", "buttons")]);
    h.elem("button", &[("value", "yes"), ("class", "yes")], key.label);
    h.elem(
        "button",
        &[
            ("value", "no"),
            ("class", "no"),
            ("formnovalidate", "formnovalidate"),
        ],
        NO,
    );
    h.close("div");
    h.close("form");
    h.close("template");
}

/// One asked field: its prompt (`{}`: the card's title, `.what`) and its
/// input, named as the verb's field.
fn field(h: &mut Html, verb: &Verb, name: &'static str, words: &str) {
    let placeholder = verb
        .field(name)
        .map(verbs::Field::placeholder)
        .unwrap_or_default();
    h.open("label", &[("data-field", name)]);
    let (before, after) = words.split_once("{}").unwrap_or((words, ""));
    h.open("span", &[("class", "prompt")]).text(before);
    if words.contains("{}") {
        h.elem("q", &[("class", "what")], "").text(after);
    }
    h.close("span");
    h.void(
        "input",
        &[
            ("type", "text"),
            ("name", name),
            ("placeholder", &placeholder),
            ("required", "required"),
            ("autocomplete", "off"),
        ],
    );
    h.close("label");
}

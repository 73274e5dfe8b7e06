//! The two forms with every field of a task: the task page's edit form
//! (the `edit` verb, every field sent whole) and the board's "New task"
//! fold (the `add` verb). Both are plain forms posting to `/act` (303
//! back without script, the board's `send` with it); their fields are
//! the verbs' own (`person/verbs.rs`), their suggestions the list's tasks
//! and agents (`suggest.rs`).

use super::html::Html;
use super::page::input_name;
use super::read::Dep;
use super::suggest::{self, Suggestions};
use crate::bindings::KeyInput;
use crate::model::{Priority, TaskRow};
use crate::person::keys;
use crate::person::verbs::{self, Verb};

/// The fields of the edit form an empty value clears (a browser's script
/// leaves empty fields out: `blank` names them so they still clear).
const CLEARED: &str = "description verification notes labels depends_on assignee";

/// Rows of a long text's box.
const ROWS: &str = "4";

/// The opening of a form of `verb` on `target`, with its own hidden fields.
fn open_form(h: &mut Html, verb: &'static Verb, class: &str, key: &str, target: &str, ret: &str) {
    let input = if key.is_empty() {
        KeyInput::None
    } else {
        KeyInput::Text
    };
    h.open(
        "form",
        &[
            ("class", class),
            ("method", "post"),
            ("action", "/act"),
            ("data-action", verb.name),
            ("data-key", key),
            ("data-input", input_name(input)),
        ],
    );
    hidden(h, "action", verb.name);
    hidden(h, "target", target);
    hidden(h, "return", ret);
}

fn hidden(h: &mut Html, name: &str, value: &str) {
    h.void(
        "input",
        &[("type", "hidden"), ("name", name), ("value", value)],
    );
}

/// A labelled one-line field; `list`: the datalist it suggests from.
fn line(h: &mut Html, label: &str, name: &str, value: &str, list: Option<&str>, required: bool) {
    h.open("label", &[("class", "field")]);
    h.elem("span", &[], label);
    let mut attrs = vec![
        ("type", "text"),
        ("name", name),
        ("value", value),
        ("autocomplete", "off"),
    ];
    if let Some(list) = list {
        attrs.push(("list", list));
    }
    if required {
        attrs.push(("required", "required"));
    }
    h.void("input", &attrs);
    h.close("label");
}

/// A labelled box for a text of several lines, shown as written.
fn area(h: &mut Html, label: &str, name: &str, value: &str) {
    h.open("label", &[("class", "field")]);
    h.elem("span", &[], label);
    // The parser drops one line break right after `<textarea>`: this one,
    // so a text that starts with a blank line keeps it; the one after
    // keeps a last line break (`multiline` drops the text's last).
    h.open("textarea", &[("name", name), ("rows", ROWS)])
        .multiline(&format!("\n{value}\n"))
        .close("textarea");
    h.close("label");
}

/// The priority, a choice of the three, `chosen` selected.
fn priority(h: &mut Html, chosen: Priority) {
    h.open("label", &[("class", "field")]);
    h.elem("span", &[], "priority");
    h.open("select", &[("name", "priority")]);
    for p in Priority::ALL {
        if p == chosen {
            h.elem(
                "option",
                &[("value", p.as_str()), ("selected", "selected")],
                p.as_str(),
            );
        } else {
            h.elem("option", &[("value", p.as_str())], p.as_str());
        }
    }
    h.close("select");
    h.close("label");
}

/// The dependency picker: the tasks waited for now, each a checkbox to
/// keep it (unchecked: dropped), and a field suggesting the list's tasks
/// by title or id to add one (several: separated by spaces).
fn deps(h: &mut Html, list_id: &str, now: &[Dep]) {
    h.open("fieldset", &[("class", "field deps")]);
    h.elem("legend", &[], "waits for");
    for d in now {
        h.open("label", &[("class", "dep")]);
        h.void(
            "input",
            &[
                ("type", "checkbox"),
                ("name", "depends_on"),
                ("value", &d.id),
                ("checked", "checked"),
            ],
        );
        h.elem("span", &[], &format!("#{} {}", d.position, d.title));
        h.close("label");
    }
    h.void(
        "input",
        &[
            ("type", "text"),
            ("name", "depends_on"),
            ("list", &suggest::tasks_id(list_id)),
            ("placeholder", "add a task: its title or id"),
            ("aria-label", "add a task it waits for"),
            ("autocomplete", "off"),
        ],
    );
    h.close("fieldset");
}

/// The task page's edit form: every field of `task` (waiting for `now`),
/// suggesting from `s`; its key is `edit`'s.
pub(crate) fn edit(h: &mut Html, task: &TaskRow, now: &[Dep], s: &Suggestions, ret: &str) {
    let key = keys::of(&verbs::EDIT, &[]).map_or("", |k| k.key);
    h.open("section", &[("class", "edit-task")]);
    h.elem("h2", &[], "Edit");
    open_form(h, &verbs::EDIT, "act edit-task", key, &task.id, ret);
    hidden(h, "blank", CLEARED);
    let text = |t: &Option<String>| t.clone().unwrap_or_default();
    let deps_now: Vec<&str> = now.iter().map(|d| d.id.as_str()).collect();
    let shown = [
        ("title", task.title.clone()),
        ("description", text(&task.description)),
        ("verification", text(&task.verification)),
        ("notes", text(&task.notes)),
        ("priority", task.priority.as_str().to_string()),
        ("labels", task.labels.join(" ")),
        ("depends_on", deps_now.join("\n")),
        (
            "assignee",
            task.assigned_to_agent_id.clone().unwrap_or_default(),
        ),
    ];
    // What each field showed: only what the person changed is written.
    let was: Vec<String> = shown
        .iter()
        .map(|(name, value)| format!("{name}:{}", super::act::was(value)))
        .collect();
    hidden(h, "was", &was.join(" "));
    line(h, "title", "title", &task.title, None, true);
    area(h, "description", "description", &text(&task.description));
    area(h, "verification", "verification", &text(&task.verification));
    area(h, "notes", "notes", &text(&task.notes));
    priority(h, task.priority);
    line(h, "labels", "labels", &task.labels.join(" "), None, false);
    deps(h, &task.list_id, now);
    let agents = suggest::agents_id(&task.list_id);
    let assignee = task.assigned_to_agent_id.as_deref().unwrap_or_default();
    line(h, "assignee", "assignee", assignee, Some(&agents), false);
    h.elem("button", &[("type", "submit")], "save");
    h.close("form");
    suggest::write(h, &task.list_id, s, Some(&task.id));
    h.close("section");
}

/// The board's "New task" fold: a task of `list_id` with every field.
/// Its suggestions are fetched when it opens (`?part=suggest`): the
/// board's refreshes stay as small as they were.
pub(crate) fn create(h: &mut Html, list_id: &str, ret: &str) {
    h.open("details", &[("class", "new-task"), ("data-list", list_id)]);
    h.elem("summary", &[], "New task");
    open_form(h, &verbs::ADD, "act new-task", "", list_id, ret);
    line(h, "title", "title", "", None, true);
    area(h, "description", "description", "");
    area(h, "verification", "verification", "");
    priority(h, Priority::default());
    line(h, "labels", "labels", "", None, false);
    deps(h, list_id, &[]);
    let agents = suggest::agents_id(list_id);
    line(h, "assignee", "assignee", "", Some(&agents), false);
    h.elem("button", &[("type", "submit")], "create");
    h.close("form");
    h.open("div", &[("class", "suggest")]).close("div");
    h.close("details");
}

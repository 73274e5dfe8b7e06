//! The person's action forms: one `<form class="act">` per action that
//! applies, posting to `/act` the action's name, its target, the page to
//! return to and the action's own fields (by the names `person/fields.rs`
//! reads). Each form's key and input come from the key map
//! (`person/keys.rs`), the one definition the dashboard reads too.

use super::card::list_href;
use super::html::Html;
use super::page::input_name;
use crate::bindings::KeyInput;
use crate::model::{Approval, ListRow, Status, TaskRow};
use crate::person::keys::{Does, KEYS, Key};

/// A field a form asks for.
enum Field {
    /// A line of text: its name, its placeholder, whether it is required
    /// and the value it starts with.
    Text(&'static str, &'static str, bool, String),
    /// A fixed value.
    Hidden(&'static str, &'static str),
    /// A choice among the values: its name and the values (the first
    /// chosen).
    Choice(&'static str, &'static [&'static str]),
}

/// One action's form.
struct Form<'a> {
    /// The person's action (`person-request.action`).
    action: &'static str,
    /// What the key map binds it to (None: no key).
    does: Option<Does>,
    /// The button's words.
    label: &'static str,
    /// The list or task acted on.
    target: &'a str,
    /// Its fields.
    fields: Vec<Field>,
    /// An extra class (`danger` for a delete).
    class: &'static str,
    /// Where it returns when not to the page it is on (a task's delete,
    /// from the task's page: the page is gone after it).
    back: Option<String>,
}

/// The key binding of `does`.
fn key_of(does: Does) -> Option<&'static Key> {
    KEYS.iter().find(|k| k.does == does)
}

impl Form<'_> {
    fn write(&self, h: &mut Html, ret: &str) {
        let key = self.does.and_then(key_of);
        let texts = self.fields.iter().any(|f| matches!(f, Field::Text(..)));
        // What a key press does with the form: focus its text, or send it
        // (a confirmation is the component's own question, asked on send).
        let input = match key.map(|k| k.input) {
            _ if texts => KeyInput::Text,
            Some(KeyInput::Confirm) => KeyInput::Confirm,
            _ => KeyInput::None,
        };
        let class = if self.class.is_empty() {
            "act".to_string()
        } else {
            format!("act {}", self.class)
        };
        h.open(
            "form",
            &[
                ("class", &class),
                ("method", "post"),
                ("action", "/act"),
                ("data-action", self.action),
                ("data-key", key.map_or("", |k| k.key)),
                ("data-input", input_name(input)),
            ],
        );
        hidden(h, "action", self.action);
        hidden(h, "target", self.target);
        hidden(h, "return", self.back.as_deref().unwrap_or(ret));
        for field in &self.fields {
            match field {
                Field::Text(name, placeholder, required, value) => {
                    let mut attrs = vec![
                        ("type", "text"),
                        ("name", *name),
                        ("placeholder", *placeholder),
                        ("aria-label", *placeholder),
                        ("autocomplete", "off"),
                    ];
                    if *required {
                        attrs.push(("required", "required"));
                    }
                    if !value.is_empty() {
                        attrs.push(("value", value.as_str()));
                    }
                    h.void("input", &attrs);
                }
                Field::Hidden(name, value) => hidden(h, name, value),
                Field::Choice(name, values) => {
                    h.open("select", &[("name", *name), ("aria-label", *name)]);
                    for v in *values {
                        h.elem("option", &[("value", *v)], v);
                    }
                    h.close("select");
                }
            }
        }
        let title = key.map(|k| format!("{} ({})", self.label, k.shown()));
        match &title {
            Some(t) => h.elem("button", &[("type", "submit"), ("title", t)], self.label),
            None => h.elem("button", &[("type", "submit")], self.label),
        };
        h.close("form");
    }
}

fn hidden(h: &mut Html, name: &'static str, value: &str) {
    h.void(
        "input",
        &[("type", "hidden"), ("name", name), ("value", value)],
    );
}

fn form<'a>(
    action: &'static str,
    does: Option<Does>,
    label: &'static str,
    target: &'a str,
    fields: Vec<Field>,
) -> Form<'a> {
    Form {
        action,
        does,
        label,
        target,
        fields,
        class: "",
        back: None,
    }
}

/// A list's decision forms: Approve while its plan (or a task added
/// since) awaits approval, Reject while it is pending or approved.
pub(crate) fn list_decision(h: &mut Html, list: &ListRow, awaits: bool, ret: &str) {
    let mut forms = Vec::new();
    if awaits {
        forms.push(form(
            "approve",
            Some(Does::Approve),
            "approve",
            &list.id,
            Vec::new(),
        ));
    }
    if matches!(list.approval, Some(Approval::Pending | Approval::Approved)) {
        forms.push(form(
            "reject",
            Some(Does::Reject),
            "reject",
            &list.id,
            vec![Field::Text("reason", "reason", true, String::new())],
        ));
    }
    write_all(h, &forms, ret, "list-actions");
}

/// The "Add a task" form of a list.
pub(crate) fn add_task(h: &mut Html, list_id: &str, ret: &str) {
    let add = form(
        "add",
        Some(Does::Add),
        "add",
        list_id,
        vec![
            Field::Text("title", "Add a task", true, String::new()),
            Field::Choice("priority", &["medium", "high", "low"]),
        ],
    );
    write_all(h, &[add], ret, "add");
}

/// The forms of every action that applies to `task`; on a card (not
/// `whole`) the rarer ones (move first, rename, assign, delete) folded.
pub(crate) fn task_actions(h: &mut Html, task: &TaskRow, ret: &str, whole: bool) {
    let id = task.id.as_str();
    let mut forms = Vec::new();
    if task.awaits_approval {
        forms.push(form(
            "approve",
            Some(Does::Approve),
            "approve",
            id,
            Vec::new(),
        ));
    }
    if task.status == Status::InProgress {
        // An agent runs it: only what a person may do under its claim
        // (take it back, move it); the rest waits for the release.
        let mut release = form("release", Some(Does::Release), "release", id, Vec::new());
        release.class = "danger";
        forms.push(release);
        forms.push(move_form(id, "up", Does::MoveUp, "move up"));
        forms.push(move_form(id, "down", Does::MoveDown, "move down"));
        let more = vec![move_form(id, "first", Does::MoveFirst, "move first")];
        write_folded(h, forms, more, ret, whole);
        return;
    }
    let closed = task.is_closed();
    if !closed {
        let mut done = vec![Field::Text("outcome", "outcome", true, String::new())];
        if task.verification.is_some() {
            done.push(Field::Text(
                "verification_result",
                "verification result",
                true,
                String::new(),
            ));
        }
        forms.push(form("done", Some(Does::Done), "done", id, done));
        forms.push(form(
            "priority",
            Some(Does::Priority),
            "priority",
            id,
            vec![Field::Hidden("priority", "cycle")],
        ));
        if task.status == Status::Blocked {
            forms.push(form(
                "unblock",
                Some(Does::Block),
                "unblock",
                id,
                Vec::new(),
            ));
        } else {
            forms.push(form("block", Some(Does::Block), "block", id, Vec::new()));
        }
    }
    forms.push(move_form(id, "up", Does::MoveUp, "move up"));
    forms.push(move_form(id, "down", Does::MoveDown, "move down"));
    if closed {
        forms.push(form(
            "restore",
            Some(Does::Cancel),
            "restore",
            id,
            Vec::new(),
        ));
    } else {
        forms.push(form(
            "cancel",
            Some(Does::Cancel),
            "cancel",
            id,
            vec![Field::Text("outcome", "why cancel", true, String::new())],
        ));
    }
    let mut more = vec![move_form(id, "first", Does::MoveFirst, "move first")];
    more.push(form(
        "edit",
        Some(Does::Edit),
        "rename",
        id,
        vec![Field::Text("title", "title", true, task.title.clone())],
    ));
    more.push(form(
        "assign",
        Some(Does::Assign),
        "assign",
        id,
        vec![Field::Text("agent", "agent id", true, String::new())],
    ));
    if task.assigned_to_agent_id.is_some() {
        more.push(form("unassign", None, "unassign", id, Vec::new()));
    }
    let mut delete = form("delete", Some(Does::Delete), "delete", id, Vec::new());
    delete.class = "danger";
    if whole {
        delete.back = Some(list_href(&task.list_id));
    }
    more.push(delete);
    write_folded(h, forms, more, ret, whole);
}

/// A task's `forms`, then its rarer `more`: all in a row on its `whole`
/// page, folded on a card (their keys still reach them).
fn write_folded<'a>(
    h: &mut Html,
    mut forms: Vec<Form<'a>>,
    more: Vec<Form<'a>>,
    ret: &str,
    whole: bool,
) {
    if whole {
        forms.extend(more);
        write_all(h, &forms, ret, "actions");
        return;
    }
    write_all(h, &forms, ret, "actions");
    h.open("details", &[("class", "more")]);
    h.elem("summary", &[], "more");
    write_all(h, &more, ret, "actions");
    h.close("details");
}

fn move_form<'a>(id: &'a str, to: &'static str, does: Does, label: &'static str) -> Form<'a> {
    form("move", Some(does), label, id, vec![Field::Hidden("to", to)])
}

fn write_all(h: &mut Html, forms: &[Form], ret: &str, class: &'static str) {
    if forms.is_empty() {
        return;
    }
    h.open("div", &[("class", class)]);
    for f in forms {
        f.write(h, ret);
    }
    h.close("div");
}

//! The person's action forms: one `<form class="act">` per verb that
//! applies, posting to `/act` the verb's name, its target, the page to
//! return to and the verb's own fields. What each form asks, how its
//! inputs read, its key and what the key asks come from the verb's row
//! (`person/verbs.rs`) and the key map, the definitions the shell and the
//! dashboard read too; which forms a card shows, and in what order, is
//! the board's own layout.

use super::card::list_href;
use super::html::Html;
use super::page::input_name;
use crate::bindings::KeyInput;
use crate::model::{Approval, ListRow, Status, TaskRow};
use crate::person::keys;
use crate::person::verbs::{self, Aim, Ask, Verb};
use crate::views::inbox::{self, Kind};
use crate::waits::WaitsOn;

/// A field a form asks for.
enum Field {
    /// A line of text: its name, its placeholder, whether it is required
    /// and the value it starts with.
    Text(&'static str, String, bool, String),
    /// A fixed value.
    Hidden(&'static str, &'static str),
    /// A choice among the values: its name and the values (the first
    /// chosen).
    Choice(&'static str, &'static [&'static str]),
}

/// One verb's form.
struct Form<'a> {
    /// The verb (`person-request.action`).
    verb: &'static Verb,
    /// The button's words.
    label: &'static str,
    /// The list or task acted on.
    target: &'a str,
    /// Its fields.
    fields: Vec<Field>,
    /// The fields it sets without asking (a key's presets: which key).
    preset: &'static [(&'static str, &'static str)],
    /// An extra class (`danger` for a delete).
    class: &'static str,
    /// Where it returns when not to the page it is on (a task's delete,
    /// from the task's page: the page is gone after it).
    back: Option<String>,
}

impl Form<'_> {
    fn write(&self, h: &mut Html, ret: &str) {
        let key = keys::of(self.verb, self.preset);
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
                ("data-action", self.verb.name),
                ("data-key", key.map_or("", |k| k.key)),
                ("data-input", input_name(input)),
            ],
        );
        hidden(h, "action", self.verb.name);
        hidden(h, "target", self.target);
        hidden(h, "return", self.back.as_deref().unwrap_or(ret));
        for field in &self.fields {
            match field {
                Field::Text(name, placeholder, required, value) => {
                    let mut attrs = vec![
                        ("type", "text"),
                        ("name", *name),
                        ("placeholder", placeholder.as_str()),
                        ("aria-label", placeholder.as_str()),
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

/// The form of `verb` on `target` (a `task`'s, to fill what the task
/// decides), asking what its row says: the fields its key presets
/// (`preset`: which of its keys), the text its key asks (all required:
/// the form's one way to run it), then its fields with a few values as a
/// menu.
fn form<'a>(
    verb: &'static Verb,
    preset: &'static [(&'static str, &'static str)],
    label: &'static str,
    target: &'a str,
    task: Option<&TaskRow>,
) -> Form<'a> {
    let mut fields: Vec<Field> = preset.iter().map(|(n, v)| Field::Hidden(n, v)).collect();
    let asks = verb.keys.iter().find(|k| k.preset == preset).map(|k| k.ask);
    if let Some(Ask::Text(prompt)) = asks {
        let text = |name: &'static str, value: String| {
            let placeholder = verb.field(name).map(verbs::Field::placeholder);
            Field::Text(name, placeholder.unwrap_or_default(), true, value)
        };
        let value = task
            .and_then(|t| prompt.prefill.and_then(|prefill| prefill(t)))
            .unwrap_or_default();
        fields.push(text(prompt.field, value));
        if let (Some(t), Some((field, _, when))) = (task, prompt.then)
            && when(t)
        {
            fields.push(text(field, String::new()));
        }
    }
    for field in verb.fields.iter().filter(|f| !f.choices.is_empty()) {
        fields.push(Field::Choice(field.name, field.choices));
    }
    Form {
        verb,
        label,
        target,
        fields,
        preset,
        class: "",
        back: None,
    }
}

/// The verbs the layout below places itself; a task's card offers any
/// other verb that has a key among its rarer forms, under the key's label.
static PLACED: &[&Verb] = &[
    &verbs::APPROVE,
    &verbs::REJECT,
    &verbs::ANSWER,
    &verbs::ACCEPT,
    &verbs::RETURN,
    &verbs::ADD,
    &verbs::EDIT,
    &verbs::PRIORITY,
    &verbs::BLOCK,
    &verbs::UNBLOCK,
    &verbs::CANCEL,
    &verbs::RESTORE,
    &verbs::ASSIGN,
    &verbs::UNASSIGN,
    &verbs::MOVE,
    &verbs::DONE,
    &verbs::RELEASE,
    &verbs::DELETE,
    &verbs::NEXT,
];

/// A list's decision forms: Approve while its plan (or a task added
/// since) awaits approval, Reject while it is pending or approved.
pub(crate) fn list_decision(h: &mut Html, list: &ListRow, awaits: bool, ret: &str) {
    let mut forms = Vec::new();
    if awaits {
        forms.push(form(&verbs::APPROVE, &[], "approve", &list.id, None));
    }
    if matches!(list.approval, Some(Approval::Pending | Approval::Approved)) {
        forms.push(form(&verbs::REJECT, &[], "reject", &list.id, None));
    }
    write_all(h, &forms, ret, "list-actions");
}

/// The "Add a task" form of a list, and its "New task" fold with every
/// field.
pub(crate) fn add_task(h: &mut Html, list_id: &str, ret: &str) {
    let add = form(&verbs::ADD, &[], "add", list_id, None);
    write_all(h, &[add], ret, "add");
    super::edit_form::create(h, list_id, ret);
}

/// The forms of an inbox entry's actions (the verbs that settle it, as
/// the inbox names them, first the one meant), aimed at its task, or at
/// its list for a plan. The inbox reads no task row, so a text the verb
/// starts from the task's own (edit's title) starts from the entry's.
pub(crate) fn entry_actions(h: &mut Html, entry: &inbox::Entry, ret: &str) {
    let target = match (entry.kind, entry.task_id.as_deref()) {
        (Kind::Approval, _) | (_, None) => entry.list_id.as_str(),
        (_, Some(task)) => task,
    };
    let mut forms = Vec::new();
    for verb in entry.actions.iter().filter_map(|a| verbs::find(a).ok()) {
        let preset = verb.keys.first().map_or(&[][..], |k| k.preset);
        let mut f = form(verb, preset, verb.name, target, None);
        for field in &mut f.fields {
            if let Field::Text("title", _, _, value) = field
                && value.is_empty()
            {
                value.clone_from(&entry.title);
            }
        }
        if verb == &verbs::RELEASE {
            f.class = "danger";
        }
        forms.push(f);
    }
    write_all(h, &forms, ret, "actions");
}

/// The forms of every action that applies to `task`; on a card (not
/// `whole`) the rarer ones (move first, rename, assign, delete) folded.
pub(crate) fn task_actions(h: &mut Html, task: &TaskRow, ret: &str, whole: bool) {
    let id = task.id.as_str();
    // A verb's form as its first key runs it (priority's: cycle).
    let on = |verb: &'static Verb, label: &'static str| {
        let preset = verb.keys.first().map_or(&[][..], |k| k.preset);
        form(verb, preset, label, id, Some(task))
    };
    let moved = |to: &'static [(&'static str, &'static str)], label: &'static str| {
        form(&verbs::MOVE, to, label, id, Some(task))
    };
    let (up, down, first): (&'static [_], &'static [_], &'static [_]) =
        (&[("to", "up")], &[("to", "down")], &[("to", "first")]);
    let mut forms = Vec::new();
    if task.awaits_approval {
        forms.push(on(&verbs::APPROVE, "approve"));
    }
    // What the task waits on a person for comes first, and only then:
    // answer, accept and return apply to nothing else.
    for verb in settles(task) {
        forms.push(on(verb, verb.name));
    }
    if task.status == Status::InProgress {
        // An agent runs it: only what a person may do under its claim
        // (take it back, move it); the rest waits for the release.
        let mut release = on(&verbs::RELEASE, "release");
        release.class = "danger";
        forms.push(release);
        forms.push(moved(up, "move up"));
        forms.push(moved(down, "move down"));
        let more = vec![moved(first, "move first")];
        write_folded(h, forms, more, ret, whole);
        return;
    }
    let closed = task.is_closed();
    if !closed {
        forms.push(on(&verbs::DONE, "done"));
        forms.push(on(&verbs::PRIORITY, "priority"));
        if task.status == Status::Blocked {
            forms.push(on(&verbs::UNBLOCK, "unblock"));
        } else {
            forms.push(on(&verbs::BLOCK, "block"));
        }
    }
    forms.push(moved(up, "move up"));
    forms.push(moved(down, "move down"));
    if closed {
        forms.push(on(&verbs::RESTORE, "restore"));
    } else {
        forms.push(on(&verbs::CANCEL, "cancel"));
    }
    let mut more = vec![moved(first, "move first")];
    // A task's page has the form editing every field instead.
    if !whole {
        more.push(on(&verbs::EDIT, "rename"));
    }
    more.push(on(&verbs::ASSIGN, "assign"));
    if task.assigned_to_agent_id.is_some() {
        more.push(on(&verbs::UNASSIGN, "unassign"));
    }
    // A verb with a key this layout does not place: among the rarer ones.
    for verb in verbs::VERBS.iter().copied() {
        if verb.aim != Aim::List
            && !PLACED.contains(&verb)
            && let Some(key) = verb.keys.first()
        {
            more.push(on(verb, key.label));
        }
    }
    let mut delete = on(&verbs::DELETE, "delete");
    delete.class = "danger";
    if whole {
        delete.back = Some(list_href(&task.list_id));
    }
    more.push(delete);
    write_folded(h, forms, more, ret, whole);
}

/// The verbs that settle what `task` waits on a person for: its
/// question's answer, or its review's acceptance or return; none while it
/// waits on nobody.
fn settles(task: &TaskRow) -> &'static [&'static Verb] {
    static ANSWER: [&Verb; 1] = [&verbs::ANSWER];
    static REVIEW: [&Verb; 2] = [&verbs::ACCEPT, &verbs::RETURN];
    match task.waits_on {
        Some(WaitsOn::Answer) => &ANSWER,
        Some(WaitsOn::Review) => &REVIEW,
        None => &[],
    }
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

//! One input on the dashboard: a key of the key map (moving the
//! selection, opening, an action on the selection), a key or a paste
//! typed into the open prompt, or nothing (a redraw). What an action
//! needs first (a line of text, a yes/no) opens a prompt; a complete
//! action is handed back to run.

use serde_json::{Map, Value as Json};

use super::super::identity::{self, NO_PERSON_HINT};
use super::super::keys::{self, Does};
use super::super::verbs::{self, Aim, Ask, Verb};
use super::board::Board;
use super::state::{Message, PROMPT_MAX, Prompt, State};
use crate::bindings::{CallContext, DashboardInput, PersonRequest, PersonSurface};
use crate::model::TaskRow;
use crate::text::{for_screen, quote};

/// What the input asks of the dashboard besides a new state.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Effect {
    /// Nothing more: draw it.
    Draw,
    /// The person closed it.
    Close,
    /// Run this person's action, then draw.
    Act(PersonRequest),
}

/// A row that can be selected: a list (on the lists) or a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    /// The visible lists.
    Lists,
    /// The opened list's tasks.
    Tasks,
    /// One task's details.
    Detail,
}

/// Where the dashboard is.
pub(crate) fn level(state: &State) -> Level {
    match (&state.list, &state.detail) {
        (Some(_), Some(_)) => Level::Detail,
        (Some(_), None) => Level::Tasks,
        _ => Level::Lists,
    }
}

/// The ids of the selectable rows, in screen order.
pub(crate) fn rows(state: &State, board: &Board) -> Vec<String> {
    match level(state) {
        Level::Lists => board.lists.iter().map(|e| e.list.id.clone()).collect(),
        Level::Tasks => board
            .opened
            .as_ref()
            .map(|o| o.tasks.iter().map(|t| t.id.clone()).collect())
            .unwrap_or_default(),
        Level::Detail => Vec::new(),
    }
}

/// Keeps the selection on a row that exists: the same id if it is still
/// there, else the row at the same place (or the last).
pub(crate) fn settle(state: &mut State, rows: &[String]) {
    if let Some(i) = state
        .selected
        .as_ref()
        .and_then(|id| rows.iter().position(|r| r == id))
    {
        state.row = i;
        return;
    }
    match rows.len() {
        0 => {
            state.selected = None;
            state.row = 0;
        }
        n => {
            state.row = state.row.min(n - 1);
            state.selected = Some(rows[state.row].clone());
        }
    }
}

/// Applies `input` to `state` (the board as read before it).
pub(crate) fn apply(
    state: &mut State,
    board: &Board,
    input: &DashboardInput,
    fixed_list: bool,
    ctx: &CallContext,
) -> Effect {
    if let Some(prompt) = state.prompt.take() {
        return typed(state, prompt, input);
    }
    let DashboardInput::Key(name) = input else {
        return Effect::Draw;
    };
    let Some(key) = keys::find(name) else {
        return Effect::Draw;
    };
    let rows = rows(state, board);
    match key.does {
        Does::SelectPrevious | Does::SelectNext => {
            if !rows.is_empty() {
                let i = if matches!(key.does, Does::SelectNext) {
                    (state.row + 1).min(rows.len() - 1)
                } else {
                    state.row.saturating_sub(1)
                };
                state.row = i;
                state.selected = Some(rows[i].clone());
            }
            Effect::Draw
        }
        Does::Open => {
            open(state);
            Effect::Draw
        }
        Does::Back => {
            back(state, fixed_list);
            Effect::Draw
        }
        Does::Close => Effect::Close,
        Does::HideFinished => {
            state.hide_finished = !state.hide_finished;
            Effect::Draw
        }
        // The web board's search: the terminal has none.
        Does::Find => Effect::Draw,
        _ if !identity::can_act(ctx) => {
            let why = identity::person(ctx, key.action).err();
            state.message = Some(Message {
                text: why.map_or_else(String::new, |e| e.message),
                hint: NO_PERSON_HINT.into(),
                failed: true,
            });
            Effect::Draw
        }
        Does::Verb(verb, key) => action(state, board, verb, key),
    }
}

/// `enter`: a list opens on its tasks, a task on its details.
fn open(state: &mut State) {
    match level(state) {
        Level::Lists => {
            if let Some(id) = state.selected.take() {
                state.list = Some(id);
                state.row = 0;
            }
        }
        Level::Tasks => state.detail = state.selected.clone(),
        Level::Detail => {}
    }
}

/// `backspace`/`left`: details back to the tasks, tasks back to the lists
/// (unless the dashboard shows one list only).
fn back(state: &mut State, fixed_list: bool) {
    match level(state) {
        Level::Detail => state.detail = None,
        Level::Tasks if !fixed_list => {
            state.selected = state.list.take();
            state.row = 0;
        }
        _ => {}
    }
}

/// What a write key aims at, on this level: the selected (or opened)
/// list, and the selected (or detailed) task.
fn aims<'b>(
    state: &State,
    board: &'b Board,
) -> (Option<&'b crate::model::ListRow>, Option<&'b TaskRow>) {
    match level(state) {
        Level::Lists => {
            let list = board
                .lists
                .iter()
                .find(|e| Some(&e.list.id) == state.selected.as_ref())
                .map(|e| &e.list);
            (list, None)
        }
        Level::Tasks | Level::Detail => {
            let opened = board.opened.as_ref();
            let id = state.detail.as_ref().or(state.selected.as_ref());
            let task = opened.and_then(|o| o.tasks.iter().find(|t| Some(&t.id) == id));
            let task = task.or(board.detail_row.as_ref().filter(|t| Some(&t.id) == id));
            (opened.map(|o| &o.entry.list), task)
        }
    }
}

/// A verb's key on the selection: runs at once, or opens its prompt, as
/// the verb's row says.
fn action(state: &mut State, board: &Board, verb: &'static Verb, key: &verbs::Key) -> Effect {
    let (list, task) = aims(state, board);
    state.message = None;
    let task = task.filter(|t| match verb.aim {
        Aim::List => false,
        Aim::Task => true,
        Aim::Either => (key.takes_task)(t),
    });
    let truncated = |text: &str| quote(&for_screen(&crate::render::fmt::truncate(text, 40)));
    // The target, its name and the words of a question on it.
    let (target, name, on_task) = match (task, list) {
        (Some(t), _) => (t.id.clone(), truncated(&t.title), true),
        (None, Some(l)) if verb.aim != Aim::Task => (l.id.clone(), truncated(&l.name), false),
        _ => {
            let what = match verb.aim {
                Aim::List => "a list",
                Aim::Task => "a task",
                Aim::Either => "a list or a task",
            };
            return nothing_selected(state, what);
        }
    };
    if let (Some(t), Some((when, other))) = (task, key.instead)
        && when(t)
    {
        return run(&target, other.name, Map::new(), false);
    }
    let preset: Map<String, Json> = key
        .preset
        .iter()
        .map(|(field, value)| ((*field).to_string(), Json::from(*value)))
        .collect();
    let words = |on_a_task: &str, on_a_list: &str| {
        let template = if on_task { on_a_task } else { on_a_list };
        template.replace("{}", &name)
    };
    match key.ask {
        Ask::Nothing => run(&target, verb.name, preset, false),
        Ask::YesNo(on_a_task, on_a_list) => ask(
            state,
            Prompt {
                yes_no: true,
                fields: preset,
                ..prompt(verb.name, target, words(on_a_task, on_a_list), "")
            },
        ),
        Ask::Text(p) => {
            let mut asked = Prompt {
                fields: preset,
                buffer: task
                    .and_then(|t| p.prefill.and_then(|prefill| prefill(t)))
                    .unwrap_or_default(),
                ..prompt(verb.name, target, words(p.on_task, p.on_list), p.field)
            };
            if let (Some(t), Some((field, label, when))) = (task, p.then)
                && when(t)
            {
                asked.then.push((field.into(), label.into()));
            }
            ask(state, asked)
        }
    }
}

/// A prompt for `action` on `target`, filling `field`.
fn prompt(action: &str, target: String, label: String, field: &str) -> Prompt {
    Prompt {
        action: action.into(),
        target,
        label,
        field: field.into(),
        ..Prompt::default()
    }
}

/// Opens `prompt`.
fn ask(state: &mut State, prompt: Prompt) -> Effect {
    state.prompt = Some(prompt);
    Effect::Draw
}

/// The action to run.
fn run(target: &str, action: &str, fields: Map<String, Json>, confirmed: bool) -> Effect {
    Effect::Act(PersonRequest {
        action: action.into(),
        target: target.into(),
        fields: if fields.is_empty() {
            String::new()
        } else {
            Json::Object(fields).to_string()
        },
        confirmed,
        surface: PersonSurface::Dashboard,
    })
}

/// Says the key needs `what` selected.
fn nothing_selected(state: &mut State, what: &str) -> Effect {
    state.message = Some(Message {
        text: format!("select {what} first"),
        hint: String::new(),
        failed: true,
    });
    Effect::Draw
}

/// An input while `prompt` is open: typing, or its answer.
fn typed(state: &mut State, mut prompt: Prompt, input: &DashboardInput) -> Effect {
    let key = match input {
        DashboardInput::Refresh => {
            state.prompt = Some(prompt);
            return Effect::Draw;
        }
        DashboardInput::Paste(text) => {
            if !prompt.yes_no {
                push(&mut prompt.buffer, text);
            }
            state.prompt = Some(prompt);
            return Effect::Draw;
        }
        DashboardInput::Key(key) => key.as_str(),
    };
    if prompt.yes_no {
        return match key {
            "y" | "Y" | "enter" => run(
                &prompt.target,
                &prompt.action,
                prompt.fields,
                prompt.confirms,
            ),
            "n" | "N" | "escape" => Effect::Draw,
            _ => {
                state.prompt = Some(prompt);
                Effect::Draw
            }
        };
    }
    match key {
        "escape" => {
            // Cancelled: what it said about its answer goes with it.
            state.message = None;
            return Effect::Draw;
        }
        "enter" => return submit(state, prompt),
        "backspace" => {
            prompt.buffer.pop();
        }
        "space" => push(&mut prompt.buffer, " "),
        other if other.chars().count() == 1 => push(&mut prompt.buffer, other),
        // Named keys (arrows, tab) do not type.
        _ => {}
    }
    state.prompt = Some(prompt);
    Effect::Draw
}

/// Appends `text` to a prompt's buffer as one line of printable text,
/// within [`PROMPT_MAX`].
fn push(buffer: &mut String, text: &str) {
    let room = PROMPT_MAX.saturating_sub(buffer.chars().count());
    let clean: String = text
        .chars()
        .map(|c| {
            if c == '\n' || c == '\r' || c == '\t' {
                ' '
            } else {
                c
            }
        })
        .filter(|c| !c.is_control() && !crate::text::is_invisible(*c))
        .take(room)
        .collect();
    buffer.push_str(&clean);
}

/// `enter` on a text prompt: the field is answered; the next one is
/// asked, or the action runs.
fn submit(state: &mut State, mut prompt: Prompt) -> Effect {
    let answer = prompt.buffer.trim().to_string();
    // An empty answer may run another verb (assign's: unassign).
    let instead = verbs::find(&prompt.action).ok().and_then(|verb| {
        verb.keys.iter().find_map(|k| match k.ask {
            Ask::Text(p) if p.field == prompt.field => p.empty,
            _ => None,
        })
    });
    if let (Some(other), true) = (instead, answer.is_empty()) {
        return run(&prompt.target, other.name, Map::new(), false);
    }
    if answer.is_empty() {
        // Every other prompt's field is required: it stays open (what is
        // typed next is its text, never keys) until answered or cancelled.
        state.message = Some(Message {
            text: format!("{}: an answer is needed", prompt.label),
            hint: "type it and press enter, or esc to cancel".into(),
            failed: true,
        });
        state.prompt = Some(prompt);
        return Effect::Draw;
    }
    prompt
        .fields
        .insert(prompt.field.clone(), Json::from(answer));
    if !prompt.then.is_empty() {
        let (field, label) = prompt.then.remove(0);
        prompt.field = field;
        prompt.label = label;
        prompt.buffer.clear();
        state.prompt = Some(prompt);
        return Effect::Draw;
    }
    run(
        &prompt.target,
        &prompt.action,
        prompt.fields,
        prompt.confirms,
    )
}

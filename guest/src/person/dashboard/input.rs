//! One input on the dashboard: a key of the key map (moving the
//! selection, opening, an action on the selection), a key or a paste
//! typed into the open prompt, or nothing (a redraw). What an action
//! needs first (a line of text, a yes/no) opens a prompt; a complete
//! action is handed back to run.

use serde_json::{Map, Value as Json};

use super::super::identity::{self, NO_PERSON_HINT};
use super::super::keys::{self, Does};
use super::board::Board;
use super::state::{Message, PROMPT_MAX, Prompt, State};
use crate::bindings::{CallContext, DashboardInput, PersonRequest, PersonSurface};
use crate::model::{Status, TaskRow};
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
                let i = if key.does == Does::SelectNext {
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
        _ if !identity::can_act(ctx) => {
            let why = identity::person(ctx, key.action).err();
            state.message = Some(Message {
                text: why.map_or_else(String::new, |e| e.message),
                hint: NO_PERSON_HINT.into(),
                failed: true,
            });
            Effect::Draw
        }
        does => action(state, board, does),
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

/// A write key on the selection: runs at once, or opens its prompt.
fn action(state: &mut State, board: &Board, does: Does) -> Effect {
    let (list, task) = aims(state, board);
    state.message = None;
    let title = |t: &TaskRow| quote(&for_screen(&crate::render::fmt::truncate(&t.title, 40)));
    let name =
        |l: &crate::model::ListRow| quote(&for_screen(&crate::render::fmt::truncate(&l.name, 40)));
    // The list-level keys first: they take a list when no task is there.
    match does {
        Does::Approve => {
            let (target, label) = match (task, list) {
                (Some(t), _) if t.awaits_approval => {
                    (t.id.clone(), format!("Approve task {}?", title(t)))
                }
                (_, Some(l)) => (l.id.clone(), format!("Approve list {}?", name(l))),
                _ => return nothing_selected(state, "a list"),
            };
            return ask(
                state,
                Prompt {
                    yes_no: true,
                    ..prompt("approve", target, label, "")
                },
            );
        }
        Does::Reject => {
            let Some(l) = list else {
                return nothing_selected(state, "a list");
            };
            return ask(
                state,
                prompt(
                    "reject",
                    l.id.clone(),
                    format!("Reject {}, reason", name(l)),
                    "reason",
                ),
            );
        }
        Does::Add => {
            let (target, label) = match (task, list) {
                (Some(t), _) => (t.id.clone(), format!("New task after {}", title(t))),
                (None, Some(l)) => (l.id.clone(), format!("New task in {}", name(l))),
                _ => return nothing_selected(state, "a list"),
            };
            return ask(state, prompt("add", target, label, "title"));
        }
        Does::Delete if task.is_none() => {
            let Some(l) = list else {
                return nothing_selected(state, "a list or a task");
            };
            return run(&l.id, "delete", Map::new(), false);
        }
        _ => {}
    }
    let Some(t) = task else {
        return nothing_selected(state, "a task");
    };
    let id = t.id.clone();
    match does {
        Does::Edit => ask(
            state,
            Prompt {
                buffer: t.title.clone(),
                ..prompt("edit", id, "Title".into(), "title")
            },
        ),
        Does::Priority => run(&id, "priority", one("priority", "cycle"), false),
        Does::Block if t.status == Status::Blocked => run(&id, "unblock", Map::new(), false),
        Does::Block => run(&id, "block", Map::new(), false),
        Does::Cancel if t.is_closed() => run(&id, "restore", Map::new(), false),
        Does::Cancel => ask(
            state,
            prompt(
                "cancel",
                id,
                format!("Cancel {}, outcome", title(t)),
                "outcome",
            ),
        ),
        Does::Assign => ask(
            state,
            Prompt {
                buffer: t.assigned_to_agent_id.clone().unwrap_or_default(),
                ..prompt(
                    "assign",
                    id,
                    format!("Assign {} to (empty: nobody)", title(t)),
                    "agent",
                )
            },
        ),
        Does::MoveUp => run(&id, "move", one("to", "up"), false),
        Does::MoveDown => run(&id, "move", one("to", "down"), false),
        Does::MoveFirst => run(&id, "move", one("to", "first"), false),
        Does::Done => {
            let mut p = prompt("done", id, format!("Done {}, outcome", title(t)), "outcome");
            if t.verification.is_some() {
                p.then.push((
                    "verification_result".into(),
                    "What the verification showed".into(),
                ));
            }
            ask(state, p)
        }
        Does::Delete => run(&id, "delete", Map::new(), false),
        Does::Release => run(&id, "release", Map::new(), false),
        _ => Effect::Draw,
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

/// One field.
fn one(name: &str, value: &str) -> Map<String, Json> {
    let mut m = Map::new();
    m.insert(name.into(), Json::from(value));
    m
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
    if prompt.action == "assign" && answer.is_empty() {
        return run(&prompt.target, "unassign", Map::new(), false);
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

//! The person's dashboard: a selectable view of the visible lists and
//! their tasks that takes the key map's keys. Each input reads the store
//! again (so the screen is always current), applies the input to the
//! state the host passed back, runs the person's action it completes, and
//! lays the screen out for the view's width and height.
//!
//! `state.rs` what is kept between inputs, `input.rs` what an input does,
//! `board.rs` what is read, `layout.rs` the lines.

pub(crate) mod board;
mod input;
pub(crate) mod layout;
mod state;

use super::act::{self, Outcome};
use crate::bindings::{CallContext, DashboardInput, DashboardScreen, DashboardView, PersonRequest};
use crate::clock::Clock;
use crate::error::ToolError;
use crate::store::Store;
use input::Effect;
use state::{Message, Prompt, State};

/// The screen after `input`.
pub(crate) fn screen(
    state: &str,
    input: &DashboardInput,
    view: &DashboardView,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> DashboardScreen {
    let mut state = State::read(state);
    let fixed = view.list_id.is_some();
    if fixed && state.list.is_none() {
        state.list = view.list_id.clone();
    }
    let width = crate::views::columns(view.width);
    let mut board = match board::load(&state, view, ctx, store, clock) {
        Ok(board) => board,
        Err(e) => return failed(&state, input, &e, width),
    };
    if !state.drawn {
        state.drawn = true;
        // One list and nothing else: open it at once.
        if state.list.is_none() && board.lists.len() == 1 {
            state.list = Some(board.lists[0].list.id.clone());
            board = match board::load(&state, view, ctx, store, clock) {
                Ok(board) => board,
                Err(e) => return failed(&state, input, &e, width),
            };
        }
    }
    step_back(&mut state, &board);
    let rows = input::rows(&state, &board);
    input::settle(&mut state, &rows);
    let before = (
        state.list.clone(),
        state.detail.clone(),
        state.hide_finished,
    );
    match input::apply(&mut state, &board, input, fixed, ctx) {
        Effect::Close => {
            return DashboardScreen {
                state: state.write(),
                lines: Vec::new(),
                closed: true,
            };
        }
        Effect::Act(request) => {
            run(&mut state, &request, ctx, store, clock);
            board = reload(&state, view, ctx, store, clock, board);
        }
        Effect::Draw => {
            if before
                != (
                    state.list.clone(),
                    state.detail.clone(),
                    state.hide_finished,
                )
            {
                board = reload(&state, view, ctx, store, clock, board);
            }
        }
    }
    step_back(&mut state, &board);
    let rows = input::rows(&state, &board);
    input::settle(&mut state, &rows);
    DashboardScreen {
        lines: layout::lines(&state, &board, view, ctx, width),
        state: state.write(),
        closed: false,
    }
}

/// The board read again after a change (the last one if the store
/// cannot be read now: the result line says what happened).
fn reload(
    state: &State,
    view: &DashboardView,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
    last: board::Board,
) -> board::Board {
    board::load(state, view, ctx, store, clock).unwrap_or(last)
}

/// What was opened and is gone (deleted, no longer visible): back one
/// step, saying why.
fn step_back(state: &mut State, board: &board::Board) {
    let Some(why) = &board.gone else { return };
    if state.detail.take().is_none() && state.list.is_some() {
        state.selected = state.list.take();
    }
    state.message = Some(Message {
        text: why.clone(),
        hint: String::new(),
        failed: true,
    });
}

/// Runs a person's action from the dashboard; its result (or its
/// question) goes into the state.
fn run(
    state: &mut State,
    request: &PersonRequest,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) {
    match act::run(request, ctx, store, clock) {
        Ok(Outcome::Done(done)) => {
            if request.action == "add"
                && let Some(id) = done.data["task"]["id"].as_str()
            {
                // The new task is selected, to act on it next.
                state.selected = Some(id.to_string());
            }
            state.message = Some(Message {
                text: done.said,
                hint: String::new(),
                failed: false,
            });
        }
        Ok(Outcome::Confirm(question)) => {
            state.prompt = Some(Prompt {
                action: request.action.clone(),
                target: request.target.clone(),
                label: question.title,
                yes_no: true,
                fields: serde_json::from_str(&request.fields).unwrap_or_default(),
                confirms: true,
                ..Prompt::default()
            });
        }
        Err(e) => state.message = Some(refused(&crate::actions::printable_error(e))),
    }
}

/// The result line of a refused action.
fn refused(e: &ToolError) -> Message {
    Message {
        text: e.message.clone(),
        hint: e.hint.clone(),
        failed: true,
    }
}

/// The screen when the store cannot be read: the error and how to close
/// (a close key still closes).
fn failed(state: &State, input: &DashboardInput, e: &ToolError, width: usize) -> DashboardScreen {
    let closes = state.prompt.is_none()
        && matches!(input, DashboardInput::Key(k)
            if super::keys::find(k).is_some_and(|k| matches!(k.does, super::keys::Does::Close)));
    DashboardScreen {
        lines: if closes {
            Vec::new()
        } else {
            layout::failure(e, width)
        },
        state: state.write(),
        closed: closes,
    }
}

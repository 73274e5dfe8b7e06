//! The person's side: the entry point a person's surfaces call (a verb at
//! a shell, the dashboard's keys, a board's buttons), distinct from the
//! five tools, the dashboard's key map, and the dashboard itself.
//!
//! (Interface fixed by the lead; the bodies are being written.)

use crate::bindings::{
    CallContext, DashboardInput, DashboardScreen, DashboardView, KeyBinding, PersonRefused,
    PersonReply, PersonRequest,
};
use crate::clock::Clock;
use crate::error::ToolError;
use crate::store::Store;

/// Carries out a person's action as `ctx.person`, laid out for `width`.
pub fn act(
    _request: &PersonRequest,
    _ctx: &CallContext,
    _width: u32,
    _store: &dyn Store,
    _clock: &dyn Clock,
) -> PersonReply {
    let error = ToolError::invalid("the person's actions are not built yet", "");
    PersonReply::Refused(PersonRefused {
        lines: crate::render::render_error(&error),
        error,
    })
}

/// The dashboard's keys, in footer order.
pub fn key_map() -> Vec<KeyBinding> {
    Vec::new()
}

/// The dashboard after `input`, from the `state` the last screen returned.
pub fn dashboard(
    state: &str,
    _input: &DashboardInput,
    _view: &DashboardView,
    _ctx: &CallContext,
    _store: &dyn Store,
    _clock: &dyn Clock,
) -> DashboardScreen {
    DashboardScreen {
        state: state.to_string(),
        lines: Vec::new(),
        closed: false,
    }
}

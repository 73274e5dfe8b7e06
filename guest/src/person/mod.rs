//! The person's side: the entry point a person's surfaces call (a verb at
//! a shell, the dashboard's keys, a slash command), distinct from the five
//! tools, the dashboard's key map, and the dashboard itself.
//!
//! A person's action runs the tools' own actions (`crate::actions`) with
//! the person set: the same rules and audit, events naming the person.
//! One concern a file: `identity.rs` who the person is, `verbs.rs` the
//! one table of verbs (what `ui.verbs` publishes), `fields.rs` a
//! request's fields checked against its verb, `resolve.rs` ids from a
//! prefix or tail, `act.rs` each verb's handler, `reply.rs` its reply laid
//! out, `keys.rs` the key map (the dashboard's own moves around the verbs'
//! keys), `words.rs` a refusal in the words of the surface acted on,
//! `dashboard/` the dashboard (state, input, what it reads, its layout).

pub(crate) mod act;
pub(crate) mod dashboard;
pub(crate) mod fields;
pub(crate) mod identity;
pub(crate) mod keys;
pub(crate) mod reply;
mod resolve;
#[cfg(test)]
mod tests;
pub(crate) mod verbs;
pub(crate) mod words;

use crate::bindings::{
    CallContext, DashboardInput, DashboardScreen, DashboardView, KeyBinding, PersonReply,
    PersonRequest, VerbInfo,
};
use crate::clock::Clock;
use crate::store::Store;

/// Carries out a person's action as `ctx.person`, laid out for `width`.
pub fn act(
    request: &PersonRequest,
    ctx: &CallContext,
    width: u32,
    store: &dyn Store,
    clock: &dyn Clock,
) -> PersonReply {
    let outcome = act::run(request, ctx, store, clock);
    reply::lay_out(outcome, crate::views::columns(width))
}

/// The person's verbs, in the order a shell lists them.
pub fn verbs() -> Vec<VerbInfo> {
    verbs::VERBS.iter().map(|v| v.info()).collect()
}

/// The dashboard's keys, in footer order.
pub fn key_map() -> Vec<KeyBinding> {
    keys::KEYS.iter().map(keys::Key::binding).collect()
}

/// The dashboard after `input`, from the `state` the last screen returned.
pub fn dashboard(
    state: &str,
    input: &DashboardInput,
    view: &DashboardView,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> DashboardScreen {
    dashboard::screen(state, input, view, ctx, store, clock)
}

/// The person's inbox as `ctx` sees it, laid out for `view.width`; with
/// `stalled_after_minutes`, the new threshold is saved first, as
/// `ctx.person` (a read-only surface cannot).
pub fn inbox(
    ctx: &CallContext,
    view: &crate::bindings::InboxView,
    store: &dyn Store,
    clock: &dyn Clock,
) -> crate::error::ToolResult<crate::bindings::InboxOutput> {
    use crate::views::inbox;
    if let Some(minutes) = view.stalled_after_minutes {
        let person = identity::person(ctx, "setting the stalled threshold")?;
        inbox::set_stalled_minutes(store, clock, person, i64::from(minutes))?;
    }
    let read = inbox::load(ctx, store, clock)?;
    Ok(crate::bindings::InboxOutput {
        lines: inbox::lines(&read, crate::views::columns(view.width)),
        data: crate::results::to_json(&read).to_string(),
        count: u32::try_from(read.count).unwrap_or(u32::MAX),
    })
}

//! Helpers for the person's side through the real component: a person's
//! action (`ui.person-act`), the key map and the dashboard driven by keys
//! (`ui.dashboard`), as a host calls them.

use serde_json::Value;
pub use tasklists_host::{
    CommandEffect, DashboardInput, DashboardScreen, DashboardView, KeyBinding, KeyInput,
    PersonReply, PersonRequest, PersonSurface,
};

use crate::{CallContext, TestDb, ToolError, plain};

/// The context of `agent` with `person` at the keyboard.
pub fn person_ctx(agent: &str, person: Option<&str>) -> CallContext {
    CallContext {
        person: person.map(str::to_owned),
        ..CallContext::agent(agent)
    }
}

impl TestDb {
    /// A person's action through `ui.person-act` (`fields` null: none),
    /// laid out for 100 columns.
    #[track_caller]
    pub fn person_act(
        &self,
        ctx: &CallContext,
        action: &str,
        target: &str,
        fields: Value,
        confirmed: bool,
    ) -> PersonReply {
        let request = PersonRequest {
            action: action.into(),
            target: target.into(),
            fields: if fields.is_null() {
                String::new()
            } else {
                fields.to_string()
            },
            confirmed,
            surface: PersonSurface::Shell,
        };
        self.host()
            .person_act(&request, ctx, 100)
            .expect("person-act answers")
    }

    /// A person's action that must be carried out: its data.
    #[track_caller]
    pub fn person_ok(&self, ctx: &CallContext, action: &str, target: &str, fields: Value) -> Value {
        match self.person_act(ctx, action, target, fields, true) {
            PersonReply::Done(d) => {
                assert!(!d.lines.is_empty(), "{action}: no lines");
                serde_json::from_str(&d.data).expect("data is JSON")
            }
            other => panic!("{action} {target}: {other:?}"),
        }
    }

    /// A person's action that must be refused: its error.
    #[track_caller]
    pub fn person_err(
        &self,
        ctx: &CallContext,
        action: &str,
        target: &str,
        fields: Value,
    ) -> ToolError {
        match self.person_act(ctx, action, target, fields, true) {
            PersonReply::Refused(r) => {
                assert!(
                    plain(&r.lines).starts_with("✗ "),
                    "the lines show the error: {}",
                    plain(&r.lines)
                );
                r.error
            }
            other => panic!("{action} {target} was not refused: {other:?}"),
        }
    }

    /// The component's key map.
    pub fn key_map(&self) -> Vec<KeyBinding> {
        self.host().key_map().expect("the key map")
    }

    /// The dashboard after `input`, from `state`.
    #[track_caller]
    pub fn dashboard(
        &self,
        state: &str,
        input: &DashboardInput,
        view: &DashboardView,
        ctx: &CallContext,
    ) -> DashboardScreen {
        self.host()
            .dashboard(state, input, view, ctx)
            .expect("the dashboard answers")
    }
}

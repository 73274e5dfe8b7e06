//! The only file that touches the generated WIT bindings. The types the
//! WIT declares are used as they are (re-exported by the crate), with the
//! few methods hosts need added here; nothing mirrors them.

wasmtime::component::bindgen!({
    path: "../wit",
    world: "tasklists",
    // Every import may trap: a host bug (or an injected fault) must stop
    // the component instead of being reported to it as a store error.
    imports: { default: trappable },
    with: {
        "tasklists:component/store.transaction": crate::state::store::Transaction,
    },
    additional_derives: [PartialEq],
});

pub use exports::tasklists::component::tokens::{TokenAnswer, TokenHolder, TokenKind, TokenLookup};
pub use exports::tasklists::component::tools::{
    CallFailure, FailureKind, SizeLimit, ToolAnnotations, ToolInfo, WriteState,
};
pub use exports::tasklists::component::transfer::{Format, ImportRequest, TransferReply};
pub use exports::tasklists::component::ui::{
    Choice, CommandEffect, CommandInfo, CommandOutput, Completion, Confirmation, DashboardInput,
    DashboardScreen, DashboardView, KeyBinding, KeyInput, Line, PersonDone, PersonRefused,
    PersonReply, PersonRequest, PersonSurface, Span, Style, WidgetAction, WidgetChange, WidgetMode,
    WidgetView,
};
pub use exports::tasklists::component::ui::{
    FieldKind, InboxOutput, InboxView, Notice, ShellArg, ShellFlag, VerbAim, VerbField, VerbInfo,
};
pub use exports::tasklists::component::web::{
    SignInLink, WebMethod, WebRefusal, WebRequest, WebResponse,
};
pub use tasklists::component::types::{CallContext, ErrorCode, ToolError, ToolReply};

/// The types interface declares no functions; it still needs a `Host`.
impl tasklists::component::types::Host for crate::state::HostState {}

impl CallContext {
    /// A context with this agent identity and nothing else.
    pub fn agent(agent_id: impl Into<String>) -> Self {
        CallContext {
            agent_id: Some(agent_id.into()),
            ..CallContext::default()
        }
    }
}

/// No identity (the host never invents one), no workspace, no thread.
impl Default for CallContext {
    fn default() -> Self {
        CallContext {
            agent_id: None,
            agent_pinned: false,
            workspace: None,
            thread: None,
            person: None,
        }
    }
}

impl Span {
    /// A span of `text` in `style`.
    pub fn new(text: impl Into<String>, style: Style) -> Self {
        Span {
            text: text.into(),
            style,
        }
    }
}

impl ToolInfo {
    /// The input schema, parsed (the component publishes it as JSON text).
    pub fn schema(&self) -> serde_json::Value {
        serde_json::from_str(&self.input_schema).unwrap_or(serde_json::Value::Null)
    }
}

// `ToolError`'s Display and Error come from the bindings: the WIT returns
// it as the error of `result`s (`ui.inbox`).

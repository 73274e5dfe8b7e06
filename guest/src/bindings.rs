//! The generated WIT bindings, and nothing else: the bottom layer. The
//! types the WIT declares (call context, error code and error, reply,
//! styles and spans) are generated here once and used as they are by the
//! domain, on every target (natively too, for the unit tests). The exports
//! are implemented at the top (`exports.rs`, wasm only); the imported
//! `store` and `clock` are adapted to the domain's traits in `store/wit.rs`.

#![allow(
    unsafe_code,
    reason = "the generated bindings are the component's only unsafe code"
)]

wit_bindgen::generate!({
    world: "tasklists",
    path: "../wit",
    additional_derives: [PartialEq],
});

pub use exports::tasklists::component::tokens::{TokenHolder, TokenKind};
pub use exports::tasklists::component::tools::{
    CallFailure, FailureKind, ToolAnnotations, ToolInfo, WriteState,
};
pub use exports::tasklists::component::ui::{
    Choice, CommandEffect, CommandInfo, CommandOutput, Completion, Confirmation, DashboardInput,
    DashboardScreen, DashboardView, KeyBinding, KeyInput, Line, PersonDone, PersonRefused,
    PersonReply, PersonRequest, PersonSurface, Span, StoreDown, Style, WidgetAction, WidgetChange,
    WidgetMode, WidgetView,
};
pub use exports::tasklists::component::ui::{
    FieldKind, InboxOutput, InboxView, Notice, ShellArg, ShellFlag, VerbAim, VerbField, VerbInfo,
};
pub use exports::tasklists::component::web::{
    SignInLink, WebMethod, WebRefusal, WebRequest, WebResponse,
};
pub use tasklists::component::types::{CallContext, ErrorCode, ToolError, ToolReply};

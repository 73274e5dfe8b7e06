//! The native host of the tasklists component.
//!
//! The component (built from `guest/` by `build.rs` and embedded in this
//! crate) holds every rule, validation and text; this crate gives it a SQL
//! store (a `tasklists-store` backend: an SQLite file or a PostgreSQL
//! server), a clock and a deny-all WASI sandbox, and carries calls in and
//! the component's replies out. It depends on nothing a transport or a
//! terminal needs: the `tasklists` binary (`host-shim/tasklists`: the
//! CLI, MCP and the web board) is built on [`Host`]:
//!
//! ```no_run
//! use tasklists_host::{CallContext, Host, HostConfig};
//!
//! let mut host = Host::open(HostConfig::new("/tmp/tasks.db"))?;
//! let ctx = CallContext::agent("builder-1");
//! let out = host.call_json(r#"{"action":"create","params":{"name":"Release"}}"#, "task_lists", &ctx);
//! # Ok::<(), tasklists_host::HostError>(())
//! ```

mod ansi;
mod bindings;
mod cache;
mod component_host;
#[cfg(test)]
mod component_host_tests;
mod config;
mod engine;
mod error;
mod imports;
mod reply;
mod sandbox;
mod state;
mod time_source;
mod tokens;
mod transfer;
mod trap;
mod views;

pub use ansi::render_ansi;
pub use bindings::{
    CallContext, CallFailure, Choice, CommandEffect, CommandInfo, CommandOutput, Completion,
    Confirmation, DashboardInput, DashboardScreen, DashboardView, ErrorCode, FailureKind,
    KeyBinding, KeyInput, Line, PersonDone, PersonRefused, PersonReply, PersonRequest,
    PersonSurface, SignInLink, SizeLimit, Span, Style, TokenAnswer, TokenHolder, TokenKind,
    TokenLookup, ToolAnnotations, ToolError, ToolInfo, ToolReply, WebMethod, WebRefusal,
    WebRequest, WebResponse, WidgetAction, WidgetChange, WidgetMode, WidgetView, WriteState,
};
pub use bindings::{FieldKind, ShellArg, ShellFlag, VerbAim, VerbField, VerbInfo};
pub use bindings::{Format, ImportRequest, TransferReply};
pub use bindings::{InboxOutput, InboxView, Notice};
pub use component_host::Host;
pub use config::{
    DEFAULT_BUSY_TIMEOUT, DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_PARAMS_BYTES,
    DEFAULT_MEMORY_LIMIT_BYTES, HostConfig, default_location,
};
pub use error::HostError;
#[cfg(feature = "statement-log")]
pub use imports::statement_log::{LoggedEntry, LoggedOp, StatementLog};
pub use reply::{Data, ToolOutput};
#[cfg(any(test, feature = "fault-injection"))]
pub use state::faults::FaultInjection;
pub use tasklists_store::{Location, OpenError, Watch};
pub use time_source::{Clock, ManualClock, SystemClock};

/// SHA-256 (hex) of the embedded component.
pub fn component_sha256() -> &'static str {
    engine::COMPONENT_SHA256
}

/// Size in bytes of the embedded component.
pub fn component_size() -> usize {
    engine::COMPONENT_WASM.len()
}

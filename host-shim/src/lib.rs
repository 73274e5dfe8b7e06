//! The native host of the tasklists component.
//!
//! The component (built from `guest/` by `build.rs` and embedded in this
//! crate) holds every rule, validation and text; this crate gives it a SQL
//! store (rusqlite), a clock and a deny-all WASI sandbox, and carries calls
//! in and results out. [`Host`] is the core of the API (the MCP server,
//! [`mcp::serve_stdio`], is built on it):
//!
//! ```no_run
//! use tasklists_host::{CallContext, Host, HostConfig};
//!
//! let mut host = Host::open(HostConfig::new("/tmp/tasks.db"))?;
//! let ctx = CallContext::agent("builder-1");
//! let out = host.call_json(r#"{"action":"create","params":{"name":"Release"}}"#, "task_lists", &ctx);
//! # Ok::<(), tasklists_host::HostError>(())
//! ```

mod bindings;
mod cache;
mod clock;
mod config;
mod db;
mod deadline;
mod engine;
mod error;
mod host;
pub mod mcp;
mod render;
mod request;
mod sandbox;
mod session;
#[cfg(test)]
mod session_tests;
mod state;
mod trap;
mod types;

pub use clock::{Clock, ManualClock, SystemClock};
pub use config::{
    DEFAULT_BUSY_TIMEOUT, DEFAULT_CALL_TIMEOUT, DEFAULT_MAX_PARAMS_BYTES,
    DEFAULT_MEMORY_LIMIT_BYTES, FaultInjection, HostConfig, default_db_path,
};
pub use error::{ErrorCode, HostError, ToolError};
pub use render::render_ansi;
pub use request::{TOOL_NAMES, ToolRequest, check_tool};
pub use session::Host;
pub use types::{CallContext, Line, Span, Style, ToolAnnotations, ToolInfo, ToolOutput};

/// SHA-256 (hex) of the embedded component.
pub fn component_sha256() -> &'static str {
    engine::COMPONENT_SHA256
}

/// Size in bytes of the embedded component.
pub fn component_size() -> usize {
    engine::COMPONENT_WASM.len()
}

//! Plain Rust mirrors of the WIT records the library exposes (call context,
//! tool output, catalogue entries, styled lines). Callers never see the
//! generated bindings, so regenerating them never breaks the public API.

use serde::Serialize;

/// What the host knows about the caller, passed with every tool call.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallContext {
    /// The host's default agent identity (`--agent-id`, env, Pi session);
    /// `params.agent_id` overrides it unless `agent_pinned` is set. `None`
    /// means no identity: the host never invents one.
    pub agent_id: Option<String>,
    /// When true, a different `params.agent_id` is refused with `forbidden`.
    pub agent_pinned: bool,
    /// The caller's workspace (e.g. a project path).
    pub workspace: Option<String>,
    /// The caller's conversation thread.
    pub thread: Option<String>,
}

impl CallContext {
    /// A context with this agent identity and nothing else.
    pub fn agent(agent_id: impl Into<String>) -> Self {
        CallContext {
            agent_id: Some(agent_id.into()),
            ..CallContext::default()
        }
    }
}

/// A successful tool call.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    /// One line for humans and models.
    pub summary: String,
    /// The result data object.
    pub data: serde_json::Value,
    /// The data exactly as the component serialized it (key order kept),
    /// which is what the contract sends to models.
    pub data_json: String,
}

impl ToolOutput {
    /// The contract's tool content: the summary, a newline, the compact data.
    pub fn to_content_text(&self) -> String {
        format!("{}\n{}", self.summary, self.data_json)
    }
}

/// MCP tool annotations, set deliberately per tool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ToolAnnotations {
    /// The tool never changes state.
    pub read_only: bool,
    /// The tool may delete or overwrite data.
    pub destructive: bool,
    /// Repeating a call with the same arguments has no further effect.
    pub idempotent: bool,
    /// The tool reaches outside its own store (always false here).
    pub open_world: bool,
}

/// One published tool, from the component's catalogue.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolInfo {
    /// Tool name, e.g. `task_claims`.
    pub name: String,
    /// Short human title.
    pub title: String,
    /// Description sent in the agent's prompt.
    pub description: String,
    /// JSON Schema of the tool's input object.
    pub input_schema: serde_json::Value,
    /// MCP annotations.
    pub annotations: ToolAnnotations,
}

/// A style token of a rendered span; each host picks the actual colors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    /// Ordinary text.
    Text,
    /// Names and headings worth the eye.
    Accent,
    /// Secondary details: ids, dates, counters.
    Muted,
    /// Done, claimed, created.
    Success,
    /// Paused, expiring, waiting.
    Warning,
    /// Failures.
    Error,
    /// Emphasis.
    Strong,
}

/// A run of text in one style.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Span {
    /// The text (no newlines).
    pub text: String,
    /// Its style token.
    pub style: Style,
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

/// One rendered line: spans to print side by side.
pub type Line = Vec<Span>;

//! The only file that touches the generated WIT bindings, plus the
//! conversions between them and the crate's public types. It changes only
//! when `wit/` does.

use crate::error::{ErrorCode, HostError, ToolError};
use crate::types::{CallContext, Line, Span, Style, ToolAnnotations, ToolInfo};

wasmtime::component::bindgen!({
    path: "../wit",
    world: "tasklists",
    // Every import may trap: a host bug (or an injected fault) must stop
    // the component instead of being reported to it as a store error.
    imports: { default: trappable },
    with: {
        "tasklists:component/store.transaction": crate::imports::store::Transaction,
    },
    additional_derives: [PartialEq],
});

use exports::tasklists::component::{tools as wit_tools, ui as wit_ui};
use tasklists::component::types as wit_types;

/// The types interface declares no functions; it still needs a `Host`.
impl wit_types::Host for crate::state::HostState {}

impl From<&CallContext> for wit_types::CallContext {
    fn from(ctx: &CallContext) -> Self {
        wit_types::CallContext {
            agent_id: ctx.agent_id.clone(),
            agent_pinned: ctx.agent_pinned,
            workspace: ctx.workspace.clone(),
            thread: ctx.thread.clone(),
        }
    }
}

impl From<wit_types::ErrorCode> for ErrorCode {
    fn from(code: wit_types::ErrorCode) -> Self {
        use wit_types::ErrorCode as W;
        match code {
            W::InvalidParams => ErrorCode::InvalidParams,
            W::UnknownAction => ErrorCode::UnknownAction,
            W::NotFound => ErrorCode::NotFound,
            W::Forbidden => ErrorCode::Forbidden,
            W::AgentRequired => ErrorCode::AgentRequired,
            W::Conflict => ErrorCode::Conflict,
            W::OutcomeRequired => ErrorCode::OutcomeRequired,
            W::Cycle => ErrorCode::Cycle,
            W::Storage => ErrorCode::Storage,
            W::Internal => ErrorCode::Internal,
        }
    }
}

impl From<ErrorCode> for wit_types::ErrorCode {
    fn from(code: ErrorCode) -> Self {
        use wit_types::ErrorCode as W;
        match code {
            ErrorCode::InvalidParams => W::InvalidParams,
            ErrorCode::UnknownAction => W::UnknownAction,
            ErrorCode::NotFound => W::NotFound,
            ErrorCode::Forbidden => W::Forbidden,
            ErrorCode::AgentRequired => W::AgentRequired,
            ErrorCode::Conflict => W::Conflict,
            ErrorCode::OutcomeRequired => W::OutcomeRequired,
            ErrorCode::Cycle => W::Cycle,
            ErrorCode::Storage => W::Storage,
            ErrorCode::Internal => W::Internal,
        }
    }
}

impl From<wit_types::ToolError> for ToolError {
    fn from(e: wit_types::ToolError) -> Self {
        ToolError {
            code: e.code.into(),
            message: e.message,
            hint: e.hint,
        }
    }
}

impl From<&ToolError> for wit_types::ToolError {
    fn from(e: &ToolError) -> Self {
        wit_types::ToolError {
            code: e.code.into(),
            message: e.message.clone(),
            hint: e.hint.clone(),
        }
    }
}

impl From<wit_ui::Style> for Style {
    fn from(style: wit_ui::Style) -> Self {
        match style {
            wit_ui::Style::Text => Style::Text,
            wit_ui::Style::Accent => Style::Accent,
            wit_ui::Style::Muted => Style::Muted,
            wit_ui::Style::Success => Style::Success,
            wit_ui::Style::Warning => Style::Warning,
            wit_ui::Style::Error => Style::Error,
            wit_ui::Style::Strong => Style::Strong,
        }
    }
}

/// Converts rendered lines.
pub(crate) fn lines(lines: Vec<wit_ui::Line>) -> Vec<Line> {
    lines
        .into_iter()
        .map(|line| {
            line.into_iter()
                .map(|span| Span {
                    text: span.text,
                    style: span.style.into(),
                })
                .collect()
        })
        .collect()
}

/// Converts a catalogue entry; its schema must be JSON.
pub(crate) fn tool_info(info: wit_tools::ToolInfo) -> Result<ToolInfo, HostError> {
    let input_schema = serde_json::from_str(&info.input_schema).map_err(|e| {
        HostError::BadOutput(format!(
            "the input schema of {} is not JSON: {e}",
            info.name
        ))
    })?;
    Ok(ToolInfo {
        name: info.name,
        title: info.title,
        description: info.description,
        input_schema,
        annotations: ToolAnnotations {
            read_only: info.annotations.read_only,
            destructive: info.annotations.destructive,
            idempotent: info.annotations.idempotent,
            open_world: info.annotations.open_world,
        },
    })
}

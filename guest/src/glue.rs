//! The only file that touches the generated WIT bindings: it adapts the
//! imported `store` and `clock` to the domain traits and forwards the
//! exported `tools` and `ui` to plain Rust.

wit_bindgen::generate!({ world: "tasklists", path: "../wit" });

use exports::tasklists::component::tools::{Guest as ToolsGuest, ToolAnnotations, ToolInfo};
use exports::tasklists::component::ui::{Guest as UiGuest, Line, Span, Style};
use tasklists::component::types::{CallContext, ErrorCode, ToolError, ToolOutput};
use tasklists::component::{clock as wclock, store as wstore};

use crate::{context, error, render, store, tools};

struct Component;
export!(Component);

/// The WIT store, seen through the domain's [`store::Store`] trait.
struct WitStore;
/// An open WIT transaction.
struct WitTx(wstore::Transaction);
/// The WIT clock.
struct WitClock;

fn to_wit(v: &store::Value) -> wstore::Value {
    match v {
        store::Value::Null => wstore::Value::Null,
        store::Value::Integer(i) => wstore::Value::Integer(*i),
        store::Value::Real(f) => wstore::Value::Real(*f),
        store::Value::Text(s) => wstore::Value::Text(s.clone()),
        store::Value::Blob(b) => wstore::Value::Blob(b.clone()),
    }
}

fn from_wit(v: wstore::Value) -> store::Value {
    match v {
        wstore::Value::Null => store::Value::Null,
        wstore::Value::Integer(i) => store::Value::Integer(i),
        wstore::Value::Real(f) => store::Value::Real(f),
        wstore::Value::Text(s) => store::Value::Text(s),
        wstore::Value::Blob(b) => store::Value::Blob(b),
    }
}

fn err(e: wstore::StoreError) -> store::StoreError {
    match e {
        wstore::StoreError::Busy(m) => store::StoreError::Busy(m),
        wstore::StoreError::Constraint(m) => store::StoreError::Constraint(m),
        wstore::StoreError::InvalidState(m) => store::StoreError::InvalidState(m),
        wstore::StoreError::Io(m) => store::StoreError::Io(m),
        wstore::StoreError::Corrupt(m) => store::StoreError::Corrupt(m),
        wstore::StoreError::Sql(m) => store::StoreError::Sql(m),
        wstore::StoreError::Other(m) => store::StoreError::Other(m),
    }
}

impl store::Store for WitStore {
    fn begin(&self, write: bool) -> Result<Box<dyn store::Tx + '_>, store::StoreError> {
        wstore::begin(write)
            .map(|t| Box::new(WitTx(t)) as Box<dyn store::Tx>)
            .map_err(err)
    }
}

impl store::Tx for WitTx {
    fn execute(&self, sql: &str, params: &[store::Value]) -> Result<u64, store::StoreError> {
        let params: Vec<wstore::Value> = params.iter().map(to_wit).collect();
        self.0.execute(sql, &params).map_err(err)
    }

    fn query(&self, sql: &str, params: &[store::Value]) -> Result<store::Rows, store::StoreError> {
        let params: Vec<wstore::Value> = params.iter().map(to_wit).collect();
        let rows = self.0.query(sql, &params).map_err(err)?;
        Ok(store::Rows {
            columns: rows.columns,
            rows: rows
                .rows
                .into_iter()
                .map(|r| r.into_iter().map(from_wit).collect())
                .collect(),
        })
    }

    fn commit(self: Box<Self>) -> Result<(), store::StoreError> {
        self.0.commit().map_err(err)
    }
}

impl crate::clock::Clock for WitClock {
    fn now_ms(&self) -> i64 {
        wclock::now_ms()
    }
}

fn code_to_wit(c: error::ErrorCode) -> ErrorCode {
    use error::ErrorCode as E;
    match c {
        E::InvalidParams => ErrorCode::InvalidParams,
        E::UnknownAction => ErrorCode::UnknownAction,
        E::NotFound => ErrorCode::NotFound,
        E::Forbidden => ErrorCode::Forbidden,
        E::AgentRequired => ErrorCode::AgentRequired,
        E::Conflict => ErrorCode::Conflict,
        E::OutcomeRequired => ErrorCode::OutcomeRequired,
        E::Cycle => ErrorCode::Cycle,
        E::Storage => ErrorCode::Storage,
        E::Internal => ErrorCode::Internal,
    }
}

fn code_from_wit(c: ErrorCode) -> error::ErrorCode {
    use error::ErrorCode as E;
    match c {
        ErrorCode::InvalidParams => E::InvalidParams,
        ErrorCode::UnknownAction => E::UnknownAction,
        ErrorCode::NotFound => E::NotFound,
        ErrorCode::Forbidden => E::Forbidden,
        ErrorCode::AgentRequired => E::AgentRequired,
        ErrorCode::Conflict => E::Conflict,
        ErrorCode::OutcomeRequired => E::OutcomeRequired,
        ErrorCode::Cycle => E::Cycle,
        ErrorCode::Storage => E::Storage,
        ErrorCode::Internal => E::Internal,
    }
}

fn run(
    tool: &str,
    action: String,
    params: String,
    ctx: CallContext,
) -> Result<ToolOutput, ToolError> {
    let ctx = context::CallContext {
        agent_id: ctx.agent_id,
        agent_pinned: ctx.agent_pinned,
        workspace: ctx.workspace,
        thread: ctx.thread,
    };
    tools::call_tool(tool, &action, &params, &ctx, &WitStore, &WitClock)
        .map(|o| ToolOutput {
            summary: o.summary,
            data: crate::text::json_text(&o.data),
        })
        .map_err(|e| ToolError {
            code: code_to_wit(e.code),
            message: e.message,
            hint: e.hint,
        })
}

impl ToolsGuest for Component {
    fn task_lists(
        action: String,
        params: String,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        run("task_lists", action, params, ctx)
    }
    fn task_items(
        action: String,
        params: String,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        run("task_items", action, params, ctx)
    }
    fn task_claims(
        action: String,
        params: String,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        run("task_claims", action, params, ctx)
    }
    fn task_audit(
        action: String,
        params: String,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        run("task_audit", action, params, ctx)
    }
    fn task_help(
        action: String,
        params: String,
        ctx: CallContext,
    ) -> Result<ToolOutput, ToolError> {
        run("task_help", action, params, ctx)
    }

    fn catalogue() -> Vec<ToolInfo> {
        tools::catalogue()
            .into_iter()
            .map(|c| ToolInfo {
                name: c.name.into(),
                title: c.title.into(),
                description: c.description,
                input_schema: c.input_schema.to_string(),
                annotations: ToolAnnotations {
                    read_only: c.annotations.read_only,
                    destructive: c.annotations.destructive,
                    idempotent: c.annotations.idempotent,
                    open_world: false,
                },
            })
            .collect()
    }
}

fn lines_to_wit(lines: Vec<render::Line>) -> Vec<Line> {
    lines
        .into_iter()
        .map(|l| {
            l.into_iter()
                .map(|s| Span {
                    text: s.text,
                    style: match s.style {
                        render::Style::Text => Style::Text,
                        render::Style::Accent => Style::Accent,
                        render::Style::Muted => Style::Muted,
                        render::Style::Success => Style::Success,
                        render::Style::Warning => Style::Warning,
                        render::Style::Error => Style::Error,
                        render::Style::Strong => Style::Strong,
                    },
                })
                .collect()
        })
        .collect()
}

fn parse(json: &str) -> serde_json::Value {
    serde_json::from_str(json).unwrap_or(serde_json::Value::Null)
}

impl UiGuest for Component {
    fn render_result(tool: String, action: String, data: String) -> Vec<Line> {
        lines_to_wit(render::render_result(&tool, &action, &parse(&data)))
    }
    fn render_error(e: ToolError) -> Vec<Line> {
        let e = error::ToolError {
            code: code_from_wit(e.code),
            message: e.message,
            hint: e.hint,
        };
        lines_to_wit(render::render_error(&e))
    }
    fn render_call(tool: String, action: String, params: String) -> Vec<Line> {
        lines_to_wit(render::render_call(&tool, &action, &parse(&params)))
    }
}

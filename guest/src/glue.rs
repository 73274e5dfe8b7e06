//! The only file that touches the generated WIT bindings. The types the
//! WIT declares (call context, error code and error, reply, styles and
//! spans) are generated here once and used as they are by the domain, on
//! every target (natively too, for the unit tests). On wasm this file also
//! adapts the imported `store` and `clock` to the domain traits and
//! forwards the exported `tools` and `ui` to plain Rust.

#![allow(
    unsafe_code,
    reason = "the generated bindings are the component's only unsafe code"
)]

wit_bindgen::generate!({
    world: "tasklists",
    path: "../wit",
    additional_derives: [PartialEq],
});

pub use exports::tasklists::component::tools::{
    CallFailure, FailureKind, ToolAnnotations, ToolInfo, WriteState,
};
pub use exports::tasklists::component::ui::{
    Choice, CommandEffect, CommandInfo, CommandOutput, Completion, Confirmation, Line, Span,
    StoreDown, Style, WidgetAction, WidgetChange, WidgetMode, WidgetView,
};
pub use tasklists::component::types::{CallContext, ErrorCode, ToolError, ToolReply};

#[cfg(target_arch = "wasm32")]
mod component {
    use super::exports::tasklists::component::tools::Guest as ToolsGuest;
    use super::exports::tasklists::component::ui::Guest as UiGuest;
    use super::tasklists::component::{clock as wclock, store as wstore};
    use super::{
        CallContext, CallFailure, CommandEffect, CommandInfo, Completion, Line, StoreDown,
        ToolError, ToolInfo, ToolReply, WidgetView,
    };
    use crate::schema::dialect::DialectSql;
    use crate::{actions, envelope, render, store, views};

    struct Component;
    super::export!(Component with_types_in super);

    /// The WIT store, seen through the domain's [`store::Store`] trait.
    struct WitStore;
    /// An open WIT transaction, and the dialect its SQL is written in.
    struct WitTx(wstore::Transaction, store::Dialect);
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

    /// The store's dialect, asked once: it is fixed for the store's lifetime.
    fn dialect() -> store::Dialect {
        static DIALECT: std::sync::OnceLock<store::Dialect> = std::sync::OnceLock::new();
        *DIALECT.get_or_init(|| match wstore::dialect() {
            wstore::SqlDialect::Sqlite => store::Dialect::Sqlite,
            wstore::SqlDialect::Postgres => store::Dialect::Postgres,
        })
    }

    impl store::Store for WitStore {
        fn begin(&self, write: bool) -> Result<Box<dyn store::Tx + '_>, store::StoreError> {
            wstore::begin(write)
                .map(|t| Box::new(WitTx(t, dialect())) as Box<dyn store::Tx>)
                .map_err(err)
        }
    }

    impl store::Tx for WitTx {
        fn dialect(&self) -> store::Dialect {
            self.1
        }

        fn execute(&self, sql: &str, params: &[store::Value]) -> Result<u64, store::StoreError> {
            let params: Vec<wstore::Value> = params.iter().map(to_wit).collect();
            let sql = self.1.sql(sql);
            self.0.execute(&sql, &params).map_err(err)
        }

        fn query(
            &self,
            sql: &str,
            params: &[store::Value],
        ) -> Result<store::Rows, store::StoreError> {
            let params: Vec<wstore::Value> = params.iter().map(to_wit).collect();
            let rows = self.0.query(&self.1.sql(sql), &params).map_err(err)?;
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

    impl ToolsGuest for Component {
        fn call(tool: String, arguments: String, ctx: CallContext) -> ToolReply {
            envelope::call(&tool, &arguments, &ctx, &WitStore, &WitClock)
        }

        fn call_action(
            tool: String,
            action: String,
            params: String,
            ctx: CallContext,
        ) -> ToolReply {
            envelope::call_action(&tool, &action, &params, &ctx, &WitStore, &WitClock)
        }

        fn failed(failure: CallFailure) -> ToolReply {
            envelope::failed(&failure)
        }

        fn catalogue() -> Vec<ToolInfo> {
            actions::catalogue()
        }
    }

    impl UiGuest for Component {
        fn render_result(tool: String, action: String, data: String) -> Vec<Line> {
            render::render_result(&tool, &action, &render::parse_input(&data))
        }
        fn render_error(e: ToolError) -> Vec<Line> {
            render::render_error(&e)
        }
        fn render_reply(tool: String, arguments: String, reply: ToolReply) -> Vec<Line> {
            render::render_reply(&tool, &arguments, &reply)
        }
        fn render_call(tool: String, action: String, params: String) -> Vec<Line> {
            render::render_call(&tool, &action, &render::parse_input(&params))
        }
        fn render_collapsed(tool: String, arguments: String, reply: ToolReply) -> Vec<Line> {
            render::render_collapsed(&tool, &arguments, &reply)
        }
        fn widget(ctx: CallContext, view: WidgetView) -> Vec<Line> {
            views::widget(&ctx, &view, &WitStore, &WitClock)
        }
        fn widget_unreachable(why: StoreDown, width: u32) -> Vec<Line> {
            views::widget_unreachable(&why, width)
        }
        fn commands() -> Vec<CommandInfo> {
            views::commands()
        }
        fn run_command(
            name: String,
            args: String,
            ctx: CallContext,
            width: u32,
            confirmed: bool,
        ) -> CommandEffect {
            views::run_command(&name, &args, &ctx, width, confirmed, &WitStore, &WitClock)
        }
        fn complete(name: String, prefix: String, ctx: CallContext) -> Vec<Completion> {
            views::complete(&name, &prefix, &ctx, &WitStore, &WitClock)
        }
        fn compaction_memory(ctx: CallContext) -> String {
            views::compaction_memory(&ctx, &WitStore, &WitClock)
        }
    }
}

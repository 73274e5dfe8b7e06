//! The only file that touches the generated WIT bindings. The types the
//! WIT declares (call context, error code and error, reply, styles and
//! spans) are generated here once and used as they are by the domain, on
//! every target (natively too, for the unit tests). On wasm this file also
//! forwards the exported `tools` and `ui` to plain Rust; the imported
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
    use super::{
        CallContext, CallFailure, CommandEffect, CommandInfo, Completion, FailureKind, Line,
        StoreDown, ToolError, ToolInfo, ToolReply, WidgetView,
    };
    use crate::store::wit::{WitClock, WitStore};
    use crate::{envelope, registry, render, views};

    struct Component;
    super::export!(Component with_types_in super);

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

        fn describe_failure(kind: FailureKind) -> String {
            envelope::describe_failure(&kind)
        }

        fn catalogue() -> Vec<ToolInfo> {
            registry::catalogue()
        }
    }

    impl UiGuest for Component {
        fn render_result(tool: String, action: String, data: String) -> Vec<Line> {
            registry::render_result(&tool, &action, &render::parse_input(&data))
        }
        fn render_error(e: ToolError) -> Vec<Line> {
            render::render_error(&e)
        }
        fn render_reply(tool: String, arguments: String, reply: ToolReply) -> Vec<Line> {
            registry::render_reply(&tool, &arguments, &reply)
        }
        fn render_call(tool: String, action: String, params: String) -> Vec<Line> {
            render::render_call(&tool, &action, &render::parse_input(&params))
        }
        fn render_collapsed(tool: String, arguments: String, reply: ToolReply) -> Vec<Line> {
            registry::render_collapsed(&tool, &arguments, &reply)
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

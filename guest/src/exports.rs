//! The component's exports, at the top of the crate (wasm only): the WIT
//! `tools`, `ui`, `web`, `transfer` and `tokens` interfaces forwarded to plain Rust, each call handed the
//! imported store and clock (`store/wit.rs`).

#![allow(
    unsafe_code,
    reason = "the export macro of the generated bindings emits the component's entry points"
)]

use crate::bindings::exports::tasklists::component::tokens::Guest as TokensGuest;
use crate::bindings::exports::tasklists::component::tokens::{TokenAnswer, TokenLookup};
use crate::bindings::exports::tasklists::component::tools::Guest as ToolsGuest;
use crate::bindings::exports::tasklists::component::transfer::Guest as TransferGuest;
use crate::bindings::exports::tasklists::component::ui::Guest as UiGuest;
use crate::bindings::exports::tasklists::component::web::Guest as WebGuest;
use crate::bindings::{
    CallContext, CallFailure, CommandEffect, CommandInfo, Completion, DashboardInput,
    DashboardScreen, DashboardView, FailureKind, InboxOutput, InboxView, KeyBinding, Line, Notice,
    PersonReply, PersonRequest, SignInLink, StoreDown, TokenKind, ToolError, ToolInfo, ToolReply,
    VerbInfo, WebRefusal, WebRequest, WebResponse, WidgetView,
};
use crate::store::wit::{WitClock, WitStore};
use crate::transfer::{Format, ImportRequest, TransferReply};
use crate::{envelope, person, registry, render, tokens, transfer, views, web};

struct Component;
crate::bindings::export!(Component with_types_in crate::bindings);

impl ToolsGuest for Component {
    fn call(tool: String, arguments: String, ctx: CallContext) -> ToolReply {
        envelope::call(&tool, &arguments, &ctx, &WitStore, &WitClock)
    }

    fn call_action(tool: String, action: String, params: String, ctx: CallContext) -> ToolReply {
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
        views::run_command(
            &name,
            &args,
            &ctx,
            width,
            confirmed,
            &WitStore,
            &WitClock,
            person::act,
        )
    }
    fn complete(name: String, prefix: String, ctx: CallContext) -> Vec<Completion> {
        views::complete(&name, &prefix, &ctx, &WitStore, &WitClock)
    }
    fn compaction_memory(ctx: CallContext) -> String {
        views::compaction_memory(&ctx, &WitStore, &WitClock)
    }
    fn person_act(request: PersonRequest, ctx: CallContext, width: u32) -> PersonReply {
        person::act(&request, &ctx, width, &WitStore, &WitClock)
    }
    fn inbox(ctx: CallContext, view: InboxView) -> Result<InboxOutput, ToolError> {
        person::inbox(&ctx, &view, &WitStore, &WitClock)
    }
    fn notices(
        ctx: CallContext,
        channel: String,
        board_url: String,
    ) -> Result<Vec<Notice>, ToolError> {
        views::notices::pending(&ctx, &channel, &board_url, &WitStore, &WitClock)
    }
    fn notices_sent(
        _ctx: CallContext,
        channel: String,
        keys: Vec<String>,
    ) -> Result<(), ToolError> {
        views::notices::sent(&channel, &keys, &WitStore, &WitClock)
    }
    fn verbs() -> Vec<VerbInfo> {
        person::verbs()
    }
    fn key_map() -> Vec<KeyBinding> {
        person::key_map()
    }
    fn dashboard(
        state: String,
        input: DashboardInput,
        view: DashboardView,
        ctx: CallContext,
    ) -> DashboardScreen {
        person::dashboard(&state, &input, &view, &ctx, &WitStore, &WitClock)
    }
}

impl WebGuest for Component {
    fn handle(request: WebRequest, ctx: CallContext) -> WebResponse {
        web::handle(&request, &ctx, &WitStore, &WitClock)
    }
    fn refusal(why: WebRefusal) -> WebResponse {
        web::refusal(why)
    }
    fn confirm_sign_in(link: SignInLink) -> WebResponse {
        web::confirm_sign_in(&link)
    }
}

impl TransferGuest for Component {
    fn export_list(list_id: String, format: Format, ctx: CallContext) -> TransferReply {
        transfer::export_list(&list_id, format, &ctx, &WitStore, &WitClock)
    }
    fn import_text(request: ImportRequest, ctx: CallContext) -> TransferReply {
        transfer::import_text(&request, &ctx, &WitStore, &WitClock)
    }
    fn max_import_bytes() -> u64 {
        transfer::MAX_IMPORT_BYTES
    }
    fn too_large(file_name: String, size: u64) -> Vec<Line> {
        transfer::too_large(&file_name, size)
    }
}

impl TokensGuest for Component {
    fn add_token(name: String, kind: TokenKind, digest: String) -> TokenAnswer {
        answer(tokens::add(&name, kind, &digest, &WitStore, &WitClock).map(|line| vec![line]))
    }
    fn list_tokens() -> TokenAnswer {
        answer(tokens::list(&WitStore))
    }
    fn revoke_token(name: String) -> TokenAnswer {
        answer(tokens::revoke(&name, &WitStore).map(|line| vec![line]))
    }
    fn has_tokens() -> bool {
        tokens::any(&WitStore).unwrap_or(false)
    }
    fn resolve_token(digest: String) -> TokenLookup {
        match tokens::resolve(&digest, &WitStore) {
            Ok(Some(holder)) => TokenLookup::Holder(holder),
            Ok(None) => TokenLookup::Unknown,
            Err(e) => TokenLookup::Refused(e),
        }
    }
}

/// A token command's lines, or its refusal.
fn answer(outcome: Result<Vec<String>, ToolError>) -> TokenAnswer {
    match outcome {
        Ok(lines) => TokenAnswer::Lines(lines),
        Err(e) => TokenAnswer::Refused(e),
    }
}

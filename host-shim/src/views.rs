//! The views a person sees outside tool calls (the widget, the slash
//! commands, their completions, the compaction memory) and the person's
//! own surface (a person's action, the dashboard and its key map, the web
//! board's pages), as the
//! component lays them out: the host passes the context and the
//! terminal's width, and shows the lines it gets back.

use crate::bindings::{
    CallContext, CommandEffect, CommandInfo, Completion, DashboardInput, DashboardScreen,
    DashboardView, InboxOutput, InboxView, KeyBinding, Line, Notice, PersonReply, PersonRequest,
    SignInLink, ToolError, VerbInfo, WebRefusal, WebRequest, WebResponse, WidgetView,
};
use crate::component_host::Host;
use crate::error::HostError;

impl Host {
    /// The widget's lines for the lists visible in `ctx` (none: nothing to show).
    pub fn widget(&mut self, ctx: &CallContext, view: &WidgetView) -> Result<Vec<Line>, HostError> {
        self.plain(|b, store| b.tasklists_component_ui().call_widget(store, ctx, view))
    }

    /// The slash commands (name, description, usage), in menu order.
    pub fn commands(&mut self) -> Result<Vec<CommandInfo>, HostError> {
        self.plain(|b, store| b.tasklists_component_ui().call_commands(store))
    }

    /// Runs the command `name` with the text after it; `confirmed` once the
    /// user said yes to the question it asked.
    pub fn run_command(
        &mut self,
        name: &str,
        args: &str,
        ctx: &CallContext,
        width: u32,
        confirmed: bool,
    ) -> Result<CommandEffect, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_run_command(store, name, args, ctx, width, confirmed)
        })
    }

    /// Suggestions for the arguments of `name`, given what was typed so far.
    pub fn complete(
        &mut self,
        name: &str,
        prefix: &str,
        ctx: &CallContext,
    ) -> Result<Vec<Completion>, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_complete(store, name, prefix, ctx)
        })
    }

    /// The agent's current claims as compact text for the model ("" for none).
    pub fn compaction_memory(&mut self, ctx: &CallContext) -> Result<String, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_compaction_memory(store, ctx)
        })
    }

    /// Carries out a person's action as `ctx.person` (none: refused),
    /// laid out for `width` columns.
    pub fn person_act(
        &mut self,
        request: &PersonRequest,
        ctx: &CallContext,
        width: u32,
    ) -> Result<PersonReply, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_person_act(store, request, ctx, width)
        })
    }

    /// The person's inbox as `ctx` sees it (with
    /// `view.stalled_after_minutes`, the threshold is saved first, as
    /// `ctx.person`); `Ok(Err(_))` is the component's refusal.
    pub fn inbox(
        &mut self,
        ctx: &CallContext,
        view: &InboxView,
    ) -> Result<Result<InboxOutput, ToolError>, HostError> {
        self.plain(|b, store| b.tasklists_component_ui().call_inbox(store, ctx, *view))
    }

    /// The inbox entries not yet sent on `channel`, as notices whose links
    /// start at `board_url`.
    pub fn notices(
        &mut self,
        ctx: &CallContext,
        channel: &str,
        board_url: &str,
    ) -> Result<Result<Vec<Notice>, ToolError>, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_notices(store, ctx, channel, board_url)
        })
    }

    /// Records the notices `keys` as sent on `channel` (never sent again).
    pub fn notices_sent(
        &mut self,
        ctx: &CallContext,
        channel: &str,
        keys: &[String],
    ) -> Result<Result<(), ToolError>, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_notices_sent(store, ctx, channel, keys)
        })
    }

    /// The person's verbs (the one table `person_act` reads), in the
    /// order a shell's help lists them.
    pub fn verbs(&mut self) -> Result<Vec<VerbInfo>, HostError> {
        self.plain(|b, store| b.tasklists_component_ui().call_verbs(store))
    }

    /// The dashboard's keys, in footer order.
    pub fn key_map(&mut self) -> Result<Vec<KeyBinding>, HostError> {
        self.plain(|b, store| b.tasklists_component_ui().call_key_map(store))
    }

    /// The dashboard after `input`, from the `state` the last screen
    /// returned (`""` the first time).
    pub fn dashboard(
        &mut self,
        state: &str,
        input: &DashboardInput,
        view: &DashboardView,
        ctx: &CallContext,
    ) -> Result<DashboardScreen, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_ui()
                .call_dashboard(store, state, input, view, ctx)
        })
    }

    /// The web board's answer to one authenticated request, as `ctx.person`.
    pub fn web(
        &mut self,
        request: &WebRequest,
        ctx: &CallContext,
    ) -> Result<WebResponse, HostError> {
        self.plain(|b, store| b.tasklists_component_web().call_handle(store, request, ctx))
    }

    /// The component's page for a request the server refused before it
    /// reached the board (touches no store).
    pub fn web_refusal(&mut self, why: WebRefusal) -> Result<WebResponse, HostError> {
        self.plain(|b, store| b.tasklists_component_web().call_refusal(store, why))
    }

    /// The page asking a person to confirm a sign-in link another site
    /// sent their browser to (touches no store).
    pub fn web_confirm_sign_in(&mut self, link: &SignInLink) -> Result<WebResponse, HostError> {
        self.plain(|b, store| {
            b.tasklists_component_web()
                .call_confirm_sign_in(store, link)
        })
    }
}

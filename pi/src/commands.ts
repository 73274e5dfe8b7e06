// The component's slash commands as Pi commands. The component decides
// what a command does; this file carries out its effect with Pi's API:
// a view in the transcript (never sent to the model), a confirmation or a
// selector and then the command again, or a widget change. `/tasks` with
// no argument opens the person's dashboard where Pi has a TUI to show it.

import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import type { CallContext, CommandInfo, Line } from "@tasklists/node-host";
import type { Component } from "./component.js";
import { openDashboard } from "./dashboard.js";
import { layoutWidth, plain, styled, textBlock } from "./style.js";
import type { Widget } from "./widget.js";

/** The custom message type of a command's output: shown, kept in the session, filtered out of the model's context. */
export const VIEW_TYPE = "tasklists-view";

/** What a view message carries for its renderer. */
interface ViewDetails {
  lines: Line[];
}

/** A command asks at most this many questions before it acts (a bound, not a loop). */
const MAX_STEPS = 3;

/** The command that, given no argument in Pi's TUI, opens the dashboard (elsewhere: its text view). */
const DASHBOARD_COMMAND = "tasks";

/** Registers the renderer of command output (once per extension instance). */
export function registerViewRenderer(pi: ExtensionAPI): void {
  pi.registerMessageRenderer<ViewDetails>(VIEW_TYPE, (message, _options, theme) =>
    textBlock(styled(theme, message.details?.lines ?? [])),
  );
}

/**
 * Registers the component's commands, run in the context `ctx` of the
 * session's person's surfaces (the person at the keyboard, if named).
 */
export function registerCommands(
  pi: ExtensionAPI,
  component: Component,
  commands: CommandInfo[],
  ctx: CallContext,
  widget: Widget,
): void {
  const run = async (name: string, args: string, ui: ExtensionCommandContext, confirmed: boolean, step: number): Promise<void> => {
    const effect = await component.use((host) => host.runCommand(name, args, ctx, layoutWidth(), confirmed));
    switch (effect.tag) {
      case "show":
        if (effect.val.failed) ui.ui.notify(plain(effect.val.lines).join("\n"), "error");
        else pi.sendMessage<ViewDetails>({ customType: VIEW_TYPE, content: plain(effect.val.lines).join("\n"), display: true, details: { lines: effect.val.lines } });
        // A command may have changed the store (an approval): the widget follows at once.
        widget.refresh();
        return;
      case "confirm":
        if (step < MAX_STEPS && (await ui.ui.confirm(effect.val.title, effect.val.message))) await run(name, args, ui, true, step + 1);
        return;
      case "pick": {
        const options = effect.val.options;
        const shown = options.map((o) => (o.description ? `${o.label}  ${o.description}` : o.label));
        const chosen = await ui.ui.select(effect.val.title, shown);
        const option = chosen === undefined ? undefined : options[shown.indexOf(chosen)];
        if (option && step < MAX_STEPS) await run(name, option.value, ui, confirmed, step + 1);
        return;
      }
      case "set-widget":
        widget.apply(effect.val.action);
        if (effect.val.lines.length > 0) ui.ui.notify(plain(effect.val.lines).join("\n"), "info");
        return;
    }
  };
  for (const command of commands) {
    pi.registerCommand(command.name, {
      description: command.description,
      getArgumentCompletions: async (prefix) => {
        const items = await component.use((host) => host.complete(command.name, prefix, ctx)).catch(() => []);
        return items.length > 0 ? items.map((c) => ({ value: c.value, label: c.label, description: c.description || undefined })) : null;
      },
      handler: async (args, ui) => {
        try {
          if (command.name === DASHBOARD_COMMAND && args.trim() === "" && (await openDashboard(component, ctx, ui, widget))) return;
          await run(command.name, args, ui, false, 0);
        } catch (e) {
          ui.ui.notify(e instanceof Error ? e.message : String(e), "error");
        }
      },
    });
  }
}

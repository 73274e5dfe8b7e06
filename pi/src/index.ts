// tasklists for Pi: persistent, ordered, shareable task lists. The
// sandboxed component (through the Node host, in Pi's process) holds every
// rule, text and rendering; this extension only carries them to Pi.
//
// Per Pi session (Pi runs a fresh instance of this extension for every
// session: start-up, /new, /resume, /fork, /reload): the component is
// opened on `session_start` and closed on `session_shutdown`; its tools and
// commands are registered from its catalogue (run as the person at the
// keyboard, `--tasklists-person` or `TASKLISTS_PERSON`, when named; `/tasks`
// opens the person's dashboard); the widget is drawn above the editor;
// after a compaction, the agent's claims go back to the model; what newly
// needs the person is told through Pi's notifications (`notices.ts`).

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { registerCommands, registerViewRenderer, VIEW_TYPE } from "./commands.js";
import { Component, type Notify } from "./component.js";
import { callContext, person, personContext, registerPersonFlag } from "./identity.js";
import type { Rendered } from "./rendered.js";
import { Notices } from "./notices.js";
import { registerTools } from "./tools.js";
import { Widget } from "./widget.js";

/** The custom message type of the working memory put back after a compaction (it reaches the model). */
export const MEMORY_TYPE = "tasklists-memory";

/** What one session holds. */
interface Session {
  component: Component;
  widget: Widget;
  notices: Notices;
  rendered: Rendered;
}

/** The extension: Pi calls it once per session runtime. */
export default function tasklists(pi: ExtensionAPI): void {
  let session: Session | null = null;
  registerViewRenderer(pi);
  registerPersonFlag(pi);

  pi.on("session_start", async (_event, ctx) => {
    const notify: Notify = (message, type) => (ctx.hasUI ? ctx.ui.notify(message, type) : console.error(message));
    const component = await Component.open(notify);
    if (!component) return;
    try {
      const [catalogue, commands] = await component.use((host) => Promise.all([host.catalogue(), host.commands()]));
      const caller = callContext(ctx);
      const widget = new Widget(component, ctx.ui, caller);
      const rendered = registerTools(pi, component, catalogue, () => widget.refresh());
      const personal = personContext(ctx, person(pi));
      registerCommands(pi, component, commands, personal, widget);
      const notices = new Notices(component, ctx.ui, personal);
      session = { component, widget, notices, rendered };
      if (ctx.hasUI) {
        widget.start();
        notices.start(widget);
      }
    } catch (e) {
      notify(e instanceof Error ? e.message : String(e), "error");
      await component.close();
    }
  });

  pi.on("session_shutdown", async () => {
    const ending = session;
    session = null;
    if (!ending) return;
    ending.notices.stop();
    ending.widget.stop();
    ending.rendered.clear();
    await ending.component.close();
  });

  // Command output is for the user: it never reaches the model.
  pi.on("context", (event) => {
    const messages = event.messages.filter((m) => !(m.role === "custom" && m.customType === VIEW_TYPE));
    return messages.length === event.messages.length ? undefined : { messages };
  });

  // After a compaction the agent gets its current claims back, once: one
  // message after the summary, in the component's words.
  pi.on("session_compact", async (_event, ctx) => {
    const component = session?.component;
    if (!component) return;
    const memory = await component.use((host) => host.compactionMemory(callContext(ctx))).catch(() => "");
    if (memory) pi.sendMessage({ customType: MEMORY_TYPE, content: memory, display: true });
  });
}

// Pi's notification of the person's inbox: each new entry (a plan to
// approve, a question, work to review, stalled work, a failed check) is
// told once through Pi's own notification UI, in the component's words,
// and recorded as sent in the store (channel `pi:<person>`), so another
// session or a restart of Pi does not tell it again. Checked when the
// widget's change check lays it out again, never on Pi's thread while
// waiting on the store.

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import type { CallContext } from "@tasklists/node-host";
import type { Component } from "./component.js";
import type { Widget } from "./widget.js";

/** Most notifications shown at once; the rest are counted in one more. */
const MAX_SHOWN = 3;

/** Tells the session's person what newly needs them. */
export class Notices {
  readonly #component: Component;
  readonly #ui: ExtensionUIContext;
  readonly #ctx: CallContext;
  readonly #channel: string;
  #busy = false;
  #stop: (() => void) | null = null;

  constructor(component: Component, ui: ExtensionUIContext, ctx: CallContext) {
    this.#component = component;
    this.#ui = ui;
    this.#ctx = ctx;
    this.#channel = `pi:${ctx.person ?? ctx.agentId ?? "anyone"}`;
  }

  /**
   * Checks when the widget is laid out again (the store changed, or time
   * alone may have made work stalled), never on a quiet poll: the inbox
   * is read then, not every second.
   */
  start(widget: Widget): void {
    this.#stop = widget.watch((reachable, relayout) => {
      if (reachable && relayout) void this.check();
    });
  }

  /** One check (never two at once): notifies what was not sent yet, then records it. */
  async check(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    try {
      const pending = await this.#component.use((host) => host.notices(this.#ctx, this.#channel, ""));
      if (!pending.ok || pending.value.length === 0) return;
      const notices = pending.value;
      for (const n of notices.slice(0, MAX_SHOWN)) this.#ui.notify(`${n.title}\n${n.body}`, "warning");
      if (notices.length > MAX_SHOWN) this.#ui.notify(`… ${notices.length - MAX_SHOWN} more need you: /task-inbox`, "warning");
      await this.#component.use((host) =>
        host.noticesSent(
          this.#ctx,
          this.#channel,
          notices.map((n) => n.key),
        ),
      );
    } catch {
      // The next check tries again; the widget already says when the store is down.
    } finally {
      this.#busy = false;
    }
  }

  /** Stops checking. */
  stop(): void {
    this.#stop?.();
    this.#stop = null;
  }
}

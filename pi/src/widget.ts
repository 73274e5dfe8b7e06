// The widget above Pi's editor: the component's lines for the lists
// visible in this session, redrawn after every task tool call, on
// `/task-widget`, and whenever anyone (another agent, another process)
// committed to the database. The on/off and compact/full setting is the
// one thing kept here. Nothing here waits on the store on Pi's thread: the
// change check is asynchronous and bounded (`NodeHost.dataVersion`), and
// while it cannot read the store the widget is the component's one line
// saying so, drawn without asking the store again.

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import type { CallContext, StoreDown, WidgetAction, WidgetMode } from "@tasklists/node-host";
import type { Component } from "./component.js";
import { layoutWidth, styled } from "./style.js";

/** Pi's key for the widget. */
export const WIDGET_KEY = "tasklists";

/** How often the database's change counter is read, in milliseconds. */
const POLL_MS = 1000;

/** Polls between two layouts even without a change: what changes with time alone (a lease running out) shows too. */
const RELAYOUT_POLLS = 30;

/** The session's widget. */
export class Widget {
  readonly #component: Component;
  readonly #ui: ExtensionUIContext;
  readonly #ctx: CallContext;
  #on = true;
  #mode: WidgetMode = "compact";
  /** What Pi shows now, to send only changes. */
  #shown = "null";
  /** What the last check saw (a version, or why the store is down), to redraw only on a change. */
  #seen: string | undefined = undefined;
  /** Why the store cannot be read, while the change check says so. */
  #down: StoreDown | null = null;
  #quiet = 0;
  #checking = false;
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #drawing: Promise<void> | null = null;
  #again = false;
  /** Who else follows the checks (an open dashboard). */
  readonly #watchers = new Set<(reachable: boolean, relayout: boolean) => void>();
  readonly #onResize = () => this.refresh();

  constructor(component: Component, ui: ExtensionUIContext, ctx: CallContext) {
    this.#component = component;
    this.#ui = ui;
    this.#ctx = ctx;
  }

  /**
   * Draws the widget as soon as the first check answers and keeps it
   * current (an unref'd timer: it never keeps Pi alive). Returns at once.
   */
  start(): void {
    void this.#poll();
    this.#timer = setInterval(() => void this.#poll(), POLL_MS);
    this.#timer.unref();
    process.stdout.on("resize", this.#onResize);
  }

  /** One change check (never two at once); redraws when what it saw changed, or every few polls anyway. */
  async #poll(): Promise<void> {
    if (this.#checking) return;
    this.#checking = true;
    try {
      const seen = await this.#component.dataVersion();
      if (this.#stopped) return;
      const key = JSON.stringify(seen);
      const relayout = key !== this.#seen || ++this.#quiet >= RELAYOUT_POLLS;
      for (const watcher of this.#watchers) watcher(seen.reachable, relayout);
      if (!relayout) return;
      this.#quiet = 0;
      this.#seen = key;
      this.#down = seen.reachable ? null : seen.down;
      this.refresh();
    } catch {
      // Never a rejection Pi would see: the next poll checks again.
    } finally {
      this.#checking = false;
    }
  }

  /**
   * Calls `watcher` after every change check (every second), with whether
   * it could read the store and whether the widget is laid out again
   * (the store changed, or enough time passed for what changes with time
   * alone); returns what stops it.
   */
  watch(watcher: (reachable: boolean, relayout: boolean) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** Applies a `/task-widget` action. */
  apply(action: WidgetAction): void {
    if (action === "off") this.#on = false;
    else if (action === "on") this.#on = true;
    else if (action === "compact" || action === "full") {
      this.#on = true;
      this.#mode = action;
    } else if (action === "refresh") this.#shown = "redraw";
    this.refresh();
  }

  /** Redraws (coalesced: at most one drawing in flight and one queued). */
  refresh(): void {
    if (this.#drawing) {
      this.#again = true;
      return;
    }
    this.#drawing = this.#draw()
      .catch(() => {})
      .finally(() => {
        this.#drawing = null;
        if (this.#again) {
          this.#again = false;
          this.refresh();
        }
      });
  }

  async #draw(): Promise<void> {
    const down = this.#down;
    const width = layoutWidth();
    const lines = !this.#on
      ? []
      : await this.#component.use((host) =>
          down ? host.widgetUnreachable(down, width) : host.widget(this.#ctx, { mode: this.#mode, width, everyList: false }),
        );
    const content = lines.length > 0 ? styled(this.#ui.theme, lines) : undefined;
    const key = JSON.stringify(content ?? null);
    if (key === this.#shown) return;
    this.#shown = key;
    this.#ui.setWidget(WIDGET_KEY, content, { placement: "aboveEditor" });
  }

  /** Stops polling and hides the widget. */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    process.stdout.off("resize", this.#onResize);
    try {
      if (this.#shown !== "null") this.#ui.setWidget(WIDGET_KEY, undefined);
    } catch {
      // The session's UI is already gone.
    }
    this.#shown = "null";
  }
}

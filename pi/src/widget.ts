// The widget above Pi's editor: the component's lines for the lists
// visible in this session, redrawn after every task tool call, on
// `/task-widget`, and whenever anyone (another agent, another process)
// committed to the database. The on/off and compact/full setting is the
// one thing kept here.

import type { ExtensionUIContext } from "@mariozechner/pi-coding-agent";
import type { CallContext, WidgetAction, WidgetMode } from "@tasklists/node-host";
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
  #version: number | null | undefined = undefined;
  #timer: NodeJS.Timeout | undefined;
  #drawing: Promise<void> | null = null;
  #again = false;
  readonly #onResize = () => this.refresh();

  constructor(component: Component, ui: ExtensionUIContext, ctx: CallContext) {
    this.#component = component;
    this.#ui = ui;
    this.#ctx = ctx;
  }

  /** Draws the widget now and keeps it current (an unref'd timer: it never keeps Pi alive). */
  start(): void {
    this.#version = this.#component.dataVersion();
    this.refresh();
    let quiet = 0;
    this.#timer = setInterval(() => {
      const version = this.#component.dataVersion();
      if (version === this.#version && ++quiet < RELAYOUT_POLLS) return;
      quiet = 0;
      this.#version = version;
      this.refresh();
    }, POLL_MS);
    this.#timer.unref();
    process.stdout.on("resize", this.#onResize);
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
    const lines = this.#on
      ? await this.#component.use((host) => host.widget(this.#ctx, { mode: this.#mode, width: layoutWidth() }))
      : [];
    const content = lines.length > 0 ? styled(this.#ui.theme, lines) : undefined;
    const key = JSON.stringify(content ?? null);
    if (key === this.#shown) return;
    this.#shown = key;
    this.#ui.setWidget(WIDGET_KEY, content, { placement: "aboveEditor" });
  }

  /** Stops polling and hides the widget. */
  stop(): void {
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

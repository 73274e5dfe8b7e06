// The person's dashboard (`/tasks` in Pi's interactive TUI): Pi's custom
// view in place of the editor, showing the component's lines. Every key
// goes to the component (`ui.dashboard`) with the state its last screen
// returned; what a key does, the prompts, the selection and the footer of
// keys are the component's. This file only names Pi's raw keys as the
// WIT does, keeps the opaque state, draws the lines in the theme's
// colors, and closes the view when the component says so.

import type { ExtensionCommandContext, Theme } from "@mariozechner/pi-coding-agent";
import { type Component as TuiComponent, decodeKittyPrintable, parseKey, type TUI, truncateToWidth } from "@mariozechner/pi-tui";
import type { CallContext, DashboardInput, DashboardScreen, Line } from "@tasklists/node-host";
import type { Component } from "./component.js";
import { styled } from "./style.js";
import type { Widget } from "./widget.js";

/** What a terminal wraps a bracketed paste in (Pi's TUI passes it on whole, markers included). */
const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Rows kept for what Pi shows beside the view: the widget (at most 10 lines) and Pi's footer. */
const ROWS_AROUND = 12;

/** The fewest rows the dashboard is laid out for, however small the terminal. */
const MIN_ROWS = 8;

/**
 * What the component gets for Pi's raw terminal `data`: pasted text, a
 * printable character, or a key named as the WIT names it (Pi's key ids,
 * lowercased: `pageUp` is `pageup`); `undefined` for what Pi cannot name.
 */
export function dashboardInput(data: string): DashboardInput | undefined {
  if (data.startsWith(PASTE_START)) {
    const end = data.indexOf(PASTE_END);
    return { tag: "paste", val: data.slice(PASTE_START.length, end < 0 ? undefined : end) };
  }
  const printable = decodeKittyPrintable(data);
  if (printable) return { tag: "key", val: printable };
  const key = parseKey(data);
  if (key) return { tag: "key", val: [...key].length === 1 ? key : key.toLowerCase() };
  // A character Pi's key names leave out (beyond ASCII: `é`, `ü`): typed as is.
  if ([...data].length === 1 && !/\p{Cc}/u.test(data)) return { tag: "key", val: data };
  return undefined;
}

/** The dashboard as Pi's custom component: lines drawn, keys passed on. */
class DashboardView implements TuiComponent {
  readonly #component: Component;
  readonly #ctx: CallContext;
  readonly #tui: TUI;
  readonly #theme: Theme;
  readonly #widget: Widget;
  readonly #close: (error?: string) => void;
  #state = "";
  #lines: Line[] = [];
  /** The width the lines were laid out for, and the width Pi draws at now. */
  #laidOut = 0;
  #width: number;
  /** Inputs run one after the other, each on the state the previous one returned. */
  #queue: Promise<void> = Promise.resolve();
  /** A refresh is queued and not run yet (refreshes coalesce). */
  #refreshQueued = false;
  #closed = false;

  constructor(component: Component, ctx: CallContext, tui: TUI, theme: Theme, widget: Widget, close: (error?: string) => void) {
    this.#component = component;
    this.#ctx = ctx;
    this.#tui = tui;
    this.#theme = theme;
    this.#widget = widget;
    this.#close = close;
    this.#width = Math.max(20, tui.terminal.columns);
  }

  /** Sends `input` (after the inputs before it) and shows the screen it gives. */
  send(input: DashboardInput): void {
    if (this.#closed) return;
    if (input.tag === "refresh") {
      if (this.#refreshQueued) return;
      this.#refreshQueued = true;
    }
    this.#queue = this.#queue.then(async () => {
      if (input.tag === "refresh") this.#refreshQueued = false;
      if (this.#closed) return;
      const width = this.#width;
      const view = { width, height: Math.max(MIN_ROWS, this.#tui.terminal.rows - ROWS_AROUND) };
      let screen: DashboardScreen;
      try {
        screen = await this.#component.use((host) => host.dashboard(this.#state, input, view, this.#ctx));
      } catch (e) {
        this.#finish(e instanceof Error ? e.message : String(e));
        return;
      }
      this.#state = screen.state;
      this.#lines = screen.lines;
      this.#laidOut = width;
      // What a key changed shows in the widget at once.
      if (input.tag !== "refresh") this.#widget.refresh();
      if (screen.closed) this.#finish();
      else this.#tui.requestRender();
    });
  }

  #finish(error?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#close(error);
  }

  handleInput(data: string): void {
    const input = dashboardInput(data);
    if (input) this.send(input);
  }

  render(width: number): string[] {
    this.#width = Math.max(20, width);
    // Laid out for another width (a resize): drawn as is, once more laid out.
    if (this.#laidOut !== 0 && this.#laidOut !== this.#width) this.send({ tag: "refresh" });
    return styled(this.#theme, this.#lines).map((line) => truncateToWidth(line, width));
  }

  invalidate(): void {
    // Nothing cached: the lines are styled on every render.
  }

  /** Stops taking inputs (the view was removed). */
  dispose(): void {
    this.#closed = true;
  }
}

/**
 * Opens the dashboard in Pi's TUI and resolves once the person closed it
 * (`Esc`/`q`, as the component's key map says). Resolves `false` at once,
 * showing nothing, where Pi has no TUI to show it in (RPC mode): the
 * caller then gives the text view.
 */
export async function openDashboard(component: Component, ctx: CallContext, ui: ExtensionCommandContext, widget: Widget): Promise<boolean> {
  let opened = false;
  let failure: string | undefined;
  let stopWatching = () => {};
  await ui.ui.custom<void>((tui, theme, _keybindings, done) => {
    opened = true;
    const view = new DashboardView(component, ctx, tui, theme, widget, (error) => {
      failure = error;
      done();
    });
    // Current while open: drawn again on every check of the widget's
    // (every second, sooner after a change), unless the store is down.
    stopWatching = widget.watch((reachable) => {
      if (reachable) view.send({ tag: "refresh" });
    });
    view.send({ tag: "refresh" });
    return view;
  });
  stopWatching();
  if (failure) ui.ui.notify(failure, "error");
  return opened;
}

// Pi's renderers are synchronous, the component's are not: a renderer asks
// for lines by key, gets them once they are ready, and its row is redrawn
// (`invalidate`) when they arrive.

import type { Line } from "@tasklists/node-host";

const MAX_ENTRIES = 2000;

/** Rendered lines by key, computed once each. */
export class Rendered {
  readonly #lines = new Map<string, Line[] | "pending">();

  /**
   * The lines for `key`, or `undefined` while `render` runs (then
   * `invalidate` is called once they are ready). A failed render counts as
   * no lines.
   */
  get(key: string, render: () => Promise<Line[]>, invalidate: () => void): Line[] | undefined {
    const known = this.#lines.get(key);
    if (known === "pending") return undefined;
    if (known) return known;
    if (this.#lines.size >= MAX_ENTRIES) {
      const oldest = this.#lines.keys().next().value;
      if (oldest !== undefined) this.#lines.delete(oldest);
    }
    this.#lines.set(key, "pending");
    render().then(
      (lines) => this.#settle(key, lines, invalidate),
      () => this.#settle(key, [], invalidate),
    );
    return undefined;
  }

  #settle(key: string, lines: Line[], invalidate: () => void): void {
    if (!this.#lines.has(key)) return;
    this.#lines.set(key, lines);
    invalidate();
  }

  /** Forgets everything (the session ended). */
  clear(): void {
    this.#lines.clear();
  }
}

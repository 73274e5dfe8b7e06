// The store's change check, kept off the caller's thread: the addon runs
// each check on libuv's thread pool (a PostgreSQL server that does not
// answer holds that thread, never the event loop), bounded by a short limit
// natively, and by a timer here in case the addon overstays it. One check
// runs at a time; callers that ask meanwhile share it.

import { addon } from "./addon.js";
import type { StoreDown } from "./types.js";

/** How long one check may wait on the store, in milliseconds: a live view polls again soon anyway. */
export const CHECK_LIMIT_MS = 2000;

/** How much longer than its limit a caller waits for the addon before calling the store silent. */
const GRACE_MS = 1000;

/**
 * What a change check saw: the store's change number (`null` while the
 * database does not exist yet), or why the store cannot be read now.
 */
export type DataVersion = { reachable: true; version: number | null } | { reachable: false; down: StoreDown };

/** A change check on one store. */
export class ChangeCheck {
  readonly #watch: { check(): Promise<number | null> };
  readonly #limitMs: number;
  readonly #redact: (text: string) => string;
  #running: Promise<DataVersion> | null = null;

  /** A check on `location`; `redact` masks its secrets in the store's words. */
  constructor(location: string, redact: (text: string) => string, limitMs = CHECK_LIMIT_MS) {
    this.#watch = new (addon().ChangeWatch)(location, limitMs);
    this.#limitMs = limitMs;
    this.#redact = redact;
  }

  /** Checks the store; resolves within the limit and a grace, never rejects. */
  check(): Promise<DataVersion> {
    this.#running ??= this.#watch.check().then(
      (version): DataVersion => ({ reachable: true, version }),
      (e: unknown): DataVersion => ({
        reachable: false,
        down: { tag: "failed", val: this.#redact(e instanceof Error ? e.message : String(e)) },
      }),
    );
    const running = this.#running;
    void running.finally(() => {
      if (this.#running === running) this.#running = null;
    });
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<DataVersion>((resolve) => {
      timer = setTimeout(() => resolve({ reachable: false, down: { tag: "no-answer", val: this.#limitMs + GRACE_MS } }), this.#limitMs + GRACE_MS);
      // A check never keeps the process alive (the addon's task does, until its limit).
      timer.unref();
    });
    return Promise.race([running, silent]).finally(() => clearTimeout(timer));
  }
}

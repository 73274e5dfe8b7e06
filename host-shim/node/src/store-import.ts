// The component's `store` and `clock` imports over the native addon. The
// addon already speaks jco's shape of a query's rows (packed, its lists as
// typed arrays jco copies whole); this adapts the calling convention: a
// parameter crosses as its payload alone, a transaction is a resource
// object, a store error is thrown as jco's `{payload}`, and any other
// exception (a host bug) traps the call.

import type { Value } from "../generated/interfaces/tasklists-component-store.js";
import type { NativeStore, SqlParam, SqlRows } from "./addon.js";
import type { WriteState } from "./types.js";

// The flags a worker shares with its host (an Int32Array over a
// SharedArrayBuffer): what the call's writes came to, and whether a write
// commit is running. The host reads them only once the worker is gone,
// never while it may still write them: terminating a worker waits for a
// native COMMIT already running, and the commit may still land.

/** How many 32-bit words the shared flags take. */
export const FLAG_WORDS = 2;
/** The store's write state as of the last write commit (an index of {@link WRITE_STATES}). */
const WRITES = 0;
/** 1 from just before a write's native commit until its outcome is in {@link WRITES}. */
const COMMITTING = 1;
const WRITE_STATES: readonly WriteState[] = ["not-applied", "applied", "may-be-applied"];

/** A new call: nothing written, no commit running. */
export function clearWrites(flags: Int32Array): void {
  Atomics.store(flags, WRITES, 0);
  Atomics.store(flags, COMMITTING, 0);
}

/**
 * What the writes of a call whose worker was stopped came to. A commit
 * that was running when the worker was stopped finished before the stop
 * did, but no JavaScript ran after it to record how: its outcome is
 * unknown, and so is the call's.
 */
export function writesAfterStop(flags: Int32Array): WriteState {
  if (Atomics.load(flags, COMMITTING) !== 0) return "may-be-applied";
  return WRITE_STATES[Atomics.load(flags, WRITES)] ?? "may-be-applied";
}

const STORE_ERROR = "store:";

/** A store error from the addon as the component's `store-error`; anything else is rethrown. */
function storeFailure(e: unknown): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith(STORE_ERROR)) {
    return { payload: { tag: code.slice(STORE_ERROR.length), val: (e as Error).message } };
  }
  return e;
}

/**
 * A parameter as the addon takes it: the payload alone, its case told by
 * its JavaScript type (`null` for the null case; `convert.rs`).
 */
function payload(value: Value): SqlParam {
  return value.tag === "null" ? null : value.val;
}

function guarded<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw storeFailure(e);
  }
}

/**
 * The `store` and `clock` imports of one instance; `nowMs` is the clock
 * the host chose (the store's own, else the system's).
 */
export function storeImports(
  store: NativeStore,
  nowMs: () => bigint,
  flags: Int32Array,
): Record<string, Record<string, unknown>> {
  class Transaction {
    readonly #id: number;
    readonly #write: boolean;
    #done = false;

    constructor(id: number, write: boolean) {
      this.#id = id;
      this.#write = write;
    }

    execute(sql: string, params: Value[]): bigint {
      return guarded(() => store.execute(this.#id, sql, params.map(payload)));
    }

    query(sql: string, params: Value[]): SqlRows {
      return guarded(() => store.query(this.#id, sql, params.map(payload)));
    }

    pipeline(sql: string, params: Value[]): void {
      guarded(() => store.pipeline(this.#id, sql, params.map(payload)));
    }

    commit(): void {
      this.#finish(() => store.commit(this.#id));
    }

    queryThenCommit(sql: string, params: Value[]): SqlRows {
      return this.#finish(() => store.queryThenCommit(this.#id, sql, params.map(payload)));
    }

    /** Runs `end`, which commits and ends the transaction, and records its outcome. */
    #finish<T>(end: () => T): T {
      if (!this.#write) {
        this.#done = true;
        return guarded(end);
      }
      // Read by the host if it has to stop this worker: set before the
      // native commit, which a stop waits for, and cleared only once its
      // outcome is recorded, so a stop in between reads "a commit had
      // started" and never "nothing changed". The handle is finished
      // whatever the outcome: the store ended the transaction.
      Atomics.store(flags, COMMITTING, 1);
      try {
        this.#done = true;
        return guarded(end);
      } finally {
        Atomics.store(flags, WRITES, WRITE_STATES.indexOf(store.writeState()));
        Atomics.store(flags, COMMITTING, 0);
      }
    }

    /** The component dropped its handle: an unfinished transaction rolls back. */
    [Symbol.dispose](): void {
      if (!this.#done) store.abandon(this.#id);
    }
  }

  return {
    "tasklists:component/store": {
      Transaction,
      begin: (write: boolean) => new Transaction(guarded(() => store.begin(write)), write),
      // Asked once per instance: the component picks its migrations and
      // the few statements that differ by it.
      dialect: () => store.dialect(),
    },
    // The clock is the store's own when the store keeps one (PostgreSQL:
    // the runner's clock is the store's then), as in imports/clock.rs.
    "tasklists:component/clock": { nowMs, storeClock: () => store.keepsClock() },
  };
}

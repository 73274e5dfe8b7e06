// The component's `store` and `clock` imports over the native addon. The
// addon already speaks jco's shapes of the WIT types; this only adapts
// the calling convention: a transaction is a resource object, a store
// error is thrown as jco's `{payload}`, and any other exception (a host
// bug) traps the call.

import type { NativeStore, PackedRows, SqlValue } from "./addon.js";

/** A test-only fault: what the store import does wrong on purpose. */
export interface StoreFault {
  /** Which statement of the next call (1-based, `execute` and `query` counted together) misbehaves. */
  onStatement: number;
  /** `trap`: throws as a host bug would; `hang`: spins forever (a runaway call). */
  kind: "trap" | "hang";
}

/** The armed fault and the statements counted in the call in progress. */
export class Faults {
  armed: StoreFault | null = null;
  #statements = 0;

  /** A new call starts counting again. */
  beginCall(): void {
    this.#statements = 0;
  }

  /** Called before each statement: fires the fault once, then disarms it. */
  onStatement(): void {
    if (!this.armed) return;
    this.#statements += 1;
    if (this.#statements !== this.armed.onStatement) return;
    const { kind } = this.armed;
    this.armed = null;
    if (kind === "trap") throw new Error(`injected host fault on statement #${this.#statements}`);
    // A runaway: only terminating the worker stops it.
    for (;;);
  }
}

const NULL: SqlValue = Object.freeze({ tag: "null" }) as SqlValue;

/** The addon's packed rows in jco's shape of WIT `rows`. */
export function unpackRows(packed: PackedRows): { columns: string[]; rows: SqlValue[][] } {
  const { columns, kinds, numbers, text, textEnds, blobs } = packed;
  const width = columns.length;
  const rows: SqlValue[][] = [];
  let textStart = 0;
  let blob = 0;
  for (let at = 0; at < kinds.length; at += width) {
    const row: SqlValue[] = new Array(width);
    for (let c = 0; c < width; c++) {
      const i = at + c;
      switch (kinds[i]) {
        case 0:
          row[c] = NULL;
          break;
        // jco lowers an s64 from a number or a BigInt alike.
        case 1:
          row[c] = { tag: "integer", val: numbers[i] };
          break;
        case 2:
          row[c] = { tag: "integer", val: BigInt(text.slice(textStart, textEnds[i])) };
          textStart = textEnds[i];
          break;
        case 3:
          row[c] = { tag: "real", val: numbers[i] };
          break;
        case 4:
          row[c] = { tag: "text", val: text.slice(textStart, textEnds[i]) };
          textStart = textEnds[i];
          break;
        case 5:
          row[c] = { tag: "blob", val: blobs[blob++] };
          break;
        default:
          throw new Error(`the addon returned an unknown cell kind ${kinds[i]}`);
      }
    }
    rows.push(row);
  }
  return { columns, rows };
}

/** Where the worker tells the host, across threads, that a write was committed. */
export const COMMITTED = 0;

const STORE_ERROR = "store:";

/** A store error from the addon as the component's `store-error`; anything else is rethrown. */
function storeFailure(e: unknown): unknown {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith(STORE_ERROR)) {
    return { payload: { tag: code.slice(STORE_ERROR.length), val: (e as Error).message } };
  }
  return e;
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
  faults: Faults,
): Record<string, Record<string, unknown>> {
  class Transaction {
    readonly #id: number;
    readonly #write: boolean;
    #done = false;

    constructor(id: number, write: boolean) {
      this.#id = id;
      this.#write = write;
    }

    execute(sql: string, params: SqlValue[]): bigint {
      faults.onStatement();
      return guarded(() => store.execute(this.#id, sql, params));
    }

    query(sql: string, params: SqlValue[]) {
      faults.onStatement();
      return unpackRows(guarded(() => store.query(this.#id, sql, params)));
    }

    commit(): void {
      guarded(() => store.commit(this.#id));
      this.#done = true;
      // Read by the host if it has to stop this worker: a write committed
      // before a timeout stands, and the reply says so.
      if (this.#write) Atomics.store(flags, COMMITTED, 1);
    }

    /** In the WIT interface; today's component drops an unfinished transaction instead. */
    rollback(): void {
      this.#done = true;
      guarded(() => store.rollback(this.#id));
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
    "tasklists:component/clock": { nowMs },
  };
}

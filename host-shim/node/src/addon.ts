// Loading the native host shim addon (`native/tasklists.node`, built from
// host-shim/node-addon): the store, the clock, the change check and the
// defaults every host shares. A missing addon, or one built for another
// Node ABI, is one clear error naming the command that builds it.

import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { HostError } from "./errors.js";
import type { SqlDialect, WriteState } from "./types.js";

/** The command that builds everything the Node host loads. */
export const BUILD_COMMAND = "bash scripts/node-host";

/** Where the build puts the addon. */
export const ADDON_PATH = fileURLToPath(new URL("../native/tasklists.node", import.meta.url));

/** A store value, in jco's shape of WIT `value`. */
export interface SqlValue {
  tag: "null" | "integer" | "real" | "text" | "blob";
  val?: bigint | number | string | Uint8Array;
}

/** WIT `rows`, packed by the addon (host-shim/node-addon/src/values.rs). */
export interface PackedRows {
  columns: string[];
  /** Per cell: 0 null, 1 integer, 2 integer beyond 2^53 (digits in `text`), 3 real, 4 text, 5 blob. */
  kinds: Uint8Array;
  numbers: Float64Array;
  text: string;
  /** Per cell, where its text ends in `text` (UTF-16 units). */
  textEnds: Uint32Array;
  blobs: Uint8Array[];
}

/** One connection to the store (host-shim/node-addon/src/store.rs). */
export interface NativeStore {
  /** The dialect the store speaks, fixed for its lifetime. */
  dialect(): SqlDialect;
  /** The store's own clock (a database server's time, ms since the epoch); null for a local store. */
  nowMs(): bigint | null;
  connect(): void;
  beginCall(timeLimitMs: number): void;
  endCall(): boolean | null;
  /** What the writes of the call in progress (or just ended) came to. */
  writeState(): WriteState;
  /** Test-only: the next commit sleeps this long before and after its SQL COMMIT, in native code. */
  delayNextCommit(beforeMs: number, afterMs: number): void;
  begin(write: boolean): number;
  execute(tx: number, sql: string, params: SqlValue[]): bigint;
  query(tx: number, sql: string, params: SqlValue[]): PackedRows;
  commit(tx: number): void;
  rollback(tx: number): void;
  abandon(tx: number): void;
}

/** The limits every host applies by default (host-shim/store/src/limits.rs). */
export interface HostDefaults {
  callTimeoutMs: number;
  memoryLimitBytes: number;
  maxParamsBytes: number;
  busyTimeoutMs: number;
  maxCallsPerInstance: number;
  stderrCaptureBytes: number;
  replyTimeoutMs: number;
  replyMemoryBytes: number;
}

/** What the addon exports (host-shim/node-addon/src/lib.rs). */
export interface Addon {
  /** A store at `location`: a database file path, or a PostgreSQL connection string (URL or key/value words). */
  Store: new (location: string, options?: { busyTimeoutMs?: number; maxResultBytes?: number }) => NativeStore;
  /**
   * A change check on the store at `location` (as for `Store`), each check
   * waiting at most `limitMs` on the store, on libuv's thread pool.
   */
  ChangeWatch: new (location: string, limitMs: number) => { check(): Promise<number | null> };
  /** The system clock, ms since the epoch. */
  nowMs(): bigint;
  hostDefaults(): HostDefaults;
  /** The default store's location, as a `Store` opens it (a connection string keeps its password). */
  defaultDatabase(): string | null;
  /** A location as it may be printed: a connection string loses its password. */
  redactLocation(location: string): string;
  /** `text` with every secret of `location` (a PostgreSQL password) masked. */
  scrubSecrets(location: string, text: string): string;
}

let loaded: Addon | undefined;

/** The addon, loaded once per thread. */
export function addon(): Addon {
  if (!loaded) {
    try {
      loaded = createRequire(import.meta.url)(ADDON_PATH) as Addon;
    } catch (e) {
      const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
      throw new HostError(
        "not-built",
        `the native host shim addon could not be loaded from ${ADDON_PATH} (${why}); build it with: ${BUILD_COMMAND}`,
      );
    }
  }
  return loaded;
}

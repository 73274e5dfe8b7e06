// The messages between a NodeHost (the caller's thread) and its worker.

import type { FailureKind, WriteState } from "./types.js";

/** What the worker gets at start. */
export interface WorkerStart {
  /** The store: a database file path or a PostgreSQL connection string. */
  db: string;
  /** The compiled core modules of the component, by file name. */
  modules: Record<string, WebAssembly.Module>;
  /** The transpiled glue's URL. */
  glue: string;
  /** The same modules capped for a failure's reply (`tools.failed`), which
   * runs under limits of its own: the call's limits may be what failed. */
  replyModules: Record<string, WebAssembly.Module>;
  busyTimeoutMs: number;
  memoryLimitBytes: number;
  replyMemoryLimitBytes: number;
  /** The initial memory of the component, in bytes (the cap cannot be below it). */
  initialMemoryBytes: number;
  /**
   * What the call's writes came to and whether a commit is running, shared
   * with the host, which reads it once the worker is gone (`store-import.ts`).
   */
  flags: Int32Array;
}

/** Which export a request runs. */
export type Entry =
  | "tools.call"
  | "tools.callAction"
  | "tools.failed"
  | "tools.catalogue"
  | "ui.renderResult"
  | "ui.renderError"
  | "ui.renderReply"
  | "ui.renderCall"
  | "ui.renderCollapsed"
  | "ui.widget"
  | "ui.widgetUnreachable"
  | "ui.commands"
  | "ui.runCommand"
  | "ui.complete"
  | "ui.compactionMemory";

/** A request to the worker. */
export type Request =
  | { id: number; op: "run"; entry: Entry; args: unknown[]; timeLimitMs: number }
  | { id: number; op: "arm"; fault: import("./store-import.js").StoreFault | null };

/** The worker's answer. */
export type Response =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; kind: FailureKind; writes: WriteState };

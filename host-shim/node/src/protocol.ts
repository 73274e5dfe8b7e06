// The messages between a NodeHost (the caller's thread) and its worker,
// and the export calls they carry, typed over jco's declarations of the
// component's exports (generated/tasklists.d.ts): an export's name, its
// arguments and its result are the WIT's, never a copied list.

import type { MessagePort } from "node:worker_threads";
import type { Root } from "../generated/tasklists.js";
import type { FailureKind, WriteState } from "./types.js";

/** The exported interfaces a host calls, as jco declares them. */
export type Exports = Pick<Root, "tools" | "ui">;

/** An exported interface: `tools` or `ui`. */
export type Interface = keyof Exports;

/** Each function's parameter list, by name. */
type ArgsOf<T> = { [F in keyof T]: T[F] extends (...args: infer A) => unknown ? A : never };

/** Each function's result, by name. */
type ResultsOf<T> = { [F in keyof T]: T[F] extends (...args: never[]) => infer R ? R : never };

/**
 * The functions of an interface as one table whose entries TypeScript can
 * index with a generic name (jco's module type is structurally the same).
 */
type Table<T> = { [F in keyof T]: (...args: ArgsOf<T>[F]) => ResultsOf<T>[F] };

/** A call of function `F` (by default: any function) of interface `I`, with jco's argument types. */
export type CallOf<I extends Interface, F extends keyof Exports[I] = keyof Exports[I]> = {
  [P in F]: { iface: I; fn: P; args: ArgsOf<Exports[I]>[P] };
}[F];

/** A call of any export. */
export type ExportCall = { [I in Interface]: CallOf<I> }[Interface];

/** What the export `C` names returns (for a union of calls: any of their results). */
export type ResultOf<C extends ExportCall> = C extends ExportCall ? ResultsOf<Exports[C["iface"]]>[C["fn"] & keyof Exports[C["iface"]]] : never;

/** Runs `call` on one interface's functions; the result has the function's type. */
function invoke<I extends Interface, F extends keyof Exports[I]>(fns: Table<Exports[I]>, call: CallOf<I, F>): ResultsOf<Exports[I]>[F] {
  return fns[call.fn](...call.args);
}

/** Runs `call` on an instance's exports. */
export function dispatch(exports: Exports, call: ExportCall): ResultOf<ExportCall> {
  switch (call.iface) {
    case "tools":
      return invoke(exports.tools, call);
    case "ui":
      return invoke(exports.ui, call);
  }
}

/** What the worker gets at start. */
export interface WorkerStart {
  /** The store: a database file path or a PostgreSQL connection string. */
  db: string;
  /** The compiled core modules of the component, by file name. */
  modules: Record<string, WebAssembly.Module>;
  /** The transpiled glue's URL. */
  glue: string;
  /** The same modules capped for a failure's reply (`tools.failed`, and
   * `tools.describe-failure`), which runs under limits of its own: the
   * call's limits may be what failed. */
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
  /** A module that wraps the store connection (tests only; see {@link StoreWrapper}). */
  storeWrapper?: StoreWrapper;
  /**
   * The calls' channel: the host's {@link Request}s arrive on it, the
   * worker's {@link Response}s leave on it, without either thread's event
   * loop: each side counts what it sent in `counts` (after sending it) and
   * notifies, and the other, waiting for the count to reach what it
   * expects (`Atomics.wait`), takes the message with `receiveMessageOnPort`.
   * Past its short wait the host takes the answer as a port event
   * instead, which may come before the worker counted it: so a count is
   * waited on until it reaches the messages expected, never until it
   * merely moves.
   */
  port: MessagePort;
  /** Requests sent (`REQUESTS`) and responses sent (`RESPONSES`), shared by the host and its worker. */
  counts: Int32Array;
}

/**
 * A module the worker imports to wrap its store connection before the
 * component gets it: how the tests inject faults into the store
 * (`test/support/faults.mjs`) without the library carrying them. The
 * module exports `wrap(store, shared)`, returning the connection the
 * component uses; `shared` is memory the test and the worker both see.
 */
export interface StoreWrapper {
  /** The module's URL. */
  module: string;
  /** Shared with the module in every worker the host starts. */
  shared: SharedArrayBuffer;
}

/** Where the requests sent are counted in {@link WorkerStart.counts}. */
export const REQUESTS = 0;
/** Where the responses sent are counted in {@link WorkerStart.counts}. */
export const RESPONSES = 1;

/**
 * Waits until `counts[which]` reaches `target`, for at most `timeoutMs`;
 * says whether it did. It spins for the first `spinMs`, then sleeps: a
 * sleeping thread takes tens of microseconds to wake, as long as a short
 * call takes, and an answer or the next request often comes sooner.
 * (The counts wrap at 2^31; the comparison is right across a wrap.)
 */
export function awaitCount(counts: Int32Array, which: typeof REQUESTS | typeof RESPONSES, target: number, spinMs: number, timeoutMs: number): boolean {
  const started = performance.now();
  for (;;) {
    const now = Atomics.load(counts, which);
    if (((now - target) | 0) >= 0) return true;
    const waited = performance.now() - started;
    if (waited >= timeoutMs) return false;
    if (waited >= spinMs) Atomics.wait(counts, which, now, timeoutMs - waited);
  }
}

/** Counts one message sent on the calls' channel and wakes the side waiting for it. */
export function signal(counts: Int32Array, which: typeof REQUESTS | typeof RESPONSES): void {
  Atomics.add(counts, which, 1);
  Atomics.notify(counts, which);
}

/** A request to the worker: one export call within a time limit. */
export interface Request<C extends ExportCall = ExportCall> {
  id: number;
  call: C;
  timeLimitMs: number;
}

/** The worker's answer to a request for `C`. */
export type Response<C extends ExportCall = ExportCall> =
  | { id: number; ok: true; value: ResultOf<C> }
  | { id: number; ok: false; kind: FailureKind; writes: WriteState };

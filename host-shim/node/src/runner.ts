// One component instance at a time, inside the worker, run the way the
// wasmtime host runs it (`component_host.rs`): each call is bracketed by
// the store's `beginCall` / `endCall` (a transaction left open rolls back),
// a trap discards the instance (the next call gets a fresh one), and an
// instance is also replaced after it wrote to stderr or served its quota
// of calls.

import { addon, type NativeStore } from "./addon.js";
import { type ExportCall, type Exports, type ResultOf, type WorkerStart, dispatch } from "./protocol.js";
import { storeImports } from "./store-import.js";
import type { FailureKind, WriteState } from "./types.js";
import { ExitCalled, StderrCapture, denyAllWasi } from "./wasi.js";

type Instantiate = (
  getCoreModule: (path: string) => WebAssembly.Module,
  imports: Record<string, Record<string, unknown>>,
  instantiateCore: (module: WebAssembly.Module, imports: WebAssembly.Imports) => WebAssembly.Instance,
) => Exports;

/** A live instance: its exports, its memory's size, the calls it served. */
interface Live {
  exports: Exports;
  memoryBytes: () => number;
  calls: number;
}

/** A store wrapper module's `wrap` (tests only: see `StoreWrapper` in protocol.ts). */
type Wrap = (store: NativeStore, shared: SharedArrayBuffer) => NativeStore;

/** A wasm page. */
const PAGE = 64 * 1024;

/** The longest panic message passed on (as in the wasmtime host). */
const MAX_PANIC_CHARS = 400;

/** A call that did not complete: what to tell the component's `failed`. */
export interface Trapped {
  kind: FailureKind;
  /** What the call's writes came to, as the store knows it after the call. */
  writes: WriteState;
}

/** What Rust prints on stderr when an allocation fails. */
const ALLOCATION_FAILED = /memory allocation of (\d+) bytes failed/;

/** The panic message Rust printed before trapping, if any. */
function panicMessage(stderr: string): string | undefined {
  const at = stderr.indexOf("panicked at");
  if (at < 0) return undefined;
  const text = stderr.slice(at).trim().replace(/\s+/g, " ");
  return text.length > MAX_PANIC_CHARS ? `${text.slice(0, MAX_PANIC_CHARS)}…` : text;
}

/** The refusal an export returning a WIT `result` answered with, as a value to pass on. */
export interface Refused {
  refused: unknown;
}

/**
 * The refusal an export's WIT `result` carried, when `error` is one, else
 * undefined. The pinned jco throws the error value itself (here a plain
 * `tool-error` object, never an `Error`); other versions wrap it in a
 * `ComponentError` with a `payload`. A trap is always an `Error`.
 */
function refusal(error: unknown): Refused | undefined {
  if (error instanceof Error) {
    return error.constructor.name === "ComponentError" && "payload" in error
      ? { refused: (error as Error & { payload: unknown }).payload }
      : undefined;
  }
  if (error !== null && typeof error === "object" && "code" in error && "message" in error) {
    return { refused: error };
  }
  return undefined;
}

export class Runner {
  readonly #store: NativeStore;
  readonly #stderr: StderrCapture;
  readonly #start: WorkerStart;
  readonly #instantiate: Instantiate;
  readonly #maxCalls: number;
  #live: Live | null = null;
  readonly #systemClock = addon().nowMs;
  /**
   * The `clock` import, as in the wasmtime host (`imports/clock.rs`): the
   * store's own clock when it has one (a database server's time, which
   * every machine sharing it agrees on, so a lease never depends on one
   * machine's clock), else the system clock.
   */
  readonly #clock = (): bigint => this.#store.nowMs() ?? this.#systemClock();

  private constructor(start: WorkerStart, instantiate: Instantiate, wrap: Wrap | undefined) {
    const native = addon();
    const defaults = native.hostDefaults();
    this.#start = start;
    this.#instantiate = instantiate;
    this.#maxCalls = defaults.maxCallsPerInstance;
    this.#stderr = new StderrCapture(defaults.stderrCaptureBytes);
    const store = new native.Store(start.db, {
      busyTimeoutMs: start.busyTimeoutMs,
      maxResultBytes: start.memoryLimitBytes,
    });
    this.#store = wrap && start.storeWrapper ? wrap(store, start.storeWrapper.shared) : store;
  }

  /** A runner over the transpiled glue at `start.glue` (and the store wrapper a test named). */
  static async load(start: WorkerStart): Promise<Runner> {
    const glue: { instantiate: Instantiate } = await import(start.glue);
    const wrapper: { wrap: Wrap } | undefined = start.storeWrapper && (await import(start.storeWrapper.module));
    return new Runner(start, glue.instantiate, wrapper?.wrap);
  }

  /** Runs one export under the call's limits. */
  run(call: ExportCall, timeLimitMs: number): { ok: true; value: ResultOf<ExportCall> } | ({ ok: false } & Trapped) {
    // A failure's reply (or its reason) runs in an instance of its own,
    // under the reply's memory cap, which is not kept; the live instance
    // stays as it was.
    const reply = call.iface === "tools" && (call.fn === "failed" || call.fn === "describeFailure");
    const limit = reply ? this.#start.replyMemoryLimitBytes : this.#start.memoryLimitBytes;
    let live: Live;
    try {
      live = (reply ? null : this.#live) ?? this.#fresh(reply);
    } catch (e) {
      return { ok: false, ...this.#classify(e, "not-applied", limit) };
    }
    if (!reply) this.#live = null;
    this.#store.beginCall(timeLimitMs);
    let value: ResultOf<ExportCall>;
    try {
      value = dispatch(live.exports, call);
    } catch (e) {
      const refused = refusal(e);
      if (refused === undefined) {
        this.#store.endCall();
        return { ok: false, ...this.#classify(e, this.#store.writeState(), limit, live.memoryBytes()) };
      }
      // The error of an export returning a `result` (jco throws it): the
      // component's answer like any other, passed on as a value.
      value = refused as unknown as ResultOf<ExportCall>;
    }
    const leftOpen = this.#store.endCall();
    const writes = this.#store.writeState();
    // Returning with a write still open is a component bug that would
    // silently lose the write: say so instead.
    if (leftOpen === true) return { ok: false, kind: { tag: "left-open" }, writes };
    live.calls += 1;
    if (!reply && live.calls < this.#maxCalls && !this.#stderr.written) this.#live = live;
    return { ok: true, value };
  }

  /** A new instance with its own stderr and WASI. */
  #fresh(reply: boolean): Live {
    this.#stderr.clear();
    const { initialMemoryBytes } = this.#start;
    const modules = reply ? this.#start.replyModules : this.#start.modules;
    const limit = reply ? this.#start.replyMemoryLimitBytes : this.#start.memoryLimitBytes;
    if (initialMemoryBytes > limit) throw new MemoryCapExceeded(initialMemoryBytes, limit);
    let memory: WebAssembly.Memory | undefined;
    const exports = this.#instantiate(
      (name) => {
        const module = modules[name];
        if (!module) throw new Error(`the transpiled component asked for an unknown core module ${name}`);
        return module;
      },
      {
        ...denyAllWasi(this.#stderr),
        ...storeImports(this.#store, this.#clock, this.#start.flags),
      },
      (module, imports) => {
        const instance = new WebAssembly.Instance(module, imports);
        // The module that defines the memory exports it: remember it, to
        // report the size it had when an allocation failed.
        const exported = instance.exports.memory;
        if (exported instanceof WebAssembly.Memory) memory ??= exported;
        return instance;
      },
    );
    return { exports, memoryBytes: () => memory?.buffer.byteLength ?? 0, calls: 0 };
  }

  /** What stopped a call, in the component's terms. */
  #classify(error: unknown, writes: WriteState, limit: number, memoryBytes = 0): Trapped {
    if (error instanceof MemoryCapExceeded) {
      return { kind: { tag: "out-of-memory", val: { bytes: BigInt(error.bytes), limit: BigInt(error.limit) } }, writes };
    }
    const stderr = this.#stderr.text();
    // V8 fails a `memory.grow` past the declared maximum quietly (it
    // returns -1); Rust then aborts, with or without a word on stderr. A
    // wasm trap while the memory is within a page of its cap is that.
    const allocation = ALLOCATION_FAILED.exec(stderr);
    const atCap = memoryBytes + PAGE > limit;
    if (allocation || (atCap && error instanceof WebAssembly.RuntimeError)) {
      const wanted = Math.max(memoryBytes + Number(allocation?.[1] ?? 0), memoryBytes + PAGE, limit + 1);
      return { kind: { tag: "out-of-memory", val: { bytes: BigInt(wanted), limit: BigInt(limit) } }, writes };
    }
    const trap = error instanceof Error ? error.message : String(error);
    if (error instanceof ExitCalled) return { kind: { tag: "trapped", val: trap }, writes };
    const panic = panicMessage(stderr);
    return { kind: { tag: "trapped", val: panic ? `${panic} (${trap})` : trap }, writes };
  }
}

/** The cap is below the memory the component starts with. */
class MemoryCapExceeded extends Error {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the component's memory would grow to ${bytes >> 10} KiB, over its limit of ${limit >> 10} KiB`);
  }
}

// The Node host: the component in a worker thread, driven from the
// caller's thread. Calls run one at a time, in the order they were made;
// each has a deadline, and a call past it terminates the worker (its
// store connection closes, so an open transaction rolls back) and is
// answered by the component's own words for a timeout, from a fresh
// worker that also serves the calls after it.

import { access, readFile, readdir } from "node:fs/promises";
import { MessageChannel, type MessagePort, Worker, receiveMessageOnPort } from "node:worker_threads";
import { BUILD_COMMAND, addon, type HostDefaults } from "./addon.js";
import { ChangeCheck, type DataVersion } from "./change-check.js";
import { HostError } from "./errors.js";
import { type CallOf, type ExportCall, REQUESTS, RESPONSES, type Request, type Response, type ResultOf, type StoreWrapper, type WorkerStart, awaitCount, signal } from "./protocol.js";
import { prepareModules } from "./memory-cap.js";
import { callTimeoutMs } from "./options.js";
import { FLAG_WORDS, clearWrites, writesAfterStop } from "./store-import.js";
import type {
  CallContext,
  CallFailure,
  CommandEffect,
  CommandInfo,
  Completion,
  DashboardInput,
  DashboardScreen,
  DashboardView,
  FailureKind,
  InboxOutput,
  InboxView,
  KeyBinding,
  Line,
  Notice,
  PersonReply,
  PersonRequest,
  StoreDown,
  ToolError,
  ToolInfo,
  ToolReply,
  WidgetView,
  WriteState,
} from "./types.js";
import type { Answer } from "./types.js";

const GENERATED = new URL("../generated/", import.meta.url);
const GLUE = new URL("tasklists.js", GENERATED);
const WORKER = new URL("./worker.js", import.meta.url);

/** The JavaScript heap a worker may use (the component's memory is capped apart). */
const WORKER_HEAP_MB = 256;

/** How a {@link NodeHost} is set up; every limit defaults to the wasmtime host's. */
export interface HostOptions {
  /**
   * The store: a database file path, or a PostgreSQL connection string
   * (`postgresql://…` URL or libpq `key=value` words), passed to the
   * store as given [default: $TASKLISTS_DB, else
   * $XDG_DATA_HOME/tasklists/tasks.db, else ~/.local/share/tasklists/tasks.db].
   */
  db?: string;
  /**
   * Wall-time limit of one call, in milliseconds: a whole number from 1
   * to 2^31-1 (what a Node timer keeps); anything else is refused with a
   * {@link HostError} `invalid-option`.
   */
  callTimeoutMs?: number;
  /** Cap on the component's linear memory, in bytes. */
  memoryLimitBytes?: number;
  /** Arguments (or params) larger than this are refused before the component runs. */
  maxParamsBytes?: number;
  /** How long a write waits for another process's lock before `busy`. */
  busyTimeoutMs?: number;
}

/** What opening a host cost, in milliseconds. */
export interface LoadTimes {
  /** Reading and compiling the core modules (once per host). */
  compileMs: number;
  /** Starting the worker: loading the addon and the glue, instantiating. */
  startMs: number;
}

/** The limits in effect, and the store wrapper of a test's host. */
interface Limits extends HostDefaults {
  db: string;
  storeWrapper?: StoreWrapper;
}

/** A running worker and what is waiting on it. */
interface Running {
  worker: Worker;
  /** The calls' channel (see {@link WorkerStart.port}). */
  port: MessagePort;
  /** The messages sent on it (see {@link WorkerStart.counts}). */
  counts: Int32Array;
  /** The requests sent to this worker: it has answered them all once its count of responses reaches this. */
  sent: number;
  ready: Promise<void>;
  /** Resolves with why the worker stopped. */
  stopped: Promise<string>;
  /** Settles the request in flight, if any, when the worker stops. */
  onStop: ((why: string) => void) | null;
}

/**
 * How long a call's caller waits for the answer without yielding its
 * event loop, in milliseconds, before awaiting it (see `#send`).
 */
const SYNC_WAIT_MS = 2;

/** How much of {@link SYNC_WAIT_MS} the caller spins rather than sleeps (see `awaitCount`). */
const SPIN_MS = 0.3;

/** The worker's response to `request`, which it has sent (and counted). */
function answer<C extends ExportCall>(running: Running, request: Request<C>): Response<C> {
  // Responses come one per request, in order; one of an earlier request
  // (none should be left) is skipped.
  for (;;) {
    const got = receiveMessageOnPort(running.port) as { message: Response<C> } | undefined;
    if (!got) throw new HostError("worker", `the worker counted a response to request ${request.id} it did not send`);
    if (got.message.id === request.id) return got.message;
  }
}

/** No context: anonymous, nothing pinned. */
const NO_CONTEXT: CallContext = { agentPinned: false };

/** Where a host's compiled component and its memory bounds come from. */
interface Compiled {
  modules: Record<string, WebAssembly.Module>;
  replyModules: Record<string, WebAssembly.Module>;
  initialMemoryBytes: number;
}

async function compile(memoryLimitBytes: number, replyMemoryLimitBytes: number): Promise<Compiled> {
  let names: string[];
  try {
    names = (await readdir(GENERATED)).filter((n) => n.endsWith(".wasm"));
    await access(GLUE);
  } catch {
    names = [];
  }
  if (names.length === 0) {
    throw new HostError("not-built", `the transpiled component is missing from ${GENERATED.pathname}; build it with: ${BUILD_COMMAND}`);
  }
  const files: Record<string, Uint8Array> = {};
  for (const name of names) files[name] = new Uint8Array(await readFile(new URL(name, GENERATED)));
  const build = async (limit: number) => {
    const { modules, initialMemoryBytes } = prepareModules(files, limit);
    const compiled: Record<string, WebAssembly.Module> = {};
    for (const [name, bytes] of Object.entries(modules)) compiled[name] = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
    return { compiled, initialMemoryBytes };
  };
  const call = await build(memoryLimitBytes);
  const reply = replyMemoryLimitBytes === memoryLimitBytes ? call : await build(replyMemoryLimitBytes);
  return { modules: call.compiled, replyModules: reply.compiled, initialMemoryBytes: call.initialMemoryBytes };
}

/** Set by NodeHost's static block: opens a host over a store wrapper (see {@link openWithStoreWrapper}). */
let openWrapped: (options: HostOptions, wrapper: StoreWrapper) => Promise<NodeHost>;

/** The tasklists component, sandboxed in a worker thread of this process. */
export class NodeHost {
  readonly #limits: Limits;
  readonly #compiled: Compiled;
  /** What a call's writes came to, written by the worker, read once it is gone (`store-import.ts`). */
  readonly #flags = new Int32Array(new SharedArrayBuffer(FLAG_WORDS * Int32Array.BYTES_PER_ELEMENT));
  #running: Running | null = null;
  #tail: Promise<unknown> = Promise.resolve();
  #nextId = 0;
  #closed = false;
  #watch: ChangeCheck | null = null;
  #loaded: LoadTimes = { compileMs: 0, startMs: 0 };

  private constructor(limits: Limits, compiled: Compiled) {
    this.#limits = limits;
    this.#compiled = compiled;
  }

  /** What opening this host cost: compiling the core modules, then starting the worker and instantiating. */
  get loadTimes(): LoadTimes {
    return { ...this.#loaded };
  }

  /**
   * Loads the component (compiled once per host, off the event loop) and
   * starts its worker. Fails with a {@link HostError} `not-built` naming
   * the build command when the addon or the transpiled component is missing.
   */
  static open(options: HostOptions = {}): Promise<NodeHost> {
    return NodeHost.#open(options);
  }

  static {
    // The tests' way in (openWithStoreWrapper, below), kept out of the class's API.
    openWrapped = (options, wrapper) => NodeHost.#open(options, wrapper);
  }

  static async #open(options: HostOptions, storeWrapper?: StoreWrapper): Promise<NodeHost> {
    const native = addon();
    const defaults = native.hostDefaults();
    // The rule every host shares (the store crate's, as the CLI's --db):
    // the given text untouched (a connection string is no path to
    // resolve), else the default store.
    const db = native.resolveDatabase(options.db);
    if (!db) {
      throw new HostError("worker", "no database: pass --db, set TASKLISTS_DB, XDG_DATA_HOME or HOME");
    }
    const limits: Limits = {
      ...defaults,
      db,
      storeWrapper,
      callTimeoutMs: callTimeoutMs(options.callTimeoutMs, defaults.callTimeoutMs),
      memoryLimitBytes: options.memoryLimitBytes ?? defaults.memoryLimitBytes,
      maxParamsBytes: options.maxParamsBytes ?? defaults.maxParamsBytes,
      busyTimeoutMs: options.busyTimeoutMs ?? defaults.busyTimeoutMs,
    };
    const replyMemory = Math.max(limits.memoryLimitBytes, limits.replyMemoryBytes);
    let started = performance.now();
    const host = new NodeHost(limits, await compile(limits.memoryLimitBytes, replyMemory));
    const compileMs = performance.now() - started;
    started = performance.now();
    try {
      await host.#start().ready;
    } catch (e) {
      // Whatever failed, its words never carry the store's password.
      if (e instanceof HostError) throw new HostError(e.code, host.redact(e.message));
      throw e;
    }
    host.#loaded = { compileMs, startMs: performance.now() - started };
    return host;
  }

  /**
   * The store this host serves, as it was given: a connection string
   * keeps its password, so print {@link location} instead.
   */
  get db(): string {
    return this.#limits.db;
  }

  /** The store this host serves as it may be shown: a connection string without its password. */
  get location(): string {
    return addon().redactLocation(this.#limits.db);
  }

  /** `text` with the store's secrets (a PostgreSQL password) masked, for printing a message about it. */
  redact(text: string): string {
    return addon().scrubSecrets(this.#limits.db, text);
  }

  /**
   * Runs the agent's call: `tool` as the agent named it, `args` the JSON
   * text it sent (`{"action": …, "params": {…}}`). The reply is the
   * component's, whatever happened: a refusal, a trap, a timeout, the
   * memory cap, arguments over the size limit.
   */
  call(tool: string, args: string, ctx: CallContext = NO_CONTEXT): Promise<ToolReply> {
    return this.#toolCall(true, Buffer.byteLength(args), { iface: "tools", fn: "call", args: [tool, args, ctx] });
  }

  /** Runs a call whose action and params (JSON text, `""` for none) are held apart. */
  callAction(tool: string, action: string, params: string, ctx: CallContext = NO_CONTEXT): Promise<ToolReply> {
    const size = Buffer.byteLength(params) + Buffer.byteLength(action);
    return this.#toolCall(false, size, { iface: "tools", fn: "callAction", args: [tool, action, params, ctx] });
  }

  /** The component's reply to a call a host could not finish. */
  failed(failure: CallFailure): Promise<ToolReply> {
    return this.#queue(() => this.#failed(failure));
  }

  /** The five tools with descriptions, JSON Schemas and annotations. */
  catalogue(): Promise<ToolInfo[]> {
    return this.#plain({ iface: "tools", fn: "catalogue", args: [] });
  }

  /** Renders a successful result (`data` as the tool returned it). */
  renderResult(tool: string, action: string, data: string): Promise<Line[]> {
    return this.#plain({ iface: "ui", fn: "renderResult", args: [tool, action, data] });
  }

  /** Renders a failed call: the error, then its hint. */
  renderError(error: ToolError): Promise<Line[]> {
    return this.#plain({ iface: "ui", fn: "renderError", args: [error] });
  }

  /** Renders the reply to a call made with `args`: the result, or the error and its hint. */
  renderReply(tool: string, args: string, reply: ToolReply): Promise<Line[]> {
    return this.#plain({ iface: "ui", fn: "renderReply", args: [tool, args, reply] });
  }

  /** Renders the call itself (tool, action, key params) in one line. */
  renderCall(tool: string, action: string, params: string): Promise<Line[]> {
    return this.#plain({ iface: "ui", fn: "renderCall", args: [tool, action, params] });
  }

  /** The reply folded to what a transcript shows by default (`renderReply` is the expanded form). */
  renderCollapsed(tool: string, args: string, reply: ToolReply): Promise<Line[]> {
    return this.#plain({ iface: "ui", fn: "renderCollapsed", args: [tool, args, reply] });
  }

  /**
   * The widget's lines for the lists visible in `ctx` (at most 10, the
   * frame included, at most `view.width` columns); none: hide it.
   */
  widget(ctx: CallContext, view: WidgetView): Promise<Line[]> {
    return this.#plain({ iface: "ui", fn: "widget", args: [ctx, view] });
  }

  /** The slash commands (name, description, usage), in menu order. */
  commands(): Promise<CommandInfo[]> {
    return this.#plain({ iface: "ui", fn: "commands", args: [] });
  }

  /**
   * Runs a slash command with the text after its name; the effect says
   * what to do: show lines, ask a question or offer a choice (then run it
   * again), or change the widget.
   */
  runCommand(name: string, args: string, ctx: CallContext, width: number, confirmed = false): Promise<CommandEffect> {
    return this.#plain({ iface: "ui", fn: "runCommand", args: [name, args, ctx, width, confirmed] });
  }

  /** Suggestions for a command's arguments given what was typed so far. */
  complete(name: string, prefix: string, ctx: CallContext): Promise<Completion[]> {
    return this.#plain({ iface: "ui", fn: "complete", args: [name, prefix, ctx] });
  }

  /**
   * Carries out a person's action (approve, reject, add, edit, priority,
   * block, …) as `ctx.person`, laid out for `width` columns: done (its
   * lines and data), refused (the error and its lines; nothing changed),
   * or a question (send the same request again with `confirmed` set). No
   * `ctx.person`: refused, the surface is read-only.
   */
  personAct(request: PersonRequest, ctx: CallContext, width: number): Promise<PersonReply> {
    return this.#plain({ iface: "ui", fn: "personAct", args: [request, ctx, width] });
  }

  /** The dashboard's keys in footer order (key, action, label, what it asks, whether it writes). */
  keyMap(): Promise<KeyBinding[]> {
    return this.#plain({ iface: "ui", fn: "keyMap", args: [] });
  }

  /**
   * The person's dashboard after `input` (a key named as in the key map,
   * pasted text, or a refresh), from `state`: `""` the first time, then
   * the `state` of the last screen, kept as is. Draw the screen's `lines`;
   * remove the view once it is `closed`.
   */
  dashboard(state: string, input: DashboardInput, view: DashboardView, ctx: CallContext): Promise<DashboardScreen> {
    return this.#plain({ iface: "ui", fn: "dashboard", args: [state, input, view, ctx] });
  }

  /** The agent's current claims as compact text for the model after a compaction ("" for none). */
  compactionMemory(ctx: CallContext): Promise<string> {
    return this.#plain({ iface: "ui", fn: "compactionMemory", args: [ctx] });
  }

  /**
   * The store's change check: a number that changes whenever a write was
   * committed to the database since the last read, by any process
   * (SQLite's `PRAGMA data_version`, or the PostgreSQL backend's change
   * check, on a connection of its own; `null` while the database does not
   * exist), or why the store cannot be read now. It never waits on this
   * thread: the check runs on libuv's thread pool, one at a time (callers
   * meanwhile share it), and resolves within {@link CHECK_LIMIT_MS} and a
   * second even when a server never answers; it never rejects. Poll it on
   * a timer to keep a live view current; while the store is down, show
   * {@link widgetUnreachable}.
   */
  dataVersion(): Promise<DataVersion> {
    this.#watch ??= new ChangeCheck(this.#limits.db, (text) => this.redact(text));
    return this.#watch.check();
  }

  /**
   * The person's inbox as `ctx` sees it: its lines laid out for
   * `view.width`, its JSON and its count (with `view.stalledAfterMinutes`,
   * the threshold is saved first, as `ctx.person`), or the refusal.
   */
  inbox(ctx: CallContext, view: InboxView): Promise<Answer<InboxOutput>> {
    return this.#result({ iface: "ui", fn: "inbox", args: [ctx, view] });
  }

  /** The inbox entries not yet sent on `channel`, as notices whose links start at `boardUrl` ("" for none). */
  notices(ctx: CallContext, channel: string, boardUrl: string): Promise<Answer<Notice[]>> {
    return this.#result({ iface: "ui", fn: "notices", args: [ctx, channel, boardUrl] });
  }

  /** Records the notices `keys` as sent on `channel`: never sent again there. */
  noticesSent(ctx: CallContext, channel: string, keys: string[]): Promise<Answer<void>> {
    return this.#result({ iface: "ui", fn: "noticesSent", args: [ctx, channel, keys] });
  }

  /**
   * The widget's one line, in the component's words, while the change
   * check cannot read the store (`why`, as {@link dataVersion} gave it);
   * the store is not touched.
   */
  widgetUnreachable(why: StoreDown, width: number): Promise<Line[]> {
    return this.#plain({ iface: "ui", fn: "widgetUnreachable", args: [why, width] });
  }

  /** Stops the worker after the calls already made; later calls fail. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#tail.catch(() => {});
    await this.#stop();
  }

  #queue<T>(job: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new HostError("closed", "the host is closed"));
    const run = this.#tail.then(job, job);
    this.#tail = run.catch(() => {});
    return run;
  }

  #toolCall(wholeRequest: boolean, size: number, call: CallOf<"tools", "call" | "callAction">): Promise<ToolReply> {
    return this.#queue(async () => {
      const failure = (kind: FailureKind, writes: WriteState): CallFailure => ({ wholeRequest, kind, writes });
      if (size > this.#limits.maxParamsBytes) {
        const limit = { bytes: BigInt(size), limit: BigInt(this.#limits.maxParamsBytes) };
        return this.#failed(failure({ tag: "too-large", val: limit }, "not-applied"));
      }
      const answer = await this.#run(call, this.#limits.callTimeoutMs);
      if (answer.ok) return answer.value;
      return this.#failed(failure(answer.kind, answer.writes));
    });
  }

  /**
   * A call of an export returning a WIT `result`: its value, or the
   * component's refusal (a `ToolError`) as `{ refused }`; a failure is the
   * host's error, as for {@link #plain}.
   */
  async #result<C extends ExportCall>(call: C): Promise<Answer<ResultOf<C>>> {
    const value: unknown = await this.#plain(call);
    if (value !== null && typeof value === "object" && "refused" in value) {
      return { ok: false, error: (value as { refused: ToolError }).refused };
    }
    return { ok: true, value: value as ResultOf<C> };
  }

  /** A catalogue, renderer or view call: a failure is the host's error, in the component's words. */
  #plain<C extends ExportCall>(call: C): Promise<ResultOf<C>> {
    return this.#queue(async () => {
      const answer = await this.#run(call, this.#limits.callTimeoutMs);
      if (answer.ok) return answer.value;
      throw await this.#hostError(answer.kind);
    });
  }

  /** The component's reply to a failed call (`tools.failed`, in an instance of its own, under the reply's limits). */
  async #failed(failure: CallFailure): Promise<ToolReply> {
    const answer = await this.#run({ iface: "tools", fn: "failed", args: [failure] }, this.#replyTimeLimitMs());
    if (answer.ok) return answer.value;
    throw await this.#hostError(answer.kind);
  }

  /**
   * The host error for a call that failed without a reply to carry: the
   * component's words for why (`tools.describe-failure`, asked as `failed`
   * is, as the wasmtime host does), or, when it cannot say either, the
   * failure as the host classified it.
   */
  async #hostError(kind: FailureKind): Promise<HostError> {
    const answer = await this.#run({ iface: "tools", fn: "describeFailure", args: [kind] }, this.#replyTimeLimitMs());
    if (answer.ok) return new HostError("trapped", answer.value);
    const classified = JSON.stringify(kind, (_, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
    return new HostError("trapped", `the component failed and could not say why: ${classified}`);
  }

  /** A failure's reply may take the reply's own time limit, or the call's when longer. */
  #replyTimeLimitMs(): number {
    return Math.max(this.#limits.callTimeoutMs, this.#limits.replyTimeoutMs);
  }

  /** Runs one export in the worker, within `timeLimitMs`. */
  async #run<C extends ExportCall>(
    call: C,
    timeLimitMs: number,
  ): Promise<{ ok: true; value: ResultOf<C> } | { ok: false; kind: FailureKind; writes: WriteState }> {
    clearWrites(this.#flags);
    const response = await this.#send({ id: this.#nextId++, call, timeLimitMs });
    if (response === "timed-out") {
      // V8 cannot interrupt a wasm call from outside but by terminating
      // its thread; the store's own deadline (80% of the limit) has
      // already stopped any SQL, and closing the connection rolls back.
      // Terminating waits for a native COMMIT already running, which may
      // still land: what the writes came to is read only once the worker
      // is gone, never before.
      await this.#stop();
      return { ok: false, kind: { tag: "timed-out", val: BigInt(timeLimitMs) }, writes: writesAfterStop(this.#flags) };
    }
    if ("stopped" in response) {
      // The worker is gone: what it wrote last is all there is to know.
      return { ok: false, kind: { tag: "host-bug", val: response.stopped }, writes: writesAfterStop(this.#flags) };
    }
    if (response.ok) return { ok: true, value: response.value };
    return { ok: false, kind: response.kind, writes: response.writes };
  }

  /** Sends a request; resolves with its response, or why none came within its time limit. */
  async #send<C extends ExportCall>(request: Request<C>): Promise<Response<C> | "timed-out" | { stopped: string }> {
    const running = this.#running ?? this.#start();
    await running.ready;
    running.port.postMessage(request);
    signal(running.counts, REQUESTS);
    running.sent += 1;
    // Most calls are answered within a fraction of a millisecond: waiting
    // for the answer here, for at most SYNC_WAIT_MS, saves the two event
    // loop wake-ups a message costs, and blocks this thread no longer
    // than that. A slower call is awaited without blocking.
    if (awaitCount(running.counts, RESPONSES, running.sent, SPIN_MS, SYNC_WAIT_MS)) return answer(running, request);
    // A slower call's answer is awaited as an event: listening starts
    // the port, which then delivers the answer (queued already, or when
    // it comes); once no one listens, messages queue again.
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const onMessage = (message: Response<C>) => {
        if (message.id !== request.id) return;
        done();
        resolve(message);
      };
      const done = () => {
        clearTimeout(timer);
        running.port.off("message", onMessage);
        // Listening referenced the port; an idle host keeps nothing alive.
        running.port.unref();
        running.onStop = null;
      };
      running.port.on("message", onMessage);
      // The deadline's timer keeps the process alive while the call runs.
      timer = setTimeout(() => {
        done();
        resolve("timed-out");
      }, Math.max(0, request.timeLimitMs - SYNC_WAIT_MS));
      // One request at a time: the worker's one stop handler settles it.
      running.onStop = (why) => {
        done();
        resolve({ stopped: why });
      };
    });
  }

  /** Starts a worker (the compiled modules are shared, not compiled again). */
  #start(): Running {
    const { port1: port, port2: workerPort } = new MessageChannel();
    const counts = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
    const start: WorkerStart = {
      db: this.#limits.db,
      modules: this.#compiled.modules,
      replyModules: this.#compiled.replyModules,
      glue: GLUE.href,
      busyTimeoutMs: this.#limits.busyTimeoutMs,
      memoryLimitBytes: this.#limits.memoryLimitBytes,
      replyMemoryLimitBytes: Math.max(this.#limits.memoryLimitBytes, this.#limits.replyMemoryBytes),
      initialMemoryBytes: this.#compiled.initialMemoryBytes,
      flags: this.#flags,
      storeWrapper: this.#limits.storeWrapper,
      port: workerPort,
      counts,
    };
    const worker = new Worker(WORKER, {
      workerData: start,
      transferList: [workerPort],
      // The worker sees no environment of the process (the component
      // could not anyway: its WASI has none), and never writes to the
      // process's stdout, which may carry a protocol (MCP): its stdout is
      // kept here, unread (worker.ts sends what it prints to stderr). Its
      // stderr is the process's, as Node pipes it: reading either stream
      // here would keep the process alive as long as the worker runs.
      env: {},
      stdout: true,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    // An idle host never keeps the process alive; a call in flight does
    // (its deadline timer is referenced).
    worker.unref();
    port.unref();
    const stopped = new Promise<string>((resolve) => {
      worker.once("error", (e) => resolve(`the worker thread failed: ${e.message}`));
      worker.once("exit", (code) => resolve(`the worker thread stopped (exit code ${code})`));
    });
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: true; fatal?: { code: HostError["code"]; message: string } }) => {
        if (message.ready) {
          worker.off("message", onMessage);
          resolve();
        } else if (message.fatal) {
          worker.off("message", onMessage);
          reject(new HostError(message.fatal.code, message.fatal.message));
        }
      };
      worker.on("message", onMessage);
      stopped.then((why) => reject(new HostError("worker", why)));
    });
    ready.catch(() => {
      if (this.#running?.worker === worker) this.#running = null;
      void worker.terminate();
    });
    const running: Running = { worker, port, counts, sent: 0, ready, stopped, onStop: null };
    stopped.then((why) => {
      if (this.#running?.worker === worker) this.#running = null;
      running.onStop?.(why);
      port.close();
    });
    this.#running = running;
    return running;
  }

  async #stop(): Promise<void> {
    const running = this.#running;
    this.#running = null;
    if (running) await running.worker.terminate();
  }
}

/**
 * Opens a host whose workers wrap their store connection with `wrapper`'s
 * module: how the tests inject faults into the store
 * (`test/support/faults.mjs`). Not part of the package's API (`index.ts`
 * does not export it): a published host never wraps its store.
 */
export function openWithStoreWrapper(options: HostOptions, wrapper: StoreWrapper): Promise<NodeHost> {
  return openWrapped(options, wrapper);
}

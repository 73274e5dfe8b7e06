// @ts-check
// Driving a real Pi (0.73.1, from pi/node_modules) headless: `pi --mode
// rpc` in a temporary HOME / PI_CODING_AGENT_DIR, offline, without a
// session file, with a mock model declared in models.json and the
// extension loaded with `-e` (or installed). Every process started here is
// stopped by `stopAll()`, whatever happened.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The package root (pi/). */
export const PACKAGE = resolve(here, "..");
/** The repository root. */
export const ROOT = resolve(PACKAGE, "..");
/** The extension's entry point. */
export const EXTENSION = join(PACKAGE, "src", "index.ts");
/** Pi's CLI script, run with this Node. */
export const PI_CLI = join(PACKAGE, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");
/** The Node host's MCP server (a second agent, in another process, on the same component build). */
export const TASKLISTS_NODE = join(ROOT, "host-shim", "node", "bin", "tasklists-node");

/** The native CLI (wasmtime host) of this checkout's release build. */
export const TASKLISTS_CLI = process.env.TASKLISTS_BIN || join(ROOT, "target", "release", "tasklists");

const running = new Set();
const dirs = new Set();

/**
 * Removes ANSI escape sequences (the widget's lines carry the theme's colors).
 * @param {string} text
 */
export function strip(text) {
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, "").replace(/\x1b\][^\x07\x1b]*(\x07|\x1b\\)/g, "");
}

/**
 * A temporary home: HOME, PI_CODING_AGENT_DIR with models.json declaring
 * the mock model at `baseUrl`, a workspace directory and a database path.
 * @param {string} [baseUrl]
 */
export function makeHome(baseUrl) {
  const dir = mkdtempSync(join(tmpdir(), "tasklists-pi-"));
  dirs.add(dir);
  const home = join(dir, "home");
  const agentDir = join(home, ".pi", "agent");
  const workspace = join(dir, "workspace");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const models = {
    providers: {
      mock: {
        baseUrl: baseUrl ?? "http://127.0.0.1:9/v1",
        api: "openai-completions",
        apiKey: "mock-key",
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: "mock-1", name: "Mock", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096 }],
      },
    },
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
  const db = join(dir, "tasks.db");
  /** @type {NodeJS.ProcessEnv} */
  const env = {
    ...process.env,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    PI_OFFLINE: "1",
    TASKLISTS_DB: db,
    XDG_DATA_HOME: join(dir, "xdg"),
  };
  delete env.TASKLISTS_AGENT_ID;
  return { dir, home, agentDir, workspace, db, env };
}

/** @typedef {ReturnType<typeof makeHome>} Home A temporary home (see {@link makeHome}). */

/** A Pi RPC process: commands with responses, and every line it printed. */
export class RpcPi {
  /**
   * Every JSON record Pi printed, in order (Pi's RPC protocol, read as
   * each test needs it).
   * @type {any[]}
   */
  records = [];
  stderr = "";
  /** @type {import("node:child_process").ChildProcessWithoutNullStreams} */
  #child;
  #nextId = 0;
  /** @type {{ predicate: (record: any) => boolean, from: number, resolve: (record: any) => void, timer?: NodeJS.Timeout }[]} */
  #waiters = [];
  /** @type {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} */
  exited;

  /** @param {import("node:child_process").ChildProcessWithoutNullStreams} child */
  constructor(child) {
    this.#child = child;
    let buffer = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (/** @type {string} */ chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline).replace(/\r$/, "");
        buffer = buffer.slice(newline + 1);
        if (!line.trim()) continue;
        let record;
        try {
          record = JSON.parse(line);
        } catch {
          record = { type: "unparsed", line };
        }
        this.records.push(record);
        this.#check();
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (/** @type {string} */ chunk) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  }

  get pid() {
    return this.#child.pid;
  }

  #check() {
    this.#waiters = this.#waiters.filter((w) => {
      const index = this.records.findIndex((r, i) => i >= w.from && w.predicate(r));
      if (index < 0) return true;
      clearTimeout(w.timer);
      w.resolve(this.records[index]);
      return false;
    });
  }

  /**
   * The first record from `from` on (default: any) matching `predicate`,
   * waiting up to `timeoutMs`.
   * @param {(record: any) => boolean} predicate
   * @param {{ from?: number, timeoutMs?: number, what?: string }} [options]
   * @returns {Promise<any>}
   */
  waitFor(predicate, { from = 0, timeoutMs = 20000, what = "a record" } = {}) {
    return new Promise((resolve, reject) => {
      /** @type {{ predicate: (record: any) => boolean, from: number, resolve: (record: any) => void, timer?: NodeJS.Timeout }} */
      const waiter = { predicate, from, resolve };
      waiter.timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`timed out waiting for ${what}; stderr:\n${this.stderr.slice(-2000)}`));
      }, timeoutMs);
      this.#waiters.push(waiter);
      this.#check();
    });
  }

  /**
   * Sends a command and resolves with its response (rejects on `success: false`).
   * @param {{ type: string } & Record<string, unknown>} command
   * @param {{ timeoutMs?: number }} [options]
   * @returns {Promise<any>}
   */
  async send(command, { timeoutMs = 20000 } = {}) {
    const id = `t${this.#nextId++}`;
    const from = this.records.length;
    this.write({ ...command, id });
    const response = await this.waitFor((r) => r.type === "response" && r.id === id, { from, timeoutMs, what: `the response to ${command.type}` });
    if (!response.success) throw new Error(`${command.type} failed: ${response.error}`);
    return response;
  }

  /**
   * Writes one JSON line to Pi's stdin.
   * @param {object} record
   */
  write(record) {
    this.#child.stdin.write(`${JSON.stringify(record)}\n`);
  }

  /**
   * The extension UI requests of `method` (from index `from` on).
   * @param {string} method
   * @returns {any[]}
   */
  ui(method, from = 0) {
    return this.records.slice(from).filter((r) => r.type === "extension_ui_request" && r.method === method);
  }

  /** Our widget's setWidget requests, lines without colors (null: hidden). */
  widgets(from = 0) {
    return this.ui("setWidget", from)
      .filter((r) => r.widgetKey === "tasklists")
      .map((r) => (r.widgetLines ? /** @type {string[]} */ (r.widgetLines).map(strip) : null));
  }

  /** Stops Pi: stdin closed, then SIGTERM, then SIGKILL. */
  async stop() {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    this.#child.stdin.end();
    const gone = await Promise.race([this.exited.then(() => true), delay(3000).then(() => false)]);
    if (!gone) {
      this.#child.kill("SIGTERM");
      const terminated = await Promise.race([this.exited.then(() => true), delay(3000).then(() => false)]);
      if (!terminated) this.#child.kill("SIGKILL");
      await this.exited;
    }
    running.delete(this);
  }
}

/**
 * Waits `ms` milliseconds.
 * @param {number} ms
 * @returns {Promise<void>}
 */
export function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Starts `pi --mode rpc --no-session` (or with sessions kept in
 * `sessionDir`) with the mock model in `home`; the extension is loaded with
 * `-e` unless `extension: false` (or installed in the home's settings).
 * @param {Home} home
 * @param {{ extension?: boolean, env?: Record<string, string>, args?: string[], sessionDir?: string }} [options]
 */
export async function startPi(home, { extension = true, env = {}, args = [], sessionDir } = {}) {
  const session = sessionDir ? ["--session-dir", sessionDir] : ["--no-session"];
  const argv = [PI_CLI, "--mode", "rpc", ...session, "--provider", "mock", "--model", "mock-1", ...args];
  if (extension) argv.push("-e", EXTENSION);
  const child = spawn(process.execPath, argv, { cwd: home.workspace, env: { ...home.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  const pi = new RpcPi(child);
  running.add(pi);
  // Ready once it answers a command (extensions loaded, session started).
  await pi.send({ type: "get_state" }, { timeoutMs: 30000 });
  return pi;
}

/** Stops every Pi started here and removes the temporary homes. */
export async function stopAll() {
  await Promise.all([...running].map((pi) => pi.stop().catch(() => {})));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

/**
 * One tool call by another agent in another process: `tasklists-node mcp`
 * (initialize, then tools/call), stopped after the answer. Resolves with
 * the MCP result.
 * @param {Home} home
 * @param {string} agentId
 * @param {string} tool
 * @param {object} args
 * @returns {Promise<any>}
 */
export function callAsOtherAgent(home, agentId, tool, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(TASKLISTS_NODE, ["--db", home.db, "--agent-id", agentId, "mcp"], { env: home.env, stdio: ["pipe", "pipe", "pipe"] });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`tasklists-node did not answer; stderr: ${stderr}`));
    }, 20000);
    let buffer = "";
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    /** @param {object} message */
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    child.stdout.on("data", (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        if (message.id === 1) {
          send({ method: "notifications/initialized" });
          send({ id: 2, method: "tools/call", params: { name: tool, arguments: args } });
        } else if (message.id === 2) {
          clearTimeout(timer);
          child.stdin.end();
          child.once("exit", () => resolve(message.result ?? message));
        }
      }
    });
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pi-test", version: "0" } } });
  });
}

/**
 * One tool call by another agent with the native CLI (`tasklists call
 * --json`, the wasmtime host) in a process of its own; returns the data,
 * or throws the contract error.
 * @param {Home} home
 * @param {string} agentId
 * @param {string} tool
 * @param {object} request
 * @returns {any}
 */
export function callWithCli(home, agentId, tool, request) {
  if (!existsSync(TASKLISTS_CLI)) {
    throw new Error(`no native tasklists at ${TASKLISTS_CLI}: run \`cargo build --release\` (or set TASKLISTS_BIN)`);
  }
  const out = spawnSync(TASKLISTS_CLI, ["--db", home.db, "--agent-id", agentId, "call", "--json", tool, JSON.stringify(request)], {
    env: home.env,
    encoding: "utf8",
    timeout: 20000,
  });
  if (out.status !== 0) throw new Error(`tasklists call failed (${out.status}): ${out.stdout}${out.stderr}`);
  return JSON.parse(out.stdout.slice(out.stdout.indexOf("\n") + 1));
}

// @ts-check
// `tasklists serve` as a person starts it: its own database, a person,
// 127.0.0.1 and a free port; the URL read from the one line it prints on
// stdout. `stop()` ends it (SIGTERM, then SIGKILL) whatever happened; a
// test registers it with `t.after` through `serve`.

import { spawn } from "node:child_process";
import { childEnv, tasklistsBinary } from "./env.mjs";

/**
 * @typedef {object} Board
 * @property {string} url the printed URL, token included
 * @property {string} origin `http://127.0.0.1:PORT`
 * @property {number} port
 * @property {string} token
 * @property {number} pid
 * @property {() => string} stderr what it logged so far
 * @property {() => Promise<void>} stop
 */

/**
 * The printed line: `tasklists board: http://127.0.0.1:PORT/?token=TOKEN`.
 * @param {string} line
 */
export function parseBoardLine(line) {
  const m = /^tasklists board: (http:\/\/\S+)/.exec(line);
  if (!m) throw new Error(`tasklists serve printed ${JSON.stringify(line)}, not "tasklists board: http://…"`);
  const url = new URL(m[1]);
  const token = url.searchParams.get("token") ?? /\?token=(\S+?)\)?$/.exec(line)?.[1] ?? "";
  return { url: url.href, origin: url.origin, port: Number(url.port), token };
}

/**
 * Starts `tasklists serve --db DB` (`--listen 127.0.0.1:0` unless `args`
 * names another) as `person` (`TASKLISTS_PERSON`; "" for none); resolves
 * once it printed its URL; fails with its stderr if it exits first or
 * says nothing within `timeoutMs`.
 * @param {{ db: string, person?: string, args?: string[], env?: Record<string, string>, timeoutMs?: number }} options
 * @returns {Promise<Board>}
 */
export async function startServer({ db, person = "ann", args = [], env = {}, timeoutMs = 20000 }) {
  const listen = args.includes("--listen") ? [] : ["--listen", "127.0.0.1:0"];
  const child = spawn(tasklistsBinary(), ["--db", db, "serve", ...listen, ...args], {
    env: childEnv({ ...(person ? { TASKLISTS_PERSON: person } : {}), ...env }),
    // The workspace (its overview's lists) is the tests' directory, as the agents'.
    cwd: process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  let out = "";
  child.stderr.setEncoding("utf8").on("data", (s) => {
    err = (err + s).slice(-200000);
  });
  /** @type {Promise<unknown>} */
  const exited = new Promise((resolve) => {
    child.on("exit", resolve);
    child.on("error", resolve);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(killer);
  };
  try {
    const line = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`tasklists serve printed no URL within ${timeoutMs} ms; stderr:\n${err}`)), timeoutMs);
      child.stdout.setEncoding("utf8").on("data", (s) => {
        out += s;
        const nl = out.indexOf("\n");
        if (nl >= 0) {
          clearTimeout(timer);
          resolve(out.slice(0, nl));
        }
      });
      child.on("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`tasklists serve exited (${code ?? signal}) before printing its URL; stdout: ${JSON.stringify(out)}; stderr:\n${err}`));
      });
      child.on("error", reject);
    });
    const board = parseBoardLine(line);
    return { ...board, pid: /** @type {number} */ (child.pid), stderr: () => err, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * `startServer`, stopped when the test ends.
 * @param {import("node:test").TestContext} t
 * @param {Parameters<typeof startServer>[0]} options
 */
export async function serve(t, options) {
  const board = await startServer(options);
  t.after(board.stop);
  return board;
}

/**
 * Runs `tasklists serve` with `args` that must make it refuse to start:
 * resolves to its exit code, stdout and stderr (killed after `timeoutMs`
 * if it started after all, so the test fails instead of hanging).
 * @param {{ db: string, args: string[], env?: Record<string, string>, timeoutMs?: number }} options
 */
export async function serveRefused({ db, args, env = {}, timeoutMs = 15000 }) {
  const child = spawn(tasklistsBinary(), ["--db", db, "serve", ...args], {
    env: childEnv({ TASKLISTS_PERSON: "ann", ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (s) => (out += s));
  child.stderr.setEncoding("utf8").on("data", (s) => (err += s));
  const killer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  /** @type {[number | null, string | null]} */
  const [code, signal] = await new Promise((resolve, reject) => {
    child.on("exit", (c, s) => resolve([c, s]));
    child.on("error", reject);
  });
  clearTimeout(killer);
  return { code, signal, stdout: out, stderr: err };
}

/**
 * Runs `body`; if it fails, the failure carries the server's log and the
 * browser's console (a test's evidence).
 * @template T
 * @param {{ stderr: () => string }} board
 * @param {string[]} console
 * @param {() => Promise<T>} body
 * @returns {Promise<T>}
 */
export async function withEvidence(board, console, body) {
  try {
    return await body();
  } catch (e) {
    const evidence = `\n--- browser console:\n${console.join("\n")}\n--- server stderr (tail):\n${board.stderr().slice(-4000)}`;
    if (e instanceof Error) {
      e.message += evidence;
      throw e;
    }
    throw new Error(String(e) + evidence);
  }
}

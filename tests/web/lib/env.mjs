// @ts-check
// Where the things under test are (this checkout's release build, the Node
// host's build), and the environment every process the tests start gets:
// the caller's, less anything that would point a process at a real
// database or identity.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root. */
export const REPO = resolve(fileURLToPath(new URL("../../..", import.meta.url)));

/** The Node host's compiled library (built by `bash scripts/node-host`). */
export const NODE_HOST = join(REPO, "host-shim", "node", "dist", "index.js");

/**
 * The native `tasklists` of this checkout's release build (or
 * `$TASKLISTS_BIN`), or a failure saying how to build it.
 */
export function tasklistsBinary() {
  const path = process.env.TASKLISTS_BIN || join(REPO, "target", "release", "tasklists");
  if (!existsSync(path)) {
    throw new Error(`no native tasklists at ${path}: run \`cargo build --release -p tasklists\` (or set TASKLISTS_BIN)`);
  }
  return path;
}

/**
 * The Node host's library path, or a failure saying how to build it.
 */
export function nodeHostLibrary() {
  if (!existsSync(NODE_HOST)) throw new Error(`no Node host at ${NODE_HOST}: run \`bash scripts/node-host\``);
  return NODE_HOST;
}

/**
 * The environment of a process the tests start: no inherited database,
 * identity or person (each test names its own), the compiled-component
 * cache under target/, and `extra` on top.
 * @param {Record<string, string>} [extra]
 * @returns {Record<string, string>}
 */
export function childEnv(extra = {}) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !/^TASKLISTS_(DB|AGENT_ID|PERSON)$/.test(k)) env[k] = v;
  }
  env.TASKLISTS_CACHE_DIR = join(REPO, "target", "web-test-cache");
  return { ...env, ...extra };
}

/**
 * A fresh directory, removed by the returned function (also safe to call twice).
 * @param {string} prefix
 */
export function makeTempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh directory, removed when the test ends.
 * @param {import("node:test").TestContext} t
 */
export function tempDir(t) {
  const { dir, remove } = makeTempDir("tasklists-web-");
  t.after(remove);
  return dir;
}

/** @param {number} ms */
export const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What `probe` returns once it is truthy, polled every `everyMs` until
 * `timeoutMs`; fails saying `what` and the last value seen.
 * @template T
 * @param {() => T | Promise<T>} probe
 * @param {string} what
 * @param {{ timeoutMs?: number, everyMs?: number }} [options]
 * @returns {Promise<T>}
 */
export async function waitFor(probe, what, { timeoutMs = 10000, everyMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    last = await probe();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await delay(everyMs);
  }
}

// @ts-check
// Shared by the Node host's tests: temporary databases, the native
// binaries the cross-host tests run beside the Node host, and a call
// helper that parses the component's reply.

import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** @typedef {import("node:test").TestContext} TestContext */
/** @typedef {import("../dist/index.js").NodeHost} NodeHost */
/** @typedef {import("../dist/index.js").ToolError} ToolError */

export const PACKAGE = resolve(fileURLToPath(new URL("..", import.meta.url)));
export const REPO = resolve(PACKAGE, "../..");

/**
 * A fresh directory, removed when the test ends.
 * @param {TestContext} t
 */
export function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), "tasklists-node-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A native binary of this checkout's release build, or a failure saying how to build it.
 * @param {string} name
 * @param {string} envVar
 */
export function nativeBinary(name, envVar) {
  const path = process.env[envVar] || join(REPO, "target", "release", name);
  if (!existsSync(path)) {
    throw new Error(`no native ${name} at ${path}: run \`cargo build --release --workspace\` (or set ${envVar})`);
  }
  return path;
}

/**
 * A caller context for `agent`.
 * @param {string} agent
 * @returns {import("../dist/index.js").CallContext}
 */
export function ctx(agent) {
  return { agentId: agent, agentPinned: false };
}

/**
 * Calls `tool` `action` with `params` on `host`; returns the data (the
 * contract's JSON: read as the test needs), or throws the contract error.
 * @param {NodeHost} host
 * @param {string} agent
 * @param {string} tool
 * @param {string} action
 * @param {object} [params]
 * @returns {Promise<any>}
 */
export async function call(host, agent, tool, action, params = {}) {
  const reply = await host.callAction(tool, action, JSON.stringify(params), ctx(agent));
  if (reply.outcome.tag === "err") {
    const error = reply.outcome.val;
    throw Object.assign(new Error(`${error.code}: ${error.message}`), { contract: error });
  }
  return JSON.parse(reply.structured);
}

/**
 * The contract error of a call that must fail.
 * @param {NodeHost} host
 * @param {string} agent
 * @param {string} tool
 * @param {string} action
 * @param {object} [params]
 * @returns {Promise<ToolError>}
 */
export async function refused(host, agent, tool, action, params = {}) {
  const reply = await host.callAction(tool, action, JSON.stringify(params), ctx(agent));
  if (reply.outcome.tag !== "err") throw new Error(`${tool} ${action} succeeded: ${reply.text}`);
  return reply.outcome.val;
}

/**
 * The store's change number from `host.dataVersion()`, which must have read the store.
 * @param {NodeHost} host
 */
export async function versionOf(host) {
  const seen = await host.dataVersion();
  if (!seen.reachable) throw new Error(`the change check could not read the store: ${JSON.stringify(seen.down)}`);
  return seen.version;
}

// Shared by the Node host's tests: temporary databases, the native
// binaries the cross-host tests run beside the Node host, and a call
// helper that parses the component's reply.

import { mkdtempSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE = resolve(fileURLToPath(new URL("..", import.meta.url)));
export const REPO = resolve(PACKAGE, "../..");

/** A fresh directory, removed when the test ends. */
export function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), "tasklists-node-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A native binary of this checkout's release build, or a failure saying how to build it. */
export function nativeBinary(name, envVar) {
  const path = process.env[envVar] || join(REPO, "target", "release", name);
  if (!existsSync(path)) {
    throw new Error(`no native ${name} at ${path}: run \`cargo build --release --workspace\` (or set ${envVar})`);
  }
  return path;
}

/** A caller context for `agent`. */
export function ctx(agent) {
  return { agentId: agent, agentPinned: false };
}

/** Calls `tool` `action` with `params` on `host`; returns the data, or throws the contract error. */
export async function call(host, agent, tool, action, params = {}) {
  const reply = await host.callAction(tool, action, JSON.stringify(params), ctx(agent));
  if (reply.outcome.tag === "err") {
    const error = new Error(`${reply.outcome.val.code}: ${reply.outcome.val.message}`);
    error.contract = reply.outcome.val;
    throw error;
  }
  return JSON.parse(reply.structured);
}

/** The contract error of a call that must fail. */
export async function refused(host, agent, tool, action, params = {}) {
  const reply = await host.callAction(tool, action, JSON.stringify(params), ctx(agent));
  if (reply.outcome.tag !== "err") throw new Error(`${tool} ${action} succeeded: ${reply.text}`);
  return reply.outcome.val;
}

/** The store's change number from `host.dataVersion()`, which must have read the store. */
export async function versionOf(host) {
  const seen = await host.dataVersion();
  if (!seen.reachable) throw new Error(`the change check could not read the store: ${JSON.stringify(seen.down)}`);
  return seen.version;
}

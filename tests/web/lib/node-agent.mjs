// @ts-check
// An agent on the Node host, in its own process: `node node-agent.mjs
// <library> <db> <agent>`. Reads calls as JSON lines on stdin
// (`{"id","tool","action","params"}`), answers each on stdout
// (`{"id","answer":{"ok",…},"at"}`, `at` the wall clock in ms once the call
// returned, so after its commit), in order; closes the host at the end of
// stdin.

import { createInterface } from "node:readline";

const [library, db, agent] = process.argv.slice(2);
// Loaded by path (the library is host-shim/node's build, not a dependency
// of this package), so typed loosely here; host-shim/node's own tests
// check its types.
/** @type {{ NodeHost: { open(options: { db: string }): Promise<any> } }} */
const { NodeHost } = await import(library);
const host = await NodeHost.open({ db });
const ctx = { agentId: agent, agentPinned: false };

/**
 * The reply's data or contract error.
 * @param {string} tool
 * @param {string} action
 * @param {object} params
 */
async function answer(tool, action, params) {
  const reply = await host.callAction(tool, action, JSON.stringify(params), ctx);
  if (reply.outcome.tag === "err") {
    const { code, message, hint } = reply.outcome.val;
    // The WIT's enum (`invalid-params`) spelled as the CLI's JSON spells it.
    return { ok: false, error: { code: String(code).replaceAll("-", "_"), message, hint } };
  }
  return { ok: true, data: JSON.parse(reply.structured) };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { id, tool, action, params } = JSON.parse(line);
  try {
    const a = await answer(tool, action, params ?? {});
    process.stdout.write(`${JSON.stringify({ id, answer: a, at: Date.now() })}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ id, failed: String(e instanceof Error ? e.stack : e) })}\n`);
  }
}
await host.close();

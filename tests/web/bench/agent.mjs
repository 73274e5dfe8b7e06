// @ts-check
// One agent of the liveness benchmark, in a process of its own:
//   node bench/agent.mjs <cli|node> <db> <agent> <list_id> <think_ms>
// Works the list until `claim_next` hands out nothing: claim, save a
// note, close as done, with a pause of about `think_ms` between calls.
// After each call returns (so after its commit) it prints one JSON line:
// `{"task","status","at"}` (`status` the card's new `data-status`, or
// "note"; `at` the wall clock, ms since the epoch). The `cli` agent runs
// one `tasklists call` process per call; the `node` agent calls the Node
// host library in this process.

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { childEnv, delay, nodeHostLibrary, tasklistsBinary } from "../lib/env.mjs";

const [mode, db, agent, listId, thinkArg] = process.argv.slice(2);
const thinkMs = Number(thinkArg ?? 100);
const run = promisify(execFile);

/** @type {(tool: string, action: string, params: object) => Promise<any>} */
let call;
/** @type {() => Promise<void>} */
let close = async () => {};
if (mode === "node") {
  /** @type {{ NodeHost: { open(options: { db: string }): Promise<any> } }} */
  const { NodeHost } = await import(nodeHostLibrary());
  const host = await NodeHost.open({ db });
  const ctx = { agentId: agent, agentPinned: false };
  call = async (tool, action, params) => {
    const reply = await host.callAction(tool, action, JSON.stringify(params), ctx);
    if (reply.outcome.tag === "err") throw new Error(`${agent}: ${tool} ${action}: ${reply.outcome.val.message}`);
    return JSON.parse(reply.structured);
  };
  close = () => host.close();
} else if (mode === "cli") {
  const bin = tasklistsBinary();
  const env = childEnv();
  call = async (tool, action, params) => {
    const { stdout } = await run(bin, ["--db", db, "--agent-id", agent, "call", tool, JSON.stringify({ action, params }), "--json"], { env, encoding: "utf8" });
    const lines = stdout.trimEnd().split("\n");
    return JSON.parse(lines[lines.length - 1]);
  };
} else {
  throw new Error(`mode must be cli or node, not ${mode}`);
}

/** A pause of `thinkMs` ± half of it, so the agents do not march in step. */
const think = () => delay(thinkMs * (0.5 + Math.random()));

/**
 * @param {string} task
 * @param {string} status
 */
const log = (task, status) => process.stdout.write(`${JSON.stringify({ task, status, at: Date.now() })}\n`);

try {
  for (;;) {
    const claimed = await call("task_claims", "claim_next", { list_id: listId });
    if (!claimed.task) break;
    const { id } = claimed.task;
    const token = claimed.claim.token;
    log(id, "in_progress");
    await think();
    await call("task_items", "update", { task_id: id, notes: `${agent} is on it`, claim_token: token });
    log(id, "note");
    await think();
    await call("task_items", "update", { task_id: id, status: "done", outcome: `done by ${agent}`, claim_token: token });
    log(id, "done");
    await think();
  }
} finally {
  await close();
}

// @ts-check
// One database, two hosts: what the Node host writes the native
// `tasklists` reads, and the other way round.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { NodeHost } from "../dist/index.js";
import { REPO, call, nativeBinary, tempDir, versionOf } from "./helpers.mjs";

/**
 * `tasklists call` on the native host; returns the data.
 * @param {string} db
 * @param {string} agent
 * @param {string} tool
 * @param {string} action
 * @param {object} params
 * @returns {any}
 */
function native(db, agent, tool, action, params) {
  const out = execFileSync(
    nativeBinary("tasklists", "TASKLISTS_BIN"),
    ["--db", db, "--agent-id", agent, "call", tool, JSON.stringify({ action, params }), "--json"],
    { encoding: "utf8", env: { ...process.env, TASKLISTS_AGENT_ID: "", TASKLISTS_DB: "", TASKLISTS_CACHE_DIR: join(REPO, "target", "node-test-cache") } },
  );
  const [, data] = out.trimEnd().split("\n");
  return JSON.parse(data);
}

test("a database written by one host is read and written by the other", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const host = await NodeHost.open({ db });
  t.after(() => host.close());

  // Node writes, native reads and claims.
  const listId = (await call(host, "node-agent", "task_lists", "create", { name: "Shared" })).list.id;
  await call(host, "node-agent", "task_items", "add_many", { list_id: listId, tasks: [{ title: "one" }, { title: "two" }] });
  const seen = native(db, "native-agent", "task_lists", "get", { list_id: listId, include_tasks: true });
  assert.deepEqual(seen.tasks.map((/** @type {{ title: string }} */ t) => t.title), ["one", "two"]);
  const claimed = native(db, "native-agent", "task_claims", "claim_next", { list_id: listId });
  assert.equal(claimed.task.title, "one");

  // Native's claim is visible to Node, which takes the next task.
  const next = await call(host, "node-agent", "task_claims", "claim_next", { list_id: listId });
  assert.equal(next.task.title, "two");
  const got = await call(host, "node-agent", "task_lists", "get", { list_id: listId, include_tasks: true });
  assert.deepEqual(got.tasks.map((/** @type {{ title: string, claimed_by_agent_id: string }} */ t) => [t.title, t.claimed_by_agent_id]), [["one", "native-agent"], ["two", "node-agent"]]);

  // Native closes its task; Node sees the outcome, and its change check moved.
  const before = await versionOf(host);
  native(db, "native-agent", "task_items", "update", { task_id: claimed.task.id, status: "done", outcome: "done natively", claim_token: claimed.claim.token });
  assert.notEqual(await versionOf(host), before, "the change check saw the other process's write");
  const after = await call(host, "node-agent", "task_lists", "get", { list_id: listId, include_tasks: true });
  assert.equal(after.tasks[0].outcome, "done natively");
});

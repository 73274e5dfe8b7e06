// @ts-check
// The standard agent workflow through the library, and what the library
// publishes besides tool calls: the catalogue and the renderers.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { NodeHost } from "../dist/index.js";
import { call, ctx, tempDir, versionOf } from "./helpers.mjs";

test("find → create → add_many → claim_next → notes → done → nothing left", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const me = "builder-1";

  assert.deepEqual((await call(host, me, "task_lists", "find", { name: "Release" })).lists, []);
  const created = await call(host, me, "task_lists", "create", { name: "Release 1.2", get_or_create: true });
  assert.equal(created.created, true);
  const listId = created.list.id;
  const added = await call(host, me, "task_items", "add_many", {
    list_id: listId,
    tasks: [{ title: "Write the changelog" }, { title: "Tag the release" }],
  });
  assert.deepEqual(added.tasks.map((/** @type {{ position: number }} */ t) => t.position), [1, 2]);

  for (const expected of added.tasks) {
    const claimed = await call(host, me, "task_claims", "claim_next", { list_id: listId });
    assert.equal(claimed.task.id, expected.id);
    assert.equal(claimed.task.status, "in_progress");
    assert.equal(claimed.task.claimed_by_agent_id, me);
    const token = claimed.claim.token;
    const noted = await call(host, me, "task_items", "update", { task_id: expected.id, notes: "tried X; Y next", claim_token: token });
    assert.equal(noted.task.notes, "tried X; Y next");
    const closed = await call(host, me, "task_items", "update", {
      task_id: expected.id,
      status: "done",
      outcome: "done: shipped",
      claim_token: token,
    });
    assert.equal(closed.task.status, "done");
    assert.equal(closed.task.outcome, "done: shipped");
  }
  assert.equal((await call(host, me, "task_claims", "claim_next", { list_id: listId })).task, null);
  const found = await call(host, me, "task_lists", "find", { name: "release" });
  assert.deepEqual(found.lists.map((/** @type {{ id: number }} */ l) => l.id), [listId]);
});

test("a reply carries the summary line and the compact JSON, as the contract says", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const reply = await host.call("task_lists", JSON.stringify({ action: "create", params: { name: "Ids" } }), ctx("a"));
  assert.equal(reply.outcome.tag, "ok");
  const [summary, data] = reply.text.split("\n");
  assert.equal(summary, reply.outcome.val);
  assert.deepEqual(JSON.parse(data), JSON.parse(reply.structured));
  assert.ok(summary.includes(JSON.parse(reply.structured).list.id));
});

test("refusals are the component's: unknown tool, broken JSON, identity required", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const unknown = await host.call("task_list", '{"action":"find"}', ctx("a"));
  assert.equal(unknown.outcome.tag, "err");
  assert.equal(unknown.outcome.val.code, "invalid-params");
  assert.match(unknown.outcome.val.message, /task_lists/);
  const broken = await host.call("task_lists", '{"action": "find"', ctx("a"));
  assert.equal(/** @type {import("../dist/index.js").ToolError} */ (broken.outcome.val).code, "invalid-params");
  assert.deepEqual(JSON.parse(broken.structured).error.code, "invalid_params");
  const anonymous = await host.callAction("task_lists", "create", '{"name":"x"}', { agentPinned: false });
  assert.equal(/** @type {import("../dist/index.js").ToolError} */ (anonymous.outcome.val).code, "agent-required");
});

test("the catalogue and the renderers come from the component", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const tools = await host.catalogue();
  assert.deepEqual(tools.map((t) => t.name), ["task_lists", "task_items", "task_claims", "task_audit", "task_help"]);
  for (const tool of tools) assert.equal(JSON.parse(tool.inputSchema).type, "object");
  assert.equal(tools.find((t) => t.name === "task_help")?.annotations.readOnly, true);

  const args = JSON.stringify({ action: "create", params: { name: "Rendered \u001b[2J" } });
  const reply = await host.call("task_lists", args, ctx("a"));
  const lines = await host.renderReply("task_lists", args, reply);
  const text = lines.map((line) => line.map((span) => span.text).join("")).join("\n");
  assert.match(text, /Rendered/);
  assert.ok(!text.includes("\u001b"), "an escape sequence never reaches the terminal raw");
  const call = await host.renderCall("task_lists", "create", '{"name":"x"}');
  assert.equal(call.length, 1);
  const error = await host.renderError({ code: "not-found", message: "no list list_x", hint: "call find" });
  assert.ok(error.flat().some((span) => span.style === "error"));
});

test("the change check moves when a write is committed, and only then", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  assert.equal(await versionOf(host), null, "nothing to watch before the first write");
  await call(host, "a", "task_lists", "create", { name: "Watched" });
  const first = await versionOf(host);
  assert.notEqual(first, null);
  await call(host, "a", "task_lists", "find");
  assert.equal(await versionOf(host), first, "a read changes nothing");
  await call(host, "a", "task_lists", "create", { name: "Second" });
  assert.notEqual(await versionOf(host), first);
});

// @ts-check
// The views Pi shows outside tool calls, through the library: the widget,
// the slash commands with their questions, completions and the compaction
// memory, all laid out by the component.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { NodeHost } from "../dist/index.js";
import { call, ctx, tempDir } from "./helpers.mjs";

/** @param {import("../dist/index.js").Line} line */
const plain = (line) => line.map((span) => span.text).join("");

test("the widget shows the visible lists, the agent's claim first, within 10 lines and the width", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const agent = "builder-1";
  const me = { ...ctx(agent), workspace: "/work/demo" };
  assert.deepEqual(await host.widget(me, { mode: "full", width: 80, everyList: false }), [], "no list: no widget");

  const list = (await call(host, agent, "task_lists", "create", { name: "Release", scope_type: "workspace", scope_key: "/work/demo" })).list;
  const tasks = Array.from({ length: 30 }, (_, i) => ({ title: `Task number ${i + 1}` }));
  await call(host, agent, "task_items", "add_many", { list_id: list.id, tasks });
  const claimed = await call(host, agent, "task_claims", "claim_next", { list_id: list.id });

  for (const width of [40, 80]) {
    const lines = (await host.widget(me, { mode: "full", width, everyList: false })).map(plain);
    assert.ok(lines.length > 2 && lines.length <= 10, lines.join("\n"));
    for (const line of lines) assert.ok([...line].length <= width, `${line} is wider than ${width}`);
    const text = lines.join("\n");
    assert.match(text, /todo 29 · run 1 · blocked 0 · done 0/);
    assert.match(text, /hidden/, "what does not fit is summarised");
    const mine = lines.findIndex((l) => l.includes(claimed.task.title));
    const other = lines.findIndex((l) => l.includes("Task number 2"));
    assert.ok(mine >= 0 && (other < 0 || mine < other), text);
  }
});

test("a command asks before it deletes, offers a choice, and completes list ids", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const agent = "planner";
  const me = { ...ctx(agent), workspace: "/work/demo" };
  const list = (await call(host, agent, "task_lists", "create", { name: "Sprint", scope_type: "workspace", scope_key: "/work/demo" })).list;

  const names = (await host.commands()).map((c) => c.name);
  for (const name of ["task-lists", "tasks", "task-audit", "task-list-delete", "task-widget"]) assert.ok(names.includes(name), names.join());

  const shown = await host.runCommand("task-lists", "", me, 80);
  assert.equal(shown.tag, "show");
  assert.ok(shown.val.lines.map(plain).join("\n").includes(list.id));

  const pick = await host.runCommand("tasks", "", me, 80);
  assert.equal(pick.tag, "pick");
  assert.deepEqual(pick.val.options.map((o) => o.value), [list.id]);

  const completions = await host.complete("tasks", list.id.slice(0, 8), me);
  assert.ok(completions.some((c) => c.value === list.id), JSON.stringify(completions));
  const actions = (await host.complete("task-widget", "", me)).map((c) => c.value);
  assert.deepEqual([...actions].sort(), ["compact", "full", "off", "on", "refresh"]);

  const ask = await host.runCommand("task-list-delete", list.id, me, 80);
  assert.equal(ask.tag, "confirm");
  assert.equal((await call(host, agent, "task_lists", "get", { list_id: list.id })).list.id, list.id, "asking deletes nothing");
  const done = await host.runCommand("task-list-delete", list.id, me, 80, true);
  assert.equal(done.tag, "show");
  assert.equal(done.val.failed, false);
  assert.deepEqual((await call(host, agent, "task_lists", "find", {})).lists, []);

  const widget = await host.runCommand("task-widget", "compact", me, 80);
  assert.equal(widget.tag, "set-widget");
  assert.equal(widget.val.action, "compact");
  const bad = await host.runCommand("task-widget", "sideways", me, 80);
  assert.equal(bad.tag, "show");
  assert.equal(bad.val.failed, true);
});

test("the compaction memory names the agent's claims with their notes, and nothing without one", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const agent = "builder-2";
  const me = ctx(agent);
  assert.equal(await host.compactionMemory(me), "");
  const list = (await call(host, agent, "task_lists", "create", { name: "Memory" })).list;
  await call(host, agent, "task_items", "create", { list_id: list.id, title: "Port the parser" });
  const claimed = await call(host, agent, "task_claims", "claim_next", { list_id: list.id });
  await call(host, agent, "task_items", "update", { task_id: claimed.task.id, notes: "lexer done; next: the AST" });
  const memory = await host.compactionMemory(me);
  for (const part of [claimed.task.id, "Port the parser", "lexer done; next: the AST", list.id]) assert.ok(memory.includes(part), memory);
  assert.equal(await host.compactionMemory(ctx("someone-else")), "");
});

test("the inbox and its notices through the library: a question, its refusal without a person, each notice once", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const agent = "builder-1";
  const list = (await call(host, agent, "task_lists", "create", { name: "Cache" })).list;
  const task = (await call(host, agent, "task_items", "create", { list_id: list.id, title: "Pick the cache" })).task;
  await call(host, agent, "task_claims", "claim_next", { list_id: list.id });
  await call(host, agent, "task_items", "update", { task_id: task.id, question: "Postgres or SQLite?" });
  const person = { ...ctx(agent), person: "ana" };

  const inbox = await host.inbox(person, { width: 80, stalledAfterMinutes: undefined });
  assert.ok(inbox.ok, JSON.stringify(inbox));
  assert.equal(inbox.value.count, 1);
  assert.match(inbox.value.lines.map(plain).join("\n"), /1 needs you[\s\S]*Postgres or SQLite\?/);
  assert.equal(JSON.parse(inbox.value.data).entries[0].kind, "question");

  // Setting the threshold needs a person: the component's refusal, as a value.
  const refused = await host.inbox(ctx(agent), { width: 80, stalledAfterMinutes: 5 });
  assert.equal(refused.ok, false);
  assert.ok(!refused.ok && refused.error.code === "agent-required", JSON.stringify(refused));

  const first = await host.notices(person, "pi:ana", "");
  assert.ok(first.ok && first.value.length === 1, JSON.stringify(first));
  assert.match(first.value[0].title, /Question on Pick the cache/);
  assert.equal(JSON.parse(first.value[0].payload).link, null, "no board: no link");
  assert.ok((await host.noticesSent(person, "pi:ana", [first.value[0].key])).ok);
  const again = await host.notices(person, "pi:ana", "");
  assert.ok(again.ok && again.value.length === 0, JSON.stringify(again));
});

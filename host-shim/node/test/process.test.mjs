// @ts-check
// The host inside its caller's process: the caller waits for a quick
// answer without yielding, briefly, but a slow call leaves its event loop
// free; an open host that is idle never keeps the process alive (a script
// that forgets `close` still ends); and nothing its worker prints reaches
// the process's stdout, which may carry a protocol (MCP).

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { openWithFaults } from "./faults.mjs";
import { NodeHost } from "../dist/index.js";
import { PACKAGE, call, tempDir } from "./helpers.mjs";

const run = promisify(execFile);

test("a script that opens a host, calls it (a quick call and a slow one) and never closes it ends on its own; stdout carries only what the script printed", async (t) => {
  const dir = tempDir(t);
  const script = join(dir, "forgets-close.mjs");
  const library = pathToFileURL(join(PACKAGE, "dist", "index.js")).href;
  writeFileSync(
    script,
    `import { NodeHost } from ${JSON.stringify(library)};
const host = await NodeHost.open({ db: ${JSON.stringify(join(dir, "tasks.db"))} });
const ctx = { agentId: "a", agentPinned: false };
const list = JSON.parse((await host.callAction("task_lists", "create", JSON.stringify({ name: "Left open" }), ctx)).structured).list;
// Long enough to be awaited as an event, not waited for (host.ts).
const tasks = Array.from({ length: 500 }, (_, i) => ({ title: "task " + i }));
await host.callAction("task_items", "add_many", JSON.stringify({ list_id: list.id, tasks }), ctx);
console.log(list.name);
`,
  );
  // Killed, and failed, if the idle host kept it alive.
  const { stdout } = await run(process.execPath, [script], { timeout: 30_000 });
  assert.equal(stdout, "Left open\n");
});

test("a call slower than the caller's short wait is answered while the caller's event loop ticks", async (t) => {
  const host = await openWithFaults({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const listId = (await call(host, "a", "task_lists", "create", { name: "Slow" })).list.id;
  // The next write's commit takes 400 ms, well within the call's limit.
  await host.injectFault({ kind: "slow-commit", beforeMs: 400 });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  try {
    const created = await call(host, "a", "task_items", "create", { list_id: listId, title: "slow but saved" });
    assert.equal(created.task.title, "slow but saved");
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - started;
  assert.ok(ms >= 400, `the commit's delay was served (${ms.toFixed(0)} ms)`);
  // A blocked loop would tick once at most; a free one about 40 times.
  assert.ok(ticks >= 20, `the caller's event loop kept ticking (${ticks} ticks in ${ms.toFixed(0)} ms)`);
  const tasks = (await call(host, "a", "task_lists", "get", { list_id: listId, include_tasks: true })).tasks;
  assert.deepEqual(tasks.map((/** @type {{ title: string }} */ t) => t.title), ["slow but saved"]);
});

test("slow and quick calls in turn each get their own answer", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const listId = (await call(host, "a", "task_lists", "create", { name: "Turns" })).list.id;
  for (let round = 1; round <= 40; round++) {
    // Slow enough to be awaited as an event (host.ts), then quick ones.
    const tasks = Array.from({ length: 100 }, (_, i) => ({ title: `round ${round} task ${i}` }));
    const added = await call(host, "a", "task_items", "add_many", { list_id: listId, tasks });
    assert.equal(added.tasks.length, 100);
    const list = await call(host, "a", "task_lists", "get", { list_id: listId });
    assert.equal(list.counts.todo, 100 * round);
    const found = await call(host, "a", "task_lists", "find", {});
    assert.equal(found.lists.length, 1);
  }
});

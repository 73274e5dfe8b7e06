// @ts-check
// What V8 lacks and the Node host adds: a trapping call, a runaway call
// and a call over the memory cap each fail cleanly, with the component's
// words, while the caller's event loop keeps ticking; nothing is half
// applied, the write lock is free again, and the next call works.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { NodeHost } from "../dist/index.js";
import { openWithFaults } from "./faults.mjs";
import { call, ctx, refused, tempDir } from "./helpers.mjs";

/** Counts ticks of a 10 ms timer while `work` runs: the event loop's pulse. */
/**
 * @template T
 * @param {() => Promise<T>} work
 */
async function ticking(work) {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  try {
    const result = await work();
    return { result, ticks, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

/** @param {import("../dist/index.js").NodeHost} host */
async function listWithOneTask(host) {
  const listId = (await call(host, "a", "task_lists", "create", { name: "Faults" })).list.id;
  await call(host, "a", "task_items", "create", { list_id: listId, title: "before" });
  return listId;
}

/**
 * @param {import("../dist/index.js").NodeHost} host
 * @param {number} listId
 * @returns {Promise<string[]>}
 */
async function titles(host, listId) {
  return (await call(host, "a", "task_lists", "get", { list_id: listId, include_tasks: true, limit: 500 })).tasks.map((/** @type {{ title: string }} */ t) => t.title);
}

test("a call that traps in the middle of its write changes nothing, and the next call works", async (t) => {
  const host = await openWithFaults({ db: join(tempDir(t), "tasks.db"), callTimeoutMs: 2000 });
  t.after(() => host.close());
  const listId = await listWithOneTask(host);
  // create runs several statements; the third fails as a host bug would.
  await host.injectFault({ onStatement: 3, kind: "trap" });
  const { result: error, ms } = await ticking(() => refused(host, "a", "task_items", "create", { list_id: listId, title: "lost" }));
  assert.equal(error.code, "internal");
  assert.match(error.message, /injected host fault/);
  assert.match(error.message, /nothing was changed/);
  assert.ok(ms < 2000, `answered within the deadline (${ms.toFixed(0)} ms)`);
  assert.deepEqual(await titles(host, listId), ["before"]);
  await call(host, "a", "task_items", "create", { list_id: listId, title: "after" });
  assert.deepEqual(await titles(host, listId), ["before", "after"]);
});

test("a runaway call is stopped at its deadline while the event loop ticks; its write rolls back and frees the lock", async (t) => {
  const dir = tempDir(t);
  const limit = 1000;
  const host = await openWithFaults({ db: join(dir, "tasks.db"), callTimeoutMs: limit });
  t.after(() => host.close());
  const listId = await listWithOneTask(host);
  await host.injectFault({ onStatement: 3, kind: "hang" });
  const { result: error, ticks, ms } = await ticking(() => refused(host, "a", "task_items", "create", { list_id: listId, title: "lost" }));
  assert.equal(error.code, "internal");
  assert.match(error.message, /time limit of 1 s/);
  assert.ok(ms >= limit, `stopped at the deadline, not before (${ms.toFixed(0)} ms)`);
  assert.ok(ms < limit + 1000, `answered soon after the deadline (${ms.toFixed(0)} ms)`);
  // A blocked loop would have ticked about once; a free one ~100 times.
  assert.ok(ticks > limit / 10 / 2, `the caller's event loop kept ticking (${ticks} ticks)`);

  // The stopped call held the write lock: another host writes at once.
  const other = await NodeHost.open({ db: join(dir, "tasks.db"), busyTimeoutMs: 200 });
  t.after(() => other.close());
  await call(other, "b", "task_items", "create", { list_id: listId, title: "other host" });
  // And this host goes on, on a fresh worker.
  await call(host, "a", "task_items", "create", { list_id: listId, title: "after" });
  assert.deepEqual(await titles(host, listId), ["before", "other host", "after"]);
});

test("the memory cap stops a call cleanly; the next call runs in a fresh instance", async (t) => {
  const cap = 8 << 20;
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db"), memoryLimitBytes: cap });
  t.after(() => host.close());
  const listId = await listWithOneTask(host);
  // About 2 MiB of params, under the size limit, which parsing and
  // validating 20,000 tasks turns into more than 8 MiB.
  const tasks = Array.from({ length: 20000 }, (_, i) => ({ title: `${"t".repeat(100)} ${i}` }));
  const { result: error, ms } = await ticking(() => refused(host, "a", "task_items", "add_many", { list_id: listId, tasks }));
  assert.equal(error.code, "internal");
  assert.match(error.message, /over its limit of 8192 KiB/);
  assert.match(error.message, /nothing was changed/);
  assert.ok(ms < 10_000, `answered within the deadline (${ms.toFixed(0)} ms)`);
  assert.deepEqual(await titles(host, listId), ["before"]);
  // The same work in pieces fits.
  await call(host, "a", "task_items", "add_many", { list_id: listId, tasks: tasks.slice(0, 200) });
  assert.equal((await titles(host, listId)).length, 201);
});

test("a cap below the component's own start-up memory is reported, not a crash", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db"), memoryLimitBytes: 64 << 10 });
  t.after(() => host.close());
  const error = await refused(host, "a", "task_lists", "find");
  assert.equal(error.code, "internal");
  assert.match(error.message, /over its limit of 64 KiB/);
});

test("arguments over the size limit are refused before the component sees them", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db"), maxParamsBytes: 1024 });
  t.after(() => host.close());
  const listId = (await call(host, "a", "task_lists", "create", { name: "Sizes" })).list.id;
  const reply = await host.call("task_items", JSON.stringify({ action: "create", params: { list_id: listId, title: "y".repeat(2000) } }), ctx("a"));
  assert.equal(reply.outcome.tag, "err");
  assert.equal(reply.outcome.val.code, "invalid-params");
  assert.match(reply.outcome.val.message, /over the limit/);
  assert.deepEqual((await call(host, "a", "task_lists", "get", { list_id: listId, include_tasks: true })).tasks, []);
});

test("a closed host refuses calls", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  await host.close();
  await assert.rejects(host.catalogue(), { name: "HostError", code: "closed" });
});

test("a call time limit that is no whole number of milliseconds from 1 to 2^31-1 is refused when the host opens", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  // Infinity and 2^31 would fire at once (Node's timers cap), NaN and a
  // fraction cannot be told as a whole number, the others are no limit.
  for (const callTimeoutMs of [Infinity, -Infinity, NaN, -5, 0, 0.5, 1500.5, 2 ** 31, "1000", null]) {
    // A host that opens anyway is closed, so the failure is reported.
    // @ts-expect-error the values a caller must not pass
    const opening = NodeHost.open({ db, callTimeoutMs }).then(async (host) => {
      await host.close();
      return host;
    });
    await assert.rejects(
      opening,
      (/** @type {import("../dist/index.js").HostError} */ e) => {
        assert.equal(e.name, "HostError", `${callTimeoutMs}: ${e.stack}`);
        assert.equal(e.code, "invalid-option", String(callTimeoutMs));
        assert.match(e.message, /^callTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, not /);
        return true;
      },
      String(callTimeoutMs),
    );
  }
  // The bounds themselves are fine; undefined takes the default.
  for (const callTimeoutMs of [1, 2 ** 31 - 1, undefined]) {
    const host = await NodeHost.open({ db, callTimeoutMs });
    await host.close();
  }
});

test("a call without a reply that fails is the host's error, in the component's words", async (t) => {
  // 1 ms: the catalogue's first call (a new instance) cannot finish in it.
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db"), callTimeoutMs: 1 });
  t.after(() => host.close());
  await assert.rejects(host.catalogue(), (/** @type {import("../dist/index.js").HostError} */ e) => {
    assert.equal(e.name, "HostError");
    assert.equal(e.code, "trapped");
    assert.match(e.message, /time limit of 1 ms/);
    return true;
  });
});

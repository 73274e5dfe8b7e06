// @ts-check
// The race across hosts: 3 Node-host processes and 3 native processes
// claim from one list of 600 tasks on one SQLite file. Every task is
// handed out once, no call fails, and no process starves.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { NodeHost } from "../dist/index.js";
import { PACKAGE, REPO, call, nativeBinary, tempDir } from "./helpers.mjs";

const TASKS = 600;
const PER_HOST = 3;

/**
 * A worker process: its JSON lines, and a promise of all of them once it exits.
 * @param {string} command
 * @param {string[]} args
 * @param {string} name
 */
function start(command, args, name) {
  const child = spawn(command, args, {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, TASKLISTS_AGENT_ID: "", TASKLISTS_CACHE_DIR: join(REPO, "target", "node-test-cache") },
  });
  /** @type {any[]} */
  const lines = [];
  /** @type {() => void} */
  let onReady = () => {};
  /** @type {Promise<void>} */
  const ready = new Promise((resolve) => (onReady = resolve));
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    if (process.env.RACE_DEBUG) console.error(name, line);
    if (message.ready) onReady();
    else lines.push(message);
  });
  /** @type {Promise<any[]>} */
  const exited = new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(lines) : reject(new Error(`${name} exited with ${code}: ${JSON.stringify(lines)}`))));
  });
  // A process that stops before it is ready fails the race instead of hanging it.
  exited.then(() => onReady(), () => onReady());
  return { name, child, ready, exited };
}

/**
 * @param {number[]} sorted
 * @param {number} p
 */
function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

test("3 Node-host and 3 native processes hand out each of 600 tasks once, none starving", { timeout: 240_000 }, async (t) => {
  const db = join(tempDir(t), "race.db");
  const host = await NodeHost.open({ db });
  t.after(() => host.close());
  const listId = (await call(host, "planner", "task_lists", "create", { name: "Race" })).list.id;
  for (let i = 0; i < TASKS; i += 200) {
    await call(host, "planner", "task_items", "add_many", {
      list_id: listId,
      tasks: Array.from({ length: 200 }, (_, k) => ({ title: `task ${i + k}` })),
    });
  }

  const nativeWorker = nativeBinary("race_worker", "TASKLISTS_RACE_WORKER");
  /** @type {ReturnType<typeof start>[]} */
  const workers = [];
  for (let n = 0; n < PER_HOST; n++) {
    workers.push(start(process.execPath, [join(PACKAGE, "test", "fixtures", "race-worker.mjs"), db, listId, `node-${n}`], `node-${n}`));
    workers.push(start(nativeWorker, [db, listId, `native-${n}`], `native-${n}`));
  }
  await Promise.all(workers.map((w) => w.ready));
  const early = workers.filter((w) => w.child.exitCode !== null);
  assert.deepEqual(early.map((w) => w.name), [], "every worker process started");
  const started = performance.now();
  for (const w of workers) w.child.stdin.write("go\n");
  const outputs = await Promise.all(workers.map((w) => w.exited));
  const seconds = (performance.now() - started) / 1000;

  /** @type {Map<number, string[]>} */
  const claimed = new Map();
  /** @type {Record<string, number>} */
  const shares = {};
  /** @type {Record<string, number[]>} */
  const latencies = { node: [], native: [] };
  /** @type {any[]} */
  const errors = [];
  outputs.forEach((lines, i) => {
    const name = workers[i].name;
    shares[name] = 0;
    for (const line of lines) {
      if (line.error) errors.push({ name, ...line });
      if (!line.claimed || line.resumed) continue;
      claimed.set(line.claimed, [...(claimed.get(line.claimed) ?? []), name]);
      shares[name]++;
      latencies[name.split("-")[0]].push(line.claim_us);
    }
  });
  const duplicates = [...claimed].filter(([, by]) => by.length > 1);
  assert.deepEqual(duplicates, [], "no task handed out twice");
  assert.equal(claimed.size, TASKS, "every task handed out");
  assert.deepEqual(errors.filter((e) => e.error === "storage" || e.error === "Storage"), [], "no storage error");
  assert.deepEqual(errors, [], "no error at all");

  const report = Object.fromEntries(
    Object.entries(latencies).map(([kind, us]) => {
      us.sort((a, b) => a - b);
      return [kind, { claims: us.length, p50_ms: percentile(us, 50) / 1000, p99_ms: percentile(us, 99) / 1000 }];
    }),
  );
  console.log(`race across hosts: ${TASKS} tasks in ${seconds.toFixed(2)} s (${(TASKS / seconds).toFixed(0)} claims/s); shares ${JSON.stringify(shares)}; ${JSON.stringify(report)}`);
  // Fair: no process starves, and processes of one host share alike.
  // Shares across hosts are not equal, and need not be: a Node-host call
  // costs several times a native one in CPU (bench/latency.mjs: claim_next
  // 0.58 ms against 0.07 ms), and six processes share two cores in CI, so a
  // Node process makes fewer attempts (measured here: 16–45 claims against
  // 123–239). Each process still gets a tenth of an equal share, and within
  // a host no process gets 4 times another's.
  const equal = TASKS / workers.length;
  for (const [name, n] of Object.entries(shares)) assert.ok(n >= equal / 10, `${name} got ${n} of ${TASKS} (an equal share is ${equal})`);
  for (const kind of ["node", "native"]) {
    const own = Object.entries(shares).filter(([name]) => name.startsWith(`${kind}-`)).map(([, n]) => n);
    assert.ok(Math.max(...own) <= 4 * Math.min(...own), `${kind} processes shared alike: ${own.join(", ")}`);
  }

  // The store agrees: each task done by its claimer, one claimed event each.
  const tasks = [];
  let cursor;
  do {
    const page = await call(host, "planner", "task_lists", "get", { list_id: listId, include_tasks: true, limit: 500, ...(cursor ? { cursor } : {}) });
    tasks.push(...page.tasks);
    cursor = page.next_cursor;
  } while (cursor);
  assert.equal(tasks.length, TASKS);
  for (const task of tasks) {
    assert.equal(task.status, "done");
    assert.equal(task.outcome, `done by ${claimed.get(task.id)?.[0]}`);
  }
  const events = [];
  cursor = undefined;
  do {
    const page = await call(host, "planner", "task_audit", "get", { list_id: listId, kinds: "claimed", limit: 200, ...(cursor ? { cursor } : {}) });
    events.push(...page.events.map((/** @type {{ task_id: number }} */ e) => e.task_id));
    cursor = page.next_cursor;
  } while (cursor);
  assert.equal(events.length, TASKS);
  assert.equal(new Set(events).size, TASKS);
});

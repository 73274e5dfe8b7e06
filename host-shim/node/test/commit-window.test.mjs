// @ts-check
// A call whose deadline lands while its write is being committed. The
// Node host stops a late call by terminating its worker, and terminating
// waits for a native COMMIT already running, which may then still land:
// the reply must never say "nothing was changed" about a write that
// stands, or an agent that retries applies it twice (an `add_many` of 500
// tasks, twice). A test fault slows the native commit (before its SQL
// COMMIT is sent, after it returned, or both) to land the deadline across
// the commit window, on SQLite and, with TASKLISTS_TEST_PG, PostgreSQL.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { test } from "node:test";
import { openWithFaults } from "./faults.mjs";
import { call, ctx, tempDir } from "./helpers.mjs";

const LIMIT_MS = 2000;
const BATCH = 500;

/**
 * Where each fault lands the deadline, and what the reply may then say.
 * @type {{ name: string, fault: import("./faults.mjs").StoreFault, writes: import("../dist/index.js").WriteState }[]}
 */
const WINDOW = [
  // COMMIT has run; the native call is still busy when the deadline comes.
  { name: "after COMMIT returned", fault: { kind: "slow-commit", afterMs: 1.5 * LIMIT_MS }, writes: "may-be-applied" },
  // The deadline comes before COMMIT is sent; the stop waits, and it is sent.
  { name: "before COMMIT is sent", fault: { kind: "slow-commit", beforeMs: 1.5 * LIMIT_MS }, writes: "may-be-applied" },
  { name: "around COMMIT", fault: { kind: "slow-commit", beforeMs: 0.6 * LIMIT_MS, afterMs: 0.8 * LIMIT_MS }, writes: "may-be-applied" },
  // A runaway before any commit: nothing was applied, and the reply says so.
  { name: "before the commit (a runaway)", fault: { kind: "hang", onStatement: 3 }, writes: "not-applied" },
];

const NOTHING = /nothing was changed/;
const SAVED = /its change had been committed and was saved/;
const MAYBE = /its change may or may not have been saved/;

/**
 * How many tasks list `listId` holds, read by a call of its own.
 * @param {import("../dist/index.js").NodeHost} host
 * @param {number} listId
 */
async function taskCount(host, listId) {
  const got = await call(host, "a", "task_lists", "get", { list_id: listId, include_tasks: true, limit: BATCH });
  return got.tasks.length;
}

/** An `add_many` of {@link BATCH} tasks into a new list, under `fault`; its error and how many tasks stand. */
/**
 * @param {import("./faults.mjs").FaultyHost} host
 * @param {import("./faults.mjs").StoreFault} fault
 * @param {string} label
 */
async function addManyUnder(host, fault, label) {
  // Each call gets a new list: what stands is counted in it alone.
  const listId = (await call(host, "a", "task_lists", "create", { name: `window ${label}` })).list.id;
  const tasks = Array.from({ length: BATCH }, (_, i) => ({ title: `task ${i}` }));
  await host.injectFault(fault);
  const reply = await host.callAction("task_items", "add_many", JSON.stringify({ list_id: listId, tasks }), ctx("a"));
  assert.equal(reply.outcome.tag, "err", `${label}: the call was to fail, it answered ${reply.text.slice(0, 200)}`);
  const error = reply.outcome.val;
  const count = await taskCount(host, listId);
  assert.ok(count === 0 || count === BATCH, `${label}: all or nothing, found ${count} tasks`);
  return { error, applied: count === BATCH };
}

/** Drives deadlines across the commit window on the store at `db`. */
/**
 * @param {import("node:test").TestContext} t
 * @param {string} db
 */
async function acrossTheCommitWindow(t, db) {
  const host = await openWithFaults({ db, callTimeoutMs: LIMIT_MS });
  t.after(() => host.close());
  const seen = [];
  for (const { name, fault, writes } of WINDOW) {
    const { error, applied } = await addManyUnder(host, fault, name);
    seen.push(`${name}: ${applied ? "applied" : "not applied"}; ${error.message} / ${error.hint}`);
    assert.equal(error.code, "internal", `${name}: ${error.message}`);
    assert.match(error.message, /time limit of 2 s/, name);
    if (applied) {
      // The one thing a reply must never do.
      assert.doesNotMatch(error.message, NOTHING, `${name}: the write stands, yet the reply says nothing changed`);
      assert.match(error.message, new RegExp(`${SAVED.source}|${MAYBE.source}`), name);
      assert.match(error.hint, /task_lists get/, `${name}: the hint says to look before retrying`);
    }
    if (writes === "may-be-applied") {
      // The stop came while a commit was running: its outcome is unknown.
      assert.match(error.message, MAYBE, name);
      assert.match(error.hint, /^check with task_lists get before retrying/, name);
    } else {
      assert.equal(applied, false, name);
      assert.match(error.message, NOTHING, name);
    }
  }
  // The host goes on serving after every stop.
  const listId = (await call(host, "a", "task_lists", "create", { name: "after" })).list.id;
  await call(host, "a", "task_items", "create", { list_id: listId, title: "fine" });
  assert.equal(await taskCount(host, listId), 1);
  t.diagnostic(seen.join("\n"));
}

/** A trap before the commit, and one after it: each reply says what stands, and the agent's next step. */
/**
 * @param {import("node:test").TestContext} t
 * @param {string} db
 */
async function trapsAroundTheCommit(t, db) {
  const host = await openWithFaults({ db, callTimeoutMs: LIMIT_MS });
  t.after(() => host.close());
  const before = await addManyUnder(host, { kind: "trap", onStatement: 3 }, "trap before");
  assert.equal(before.applied, false);
  assert.match(before.error.message, /injected host fault on statement #3; nothing was changed$/);
  const after = await addManyUnder(host, { kind: "trap-after-commit" }, "trap after");
  assert.equal(after.applied, true);
  assert.match(after.error.message, /injected host fault after a commit/);
  assert.match(after.error.message, SAVED);
  assert.match(after.error.hint, /^do not repeat the call: read the list \(task_lists get\)/);
}

test("a deadline inside the commit never says nothing changed about a write that stands (SQLite)", { timeout: 120_000 }, async (t) => {
  await acrossTheCommitWindow(t, join(tempDir(t), "tasks.db"));
});

test("a trap before the commit says nothing changed, one after it that the change was saved (SQLite)", { timeout: 120_000 }, async (t) => {
  await trapsAroundTheCommit(t, join(tempDir(t), "tasks.db"));
});

const ADMIN = process.env.TASKLISTS_TEST_PG;
const skip = ADMIN ? false : "TASKLISTS_TEST_PG is not set (an admin URL such as postgresql://postgres@127.0.0.1:54329/postgres)";

/** A fresh PostgreSQL database, dropped when the test ends (as in postgres.test.mjs). */
/** @param {import("node:test").TestContext} t */
function freshDatabase(t) {
  const admin = ADMIN ?? "";
  /** @param {string} sql */
  const psql = (sql) => execFileSync("psql", [admin, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], { stdio: ["ignore", "pipe", "pipe"] });
  const name = `tasklists_node_${process.pid}_${randomBytes(4).toString("hex")}`;
  psql(`CREATE DATABASE "${name}"`);
  t.after(() => psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  if (/^postgres(ql)?:\/\//i.test(admin)) {
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return url.href;
  }
  return `${ADMIN} dbname=${name}`;
}

test("a deadline inside the commit never says nothing changed about a write that stands (PostgreSQL)", { skip, timeout: 120_000 }, async (t) => {
  await acrossTheCommitWindow(t, freshDatabase(t));
});

test("a trap before the commit says nothing changed, one after it that the change was saved (PostgreSQL)", { skip, timeout: 120_000 }, async (t) => {
  await trapsAroundTheCommit(t, freshDatabase(t));
});

// @ts-check
// One PostgreSQL list, two hosts: what the Node host writes the native
// `tasklists` claims from, and each sees the other's claims, on a fresh
// database of the server named by TASKLISTS_TEST_PG (an admin URL, a role
// that may CREATE DATABASE, e.g.
// postgresql://postgres@127.0.0.1:54329/postgres). Without it the tests
// are skipped, saying why. Also: the addon's store speaks `postgres` and
// tells the server's time, and no password of a URL reaches the output.

import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";
import { addon } from "../dist/addon.js";
import { NodeHost } from "../dist/index.js";
import { PACKAGE, REPO, call, nativeBinary, versionOf } from "./helpers.mjs";

const ADMIN = process.env.TASKLISTS_TEST_PG ?? "";
const skip = ADMIN ? false : "TASKLISTS_TEST_PG is not set (an admin URL such as postgresql://postgres@127.0.0.1:54329/postgres)";

/** A statement on the admin connection, through psql. */
/** @param {string} sql */
function psql(sql) {
  execFileSync("psql", [ADMIN, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", sql], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** The admin connection string pointed at database `name` instead. */
/** @param {string} name */
function databaseUrl(name) {
  if (/^postgres(ql)?:\/\//i.test(ADMIN)) {
    const url = new URL(ADMIN);
    url.pathname = `/${name}`;
    return url.href;
  }
  // libpq key/value words: a later keyword wins.
  return `${ADMIN} dbname=${name}`;
}

/** A fresh database, dropped when the test ends (connections and all), whatever happened. */
/** @param {import("node:test").TestContext} t */
function freshDatabase(t) {
  const name = `tasklists_node_${process.pid}_${randomBytes(4).toString("hex")}`;
  psql(`CREATE DATABASE "${name}"`);
  t.after(() => psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  return databaseUrl(name);
}

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

/** A local port nothing listens on (taken, then given back). */
async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("the addon's store on PostgreSQL speaks postgres and tells the server's time", { skip }, (t) => {
  const store = new (addon().Store)(freshDatabase(t));
  assert.equal(store.dialect(), "postgres");
  const before = Date.now();
  const now = store.nowMs();
  assert.equal(typeof now, "bigint");
  // The server is this machine here: its clock agrees within a few seconds.
  assert.ok(Math.abs(Number(now) - before) < 5_000, `server time ${now}, Date.now() ${before}`);
});

test("the Node host and the native host share one PostgreSQL list", { skip, timeout: 120_000 }, async (t) => {
  const db = freshDatabase(t);
  const host = await NodeHost.open({ db });
  t.after(() => host.close());

  // Node creates the list (and the schema, on the empty database).
  const listId = (await call(host, "node-agent", "task_lists", "create", { name: "Shared on PostgreSQL" })).list.id;
  await call(host, "node-agent", "task_items", "add_many", { list_id: listId, tasks: [{ title: "one" }, { title: "two" }, { title: "three" }] });

  // Native claims one; Node sees it in progress, by that agent.
  const before = await versionOf(host);
  const claimed = native(db, "native-agent", "task_claims", "claim_next", { list_id: listId });
  assert.equal(claimed.task.title, "one");
  assert.notEqual(await versionOf(host), before, "the change check saw the native host's write");
  const seen = await call(host, "node-agent", "task_lists", "get", { list_id: listId, include_tasks: true });
  const one = seen.tasks.find((/** @type {{ id: number }} */ task) => task.id === claimed.task.id);
  assert.equal(one.status, "in_progress");
  assert.equal(one.claimed_by_agent_id, "native-agent");

  // Node's claim gets another task, which native then sees as Node's.
  const next = await call(host, "node-agent", "task_claims", "claim_next", { list_id: listId });
  assert.notEqual(next.task.id, claimed.task.id);
  assert.equal(next.task.title, "two");
  const natively = native(db, "native-agent", "task_lists", "get", { list_id: listId, include_tasks: true });
  assert.deepEqual(
    natively.tasks.map((/** @type {{ title: string, status: string, claimed_by_agent_id?: string }} */ task) => [task.title, task.status, task.claimed_by_agent_id ?? null]),
    [["one", "in_progress", "native-agent"], ["two", "in_progress", "node-agent"], ["three", "todo", null]],
  );
});

test("a PostgreSQL URL's password never reaches what the Node host says on errors", { skip, timeout: 60_000 }, async (t) => {
  const secret = `pw-${randomBytes(6).toString("hex")}`;
  const port = await closedPort();
  const db = `postgresql://postgres:${secret}@127.0.0.1:${port}/tasklists_nowhere`;
  const shown = `postgresql://postgres@127.0.0.1:${port}/tasklists_nowhere`;

  const shim = addon();
  assert.equal(shim.redactLocation(db), shown);
  assert.equal(shim.redactLocation(`host=127.0.0.1 port=${port} dbname=x user=u password=${secret}`).includes(secret), false);
  assert.equal(shim.scrubSecrets(db, `said ${secret}`).includes(secret), false);

  // The library: the host opens (the store connects on demand), and the
  // failed call's reply is the component's, without the password.
  const host = await NodeHost.open({ db, callTimeoutMs: 20_000 });
  t.after(() => host.close());
  assert.equal(host.location, shown);
  const reply = await host.callAction("task_lists", "find", '{"limit":1}', { agentId: "a", agentPinned: false });
  assert.equal(reply.outcome.tag, "err", reply.text);
  for (const text of [reply.text, reply.structured, JSON.stringify(reply.outcome.val)]) {
    assert.equal(text.includes(secret), false, text);
  }

  // The MCP server: its start-up lines name the store without the password.
  const server = spawnSync(join(PACKAGE, "bin", "tasklists-node"), ["--db", db, "--agent-id", "a", "mcp"], {
    input: "",
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, TASKLISTS_AGENT_ID: "", TASKLISTS_DB: "" },
  });
  const output = server.stdout + server.stderr;
  assert.match(server.stderr, /the database is not usable/, output);
  assert.ok(server.stderr.includes(`serving on ${shown}`), output);
  assert.equal(output.includes(secret), false, output);
});

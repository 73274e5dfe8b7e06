// @ts-check
// The person's side through the library and the real component: the key
// map every host binds, a person's actions (run as `ctx.person`, audited
// as the person, refused without one), and the dashboard driven with keys
// and its opaque state.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { NodeHost } from "../dist/index.js";
import { call, ctx, tempDir } from "./helpers.mjs";

/** @typedef {import("../dist/index.js").CallContext} CallContext */
/** @typedef {import("../dist/index.js").DashboardScreen} DashboardScreen */

/** @param {import("../dist/index.js").Line[]} lines */
const text = (lines) => lines.map((line) => line.map((span) => span.text).join("")).join("\n");

const WORKSPACE = "/work/board";

/**
 * The context of a person's surface: agent `agent`'s, with `person` at the keyboard.
 * @param {string} agent
 * @param {string} [person]
 * @returns {CallContext}
 */
const surface = (agent, person) => ({ ...ctx(agent), workspace: WORKSPACE, person });

/**
 * A host on a fresh database with a list of `titles` made by agent `planner`.
 * @param {import("node:test").TestContext} t
 * @param {string[]} titles
 */
async function board(t, titles) {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const list = (await call(host, "planner", "task_lists", "create", { name: "Launch", scope_type: "workspace", scope_key: WORKSPACE })).list;
  const tasks = (await call(host, "planner", "task_items", "add_many", { list_id: list.id, tasks: titles.map((title) => ({ title })) })).tasks;
  return { host, list, tasks };
}

/**
 * The list's open tasks in the order `claim_next` would hand them out, as `planner` reads them.
 * @param {import("../dist/index.js").NodeHost} host
 * @param {string} listId
 * @returns {Promise<any[]>}
 */
async function tasksOf(host, listId) {
  return (await call(host, "planner", "task_lists", "get", { list_id: listId, include_tasks: true, limit: 100 })).tasks;
}

test("the key map names each key's action, label, input and whether it writes", async (t) => {
  const host = await NodeHost.open({ db: join(tempDir(t), "tasks.db") });
  t.after(() => host.close());
  const keys = await host.keyMap();
  assert.ok(keys.length > 10, JSON.stringify(keys));
  for (const k of keys) {
    assert.ok(k.key.length > 0 && k.action.length > 0 && k.label.length > 0, JSON.stringify(k));
    assert.ok(["none", "text", "confirm"].includes(k.input), JSON.stringify(k));
  }
  assert.ok(keys.some((k) => k.writes) && keys.some((k) => !k.writes));
  assert.deepEqual(await host.keyMap(), keys, "the same map every time");
});

test("a person's action runs as the person and is audited so; without a person it is refused", async (t) => {
  const { host, list, tasks } = await board(t, ["Write the plan", "Ship it"]);
  const request = (/** @type {string} */ action, /** @type {string} */ target, /** @type {object} */ fields = {}) => ({
    action,
    target,
    fields: JSON.stringify(fields),
    confirmed: false,
    surface: /** @type {const} */ ("shell"),
  });

  const anonymous = await host.personAct(request("priority", tasks[1].id, { priority: "high" }), surface("planner"), 80);
  assert.equal(anonymous.tag, "refused");
  assert.match(text(anonymous.val.lines), /TASKLISTS_PERSON|--person/, "says how to name the person");
  assert.equal((await tasksOf(host, list.id))[1].priority, undefined, "nothing changed");

  const me = surface("planner", "ana");
  // A unique tail of the id is enough.
  const raised = await host.personAct(request("priority", tasks[1].id.slice(-6), { priority: "high" }), me, 80);
  assert.equal(raised.tag, "done", JSON.stringify(raised));
  assert.ok(raised.val.lines.length > 0);
  JSON.parse(raised.val.data);
  const order = await tasksOf(host, list.id);
  assert.equal(order.find((/** @type {any} */ task) => task.id === tasks[1].id).priority, "high");

  const added = await host.personAct(request("add", list.id, { title: "Tell the users" }), me, 80);
  assert.equal(added.tag, "done", JSON.stringify(added));
  assert.ok((await tasksOf(host, list.id)).some((/** @type {any} */ task) => task.title === "Tell the users"));

  const audit = await call(host, "planner", "task_audit", "get", { list_id: list.id, limit: 100 });
  const byAna = audit.events.filter((/** @type {any} */ e) => e.agent_id === "ana");
  assert.ok(byAna.length >= 2, JSON.stringify(audit.events));
  assert.ok(
    byAna.every((/** @type {any} */ e) => JSON.stringify(e).includes('"by":"person"')),
    JSON.stringify(byAna),
  );
});

test("deleting asks first, then deletes once confirmed", async (t) => {
  const { host, list, tasks } = await board(t, ["Keep", "Drop"]);
  const me = surface("planner", "ana");
  const ask = await host.personAct({ action: "delete", target: tasks[1].id, fields: "", confirmed: false, surface: "shell" }, me, 80);
  assert.equal(ask.tag, "confirm", JSON.stringify(ask));
  assert.equal((await tasksOf(host, list.id)).length, 2, "asking deletes nothing");
  const done = await host.personAct({ action: "delete", target: tasks[1].id, fields: "", confirmed: true, surface: "shell" }, me, 80);
  assert.equal(done.tag, "done", JSON.stringify(done));
  assert.deepEqual((await tasksOf(host, list.id)).map((/** @type {any} */ task) => task.title), ["Keep"]);
});

test("the dashboard takes keys with its state: select, cycle priority, add through its prompt, close", async (t) => {
  const { host, list, tasks } = await board(t, ["Alpha", "Bravo", "Charlie"]);
  const me = surface("planner", "ana");
  const view = { width: 90, height: 30, listId: list.id };
  /** @type {DashboardScreen} */
  let screen = await host.dashboard("", { tag: "refresh" }, view, me);
  /** @param {import("../dist/index.js").DashboardInput} input */
  const send = async (input) => {
    screen = await host.dashboard(screen.state, input, view, me);
    return text(screen.lines);
  };
  /** @param {string} key */
  const key = (key) => send({ tag: "key", val: key });

  const first = text(screen.lines);
  assert.equal(screen.closed, false);
  for (const task of tasks) assert.ok(first.includes(task.title), first);
  for (const line of screen.lines) assert.ok([...line.map((s) => s.text).join("")].length <= view.width);

  // Down to Bravo, then cycle its priority (medium → high).
  await key("down");
  await key("p");
  const after = await tasksOf(host, list.id);
  assert.equal(after.find((/** @type {any} */ task) => task.id === tasks[1].id).priority, "high", text(screen.lines));

  // `a` opens a prompt; printable keys type into it (a `q` too), enter submits.
  await key("a");
  for (const c of "Quick fix") await key(c === " " ? "space" : c);
  await key("enter");
  assert.ok((await tasksOf(host, list.id)).some((/** @type {any} */ task) => task.title === "Quick fix"), text(screen.lines));

  // Pasted text goes into an open prompt whole.
  await key("a");
  await send({ tag: "paste", val: "Pasted step" });
  await key("enter");
  assert.ok((await tasksOf(host, list.id)).some((/** @type {any} */ task) => task.title === "Pasted step"), text(screen.lines));

  await key("escape");
  assert.equal(screen.closed, true);
});

test("without a person the dashboard is read-only: writing keys change nothing and it says how to act", async (t) => {
  const { host, list, tasks } = await board(t, ["Alpha", "Bravo"]);
  const me = surface("planner");
  const view = { width: 90, height: 30, listId: list.id };
  let screen = await host.dashboard("", { tag: "refresh" }, view, me);
  screen = await host.dashboard(screen.state, { tag: "key", val: "b" }, view, me);
  assert.match(text(screen.lines), /TASKLISTS_PERSON|--person/, text(screen.lines));
  assert.equal((await tasksOf(host, list.id))[0].status, "todo", "nothing changed");
  assert.equal((await tasksOf(host, list.id))[0].id, tasks[0].id);
  screen = await host.dashboard(screen.state, { tag: "key", val: "q" }, view, me);
  assert.equal(screen.closed, true);
});

// @ts-check
// Argument completions as Pi's editor asks for them (RPC mode has no
// completion request): a real Pi session through Pi's own SDK, in a child
// process, with the extension loaded from its path.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, test } from "node:test";
import { join } from "node:path";
import { NodeHost } from "@tasklists/node-host";
import { EXTENSION, PACKAGE, makeHome, stopAll } from "./harness.mjs";

after(stopAll);

/**
 * @param {import("./harness.mjs").Home} home
 * @param {[string, string][]} queries
 * @returns {Promise<any[]>}
 */
function completions(home, queries) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(PACKAGE, "test", "fixtures", "completions.mjs"), EXTENSION, JSON.stringify(queries)], {
      cwd: home.workspace,
      env: home.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), 30000);
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(JSON.parse(stdout));
      else reject(new Error(`exit ${code}: ${stderr}`));
    });
  });
}

test("list ids complete from the visible lists, widget actions from the component's list", async () => {
  const home = makeHome();
  // Two lists in the session's workspace, made by another agent; one private to it.
  const host = await NodeHost.open({ db: home.db });
  const ctx = { agentId: "seeder", agentPinned: false, workspace: home.workspace };
  /**
   * @param {string} name
   * @param {string} visibility
   */
  const make = async (name, visibility) => {
    const reply = await host.call("task_lists", JSON.stringify({ action: "create", params: { name, scope_type: "workspace", visibility } }), ctx);
    return JSON.parse(reply.structured).list.id;
  };
  const shared = await make("Docs sprint", "shared");
  const hidden = await make("Seeder's own", "private");
  const awaiting = JSON.parse(
    (await host.call("task_lists", JSON.stringify({ action: "create", params: { name: "Plan to approve", scope_type: "workspace", requires_approval: true } }), ctx)).structured,
  ).list.id;
  const expected = await host.complete("tasks", "", { agentId: "nobody-else", agentPinned: false, workspace: home.workspace });
  await host.close();

  const out = await completions(home, [
    ["tasks", ""],
    ["tasks", shared.slice(0, 8)],
    ["task-list-delete", ""],
    ["task-widget", ""],
    ["task-widget", "co"],
    ["task-audit", ""],
    ["task-approve", ""],
    ["task-reject", ""],
  ]);
  /**
   * @param {string} name
   * @param {string} prefix
   */
  const by = (name, prefix) => out.find((o) => o.name === name && o.prefix === prefix);
  for (const o of out) assert.ok(o.registered, `/${o.name} is registered`);
  const lists = by("tasks", "").items;
  assert.ok(lists?.some((/** @type {any} */ i) => i.value.startsWith(shared) && i.label.length > 0), JSON.stringify(lists));
  assert.ok(!lists.some((/** @type {any} */ i) => i.value.includes(hidden)), "another agent's private list is not offered");
  assert.equal(lists.length, expected.length, "what the component offers, nothing added or dropped");
  assert.ok(by("tasks", shared.slice(0, 8)).items.every((/** @type {any} */ i) => i.value.startsWith(shared.slice(0, 8))));
  assert.ok(by("task-list-delete", "").items.some((/** @type {any} */ i) => i.value.startsWith(shared)));
  const actions = by("task-widget", "").items.map((/** @type {any} */ i) => i.value);
  for (const a of ["on", "off", "compact", "full", "refresh"]) assert.ok(actions.includes(a), `${a} in ${actions}`);
  assert.deepEqual(by("task-widget", "co").items.map((/** @type {any} */ i) => i.value), ["compact"]);
  // Approval: only the lists awaiting it.
  for (const name of ["task-approve", "task-reject"]) {
    const values = by(name, "").items?.map((/** @type {any} */ i) => i.value) ?? [];
    assert.ok(values.some((/** @type {string} */ v) => v.startsWith(awaiting)), `${name}: ${values}`);
    assert.ok(!values.some((/** @type {string} */ v) => v.startsWith(shared)), `${name} offers only lists awaiting approval: ${values}`);
  }
});

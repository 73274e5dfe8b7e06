// @ts-check
// The package as installed, and the component's life with Pi's sessions:
// `pi install <path>` in a temporary HOME loads it with no `-e`; the agent
// identity is one per session, the same after a resume, a new one for
// /new and a fork, and TASKLISTS_AGENT_ID wins; a failing component is
// started again once, then stays down; a missing build is one notice naming
// the build command, never a failing tool.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delay } from "./harness.mjs";
import { join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE, PI_CLI, ROOT, makeHome, startPi, stopAll } from "./harness.mjs";
import { dataOf, startMockModel, toolResults } from "./mock-model.mjs";

/** @type {Awaited<ReturnType<typeof startMockModel>>[]} */
const mocks = [];
after(async () => {
  await stopAll();
  await Promise.all(mocks.map((m) => m.close()));
});

/** A model that creates a list named `name` on every prompt, then stops. */
async function creatingModel() {
  let n = 0;
  const steps = [];
  for (let i = 0; i < 8; i++) {
    steps.push(() => ({ calls: [{ name: "task_lists", args: { action: "create", params: { name: `List ${++n}` } } }] }));
    steps.push(() => ({ text: "created" }));
  }
  const mock = await startMockModel(steps);
  mocks.push(mock);
  return mock;
}

/**
 * Prompts, waits for the turn's end, returns who created the list.
 * @param {import("./harness.mjs").RpcPi} pi
 * @param {Awaited<ReturnType<typeof startMockModel>>} mock
 */
async function creator(pi, mock) {
  const from = pi.records.length;
  await pi.send({ type: "prompt", message: "make a list" });
  await pi.waitFor((r) => r.type === "agent_end", { from, what: "the turn" });
  const result = toolResults(mock.requests.at(-1))[0];
  return dataOf(result.text).list.created_by_agent_id;
}

test("pi install <path> in a temporary HOME: the package loads without -e", async () => {
  const mock = await creatingModel();
  const home = makeHome(mock.baseUrl);
  const install = spawnSync(process.execPath, [PI_CLI, "install", PACKAGE], { env: home.env, encoding: "utf8" });
  assert.equal(install.status, 0, install.stderr);
  const settings = JSON.parse(readFileSync(join(home.agentDir, "settings.json"), "utf8"));
  assert.equal(settings.packages.length, 1);
  const pi = await startPi(home, { extension: false });
  const commands = (await pi.send({ type: "get_commands" })).data.commands.filter((/** @type {any} */ c) => c.source === "extension");
  assert.ok(commands.some((/** @type {any} */ c) => c.name === "tasks" && c.sourceInfo.origin === "package"), JSON.stringify(commands));
  assert.match(await creator(pi, mock), /^pi-[0-9a-f]{12}$/);
  const tools = mock.requests[0].tools.map((/** @type {any} */ t) => t.function.name);
  for (const name of ["task_lists", "task_items", "task_claims", "task_audit", "task_help"]) assert.ok(tools.includes(name), name);
});

test("one agent id per session: the same after a resume, another after new_session and fork; TASKLISTS_AGENT_ID wins", async () => {
  const mock = await creatingModel();
  const home = makeHome(mock.baseUrl);
  const sessionDir = join(home.dir, "sessions");
  let pi = await startPi(home, { sessionDir });
  const first = await creator(pi, mock);
  const sessionId = (await pi.send({ type: "get_state" })).data.sessionId;
  assert.equal(first, `pi-${sessionId.replace(/-/g, "").slice(-12)}`);
  await pi.stop();
  pi = await startPi(home, { sessionDir, args: ["--continue"] });
  assert.equal((await pi.send({ type: "get_state" })).data.sessionId, sessionId, "the same session resumed");
  assert.equal(await creator(pi, mock), first, "the same agent after a resume");
  // A new session: the component is closed, opened again, with a new identity.
  await pi.send({ type: "new_session" });
  const second = await creator(pi, mock);
  assert.notEqual(second, first);
  assert.match(second, /^pi-[0-9a-f]{12}$/);
  // A fork is a session of its own: the component again, another identity.
  const { messages } = (await pi.send({ type: "get_fork_messages" })).data;
  const fork = await pi.send({ type: "fork", entryId: messages.at(-1).entryId });
  assert.equal(fork.data.cancelled, false);
  const forked = await creator(pi, mock);
  assert.ok(![first, second].includes(forked), forked);
  assert.equal(forked, `pi-${(await pi.send({ type: "get_state" })).data.sessionId.replace(/-/g, "").slice(-12)}`);
  await pi.stop();
  pi = await startPi(home, { env: { TASKLISTS_AGENT_ID: "release-bot" } });
  assert.equal(await creator(pi, mock), "release-bot");
});

/**
 * The extension as installed over a copy of the Node host: `native` false
 * leaves the addon out; `patch` rewrites the library's host.js.
 * @param {import("./harness.mjs").Home} home
 * @param {{ native: boolean, patch?: (js: string) => string }} options
 */
function extensionOverHostCopy(home, { native, patch = (js) => js }) {
  const host = join(home.dir, "node-host");
  mkdirSync(host);
  cpSync(join(ROOT, "host-shim", "node", "dist"), join(host, "dist"), { recursive: true });
  cpSync(join(ROOT, "host-shim", "node", "package.json"), join(host, "package.json"));
  symlinkSync(join(ROOT, "host-shim", "node", "generated"), join(host, "generated"));
  if (native) symlinkSync(join(ROOT, "host-shim", "node", "native"), join(host, "native"));
  const hostJs = join(host, "dist", "host.js");
  writeFileSync(hostJs, patch(readFileSync(hostJs, "utf8")));
  const extension = join(home.dir, "extension");
  cpSync(join(PACKAGE, "src"), join(extension, "src"), { recursive: true });
  writeFileSync(join(extension, "package.json"), JSON.stringify({ name: "copy", type: "module" }));
  mkdirSync(join(extension, "node_modules", "@tasklists"), { recursive: true });
  symlinkSync(host, join(extension, "node_modules", "@tasklists", "node-host"));
  return join(extension, "src", "index.ts");
}

/** host.js whose first `traps` widget calls fail as a trapped component would. */
/** @param {string} js */
const trappingWidget = (js) => {
  const before = `    widget(ctx, view) {\n        return this.#plain({ iface: "ui", fn: "widget", args: [ctx, view] });`;
  assert.ok(js.includes(before), "the Node host's widget() as compiled");
  return js.replace(
    before,
    `    widget(ctx, view) {
        globalThis.__widgetCalls = (globalThis.__widgetCalls ?? 0) + 1;
        if (globalThis.__widgetCalls <= Number(process.env.TEST_WIDGET_TRAPS ?? 0)) return Promise.reject(new HostError("trapped", "the component failed: test trap"));
        return this.#plain({ iface: "ui", fn: "widget", args: [ctx, view] });`,
  );
};

test("a component that fails is started again once, with a notice; failing again, it stays stopped, with one more", async () => {
  const mock = await creatingModel();
  const home = makeHome(mock.baseUrl);
  const extension = extensionOverHostCopy(home, { native: true, patch: trappingWidget });
  // One failure: started again, the widget drawn, the tools work.
  let pi = await startPi(home, { extension: false, args: ["-e", extension], env: { TEST_WIDGET_TRAPS: "1" } });
  assert.match(await creator(pi, mock), /^pi-/);
  await pi.waitFor((r) => r.method === "setWidget" && r.widgetLines, { what: "the widget after the restart" });
  let notices = pi.ui("notify").filter((n) => n.message.includes("tasklists"));
  assert.equal(notices.length, 1, JSON.stringify(notices));
  assert.equal(notices[0].notifyType, "warning");
  assert.match(notices[0].message, /test trap.*again/);
  await pi.stop();
  // Two failures: stopped for the session, said once more; a tool call then fails, nothing loops.
  pi = await startPi(home, { extension: false, args: ["-e", extension], env: { TEST_WIDGET_TRAPS: "2" } });
  await pi.waitFor((r) => r.method === "notify" && r.notifyType === "error", { what: "the second notice" });
  const from = pi.records.length;
  await pi.send({ type: "prompt", message: "make a list" });
  await pi.waitFor((r) => r.type === "agent_end", { from, what: "the turn" });
  const ends = pi.records.filter((r) => r.type === "tool_execution_end");
  assert.equal(ends.length, 1);
  assert.equal(ends[0].isError, true, `the tool call failed: ${JSON.stringify(ends[0])} ${JSON.stringify(pi.ui("notify"))}`);
  assert.match(ends[0].result.content[0].text, /stays stopped/);
  await delay(2500);
  notices = pi.ui("notify").filter((n) => n.message.includes("tasklists"));
  assert.deepEqual(notices.map((n) => n.notifyType), ["warning", "error"], JSON.stringify(notices));
  assert.match(notices[1].message, /stays stopped/);
});

test("a missing build is one notice with the build command; no task tool is offered", async () => {
  const mock = await creatingModel();
  const home = makeHome(mock.baseUrl);
  // The extension as installed, over a copy of the Node host without its native addon.
  const extension = extensionOverHostCopy(home, { native: false });
  const pi = await startPi(home, { extension: false, args: ["-e", extension] });
  const from = pi.records.length;
  await pi.send({ type: "prompt", message: "anything" });
  await pi.waitFor((r) => r.type === "agent_end", { from, what: "the turn" });
  const notices = pi.ui("notify").filter((n) => n.message.includes("tasklists"));
  assert.equal(notices.length, 1, JSON.stringify(notices));
  assert.equal(notices[0].notifyType, "error");
  assert.ok(notices[0].message.includes("bash scripts/node-host"), notices[0].message);
  const tools = mock.requests[0].tools.map((/** @type {any} */ t) => t.function.name);
  assert.ok(!tools.some((/** @type {any} */ t) => t.startsWith("task_")), tools.join(","));
  assert.ok(!pi.records.some((r) => r.type === "extension_error"));
});

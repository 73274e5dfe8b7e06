// @ts-check
// The standard workflow through a real Pi in RPC mode, the model scripted
// by the mock server: what Pi registered, what the model received, the
// failed call, the widget (and another agent's claim appearing in it),
// every command and the compaction memory.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { NodeHost } from "@tasklists/node-host";
import { callAsOtherAgent, callWithCli, makeHome, startPi, stopAll } from "./harness.mjs";
import { dataOf, startMockModel, toolResults } from "./mock-model.mjs";

const TASKS = 12;
/** @param {number} i */
const title = (i) => `Task ${String(i).padStart(2, "0")} of the release`;
const NOTES = "working memory: approach A chosen, tests next";
const BLOCKED_NOTES = "waiting on the review of the schema";
const T3_NOTES = "next: write the docs page";
const OUTCOME = "shipped approach A; tests pass";

/** What the script learned from the tool results, by step. */
/** @type {Record<string, any>} */
const seen = {};
/** @param {any} body */
const first = (body) => dataOf(toolResults(body)[0].text);

/** @type {((body: any) => import("./mock-model.mjs").Step)[]} */
const script = [
  () => ({ calls: [{ name: "task_lists", args: { action: "create", params: { name: "Release 1.0", scope_type: "workspace" } } }] }),
  (body) => {
    seen.list = first(body).list;
    const tasks = Array.from({ length: TASKS }, (_, i) => ({ title: title(i + 1) }));
    return { calls: [{ name: "task_items", args: { action: "add_many", params: { list_id: seen.list.id, tasks } } }] };
  },
  (body) => {
    seen.tasks = first(body).tasks;
    return { calls: [{ name: "task_claims", args: { action: "claim_next", params: { list_id: seen.list.id } } }] };
  },
  (body) => {
    seen.claim1 = first(body);
    return { calls: [{ name: "task_items", args: { action: "update", params: { task_id: seen.claim1.task.id, notes: NOTES } } }] };
  },
  () => ({ calls: [{ name: "task_items", args: { action: "update", params: { task_id: seen.claim1.task.id, status: "done", outcome: OUTCOME } } }] }),
  // Deliberately failing: done without an outcome.
  () => ({ calls: [{ name: "task_items", args: { action: "update", params: { task_id: seen.tasks[1].id, status: "done" } } }] }),
  () => ({ calls: [{ name: "task_claims", args: { action: "claim_next", params: { list_id: seen.list.id } } }] }),
  (body) => {
    seen.claim2 = first(body);
    return { calls: [{ name: "task_items", args: { action: "update", params: { task_id: seen.claim2.task.id, status: "blocked", notes: BLOCKED_NOTES } } }] };
  },
  () => ({ calls: [{ name: "task_claims", args: { action: "claim_next", params: { list_id: seen.list.id } } }] }),
  (body) => {
    seen.claim3 = first(body);
    return { calls: [{ name: "task_items", args: { action: "update", params: { task_id: seen.claim3.task.id, notes: T3_NOTES } } }] };
  },
  () => ({ text: "Working on the third task." }),
];
const FAILING_STEP = 5;

/** @type {Awaited<ReturnType<typeof startMockModel>>} */
let mock;
/** @type {import("./harness.mjs").Home} */
let home;
/** @type {import("./harness.mjs").RpcPi} */
let pi;
/** @type {import("@tasklists/node-host").ToolInfo[]} */
let catalogue;
/** @type {import("@tasklists/node-host").CommandInfo[]} */
let commands;
/** @type {any} */
let agentEnd;

before(async () => {
  mock = await startMockModel(script);
  home = makeHome(mock.baseUrl);
  // The component's own catalogue and commands, from a host of the test's.
  const host = await NodeHost.open({ db: `${home.dir}/scratch.db` });
  catalogue = await host.catalogue();
  commands = await host.commands();
  await host.close();
  pi = await startPi(home);
  await pi.send({ type: "prompt", message: "Plan the release and work through it." });
  agentEnd = await pi.waitFor((r) => r.type === "agent_end", { timeoutMs: 60000, what: "the end of the scripted run" });
});

after(async () => {
  await stopAll();
  await mock?.close();
});

/**
 * The records of a custom message of `type` from index `from` on.
 * @param {string} type
 */
function customMessages(type, from = 0) {
  return pi.records.slice(from).filter((r) => r.type === "message_end" && r.message.role === "custom" && r.message.customType === type);
}

/**
 * The text of the view a command printed (the extension's custom message), waiting for it.
 * @param {string} command
 * @param {{ respond?: (from: number) => Promise<void> }} [options]
 */
async function commandView(command, { respond } = {}) {
  const from = pi.records.length;
  // A command's prompt is answered once its handler is done, dialogs included.
  const answered = pi.send({ type: "prompt", message: command });
  if (respond) await respond(from);
  await answered;
  const record = await pi.waitFor((r) => r.type === "message_end" && r.message.customType === "tasklists-view", { from, what: `the output of ${command}` });
  return { text: record.message.content, lines: record.message.details.lines, from };
}

/**
 * The widget's latest lines (waiting for one sent from `from` on that satisfies `ok`).
 * @param {(lines: string[] | null) => unknown} ok
 * @returns {Promise<string[]>}
 */
async function widgetWhere(ok, from = 0, what = "a widget") {
  await pi.waitFor((r) => r.type === "extension_ui_request" && r.method === "setWidget" && r.widgetKey === "tasklists" && Boolean(ok(pi.widgets(pi.records.indexOf(r))[0] ?? null)), {
    from,
    timeoutMs: 10000,
    what,
  });
  // What `ok` accepted: a shown widget (a hidden one has no lines).
  return /** @type {string[]} */ (pi.widgets(from).filter(ok).at(-1));
}

test("Pi registered the component's five tools with its names, descriptions and schemas", () => {
  const sent = new Map(mock.requests[0].tools.map((/** @type {any} */ t) => [t.function.name, t.function]));
  assert.equal(catalogue.length, 5);
  for (const info of catalogue) {
    const tool = sent.get(info.name);
    assert.ok(tool, `${info.name} is offered to the model`);
    assert.equal(tool.description, info.description);
    assert.deepEqual(tool.parameters, JSON.parse(info.inputSchema));
  }
  // The system prompt lists them with the component's snippet under
  // "Available tools", and carries its guidelines.
  const system = mock.requests[0].messages.find((/** @type {any} */ m) => m.role === "system").content;
  for (const info of catalogue) {
    assert.ok(system.includes(info.promptSnippet), `${info.name}'s snippet is in the system prompt`);
    for (const rule of info.promptGuidelines) assert.ok(system.includes(rule), `the guideline ${rule} is in the system prompt`);
  }
  assert.ok(catalogue.some((info) => info.promptGuidelines.length > 0));
});

test("the model received each result as the summary line and the compact JSON, with full ids", () => {
  assert.equal(mock.steps, script.length, "every scripted step ran");
  assert.equal(agentEnd.messages.at(-1).content[0].text, "Working on the third task.");
  for (let i = 1; i < script.length; i++) {
    const results = toolResults(mock.requests[i]);
    assert.equal(results.length, 1, `one result before step ${i}`);
    const { text } = results[0];
    if (i - 1 === FAILING_STEP) continue;
    assert.doesNotMatch(text, /^\{"error"/, `step ${i - 1} succeeded: ${text.slice(0, 200)}`);
    const [summary, json] = [text.slice(0, text.indexOf("\n")), text.slice(text.indexOf("\n") + 1)];
    assert.ok(summary.length > 0 && !summary.startsWith("{"), "a summary line first");
    assert.doesNotThrow(() => JSON.parse(json));
    assert.equal(json, JSON.stringify(JSON.parse(json)), "compact JSON");
  }
  // Full ids: every id in the JSON data appears whole in the text.
  const created = toolResults(mock.requests[1])[0].text;
  assert.match(seen.list.id, /^list_[0-9A-Z]{26}$/);
  assert.ok(created.split("\n")[0].includes(seen.list.id), "the summary line names the full list id");
  const added = toolResults(mock.requests[2])[0].text;
  assert.equal(seen.tasks.length, TASKS);
  for (const task of seen.tasks) {
    assert.match(task.id, /^task_[0-9A-Z]{26}$/);
    assert.ok(added.includes(task.id));
  }
  assert.equal(seen.claim1.task.id, seen.tasks[0].id);
  assert.ok(seen.claim1.claim.token, "claim_next returns a claim token");
  assert.equal(seen.claim2.task.id, seen.tasks[1].id);
  assert.equal(seen.claim3.task.id, seen.tasks[2].id, "the paused task is skipped by claim_next");
  const done = dataOf(toolResults(mock.requests[5])[0].text);
  assert.equal(done.task.status, "done");
  assert.equal(done.task.outcome, OUTCOME);
  assert.equal(done.task.notes, NOTES);
});

test("the deliberately failing call is marked failed, with the contract's error for the model", () => {
  const failing = toolResults(mock.requests[FAILING_STEP + 1])[0];
  const error = JSON.parse(failing.text).error;
  assert.equal(error.code, "outcome_required");
  assert.ok(error.message.length > 0);
  assert.equal(typeof error.hint, "string");
  const ends = pi.records.filter((r) => r.type === "tool_execution_end");
  assert.equal(ends.length, script.length - 1);
  const failed = ends.filter((r) => r.isError);
  assert.equal(failed.length, 1, "exactly one call failed");
  assert.equal(failed[0].toolCallId, failing.id);
  assert.equal(failed[0].result.content[0].text, failing.text, "Pi's error text is the component's error object");
});

test("each tool result keeps the component's reply in its details, a failed call's too: what a restored transcript renders", async () => {
  const { messages } = (await pi.send({ type: "get_messages" })).data;
  /** @type {import("@mariozechner/pi-ai").ToolResultMessage[]} */
  const results = messages.filter((/** @type {{ role: string }} */ m) => m.role === "toolResult");
  assert.equal(results.length, script.length - 1);
  const failing = toolResults(mock.requests[FAILING_STEP + 1])[0];
  for (const result of results) {
    const reply = result.details?.reply;
    assert.ok(reply, `${result.toolName}: the reply is in the details`);
    assert.equal(reply.text, result.content.map((c) => (c.type === "text" ? c.text : "")).join(""), "the reply's text is what the model received");
    assert.equal(reply.outcome.tag, result.isError ? "err" : "ok");
    assert.deepEqual(JSON.parse(reply.structured), JSON.parse(reply.text.slice(reply.outcome.tag === "ok" ? reply.text.indexOf("\n") + 1 : 0)));
  }
  const failed = results.find((r) => r.toolCallId === failing.id);
  assert.equal(failed?.details.reply.outcome.val.code, "outcome-required");
});

test("the widget above the editor: at most 10 lines, the counters, paused, the agent's own tasks", async () => {
  const lines = await widgetWhere((l) => l && l.some((x) => /todo 9 · run 1 · blocked 1 · done 1/.test(x)), 0, "the widget with the final counters");
  assert.ok(lines.length <= 10, `${lines.length} lines`);
  for (const line of lines) assert.ok([...line].length <= 78, `fits 78 columns: ${line}`);
  assert.ok(pi.ui("setWidget").every((r) => r.widgetPlacement === "aboveEditor" || !r.widgetLines));
  const paused = lines.find((l) => l.includes(title(2)));
  assert.ok(paused, "the paused task is the agent's own and shown");
  assert.match(paused, /paused/);
  assert.doesNotMatch(lines.join("\n"), /blocked  /, "a blocked task reads paused");
  assert.ok(lines.some((l) => l.includes(title(3))), "the claimed task is shown");
  assert.ok(!lines.some((l) => l.includes("widget truncated")));
});

test("another agent's claim in another process (the native CLI) appears in the widget without any user action", async () => {
  const from = pi.records.length;
  const claimed = callWithCli(home, "builder-2", "task_claims", { action: "claim_next", params: { list_id: seen.list.id } });
  assert.equal(claimed.task.id, seen.tasks[3].id);
  const lines = await widgetWhere((l) => l && l.some((x) => /run 2/.test(x)), from, "the widget showing the other agent's claim");
  assert.ok(lines.some((l) => /todo 8 · run 2 · blocked 1 · done 1/.test(l)));
  // No command was sent to Pi meanwhile.
  assert.ok(!pi.records.slice(from).some((r) => r.type === "response"));
});

test("Pi registered the component's commands", async () => {
  const response = await pi.send({ type: "get_commands" });
  const registered = response.data.commands.filter((/** @type {any} */ c) => c.source === "extension").map((/** @type {any} */ c) => c.name);
  assert.deepEqual(registered, commands.map((c) => c.name));
  for (const name of ["task-lists", "tasks", "task-audit", "task-list-delete", "task-widget"]) assert.ok(registered.includes(name), name);
  for (const c of response.data.commands.filter((/** @type {any} */ c) => c.source === "extension")) {
    assert.equal(c.description, commands.find((x) => x.name === c.name)?.description);
  }
});

test("/task-lists shows names and ids; full shows the JSON metadata; never sent to the model", async () => {
  const view = await commandView("/task-lists");
  assert.match(view.text, /Release 1\.0/);
  assert.ok(view.text.includes(seen.list.id));
  const full = await commandView("/task-lists full");
  assert.ok(full.text.includes(seen.list.id));
  assert.match(full.text, /"scope_type"\s*:\s*"workspace"/);
  assert.ok(full.text.length > view.text.length);
});

test("/tasks <list_id> shows the tasks with notes and outcome; full shows the JSON", async () => {
  const view = await commandView(`/tasks ${seen.list.id}`);
  for (const t of [title(1), title(2), title(3)]) assert.ok(view.text.includes(t), t);
  assert.ok(view.text.includes(OUTCOME), "the outcome");
  assert.ok(view.text.includes(BLOCKED_NOTES), "the notes");
  assert.ok(view.text.includes("builder-2"), "the other agent");
  const full = await commandView(`/tasks ${seen.list.id} full`);
  for (const task of seen.tasks) assert.ok(full.text.includes(task.id));
  assert.match(full.text, /"outcome"\s*:/);
});

test("/tasks without an argument offers the visible lists in Pi's selector, then shows the chosen one", async () => {
  const view = await commandView("/tasks", {
    respond: async (from) => {
      const select = await pi.waitFor((r) => r.type === "extension_ui_request" && r.method === "select", { from, what: "the list selector" });
      const option = select.options.find((/** @type {any} */ o) => o.includes("Release 1.0") || o.includes(seen.list.id));
      assert.ok(option, `the list is offered: ${select.options}`);
      pi.write({ type: "extension_ui_response", id: select.id, value: option });
    },
  });
  assert.ok(view.text.includes(title(3)));
});

test("/task-audit shows audit events; with a list id, that list's", async () => {
  const all = await commandView("/task-audit");
  assert.ok(all.lines.length > 0);
  const list = await commandView(`/task-audit ${seen.list.id}`);
  assert.ok(list.text.length > 0);
  assert.match(list.text, /claim/i);
});

test("a bad argument is refused as an error notice", async () => {
  const from = pi.records.length;
  await pi.send({ type: "prompt", message: "/tasks list_00000000000000000000000000" });
  const notice = await pi.waitFor((r) => r.type === "extension_ui_request" && r.method === "notify", { from, what: "the refusal" });
  assert.equal(notice.notifyType, "error");
  assert.ok(notice.message.length > 0);
});

test("/task-widget full shows the open tasks, own first, and summarizes what it hides", async () => {
  const from = pi.records.length;
  await pi.send({ type: "prompt", message: "/task-widget full" });
  const lines = await widgetWhere((l) => l && l.some((x) => x.includes(title(5))), from, "the full widget").catch((e) => {
    throw new Error(`${e.message}\nwidgets sent:\n${pi.widgets(from).map((w) => w?.join("\n")).join("\n--\n")}`);
  });
  assert.ok(lines.length <= 10, `${lines.length} lines`);
  assert.ok(lines.some((l) => /hidden/.test(l)), `a hidden-lines summary:\n${lines.join("\n")}`);
  /** @param {string} t */
  const at = (t) => lines.findIndex((l) => l.includes(t));
  assert.ok(at(title(3)) >= 0 && at(title(5)) >= 0, lines.join("\n"));
  assert.ok(at(title(3)) < at(title(5)), "the agent's own task before the list's others");
  assert.ok(at(title(2)) < at(title(5)), "the agent's paused task before the list's others");
});

test("/task-widget off hides it, on and compact show it again, refresh redraws", async () => {
  let from = pi.records.length;
  await pi.send({ type: "prompt", message: "/task-widget off" });
  await pi.waitFor((r) => r.method === "setWidget" && r.widgetKey === "tasklists" && !r.widgetLines, { from, what: "the widget hidden" });
  from = pi.records.length;
  await pi.send({ type: "prompt", message: "/task-widget on" });
  await pi.waitFor((r) => r.method === "setWidget" && r.widgetKey === "tasklists" && r.widgetLines, { from, what: "the widget shown" });
  from = pi.records.length;
  await pi.send({ type: "prompt", message: "/task-widget compact" });
  const compact = await widgetWhere((l) => l && !l.some((x) => x.includes(title(5))), from, "the compact widget");
  assert.ok(compact.length <= 10);
  from = pi.records.length;
  await pi.send({ type: "prompt", message: "/task-widget refresh" });
  await pi.waitFor((r) => r.method === "setWidget" && r.widgetKey === "tasklists", { from, what: "a redraw" });
});

test("after an RPC compact, the agent's claims are put back in front of the model once", async () => {
  const from = pi.records.length;
  const compacted = await pi.send({ type: "compact" }, { timeoutMs: 30000 });
  assert.ok(compacted.data.summary);
  const [memory] = await Promise.all([pi.waitFor((r) => r.type === "message_end" && r.message.customType === "tasklists-memory", { from, what: "the memory message" })]);
  const text = memory.message.content;
  assert.ok(text.includes(seen.claim3.task.id), "the claimed task's id");
  assert.ok(text.includes(title(3)), "its title");
  assert.ok(text.includes(T3_NOTES), "its notes");
  assert.ok(!text.includes(seen.tasks[0].id), "not the finished task");
  assert.equal(customMessages("tasklists-memory", from).length, 1);
  // The next model request carries it once, and no command output.
  const requests = mock.requests.length;
  const turn = pi.records.length;
  await pi.send({ type: "prompt", message: "continue" });
  await pi.waitFor((r) => r.type === "agent_end", { from: turn, timeoutMs: 30000, what: "the next turn" });
  const next = mock.requests.slice(requests).find((b) => b.tools?.length);
  const texts = next.messages.map((/** @type {any} */ m) => (typeof m.content === "string" ? m.content : (m.content ?? []).map((/** @type {any} */ c) => c.text ?? "").join("")));
  const carrying = next.messages.filter((/** @type {any} */ _, /** @type {any} */ i) => texts[i].includes(text));
  assert.equal(carrying.length, 1, "the memory, once");
  assert.equal(carrying[0].role, "user");
  // No command output ever reached the model, in any request.
  const views = customMessages("tasklists-view").map((r) => r.message.content);
  assert.ok(views.length >= 7, `${views.length} views`);
  for (const body of mock.requests) {
    for (const m of body.messages) {
      const t = typeof m.content === "string" ? m.content : (m.content ?? []).map((/** @type {any} */ c) => c.text ?? "").join("");
      assert.ok(!views.some((v) => t.includes(v)), `a command view reached the model: ${t.slice(0, 200)}`);
    }
  }
});

test("/task-list-delete asks first: no deletes nothing, yes soft-deletes the list; a claimed list is refused", async () => {
  const made = await callAsOtherAgent(home, "builder-2", "task_lists", {
    action: "create",
    params: { name: "Scratch list", scope_type: "workspace", scope_key: home.workspace },
  });
  const scratch = made.structuredContent.list.id;
  await widgetWhere((l) => l && l.some((x) => x.includes("Scratch list")), 0, "the new list in the widget");
  /**
   * @param {string} listId
   * @param {boolean} confirmed
   */
  const remove = async (listId, confirmed) => {
    const from = pi.records.length;
    const answered = pi.send({ type: "prompt", message: `/task-list-delete ${listId}` });
    const confirm = await pi.waitFor((r) => r.type === "extension_ui_request" && r.method === "confirm", { from, what: "the confirmation" });
    pi.write({ type: "extension_ui_response", id: confirm.id, confirmed });
    await answered;
    return { confirm, from };
  };
  const { confirm } = await remove(scratch, false);
  assert.ok(confirm.title.includes("Scratch list"), confirm.title);
  assert.ok(confirm.message.includes(scratch), confirm.message);
  let lists = await commandView("/task-lists");
  assert.ok(lists.text.includes(scratch), "still there after no");
  const { from } = await remove(scratch, true);
  lists = await commandView("/task-lists");
  assert.ok(!lists.text.includes(scratch), `gone after yes:\n${lists.text}`);
  assert.ok(lists.text.includes(seen.list.id));
  await widgetWhere((l) => l && !l.some((x) => x.includes("Scratch list")), from, "the widget without the deleted list");
  // The release list has a task claimed by builder-2: refused, as an error.
  const refused = await remove(seen.list.id, true);
  const notice = await pi.waitFor((r) => r.method === "notify" && r.notifyType === "error", { from: refused.from, what: "the refusal" });
  assert.match(notice.message, /conflict/);
  assert.ok(notice.message.includes("builder-2"));
  lists = await commandView("/task-lists");
  assert.ok(lists.text.includes(seen.list.id), "the claimed list stays");
});

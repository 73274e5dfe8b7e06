// @ts-check
// The person called, inside a real Pi in RPC mode: an agent in another
// process asks a question; Pi tells the person once through its own
// notification UI, the widget says "1 needs you", `/task-inbox` lists it
// and answers it as the person; a restarted Pi tells nothing again for
// what it already told, but tells a new entry.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { NodeHost } from "@tasklists/node-host";
import { delay, makeHome, startPi, stopAll } from "./harness.mjs";
import { startMockModel } from "./mock-model.mjs";

/** @type {Awaited<ReturnType<typeof startMockModel>>} */
let mock;
/** @type {import("./harness.mjs").Home} */
let home;
const made = { list: "", task: "", other: "" };
const agent = { agentId: "builder-9", agentPinned: false };

/**
 * A tool call as another agent, through the library on the same database.
 * @param {string} tool
 * @param {string} action
 * @param {object} params
 */
async function call(tool, action, params) {
  const host = await NodeHost.open({ db: home.db });
  try {
    const reply = await host.callAction(tool, action, JSON.stringify(params), { ...agent, workspace: home.workspace });
    return JSON.parse(reply.structured);
  } finally {
    await host.close();
  }
}

before(async () => {
  mock = await startMockModel([]);
  home = makeHome(mock.baseUrl);
  made.list = (await call("task_lists", "create", { name: "Cache", scope_type: "workspace", requires_review: true })).list.id;
  const tasks = (await call("task_items", "add_many", { list_id: made.list, tasks: [{ title: "Pick the cache" }, { title: "Write the docs" }] })).tasks;
  made.task = tasks[0].id;
  made.other = tasks[1].id;
  await call("task_claims", "claim_next", { list_id: made.list });
  await call("task_items", "update", { task_id: made.task, question: "Postgres or SQLite for the cache?" });
});

after(async () => {
  await stopAll();
  await mock?.close();
});

/**
 * The notifications Pi showed from record `from` on.
 * @param {import("./harness.mjs").RpcPi} pi
 * @param {number} from
 */
const notes = (pi, from = 0) => pi.ui("notify", from).map((r) => String(r.message));

test("a question reaches the person once through Pi's notifications, the widget and /task-inbox, which answers it", async () => {
  const pi = await startPi(home, { args: ["--tasklists-person", "ana"] });
  const told = await pi.waitFor((r) => r.type === "extension_ui_request" && r.method === "notify" && /Question on Pick the cache/.test(String(r.message)), {
    timeoutMs: 10000,
    what: "the notification of the question",
  });
  assert.match(String(told.message), /Postgres or SQLite for the cache\?/);
  await pi.waitFor((r) => r.type === "extension_ui_request" && r.method === "setWidget" && (r.widgetLines ?? []).some((/** @type {string} */ l) => l.includes("1 needs you")), {
    what: "the widget's inbox line",
  });
  if (process.env.TASKLISTS_CAPTURE_PI) {
    // The closing note's figure: the notification and the widget as Pi got them.
    const widget = pi.widgets().filter((w) => w !== null).at(-1) ?? [];
    writeFileSync(process.env.TASKLISTS_CAPTURE_PI, `notify: ${told.message}\n\n${widget.join("\n")}\n`);
  }
  // Told once, however many checks run.
  await delay(2500);
  assert.equal(notes(pi).filter((m) => m.includes("Question on")).length, 1, notes(pi).join("\n"));

  const from = pi.records.length;
  await pi.send({ type: "prompt", message: "/task-inbox" });
  const view = await pi.waitFor((r) => r.type === "message_end" && r.message.customType === "tasklists-view", { from, what: "the inbox view" });
  assert.match(view.message.content, /Inbox: 1 needs you/);
  assert.match(view.message.content, /Postgres or SQLite/);

  const at = pi.records.length;
  await pi.send({ type: "prompt", message: `/task-inbox answer ${made.task} SQLite, one file` });
  await pi.waitFor((r) => r.type === "message_end" && r.message.customType === "tasklists-view", { from: at, what: "the answer's view" });
  await pi.stop();

  const back = await call("task_claims", "claim_next", { list_id: made.list });
  assert.equal(back.task.id, made.task, "the asking agent gets it back first");
  assert.equal(back.task.ask.answer, "SQLite, one file");
  assert.equal(back.task.ask.answered_by, "ana");
});

test("a restarted Pi does not tell again what it told, and tells what is new", async () => {
  // Finished: the list requires review, so it waits for the person.
  await call("task_items", "update", { task_id: made.task, status: "done", outcome: "SQLite cache in place" });
  const pi = await startPi(home, { args: ["--tasklists-person", "ana"] });
  await pi.waitFor((r) => r.type === "extension_ui_request" && r.method === "notify" && /To review: Pick the cache/.test(String(r.message)), {
    timeoutMs: 10000,
    what: "the notification of the review",
  });
  await delay(2500);
  assert.equal(notes(pi).filter((m) => m.includes("Question on")).length, 0, notes(pi).join("\n"));
  assert.equal(notes(pi).filter((m) => m.includes("To review")).length, 1, notes(pi).join("\n"));
});

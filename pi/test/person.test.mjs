// @ts-check
// The person's commands through a real Pi in RPC mode: `/task-approve` and
// `/task-reject` (the component's commands) run as the person Pi was told
// of (`--tasklists-person`, before `TASKLISTS_PERSON`), and the agent reads
// the approval and the rejection through its tools afterwards; with no
// person named they are refused, saying how to name one.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { NodeHost } from "@tasklists/node-host";
import { makeHome, startPi, stopAll } from "./harness.mjs";
import { dataOf, startMockModel, toolResults } from "./mock-model.mjs";

const NOTE = "looks right, go ahead";
const REASON = "the rollback step is missing";

/** The lists the test made: a plan to approve, one to reject. */
const made = { plan: "", risky: "" };

/** @param {any} body */
const first = (body) => dataOf(toolResults(body)[0].text);

/** What the agent read, by step. @type {Record<string, any>} */
const seen = {};

/** @type {((body: any) => import("./mock-model.mjs").Step)[]} */
const script = [
  // Turn 1, before any approval: nothing to claim.
  () => ({ calls: [{ name: "task_claims", args: { action: "claim_next", params: { list_id: made.plan } } }] }),
  (body) => {
    seen.pending = first(body);
    return { text: "Waiting for approval." };
  },
  // Turn 2, after /task-approve.
  () => ({ calls: [{ name: "task_claims", args: { action: "claim_next", params: { list_id: made.plan } } }] }),
  (body) => {
    seen.approved = first(body);
    return { text: "Working." };
  },
  // Turn 3, after /task-reject.
  () => ({ calls: [{ name: "task_lists", args: { action: "get", params: { list_id: made.risky } } }] }),
  (body) => {
    seen.rejected = first(body);
    return { text: "Rework the plan." };
  },
];

/** @type {Awaited<ReturnType<typeof startMockModel>>} */
let mock;
/** @type {import("./harness.mjs").Home} */
let home;

before(async () => {
  mock = await startMockModel(script);
  home = makeHome(mock.baseUrl);
  const host = await NodeHost.open({ db: home.db });
  try {
    const ctx = { agentId: "planner", agentPinned: false, workspace: home.workspace };
    /** @param {string} name */
    const plan = async (name) => {
      const reply = await host.callAction("task_lists", "create", JSON.stringify({ name, scope_type: "workspace", requires_approval: true }), ctx);
      const id = JSON.parse(reply.structured).list.id;
      const tasks = [{ title: `${name}: step one` }, { title: `${name}: step two` }];
      await host.callAction("task_items", "add_many", JSON.stringify({ list_id: id, tasks }), ctx);
      return id;
    };
    made.plan = await plan("Launch plan");
    made.risky = await plan("Risky plan");
  } finally {
    await host.close();
  }
});

after(async () => {
  await stopAll();
  await mock?.close();
});

/**
 * Runs a prompt and waits for the end of the agent's turn.
 * @param {import("./harness.mjs").RpcPi} pi
 * @param {string} message
 */
async function turn(pi, message) {
  const from = pi.records.length;
  await pi.send({ type: "prompt", message });
  await pi.waitFor((r) => r.type === "agent_end", { from, timeoutMs: 60000, what: `the end of the turn after ${message}` });
}

/**
 * Runs a slash command; resolves with the view it printed or the error notice it gave.
 * @param {import("./harness.mjs").RpcPi} pi
 * @param {string} command
 * @returns {Promise<{ view?: string, error?: string }>}
 */
async function command(pi, command) {
  const from = pi.records.length;
  await pi.send({ type: "prompt", message: command });
  const record = await pi.waitFor(
    (r) => (r.type === "message_end" && r.message.customType === "tasklists-view") || (r.type === "extension_ui_request" && r.method === "notify" && r.notifyType === "error"),
    { from, what: `the output of ${command}` },
  );
  return record.type === "message_end" ? { view: record.message.content } : { error: record.message };
}

test("without a person named, /task-approve is refused and says how to name one; nothing is approved", async () => {
  const pi = await startPi(home);
  try {
    const out = await command(pi, `/task-approve ${made.plan}`);
    assert.ok(out.error, `refused: ${JSON.stringify(out)}`);
    assert.match(out.error, /TASKLISTS_PERSON/);
  } finally {
    await pi.stop();
  }
  const host = await NodeHost.open({ db: home.db });
  try {
    const reply = await host.callAction("task_lists", "get", JSON.stringify({ list_id: made.plan }), { agentId: "planner", agentPinned: false });
    assert.equal(JSON.parse(reply.structured).list.approval.state, "pending");
  } finally {
    await host.close();
  }
});

test("/task-approve and /task-reject act as the person; the agent then claims from the approved plan and reads the rejection's reason", async () => {
  // The flag names the person; it wins over the environment.
  const pi = await startPi(home, { args: ["--tasklists-person", "ana"], env: { TASKLISTS_PERSON: "zed" } });
  await turn(pi, "Start on the launch plan.");
  assert.equal(seen.pending.task, null, JSON.stringify(seen.pending));
  assert.equal(seen.pending.waiting.approval.state, "pending");

  const approved = await command(pi, `/task-approve ${made.plan} ${NOTE}`);
  assert.ok(approved.view, `approved: ${JSON.stringify(approved)}`);
  await turn(pi, "Try again.");
  assert.ok(seen.approved.task, `a task is handed out once approved: ${JSON.stringify(seen.approved)}`);
  assert.equal(seen.approved.task.title, "Launch plan: step one");

  const rejected = await command(pi, `/task-reject ${made.risky} ${REASON}`);
  assert.ok(rejected.view, `rejected: ${JSON.stringify(rejected)}`);
  await turn(pi, "And the risky plan?");
  const approval = seen.rejected.list.approval;
  assert.equal(approval.state, "rejected");
  assert.equal(approval.reason, REASON);
  assert.equal(approval.by, "ana");

  // A rejection needs its reason: refused, nothing changed.
  const bare = await command(pi, `/task-reject ${made.plan}`);
  assert.ok(bare.error, `refused: ${JSON.stringify(bare)}`);

  // Both are audited as the person.
  const host = await NodeHost.open({ db: home.db });
  try {
    for (const [listId, kind] of [
      [made.plan, "approved"],
      [made.risky, "rejected"],
    ]) {
      const reply = await host.callAction("task_audit", "get", JSON.stringify({ list_id: listId, limit: 100 }), { agentId: "planner", agentPinned: false });
      const events = JSON.parse(reply.structured).events.filter((/** @type {any} */ e) => e.kind === kind);
      assert.equal(events.length, 1, JSON.stringify(JSON.parse(reply.structured).events));
      assert.equal(events[0].agent_id, "ana");
    }
    const plan = JSON.parse((await host.callAction("task_lists", "get", JSON.stringify({ list_id: made.plan }), { agentId: "planner", agentPinned: false })).structured);
    assert.equal(plan.list.approval.state, "approved", "the bare rejection changed nothing");
    assert.equal(plan.list.approval.note, NOTE);
  } finally {
    await host.close();
  }
});

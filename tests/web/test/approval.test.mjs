// @ts-check
// A person approves a plan on the board, with the button and with the
// `A` key, each saying yes to the page's question (approval asks first, as
// the key map says): before, `claim_next` (the CLI, another process)
// answers that the plan awaits approval; after, it hands out the plan's
// first task.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { tempDir, waitFor } from "../lib/env.mjs";
import { actionForm, markWindow, markerKept, open, sayYesInPage, signIn } from "../lib/page.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/**
 * What `claim_next` answers on `listId` for agent `agent`.
 * @param {string} db
 * @param {string} listId
 */
function claimNext(db, listId, agent = "a1") {
  return cli(db, agent, "task_claims", "claim_next", { list_id: listId });
}

/**
 * The list's approval as `task_lists get` tells it.
 * @param {string} db
 * @param {string} listId
 */
async function approvalOf(db, listId) {
  return (await cli(db, "a1", "task_lists", "get", { list_id: listId })).list.approval;
}

test("approving a plan from the page, by its button and by the A key, lets claim_next hand out its first task", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const done = await makeList(db, { name: "Already running", tasks: ["Something"] });
  const byButton = await makeList(db, { name: "Migrate the database", tasks: ["Back up", "Migrate", "Check"], requiresApproval: true });
  const byKey = await makeList(db, { name: "Rotate the keys", tasks: ["Make new keys", "Roll out"], requiresApproval: true });

  // Before: nothing is handed out, and the answer says why.
  for (const { listId } of [byButton, byKey]) {
    const before = await claimNext(db, listId);
    assert.equal(before.task, null);
    assert.equal(before.waiting.approval.state, "pending");
  }

  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  /** @type {string[]} */
  const asked = [];
  await withEvidence(board, console, async () => {
    await signIn(page, board);

    // The overview: the plans awaiting approval come first.
    const order = await page.$$eval("article.list", (els) => els.map((el) => [el.getAttribute("data-list"), el.getAttribute("data-approval")]));
    const pending = order.filter(([, a]) => a === "pending").map(([id]) => id);
    assert.deepEqual(pending.sort(), [byButton.listId, byKey.listId].sort());
    assert.ok(order.findIndex(([id]) => id === done.listId) > Math.max(...pending.map((id) => order.findIndex(([i]) => i === id))), `awaiting approval first: ${JSON.stringify(order)}`);

    // The button.
    await open(page, board, `/lists/${byButton.listId}`);
    await screenshot(page, "plan-awaiting-approval");
    await markWindow(page);
    const approve = actionForm(page, "approve");
    assert.equal(await approve.getAttribute("data-key"), "A");
    await approve.locator('button[type="submit"]').click();
    asked.push(await sayYesInPage(page));
    await waitFor(async () => (await approvalOf(db, byButton.listId)).state === "approved", "the plan approved");
    assert.equal((await approvalOf(db, byButton.listId)).by, "ann");
    const first = await claimNext(db, byButton.listId);
    assert.equal(first.task.id, byButton.taskIds[0]);
    // The page shows it without a reload: no approve form any more.
    await waitFor(async () => (await page.locator('form.act[data-action="approve"]').count()) === 0, "the approve form gone");
    assert.ok(await markerKept(page), "approved in place, never reloaded");

    // The key, as on the dashboard.
    await open(page, board, `/lists/${byKey.listId}`);
    assert.equal((await claimNext(db, byKey.listId)).task, null);
    await page.locator("main#board").waitFor();
    await page.keyboard.press("A");
    asked.push(await sayYesInPage(page));
    await waitFor(async () => (await approvalOf(db, byKey.listId)).state === "approved", "the plan approved by the A key");
    assert.equal((await claimNext(db, byKey.listId)).task.id, byKey.taskIds[0]);
    for (const [i, name] of ["Migrate the database", "Rotate the keys"].entries()) {
      assert.match(asked[i], new RegExp(`Approve this list\\?\\s+${name}`), `asked first, naming the plan: ${asked[i]}`);
    }
  });
});

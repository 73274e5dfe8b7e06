// @ts-check
// A button that breaks a rule: a person closes, from the board, a task an
// agent claimed while they typed its outcome. The component refuses (a
// task an agent holds is not changed under it; release takes it back),
// the page shows its error in `#flash` in place, and nothing changed.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { tempDir } from "../lib/env.mjs";
import { actionForm, card, flashError, markWindow, markerKept, open, selectCard, signIn, waitForCard } from "../lib/page.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/**
 * The task as an agent reads it.
 * @param {string} db
 * @param {string} listId
 * @param {string} taskId
 */
async function taskOf(db, listId, taskId) {
  const got = await cli(db, "observer", "task_lists", "get", { list_id: listId, include_tasks: true });
  return got.tasks.find((/** @type {{ id: string }} */ task) => task.id === taskId);
}

test("closing a task an agent claimed meanwhile shows the component's refusal in #flash, and changes nothing", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, {
    name: "Release 2.0",
    tasks: [
      { title: "Run the smoke tests", verification: "npm test is green", description: "All of them, on a clean checkout.", priority: "high" },
      "Announce it",
    ],
  });
  const [id] = taskIds;
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, id, "todo", { column: "todo", timeoutMs: 1000 });
    await markWindow(page);

    // The person types the outcome on its card (the page defers its
    // refresh while a field has focus); meanwhile an agent claims it.
    await selectCard(page, id);
    const done = actionForm(page, "done", card(page, id));
    await done.locator('input[name="outcome"]').fill("all green");
    await done.locator('input[name="verification_result"]').fill("npm test: 120 passed");
    const claim = await cli(db, "a1", "task_claims", "claim_next", { list_id: listId });
    assert.equal(claim.task.id, id);
    await cli(db, "a1", "task_items", "update", { task_id: id, notes: "running the suite on a clean checkout", claim_token: claim.claim.token });
    await done.locator('button[type="submit"]').click();
    const flash = await flashError(page);
    assert.match(flash, /claimed by a1/, `the component's refusal: ${flash}`);
    assert.match(flash, /release/, `and the way to take it back: ${flash}`);
    assert.ok(await markerKept(page), "the error shows in place");
    // Once the field is left, the card shows what happened: running, and
    // offering only what can succeed now.
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await waitForCard(page, id, "in_progress", { column: "running" });
    assert.equal(await actionForm(page, "block", card(page, id)).count(), 0, "no block on a running card");

    const task = await taskOf(db, listId, id);
    assert.equal(task.status, "in_progress", "nothing changed");
    assert.equal(task.claimed_by_agent_id, "a1");

    // The task's details, as the person sees them now.
    await open(page, board, `/tasks/${id}`);
    const details = await page.locator("main#board").innerText();
    for (const shown of ["Run the smoke tests", "npm test is green", "All of them, on a clean checkout.", "running the suite on a clean checkout", "@a1"]) {
      assert.ok(details.includes(shown), `the details show ${JSON.stringify(shown)}:\n${details}`);
    }
    await screenshot(page, "task-details");
  });
});

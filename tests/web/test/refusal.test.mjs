// @ts-check
// A button that breaks a rule: the component refuses, the page shows its
// error in `#flash`, and nothing changed.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { tempDir } from "../lib/env.mjs";
import { actionForm, card, flashError, markWindow, markerKept, open, signIn } from "../lib/page.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/**
 * The task as `task_lists get` tells it.
 * @param {string} db
 * @param {string} listId
 * @param {string} taskId
 */
async function taskOf(db, listId, taskId) {
  const got = await cli(db, "observer", "task_lists", "get", { list_id: listId, include_tasks: true });
  return got.tasks.find((/** @type {{ id: string }} */ task) => task.id === taskId);
}

test("closing as done a task whose verification has no result shows the component's error, and changes nothing", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, {
    name: "Release 2.0",
    tasks: [{ title: "Run the smoke tests", verification: "npm test is green", description: "All of them, on a clean checkout." }, "Announce it"],
  });
  const [id] = taskIds;
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/tasks/${id}`);
    await screenshot(page, "task-details");
    await markWindow(page);

    // The person closes it with an outcome and no verification result.
    const done = actionForm(page, "done", card(page, id));
    await done.locator('input[name="outcome"], textarea[name="outcome"]').fill("shipped");
    await done.locator('button[type="submit"]').click();
    const flash = await flashError(page);
    assert.match(flash, /verification/i, `the flash names what is missing: ${flash}`);
    assert.ok(await markerKept(page), "the error shows in place");

    const task = await taskOf(db, listId, id);
    assert.equal(task.status, "todo", "nothing changed");
    assert.equal(task.outcome ?? null, null);
  });
});

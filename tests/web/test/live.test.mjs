// @ts-check
// The board follows agents in other processes without a reload: the CLI
// (one process per call) and the Node host (a process of its own) claim
// and close tasks on the board's database, and the open page moves their
// cards to running, then closed, within a few seconds; on SQLite, on
// PostgreSQL (when TASKLISTS_TEST_PG names a server), and when nothing
// changes but a lease runs out.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList, nodeAgent } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { tempDir, waitFor } from "../lib/env.mjs";
import { card, markWindow, markerKept, open, signIn, waitForCard } from "../lib/page.mjs";
import { freshPgDatabase, pgSkip } from "../lib/pg.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/** How long a change may take to show: "within a second" is the goal, this the test's patience on a busy machine. */
const SHOWS_WITHIN_MS = 5000;

/**
 * The board of a list while a CLI agent and a Node host agent work it.
 * @param {import("node:test").TestContext} t
 * @param {string} db
 * @param {string} shot the screenshot's name, or "" for none
 */
async function agentsWorkTheBoard(t, db, shot) {
  const { listId, taskIds } = await makeList(db, {
    name: "Release 2.0",
    tasks: [
      { title: "Write the changelog", priority: "high" },
      "Tag the release",
      { title: "Run the smoke tests", verification: "npm test is green" },
      "Announce it",
    ],
  });
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    for (const id of taskIds) await waitForCard(page, id, "todo", { column: "todo", timeoutMs: 1000 });
    await markWindow(page);

    // The CLI agent claims the first task: its card moves to running.
    const a1 = await cli(db, "a1", "task_claims", "claim_next", { list_id: listId });
    assert.equal(a1.task.id, taskIds[0]);
    await waitForCard(page, taskIds[0], "in_progress", { column: "running", timeoutMs: SHOWS_WITHIN_MS });
    await waitFor(async () => /a1/.test(await card(page, taskIds[0]).innerText()), "the running card names its claimer a1", { timeoutMs: SHOWS_WITHIN_MS });

    // The Node host agent, in its own process, claims the next one.
    const n1 = await nodeAgent(t, db, "n1");
    const claimed = await n1.must("task_claims", "claim_next", { list_id: listId });
    assert.equal(claimed.task.id, taskIds[1]);
    await waitForCard(page, taskIds[1], "in_progress", { column: "running", timeoutMs: SHOWS_WITHIN_MS });
    await n1.must("task_items", "update", { task_id: taskIds[1], notes: "tag v2.0 pushed", claim_token: claimed.claim.token });
    if (shot) await screenshot(page, shot);

    // Both close their tasks: the cards move to closed, with their outcomes.
    await cli(db, "a1", "task_items", "update", { task_id: taskIds[0], status: "done", outcome: "changelog written", claim_token: a1.claim.token });
    await waitForCard(page, taskIds[0], "done", { column: "closed", timeoutMs: SHOWS_WITHIN_MS });
    await n1.must("task_items", "update", { task_id: taskIds[1], status: "canceled", outcome: "tagged by hand", claim_token: claimed.claim.token });
    await waitForCard(page, taskIds[1], "canceled", { column: "closed", timeoutMs: SHOWS_WITHIN_MS });
    assert.match(await card(page, taskIds[0]).innerText(), /changelog written/);
    await waitForCard(page, taskIds[2], "todo", { column: "todo", timeoutMs: 1000 });

    assert.ok(await markerKept(page), "the page was updated in place, never reloaded");
    assert.equal(new URL(page.url()).pathname, `/lists/${listId}`);

    // The details of n1's task: its note and outcome.
    await open(page, board, `/tasks/${taskIds[1]}`);
    const details = await page.locator("main#board").innerText();
    assert.match(details, /tag v2\.0 pushed/);
    assert.match(details, /tagged by hand/);
  });
}

test("the board of a list follows agents in other processes (CLI and Node host) without a reload", async (t) => {
  await agentsWorkTheBoard(t, join(tempDir(t), "tasks.db"), "board-agents-working");
});

test("the board follows agents on PostgreSQL too", { skip: pgSkip }, async (t) => {
  await agentsWorkTheBoard(t, freshPgDatabase(t), "");
});

test("a lease running out shows on the open board without any change to the store", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, { name: "Short leases", tasks: ["Flaky step"] });
  const board = await serve(t, { db, person: "ann" });
  const { page } = await browse(t);
  await signIn(page, board);
  // The contract's shortest lease: 30 s.
  const claim = await cli(db, "a1", "task_claims", "claim_next", { list_id: listId, lease_seconds: 30 });
  const expiresAt = Date.parse(claim.claim.expires_at);
  await open(page, board, `/lists/${listId}`);
  await waitForCard(page, taskIds[0], "in_progress", { column: "running", timeoutMs: 1000 });
  const before = await card(page, taskIds[0]).innerText();
  assert.match(before, /@a1/);
  assert.doesNotMatch(before, /lease expired/);
  const refreshAt = Number(await page.locator("main#board").getAttribute("data-refresh-at"));
  assert.ok(Math.abs(refreshAt - expiresAt) <= 1000, `main's data-refresh-at (${refreshAt}) is the lease's end (${expiresAt})`);
  await markWindow(page);

  // Nobody writes; the card says the lease expired soon after it did.
  await waitFor(async () => /lease expired/.test(await card(page, taskIds[0]).innerText()), "the card to say the lease expired", {
    timeoutMs: expiresAt - Date.now() + SHOWS_WITHIN_MS,
    everyMs: 200,
  });
  assert.ok(Date.now() >= expiresAt, "not before the lease's end");
  assert.ok(await markerKept(page), "updated in place, never reloaded");
});

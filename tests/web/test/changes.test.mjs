// @ts-check
// The board sends what changed: a card at rest carries no forms (the
// selected card's come when it is selected), and a change to one task
// brings the page that card alone; the page's other cards stay the very
// nodes they were.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse } from "../lib/browser.mjs";
import { tempDir } from "../lib/env.mjs";
import { actionForm, card, open, selectCard, signIn, waitForCard } from "../lib/page.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

test("a change to one task brings the page that card alone, and a card's forms come when it is selected", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const titles = Array.from({ length: 30 }, (_, i) => `Step ${i + 1}`);
  const { listId, taskIds } = await makeList(db, { name: "Many steps", tasks: titles });
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  /** @type {string[]} */
  const refreshes = [];
  page.on("response", async (response) => {
    if (!response.url().includes("part=main")) return;
    try {
      refreshes.push(await response.text());
    } catch (_) {
      // The page went away meanwhile.
    }
  });
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, taskIds[0], "todo", { column: "todo", timeoutMs: 1000 });
    assert.equal(await page.locator("article.task form.act").count(), 0, "no card carries forms at rest");

    // A card the change does not touch: the page keeps its node.
    await page.evaluate((id) => {
      /** @type {any} */ (document.querySelector(`article.task[data-task="${id}"]`)).keptNode = true;
    }, taskIds[29]);
    refreshes.length = 0;
    await cli(db, "a1", "task_claims", "claim_next", { list_id: listId });
    await waitForCard(page, taskIds[0], "in_progress", { column: "running", timeoutMs: 5000 });
    // The page may show the card before the response handler above has
    // read the body that brought it: wait for that body.
    const brought = () => refreshes.find((r) => r.includes(`data-task="${taskIds[0]}"`));
    for (const until = Date.now() + 5000; !brought() && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const last = brought() ?? "";
    assert.equal(last.match(/<article /g)?.length, 1, `one card travels: ${last.length} bytes`);
    assert.ok(last.includes(`data-task="${taskIds[0]}"`), "the claimed one");
    assert.ok(last.length < 10000, `a small refresh: ${last.length} bytes`);
    assert.equal(await page.locator("article.task").count(), 30, "every card still shown");
    assert.ok(
      await page.evaluate((id) => /** @type {any} */ (document.querySelector(`article.task[data-task="${id}"]`)).keptNode === true, taskIds[29]),
      "an untouched card is the same node",
    );

    // Selected, a card gets its forms (a running one: release and moves).
    await selectCard(page, taskIds[0]);
    const actions = await card(page, taskIds[0]).locator("form.act").evaluateAll((forms) => forms.map((f) => f.getAttribute("data-action")));
    assert.deepEqual([...new Set(actions)].sort(), ["move", "release"]);
    await selectCard(page, taskIds[1]);
    assert.equal(await actionForm(page, "done", card(page, taskIds[1])).count(), 1);
  });
});

// @ts-check
// A task's labels on the board: each label on a card is a link to the
// board showing only the tasks carrying it; the address keeps the filter
// (a reload, the live refresh and the view links keep it), the page says
// it is filtered, and its link shows every task again.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { tempDir, waitFor } from "../lib/env.mjs";
import { card, cards, markWindow, markerKept, open, signIn } from "../lib/page.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/** The ids of the cards on the page, in document order. */
async function shown(/** @type {import("playwright-core").Page} */ page) {
  return (await cards(page)).map(([id]) => id).sort();
}

test("a label on a card filters the board by it, and the address, a reload and the live refresh keep the filter", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, {
    name: "Labeled work",
    tasks: [
      { title: "Write the schema", labels: ["backend", "db"] },
      { title: "Style the page", labels: ["frontend"] },
      { title: "Serve the API", labels: ["backend", "gt:merge-request"] },
      "Unlabeled chore",
    ],
  });
  const [schema, styles, api, chore] = taskIds;
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    assert.deepEqual(await shown(page), [...taskIds].sort());
    assert.equal(await page.locator("p.filter").count(), 0, "not filtered yet");
    const tags = await card(page, api).locator("a.tag").allInnerTexts();
    assert.deepEqual(tags, ["backend", "gt:merge-request"], "a card's labels, in order");

    // A click on a card's label: the board of the tasks carrying it.
    await card(page, schema).locator('a.tag[data-label="backend"]').click();
    await page.waitForURL((url) => url.searchParams.get("label") === "backend");
    assert.deepEqual(await shown(page), [schema, api].sort());
    const note = await page.locator("p.filter").innerText();
    assert.match(note, /showing only the tasks labeled backend \(2 of 4 tasks\)/);
    await screenshot(page, "board-filtered-by-label");

    // The live refresh keeps the filter: a new backend task shows, a
    // frontend one does not, and the page is not reloaded.
    await markWindow(page);
    const added = await cli(db, "planner", "task_items", "add_many", {
      list_id: listId,
      tasks: [
        { title: "Cache the queries", labels: ["db", "backend"] },
        { title: "Animate the menu", labels: ["frontend"] },
      ],
    });
    const [cache, menu] = added.tasks.map((/** @type {{ id: string }} */ task) => task.id);
    await waitFor(async () => (await card(page, cache).count()) === 1, "the new backend task on the filtered board");
    assert.equal(await card(page, menu).count(), 0, "a frontend task stays off it");
    assert.deepEqual(await shown(page), [schema, api, cache].sort());
    assert.ok(await markerKept(page), "refreshed in place");

    // A reload keeps it; so does the link to the order view.
    await page.reload();
    assert.equal(new URL(page.url()).searchParams.get("label"), "backend");
    assert.deepEqual(await shown(page), [schema, api, cache].sort());
    await page.locator('nav.views a:text-is("order")').click();
    await page.waitForURL((url) => url.searchParams.get("view") === "order");
    assert.equal(new URL(page.url()).searchParams.get("label"), "backend");
    assert.deepEqual(await shown(page), [schema, api, cache].sort());

    // A label with punctuation, from the order view, keeps the view.
    await card(page, api).locator('a.tag[data-label="gt:merge-request"]').click();
    await page.waitForURL((url) => url.searchParams.get("label") === "gt:merge-request");
    assert.equal(new URL(page.url()).searchParams.get("view"), "order");
    assert.deepEqual(await shown(page), [api]);

    // The note's link: every task again.
    await page.locator("p.filter a.clear").click();
    await page.waitForURL((url) => !url.searchParams.has("label"));
    assert.deepEqual(await shown(page), [schema, styles, api, chore, cache, menu].sort());
    assert.equal(await page.locator("p.filter").count(), 0);

    // The task page shows the labels, linking the same way.
    await open(page, board, `/tasks/${styles}`);
    await page.locator('a.tag[data-label="frontend"]').click();
    await page.waitForURL((url) => url.pathname === `/lists/${listId}` && url.searchParams.get("label") === "frontend");
    assert.deepEqual(await shown(page), [styles, menu].sort());
  });
});

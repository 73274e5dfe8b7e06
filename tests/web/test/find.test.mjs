// @ts-check
// The board's search and filters, as a person uses them: Ctrl+K (or `/`)
// puts the keys in the search box, typed words find the tasks whose
// texts hold them all, a filter picked narrows at once, the address keeps
// it all (a reload shows the same cards, the live refresh keeps them),
// and the overview finds across lists, never in another agent's private
// one. On SQLite and on PostgreSQL.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { tempDir, waitFor } from "../lib/env.mjs";
import { card, cards, markWindow, markerKept, open, selectCard, signIn } from "../lib/page.mjs";
import { freshPgDatabase, pgSkip } from "../lib/pg.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/** The ids of the task cards on the page, sorted. */
async function shown(/** @type {import("playwright-core").Page} */ page) {
  return (await cards(page)).map(([id]) => id).sort();
}

/** The page's address's search, as a plain object. */
function params(/** @type {import("playwright-core").Page} */ page) {
  return Object.fromEntries(new URL(page.url()).searchParams);
}

/**
 * A person searches and filters a board, reloads, and searches across lists.
 * @param {import("node:test").TestContext} t
 * @param {string} db
 * @param {string} shot the screenshot's name, or "" for none
 */
async function findOnTheBoard(t, db, shot) {
  const { listId, taskIds } = await makeList(db, {
    name: "Release 3.0",
    tasks: [
      { title: "Build the API", description: "the REST endpoints", priority: "high", labels: ["backend"] },
      { title: "Schema migration", labels: ["backend", "db"] },
      { title: "Write the docs", priority: "low" },
      { title: "Tag the release", priority: "high" },
    ],
  });
  const [api, schema, docs, tag] = taskIds;
  await cli(db, "planner", "task_items", "update", { task_id: schema, notes: "Postgres first\nthen SQLite" });
  await cli(db, "planner", "task_items", "update", { task_id: api, assigned_to_agent_id: "carol" });
  await cli(db, "planner", "task_items", "update", { task_id: docs, assigned_to_agent_id: "carol" });
  // Another list with a match, and another agent's private list whose
  // task matches too: it must never show.
  const other = await makeList(db, { name: "Ops", tasks: [{ title: "Back up Postgres nightly" }] });
  const secretList = await cli(db, "mallory", "task_lists", "create", { name: "Mallory's secrets", visibility: "private" });
  const secret = await cli(db, "mallory", "task_items", "create", {
    list_id: secretList.list.id,
    title: "Postgres password rotation",
  });

  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    assert.deepEqual(await shown(page), [...taskIds].sort());
    const box = page.locator('form.find input[name="q"]');

    // Ctrl+K puts the keys in the search box; typed words, Enter.
    await page.locator("body").click({ position: { x: 5, y: 5 } });
    await page.keyboard.press("Control+k");
    await waitFor(() => box.evaluate((el) => el === document.activeElement), "Ctrl+K focuses the search box");
    await page.keyboard.type("POSTGRES sqlite");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === "POSTGRES sqlite");
    assert.deepEqual(await shown(page), [schema]);
    assert.match(await page.locator("p.filter").innerText(), /matching "POSTGRES sqlite" \(1 of 4 tasks\)/);
    assert.deepEqual(params(page), { q: "POSTGRES sqlite" }, "the address holds what was searched, no empty field");

    // A word of the description: every word must match somewhere.
    await box.fill("rest api");
    await box.press("Enter");
    await page.waitForURL((url) => url.searchParams.get("q") === "rest api");
    assert.deepEqual(await shown(page), [api]);

    // `/` focuses it too (from a card, not from a field).
    await page.locator("p.filter a.clear").click();
    await page.waitForURL((url) => !url.searchParams.has("q"));
    assert.deepEqual(await shown(page), [...taskIds].sort());
    await selectCard(page, docs);
    await page.keyboard.press("/");
    await waitFor(() => box.evaluate((el) => el === document.activeElement), "/ focuses the search box");
    await page.keyboard.press("Escape");

    // Pick filters: each narrows at once, and they AND together.
    await page.locator('form.find select[name="priority"]').selectOption("high");
    await page.waitForURL((url) => url.searchParams.get("priority") === "high");
    assert.deepEqual(await shown(page), [api, tag].sort());
    await page.locator('form.find select[name="assignee"]').selectOption("carol");
    await page.waitForURL((url) => url.searchParams.get("assignee") === "carol");
    assert.deepEqual(await shown(page), [api]);
    assert.deepEqual(params(page), { priority: "high", assignee: "carol" });
    assert.match(await page.locator("p.filter").innerText(), /assigned to or held by @carol, of high priority \(1 of 4 tasks\)/);
    if (shot) await screenshot(page, shot);

    // The live refresh keeps the filters: a new high task for carol shows,
    // a low one does not, without a reload.
    await markWindow(page);
    const added = await cli(db, "planner", "task_items", "add_many", {
      list_id: listId,
      tasks: [
        { title: "Cache the queries", priority: "high", assigned_to_agent_id: "carol" },
        { title: "Polish the icons", priority: "low", assigned_to_agent_id: "carol" },
      ],
    });
    const [cache, icons] = added.tasks.map((/** @type {{ id: string }} */ task) => task.id);
    await waitFor(async () => (await card(page, cache).count()) === 1, "the new matching task on the filtered board");
    assert.equal(await card(page, icons).count(), 0, "a task the filters leave out stays off it");
    assert.ok(await markerKept(page), "refreshed in place");

    // A reload with the address: the same cards, the same choices picked.
    await page.reload();
    assert.deepEqual(await shown(page), [api, cache].sort());
    assert.equal(await page.locator('form.find select[name="priority"]').inputValue(), "high");
    assert.equal(await page.locator('form.find select[name="assignee"]').inputValue(), "carol");
    // The order view's link keeps them.
    await page.locator('nav.views a:text-is("order")').click();
    await page.waitForURL((url) => url.searchParams.get("view") === "order");
    assert.equal(new URL(page.url()).searchParams.get("assignee"), "carol");
    assert.deepEqual(await shown(page), [api, cache].sort());

    // Running now: a claim shows under it, live.
    await open(page, board, `/lists/${listId}?running=1`);
    assert.deepEqual(await shown(page), []);
    const claimed = await cli(db, "worker", "task_claims", "claim_next", { list_id: listId });
    await waitFor(async () => (await card(page, claimed.task.id).count()) === 1, "the claimed task under running now");

    // A bad value: the component's words, not a crash.
    const bad = await page.goto(new URL(`/lists/${listId}?priority=urgent`, board.origin).href);
    assert.equal(bad?.status(), 400);
    assert.match(await page.locator("main").innerText(), /priority=high, medium or low/);

    // The overview finds across lists, grouped by list; never the private list.
    await open(page, board, "/");
    await page.keyboard.press("Control+k");
    await page.keyboard.type("postgres");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === "/" && url.searchParams.get("q") === "postgres");
    assert.deepEqual(await shown(page), [schema, other.taskIds[0]].sort());
    assert.equal(await card(page, secret.task.id).count(), 0, "another agent's private list never shows");
    const text = await page.locator("main").innerText();
    assert.doesNotMatch(text, /Mallory|password rotation/);
    const groups = await page.locator("section.found-list").evaluateAll((els) => els.map((el) => el.getAttribute("data-list")));
    assert.deepEqual(groups.sort(), [listId, other.listId].sort());
    // A group's name opens its board searched the same way.
    await page.locator(`section.found-list[data-list="${other.listId}"] h3 a.name`).click();
    await page.waitForURL((url) => url.pathname === `/lists/${other.listId}`);
    assert.equal(new URL(page.url()).searchParams.get("q"), "postgres");
    assert.deepEqual(await shown(page), [other.taskIds[0]]);
  });
}

test("search and filters on the board and across lists, kept in the address", async (t) => {
  await findOnTheBoard(t, join(tempDir(t), "tasks.db"), "board-search-filter");
});

test("search and filters on PostgreSQL too", { skip: pgSkip }, async (t) => {
  await findOnTheBoard(t, freshPgDatabase(t), "");
});

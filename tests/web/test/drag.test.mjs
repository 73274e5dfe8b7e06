// @ts-check
// Drag and drop on the board, as a person does it with a mouse and with a
// finger on a phone: a card dropped on paused is blocked, on closed asks
// the outcome (and the verification result where the task has one) and
// is done, the question dismissed changes nothing, a card dropped within
// a column or the order view moves to where it landed, a drop the rules
// refuse shows the component's words, Esc and a drop outside any column
// do nothing; every change checked in the store, on SQLite and on
// PostgreSQL (when TASKLISTS_TEST_PG names a server).

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { delay, tempDir, waitFor } from "../lib/env.mjs";
import { card, markWindow, markerKept, open, signIn, waitForCard } from "../lib/page.mjs";
import { freshPgDatabase, pgSkip } from "../lib/pg.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/** @typedef {import("playwright-core").Page} Page */

/**
 * The tasks of list `listId` as the store has them, by id.
 * @param {string} db
 * @param {string} listId
 * @returns {Promise<Map<string, any>>}
 */
async function stored(db, listId) {
  const got = await cli(db, "observer", "task_lists", "get", { list_id: listId, include_tasks: true });
  return new Map(got.tasks.map((/** @type {any} */ task) => [task.id, task]));
}

/**
 * Waits until the store says `check` of task `id`.
 * @param {string} db
 * @param {string} listId
 * @param {string} id
 * @param {(task: any) => boolean} check
 * @param {string} what
 */
async function storeSays(db, listId, id, check, what) {
  let last = null;
  try {
    await waitFor(async () => check((last = (await stored(db, listId)).get(id))), what, { timeoutMs: 8000, everyMs: 150 });
  } catch (e) {
    throw new Error(`${e}; the store has ${JSON.stringify(last)}`);
  }
}

/**
 * The middle of `box`, or a point `dy` from its top.
 * @param {{ x: number, y: number, width: number, height: number } | null} box
 * @param {number} [dy]
 */
function point(box, dy) {
  assert.ok(box, "the element is on the page");
  return { x: box.x + box.width / 2, y: dy === undefined ? box.y + box.height / 2 : box.y + dy };
}

/**
 * Presses the mouse on task `id`'s card (beside its title link) and moves
 * it to `to` in steps, as a hand does; `up: false` keeps the button down.
 * @param {Page} page
 * @param {string} id
 * @param {{ x: number, y: number }} to
 * @param {{ up?: boolean }} [options]
 */
async function mouseDrag(page, id, to, { up = true } = {}) {
  const from = point(await card(page, id).locator(".head .pos").boundingBox());
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 12, from.y + 12, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  if (up) await page.mouse.up();
}

/**
 * The middle of column `key`.
 * @param {Page} page
 * @param {string} key
 */
async function column(page, key) {
  return point(await page.locator(`section.column[data-column="${key}"]`).boundingBox());
}

/**
 * A point just inside the top of task `id`'s card: a drop there lands
 * before it (whatever the card's height once another card is selected).
 * @param {Page} page
 * @param {string} id
 */
async function above(page, id) {
  return point(await card(page, id).boundingBox(), 4);
}

/**
 * Waits for the drop's question and returns it.
 * @param {Page} page
 */
async function question(page) {
  const dialog = page.locator("dialog.drop-ask[open]");
  await dialog.waitFor({ state: "visible", timeout: 5000 });
  return dialog;
}

/**
 * A person drags the cards of a list's board with the mouse.
 * @param {import("node:test").TestContext} t
 * @param {string} db
 * @param {string} shot the screenshot's name, or "" for none
 */
async function dragTheBoard(t, db, shot) {
  const { listId, taskIds } = await makeList(db, {
    name: "Release 3.0",
    tasks: [
      "Write the plan",
      { title: "Check the build", verification: "cargo test is green" },
      "Tag <b>it</b>",
      "Announce it",
      "Clean up",
    ],
  });
  const [plan, build, tag, announce, clean] = taskIds;
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    for (const id of taskIds) await waitForCard(page, id, "todo", { column: "todo" });
    await markWindow(page);

    // todo → paused: blocked in the store, the card moves there.
    await mouseDrag(page, plan, await column(page, "paused"));
    await storeSays(db, listId, plan, (task) => task.status === "blocked", "the dropped task to be blocked");
    await waitForCard(page, plan, "blocked", { column: "paused" });
    assert.equal(await page.locator(".drag-ghost, .drop-place, .drag-source").count(), 0, "nothing of the drag stays");

    // paused → closed: the outcome is asked (no verification here), done.
    await mouseDrag(page, plan, await column(page, "closed"));
    let asked = await question(page);
    assert.match(await asked.innerText(), /Done[\s\S]*Write the plan[\s\S]*outcome/);
    assert.equal(await asked.locator("input").count(), 1, "only the outcome: the task has no verification");
    await asked.locator('input[name="outcome"]').fill("planned in full");
    await asked.locator("button.yes").click();
    await storeSays(db, listId, plan, (task) => task.status === "done" && task.outcome === "planned in full", "done with the outcome");
    await waitForCard(page, plan, "done", { column: "closed" });

    // A task with a verification: dismissing the question changes nothing.
    await mouseDrag(page, build, await column(page, "closed"));
    asked = await question(page);
    assert.equal(await asked.locator("input").count(), 2, "the outcome and the verification result");
    assert.match(await asked.innerText(), /What the verification showed/);
    await asked.locator('input[name="outcome"]').fill("not meant");
    await page.keyboard.press("Escape");
    await page.locator("dialog.drop-ask").waitFor({ state: "detached", timeout: 5000 });
    await delay(500);
    assert.equal((await stored(db, listId)).get(build).status, "todo", "a dismissed question changes nothing");
    await waitForCard(page, build, "todo", { column: "todo" });
    // The "No" button too.
    await mouseDrag(page, build, await column(page, "closed"));
    asked = await question(page);
    await asked.locator("button.no").click();
    await page.locator("dialog.drop-ask").waitFor({ state: "detached", timeout: 5000 });
    // Answered: done with both.
    await mouseDrag(page, build, await column(page, "closed"));
    asked = await question(page);
    await asked.locator('input[name="outcome"]').fill("built");
    await asked.locator('input[name="verification_result"]').fill("cargo test: 412 passed");
    if (shot) await screenshot(page, `${shot}-asks`);
    await asked.locator("button.yes").click();
    await storeSays(
      db,
      listId,
      build,
      (task) => task.status === "done" && task.outcome === "built" && task.verification_result === "cargo test: 412 passed",
      "done with the outcome and the verification result",
    );
    await waitForCard(page, build, "done", { column: "closed" });

    // A drop the rules refuse: the component's words, nothing changed.
    await mouseDrag(page, tag, await column(page, "running"));
    await waitFor(async () => /a task runs when an agent claims it/.test(await page.locator("#flash").innerText()), "the refusal's words");
    assert.ok(await page.locator("#flash.error").count(), "shown as a refusal");
    assert.equal((await stored(db, listId)).get(tag).status, "todo");
    await waitForCard(page, tag, "todo", { column: "todo" });

    // Esc cancels a drag under way; a drop outside any column does nothing.
    await mouseDrag(page, tag, await column(page, "paused"), { up: false });
    assert.equal(await page.locator(".drag-ghost").count(), 1, "the card follows the mouse");
    assert.equal(await page.locator('section.column[data-column="paused"] .drop-place').count(), 1, "its placeholder shows in paused");
    await page.keyboard.press("Escape");
    await page.mouse.up();
    assert.equal(await page.locator(".drag-ghost, .drop-place, .drag-source").count(), 0);
    const top = point(await page.locator("header.top").boundingBox());
    await mouseDrag(page, tag, top);
    await delay(500);
    assert.equal((await stored(db, listId)).get(tag).status, "todo", "Esc and a drop outside change nothing");
    await waitForCard(page, tag, "todo", { column: "todo" });

    // Within a column: "Clean up" (#5) dropped above "Tag it" (#3) is #3.
    const before = await stored(db, listId);
    assert.equal(before.get(clean).position, 5);
    assert.equal(before.get(tag).position, 3);
    await mouseDrag(page, clean, await above(page, tag));
    await storeSays(db, listId, clean, (task) => task.position === 3, "the dropped task at #3");
    let now = await stored(db, listId);
    assert.equal(now.get(tag).position, 4);
    assert.equal(now.get(announce).position, 5);
    await waitFor(
      async () => (await page.$$eval('section.column[data-column="todo"] article.task', (els) => els.map((el) => el.getAttribute("data-task")))).join() === [clean, tag, announce].join(),
      "the todo column in the new order",
    );

    // The order view (open tasks first): "Announce it" (#5) dropped above
    // "Clean up" (#3), the first open card, is #3.
    await open(page, board, `/lists/${listId}?view=order`);
    await mouseDrag(page, announce, await above(page, clean));
    await storeSays(db, listId, announce, (task) => task.position === 3, "the dropped task at #3");
    now = await stored(db, listId);
    assert.equal(now.get(clean).position, 4);
    assert.equal(now.get(tag).position, 5);
    assert.equal(now.get(plan).position, 1, "the closed ones stay where they were");

    // closed → todo: restore, after the component's question.
    await open(page, board, `/lists/${listId}`);
    await markWindow(page);
    page.once("dialog", (d) => d.accept());
    await mouseDrag(page, plan, await column(page, "todo"));
    await storeSays(db, listId, plan, (task) => task.status === "todo", "the restored task to be todo");
    await waitForCard(page, plan, "todo", { column: "todo" });
    assert.ok(await markerKept(page), "every drop was sent without leaving the page");
    if (shot) await screenshot(page, shot);
  });
}

test("a person drags cards between columns and within them, with the keys' rules and questions", async (t) => {
  await dragTheBoard(t, join(tempDir(t), "tasks.db"), "board-drag");
});

test("dragging cards works on PostgreSQL too", { skip: pgSkip }, async (t) => {
  await dragTheBoard(t, freshPgDatabase(t), "");
});

/**
 * A finger on a phone drags a card to paused: it presses, then moves.
 * @param {import("node:test").TestContext} t
 * @param {string} db
 */
async function touchDrag(t, db) {
  const { listId, taskIds } = await makeList(db, { name: "On the phone", tasks: ["Call the printer", "Order paper"] });
  const board = await serve(t, { db, person: "ann" });
  const { page, context, console } = await browse(t, { width: 390, height: 844, hasTouch: true, isMobile: true });
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, taskIds[0], "todo", { column: "todo" });
    const cdp = await context.newCDPSession(page);
    /** @param {"touchStart" | "touchMove" | "touchEnd"} type @param {{ x: number, y: number }[]} points */
    const touch = (type, points) => cdp.send("Input.dispatchTouchEvent", { type, touchPoints: points });

    // A quick swipe over a card scrolls and drags nothing.
    const from = point(await card(page, taskIds[1]).locator(".head .pos").boundingBox());
    await touch("touchStart", [from]);
    for (let i = 1; i <= 5; i++) await touch("touchMove", [{ x: from.x, y: from.y - i * 20 }]);
    await touch("touchEnd", []);
    assert.equal(await page.locator(".drag-ghost").count(), 0, "a swipe is no drag");
    // The swipe's fling runs out before the finger comes back, as a
    // person's does (a press during a fling only stops it).
    await delay(1000);

    // A press, then a move to paused: the card is blocked.
    const start = point(await card(page, taskIds[0]).locator(".head .pos").boundingBox());
    const to = await column(page, "paused");
    await touch("touchStart", [start]);
    await delay(500);
    for (let i = 1; i <= 12; i++) {
      await touch("touchMove", [{ x: start.x + ((to.x - start.x) * i) / 12, y: start.y + ((to.y - start.y) * i) / 12 }]);
      await delay(16);
    }
    assert.equal(await page.locator('section.column[data-column="paused"] .drop-place').count(), 1, "the placeholder follows the finger");
    await touch("touchEnd", []);
    await storeSays(db, listId, taskIds[0], (task) => task.status === "blocked", "the task dropped by touch to be blocked");
    await waitForCard(page, taskIds[0], "blocked", { column: "paused" });
    assert.equal((await stored(db, listId)).get(taskIds[1]).status, "todo");
  });
}

test("a finger drags a card on a phone", async (t) => {
  await touchDrag(t, join(tempDir(t), "tasks.db"));
});

test("a finger drags a card on a phone on PostgreSQL too", { skip: pgSkip }, async (t) => {
  await touchDrag(t, freshPgDatabase(t));
});

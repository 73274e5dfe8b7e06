// @ts-check
// The person is called, on the board: agents (the CLI, other processes)
// ask a question and finish tasks that require review; the overview opens
// with the inbox listing them, and the person answers in its text field,
// returns one finish with a reason and accepts another with the `y` key
// (the key map's, asking first). Each takes effect as the tools see it
// (the answer reaches the agent first on its next claim), the entries
// leave the page without a reload, and the inbox ends saying nothing needs
// the person.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { tempDir, waitFor } from "../lib/env.mjs";
import { actionForm, markWindow, markerKept, sayYesInPage, signIn } from "../lib/page.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/**
 * Task `id` of list `listId` as `task_lists get` tells it.
 * @param {string} db
 * @param {string} listId
 * @param {string} id
 */
async function taskOf(db, listId, id) {
  const got = await cli(db, "a1", "task_lists", "get", { list_id: listId });
  return got.tasks.find((/** @type {{ id: string }} */ t) => t.id === id);
}

/**
 * A list whose tasks require review (in the tests' workspace), with `titles`.
 * @param {string} db
 * @param {string} name
 * @param {string[]} titles
 */
async function reviewedList(db, name, titles) {
  const created = await cli(db, "planner", "task_lists", "create", {
    name,
    scope_type: "workspace",
    scope_key: process.cwd(),
    requires_review: true,
  });
  const listId = created.list.id;
  const added = await cli(db, "planner", "task_items", "add_many", {
    list_id: listId,
    tasks: titles.map((title) => ({ title })),
  });
  return { listId, taskIds: /** @type {string[]} */ (added.tasks.map((/** @type {{ id: string }} */ t) => t.id)) };
}

/**
 * The inbox's entry of task `id`.
 * @param {import("playwright-core").Page} page
 * @param {string} id
 */
function entry(page, id) {
  return page.locator(`section.inbox article.entry[data-task="${id}"]`);
}

test("the inbox heads the overview: the person answers a question, returns one finish with a reason and accepts another, and nothing needs them", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const cache = await makeList(db, { name: "Cache layer", tasks: ["Choose the cache", "Write the docs"] });
  const review = await reviewedList(db, "Release 1.2", ["Build the eviction", "Bump the version"]);

  // a1 asks on the task it holds; a2 finishes both reviewed tasks.
  const claimed = await cli(db, "a1", "task_claims", "claim_next", { list_id: cache.listId });
  const asked = claimed.task.id;
  assert.equal(asked, cache.taskIds[0]);
  const question = "Postgres or SQLite for the cache? Both work; SQLite needs no server.";
  const waiting = await cli(db, "a1", "task_items", "update", { task_id: asked, question });
  assert.equal(waiting.task.waits_on, "answer");
  const [returned, accepted] = review.taskIds;
  for (const [id, outcome] of [[returned, "Eviction by LRU, no tests yet"], [accepted, "Version is 1.2.0"]]) {
    const c = await cli(db, "a2", "task_claims", "claim_next", { list_id: review.listId });
    assert.equal(c.task.id, id);
    const sent = await cli(db, "a2", "task_items", "update", { task_id: id, status: "done", outcome });
    assert.equal(sent.task.waits_on, "review");
  }

  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);

    // The overview opens with the inbox: three entries, the question first.
    const inbox = page.locator("section.inbox");
    assert.equal(await inbox.getAttribute("data-count"), "3");
    assert.match(await inbox.locator("h2").innerText(), /Inbox: 3 need you/);
    const order = await inbox.locator("article.entry").evaluateAll((els) => els.map((el) => [el.getAttribute("data-kind"), el.getAttribute("data-task")]));
    assert.deepEqual(order, [["question", asked], ["review", returned], ["review", accepted]]);
    const box = await inbox.boundingBox();
    const lists = await page.locator("section.lists").boundingBox();
    assert.ok(box && lists && box.y < lists.y, "the inbox heads the overview");
    // The question as the agent wrote it, shown as text; its task, list and agent.
    const q = entry(page, asked);
    assert.equal((await q.locator(".said").innerText()).trim(), question);
    assert.equal(await q.locator(".head a").getAttribute("href"), `/tasks/${asked}`);
    assert.match(await q.locator(".meta").innerText(), /Cache layer[\s\S]*@a1/);
    assert.match(await entry(page, returned).locator(".said").innerText(), /Eviction by LRU, no tests yet/);
    await screenshot(page, "board-inbox");

    // The answer, typed in the entry's own field and sent.
    await markWindow(page);
    const answer = actionForm(page, "answer", q);
    await answer.locator('input[name="answer"]').fill("SQLite: one file, no server");
    await answer.locator('button[type="submit"]').click();
    await waitFor(async () => (await taskOf(db, cache.listId, asked)).status === "todo", "the answered task back to todo");
    const answered = await taskOf(db, cache.listId, asked);
    assert.equal(answered.ask.answer, "SQLite: one file, no server");
    assert.equal(answered.ask.answered_by, "ann");
    assert.equal(answered.waits_on, undefined);
    await entry(page, asked).waitFor({ state: "detached", timeout: 5000 });
    // a1's next claim hands it back first, with the answer.
    const back = await cli(db, "a1", "task_claims", "claim_next", { list_id: cache.listId });
    assert.equal(back.task.id, asked);
    assert.equal(back.task.ask.answer, "SQLite: one file, no server");

    // Returned with a reason.
    const ret = actionForm(page, "return", entry(page, returned));
    await ret.locator('input[name="reason"]').fill("Add the tests for eviction");
    await ret.locator('button[type="submit"]').click();
    await waitFor(async () => (await taskOf(db, review.listId, returned)).status === "todo", "the returned task back to todo");
    const back2 = await taskOf(db, review.listId, returned);
    assert.equal(back2.review.state, "returned");
    assert.equal(back2.review.reason, "Add the tests for eviction");
    assert.equal(back2.review.by, "ann");
    await entry(page, returned).waitFor({ state: "detached", timeout: 5000 });

    // Accepted with the key map's `y` on the selected entry, after the page's question.
    await entry(page, accepted).locator(".badge").click();
    await page.waitForFunction((id) => document.querySelector(`article.entry[data-task="${id}"]`)?.classList.contains("selected"), accepted, { timeout: 5000 });
    await page.keyboard.press("y");
    const said = await sayYesInPage(page);
    assert.match(said, /Accept this task\?\s+Bump the version/);
    await waitFor(async () => (await taskOf(db, review.listId, accepted)).status === "done", "the accepted task done");
    const done = await taskOf(db, review.listId, accepted);
    assert.equal(done.review.state, "accepted");
    assert.equal(done.review.by, "ann");

    // Nothing needs the person any more, and the page was never reloaded.
    await waitFor(async () => (await inbox.getAttribute("data-count")) === "0", "the inbox empty");
    assert.match(await inbox.locator("h2").innerText(), /Inbox: nothing needs you/);
    assert.equal(await page.locator("article.entry").count(), 0);
    assert.ok(await markerKept(page), "answered, returned and accepted in place");
  });
});

test("a task's page says it waits for the person's answer and answers it there; a task waiting on nobody offers no answer", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const list = await makeList(db, { name: "Docs", tasks: ["Pick a theme", "Write the intro"] });
  const claimed = await cli(db, "a1", "task_claims", "claim_next", { list_id: list.listId });
  const id = claimed.task.id;
  await cli(db, "a1", "task_items", "update", { task_id: id, question: "Dark or light theme?" });

  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await page.goto(new URL(`/tasks/${id}`, board.origin).href);
    const card = page.locator(`article.task[data-task="${id}"]`);
    assert.match(await card.locator(".waits-answer").innerText(), /waits for your answer[\s\S]*asked by @a1/);
    assert.match(await card.locator(".asked").innerText(), /Dark or light theme\?/);
    await screenshot(page, "board-task-waits-for-answer");
    for (const verb of ["accept", "return"]) {
      assert.equal(await card.locator(`form.act[data-action="${verb}"]`).count(), 0, `no ${verb} on a question`);
    }
    const answer = actionForm(page, "answer", card);
    await answer.locator('input[name="answer"]').fill("Light, with a dark mode");
    await answer.locator('button[type="submit"]').click();
    await waitFor(async () => (await taskOf(db, list.listId, id)).status === "todo", "answered from the task's page");
    // The page shows the answer and who gave it, and no answer form any more.
    await card.locator(".wait.answered").waitFor({ timeout: 5000 });
    assert.match(await card.locator(".wait.answered").innerText(), /answered[\s\S]*by @ann/);
    assert.match(await card.locator(".answer").innerText(), /Light, with a dark mode/);
    assert.equal(await card.locator('form.act[data-action="answer"]').count(), 0);

    await page.goto(new URL(`/tasks/${list.taskIds[1]}`, board.origin).href);
    for (const verb of ["answer", "accept", "return"]) {
      assert.equal(await page.locator(`form.act[data-action="${verb}"]`).count(), 0, `no ${verb} on a task waiting on nobody`);
    }
  });
});

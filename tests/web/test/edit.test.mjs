// @ts-check
// Every field of a task from the page, as a person edits it: the task
// page's form (title, description and verification on several lines,
// priority by choice, labels, dependencies picked among the list's tasks,
// assignee among the list's agents) saved with the board's script and
// without it, each field read back from the store through the CLI; a
// dependency that would make a cycle refused with the component's words
// and nothing changed; the board's "New task" fold creating a task with
// every field. On SQLite and on PostgreSQL.

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { tempDir, waitFor } from "../lib/env.mjs";
import { card, flashError, open, signIn } from "../lib/page.mjs";
import { freshPgDatabase, pgSkip } from "../lib/pg.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/**
 * The task `id` as the store holds it (through the CLI, an agent's read).
 * @param {string} db
 * @param {string} listId
 * @param {string} id
 */
async function stored(db, listId, id) {
  const got = await cli(db, "planner", "task_lists", "get", { list_id: listId });
  const task = got.tasks.find((/** @type {{ id: string }} */ t) => t.id === id);
  assert.ok(task, `task ${id} in the store`);
  return task;
}

/**
 * The list's task titled `title`, once there.
 * @param {string} db
 * @param {string} listId
 * @param {string} title
 */
async function storedByTitle(db, listId, title) {
  const got = await cli(db, "planner", "task_lists", "get", { list_id: listId });
  return got.tasks.find((/** @type {{ title: string }} */ t) => t.title === title);
}

/**
 * @param {import("node:test").TestContext} t
 * @param {string} db
 * @param {string} shot the screenshots' prefix, or "" for none
 */
async function editEveryField(t, db, shot) {
  const { listId, taskIds } = await makeList(db, {
    name: "Release 3.0",
    tasks: [
      { title: "Design the schema", assigned_to_agent_id: "builder-7" },
      "Write the migration",
      "Ship it",
    ],
  });
  const [schema, migration, ship] = taskIds;
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/tasks/${ship}`);
    const form = page.locator("form.edit-task");
    await form.waitFor();

    // The picker suggests the list's other tasks by id, labelled by
    // title; the assignee the list's agents.
    const tasks = page.locator(`datalist[id="tasks-of-${listId}"] option`);
    assert.deepEqual(await tasks.evaluateAll((os) => os.map((o) => [o.getAttribute("value"), o.getAttribute("label")])), [
      [schema, "#1 Design the schema"],
      [migration, "#2 Write the migration"],
    ]);
    const agents = await page.locator(`datalist[id="agents-of-${listId}"] option`).evaluateAll((os) => os.map((o) => o.getAttribute("value")));
    assert.deepEqual(agents, ["builder-7", "planner"]);

    // The key `e` takes the person to the form's title.
    await page.locator("body").press("e");
    await waitFor(() => page.evaluate(() => document.activeElement?.getAttribute("name") === "title"), "e focuses the title");
    await page.keyboard.press("Escape");

    // Every field, typed as a person types, saved with the script.
    const description = "Steps:\n  1. build\n  2. <b>tag</b> & push\n\nthen tell";
    await form.locator('input[name="title"]').fill("Ship 3.0");
    await form.locator('textarea[name="description"]').fill(description);
    await form.locator('textarea[name="verification"]').fill("- the tag exists\n- the page says 3.0");
    await form.locator('select[name="priority"]').selectOption("high");
    await form.locator('input[name="labels"]').fill("release ops");
    await form.locator('input[name="depends_on"][type="text"]').fill(migration);
    await form.locator('input[name="assignee"]').fill("builder-7");
    if (shot) await screenshot(page, `${shot}-task-being-edited`);
    await form.locator('button[type="submit"]').click();
    await waitFor(async () => /edited/.test(await page.locator("#flash").innerText()), "the flash says edited");
    await waitFor(async () => (await stored(db, listId, ship)).title === "Ship 3.0", "the store has the new title");
    const saved = await stored(db, listId, ship);
    assert.equal(saved.description, description);
    assert.equal(saved.verification, "- the tag exists\n- the page says 3.0");
    assert.equal(saved.priority, "high");
    assert.deepEqual(saved.labels, ["release", "ops"]);
    assert.deepEqual(saved.depends_on, [migration]);
    assert.equal(saved.assigned_to_agent_id, "builder-7");

    // After a reload: the texts as written (line breaks, indents, markup
    // as text), the form holding what is stored.
    await page.reload();
    const shown = page.locator("dl.fields dd.text").first();
    assert.equal(await shown.innerText(), description);
    assert.equal(await shown.evaluate((el) => getComputedStyle(el).whiteSpace), "pre-wrap");
    assert.equal(await page.locator("dl.fields b").count(), 0, "markup in a text is shown as text");
    assert.equal(await form.locator('textarea[name="description"]').inputValue(), description);
    assert.equal(await form.locator('select[name="priority"]').inputValue(), "high");
    assert.ok(await form.locator(`input[type="checkbox"][name="depends_on"][value="${migration}"]`).isChecked());

    // In a browser without script (the form's own POST, 303 back to the
    // task page): emptied fields clear.
    const plain = await browse(t, { javaScriptEnabled: false });
    await signIn(plain.page, board);
    await open(plain.page, board, `/tasks/${ship}`);
    const plainForm = plain.page.locator("form.edit-task");
    await plainForm.locator('input[name="labels"]').fill("");
    await plainForm.locator('input[name="assignee"]').fill("");
    await plainForm.locator(`input[type="checkbox"][name="depends_on"][value="${migration}"]`).uncheck();
    await plainForm.locator('textarea[name="verification"]').fill("");
    const [posted] = await Promise.all([
      plain.page.waitForResponse((r) => r.url().endsWith("/act") && r.request().method() === "POST"),
      plainForm.locator('button[type="submit"]').click(),
    ]);
    assert.equal(posted.status(), 303, "the plain form is answered by a redirect back");
    assert.equal(posted.headers().location, `/tasks/${ship}`);
    await plain.page.waitForURL(new URL(`/tasks/${ship}`, board.origin).href);
    await page.reload();
    const cleared = await stored(db, listId, ship);
    assert.equal(cleared.title, "Ship 3.0");
    assert.equal(cleared.description, description);
    assert.ok(!cleared.labels || cleared.labels.length === 0, JSON.stringify(cleared));
    assert.ok(!cleared.depends_on || cleared.depends_on.length === 0, JSON.stringify(cleared));
    assert.equal(cleared.assigned_to_agent_id ?? null, null);
    assert.equal(cleared.verification ?? null, null);

    // A dependency that would make a cycle: the component's refusal on the
    // page, nothing changed (not even the title sent with it).
    await cli(db, "planner", "task_items", "update", { task_id: ship, depends_on: [migration] });
    const before = await stored(db, listId, migration);
    await open(page, board, `/tasks/${migration}`);
    await form.locator('input[name="title"]').fill("Write the migration, renamed");
    await form.locator('input[name="depends_on"][type="text"]').fill(ship);
    await form.locator('button[type="submit"]').click();
    const refusal = await flashError(page);
    assert.match(refusal, /cycle/);
    assert.match(refusal, new RegExp(`${migration}|${ship}`));
    assert.deepEqual(await stored(db, listId, migration), before);
    if (shot) await screenshot(page, `${shot}-cycle-refused`);

    // A bad label: the contract's rule, nothing changed.
    await form.locator('input[name="title"]').fill("Write the migration");
    await form.locator('input[name="depends_on"][type="text"]').fill("");
    await form.locator('input[name="labels"]').fill("ok <script>x</script>");
    await form.locator('button[type="submit"]').click();
    await waitFor(async () => /label/.test(await page.locator("#flash.error").innerText()), "the label refused");
    assert.equal(await page.locator("#flash script").count(), 0);
    assert.deepEqual(await stored(db, listId, migration), before);

    // The board's "New task" fold: every field; its picker suggests the
    // list's tasks once opened.
    await open(page, board, `/lists/${listId}`);
    const fold = page.locator("details.new-task");
    await fold.locator("summary").click();
    await waitFor(async () => (await fold.locator(`datalist[id="tasks-of-${listId}"] option`).count()) === 3, "the fold's suggestions");
    const create = fold.locator("form.new-task");
    await create.locator('input[name="title"]').fill("Announce 3.0");
    await create.locator('textarea[name="description"]').fill("Post it\n- blog\n- chat");
    await create.locator('textarea[name="verification"]').fill("the post is up");
    await create.locator('select[name="priority"]').selectOption("low");
    await create.locator('input[name="labels"]').fill("comms");
    await create.locator('input[name="depends_on"]').fill(`${ship} ${schema}`);
    await create.locator('input[name="assignee"]').fill("builder-7");
    await create.locator('button[type="submit"]').click();
    await waitFor(async () => !!(await storedByTitle(db, listId, "Announce 3.0")), "the new task in the store");
    const made = await storedByTitle(db, listId, "Announce 3.0");
    assert.equal(made.description, "Post it\n- blog\n- chat");
    assert.equal(made.verification, "the post is up");
    assert.equal(made.priority, "low");
    assert.deepEqual(made.labels, ["comms"]);
    assert.deepEqual([...made.depends_on].sort(), [ship, schema].sort());
    assert.equal(made.assigned_to_agent_id, "builder-7");
    await waitFor(async () => (await card(page, made.id).count()) === 1, "its card on the board");
    if (shot) await screenshot(page, `${shot}-board-new-task`);
  });
}

test("a person edits every field of a task and creates one with every field (SQLite)", async (t) => {
  await editEveryField(t, join(tempDir(t), "tasks.db"), "edit");
});

test("the same on PostgreSQL", { skip: pgSkip }, async (t) => {
  await editEveryField(t, freshPgDatabase(t), "");
});

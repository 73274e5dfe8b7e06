// @ts-check
// The board says when it is not live and loses nothing a person typed:
// the server stopped under an open page shows the "not live" banner; a
// form sent then stays on the page with its text and says it was not
// sent; a server started again on the same port and database makes the
// page current and hides the banner. A refresh held back for a focused
// field says so, and text typed into a card survives the card's redraw.
// `?` lists the key map's keys. A key whose binding asks first (`input:
// confirm`) asks in the page, acts only on yes and only on the card it
// was pressed on.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { browse, screenshot } from "../lib/browser.mjs";
import { childEnv, delay, tempDir, tasklistsBinary, waitFor } from "../lib/env.mjs";
import { actionForm, card, markWindow, markerKept, open, selectCard, waitForCard } from "../lib/page.mjs";
import { serve, startServer, withEvidence } from "../lib/server.mjs";

/** How long the page may take to notice the server went or came back. */
const NOTICES_WITHIN_MS = 5000;

/**
 * A person's verb at the shell (`tasklists --person PERSON VERB …`): its
 * `--json` data.
 * @param {string} db
 * @param {string} person
 * @param {string[]} args
 */
function personVerb(db, person, args) {
  const argv = ["--db", db, "--person", person, ...args, "--json"];
  return new Promise((resolve, reject) => {
    execFile(tasklistsBinary(), argv, { env: childEnv(), encoding: "utf8", timeout: 30000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`tasklists ${argv.join(" ")} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/**
 * The list's approval state as an agent reads it.
 * @param {string} db
 * @param {string} listId
 */
async function approvalState(db, listId) {
  return (await cli(db, "observer", "task_lists", "get", { list_id: listId })).list.approval.state;
}

/**
 * The list's tasks as an agent reads them.
 * @param {string} db
 * @param {string} listId
 * @returns {Promise<any[]>}
 */
async function tasksOf(db, listId) {
  return (await cli(db, "observer", "task_lists", "get", { list_id: listId, include_tasks: true })).tasks;
}

/**
 * A token file naming `person` (mode 600): every server started with it
 * knows the same token, so the person signs in again with the same link
 * after a restart.
 * @param {string} dir
 * @param {string} person
 */
function tokenFile(dir, person) {
  const token = randomBytes(32).toString("hex");
  const path = join(dir, "tokens");
  writeFileSync(path, `${person} ${token}\n`, { mode: 0o600 });
  return { path, token };
}

/**
 * Whether the element `css` is shown.
 * @param {import("playwright-core").Page} page
 * @param {string} css
 */
function shown(page, css) {
  return page.locator(css).isVisible();
}

/**
 * Records every `window.confirm` (or alert) the page opens, dismissing it:
 * the board asks in the page, never so.
 * @param {import("playwright-core").Page} page
 */
function browserDialogs(page) {
  /** @type {string[]} */
  const seen = [];
  page.on("dialog", (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  return seen;
}

test("a stopped server shows the banner; a form sent then keeps its text and says it was not sent; a server started again makes the page current", async (t) => {
  const dir = tempDir(t);
  const db = join(dir, "tasks.db");
  const { listId, taskIds } = await makeList(db, { name: "Release 2.0", tasks: ["Write the changelog"] });
  const tokens = tokenFile(dir, "ann");
  let board = await startServer({ db, person: "", args: ["--listen", "127.0.0.1:0", "--token-file", tokens.path] });
  const port = board.port;
  t.after(() => board.stop());
  const { page, console } = await browse(t);
  // The evidence is the log of whichever server runs now.
  await withEvidence({ stderr: () => board.stderr() }, console, async () => {
    await page.goto(`${board.origin}/?token=${tokens.token}`);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, taskIds[0], "todo", { column: "todo", timeoutMs: 1000 });
    await markWindow(page);
    assert.equal(await shown(page, "#offline"), false, "no banner while the board is live");
    assert.equal(await page.locator("#liveness").getAttribute("role"), "status");

    // What the person types into the add form.
    const add = actionForm(page, "add");
    const field = add.locator('input[name="title"]');
    await field.fill("Write the release notes");

    // The server stops: the banner says so, with what to do.
    await board.stop();
    await page.locator("#offline").waitFor({ state: "visible", timeout: NOTICES_WITHIN_MS });
    const banner = await page.locator("#offline").innerText();
    assert.match(banner, /not live: reconnecting…/, banner);
    assert.match(banner, /tasklists serve/, `the banner says what to do: ${banner}`);
    await screenshot(page, "board-not-live");

    // The form sent now gets no answer: the page stays, the text too.
    await field.focus();
    await page.keyboard.press("Enter");
    await page.locator("#unsent").waitFor({ state: "visible", timeout: NOTICES_WITHIN_MS });
    assert.match(await page.locator("#unsent").innerText(), /not sent/i);
    assert.ok(await markerKept(page), "still the board's page, never the browser's error page");
    assert.equal(new URL(page.url()).pathname, `/lists/${listId}`);
    assert.equal(await field.inputValue(), "Write the release notes", "the text is still in its field");

    // Meanwhile an agent works on the same database.
    const claim = await cli(db, "a1", "task_claims", "claim_next", { list_id: listId });
    assert.equal(claim.task.id, taskIds[0]);

    // A server again, on the same port and database. It knows no session
    // of the last one (sessions end with their server): the page says it
    // is signed out, and keeps the text. The person opens the sign-in link
    // in another tab; the stream is back, so the banners go; the field
    // still has focus, so the page says its updates wait for the person,
    // who leaves the field to see them.
    board = await startServer({ db, person: "", args: ["--listen", `127.0.0.1:${port}`, "--token-file", tokens.path] });
    assert.equal(board.port, port);
    await page.locator("#signed-out").waitFor({ state: "visible", timeout: 3 * NOTICES_WITHIN_MS });
    assert.match(await page.locator("#signed-out").innerText(), /sign-in link/);
    assert.equal(await field.inputValue(), "Write the release notes", "the text stays while signed out");
    const tab = await page.context().newPage();
    await tab.goto(`${board.origin}/?token=${tokens.token}`);
    await tab.close();
    await page.locator("#signed-out").waitFor({ state: "hidden", timeout: 3 * NOTICES_WITHIN_MS });
    await page.locator("#offline").waitFor({ state: "hidden", timeout: 3 * NOTICES_WITHIN_MS });
    await page.locator("#paused").waitFor({ state: "visible", timeout: NOTICES_WITHIN_MS });
    assert.equal(await card(page, taskIds[0]).getAttribute("data-status"), "todo", "held back while the field has focus");
    await page.locator("header.top .home").focus();
    await waitForCard(page, taskIds[0], "in_progress", { column: "running", timeoutMs: NOTICES_WITHIN_MS });
    await page.locator("#paused").waitFor({ state: "hidden", timeout: NOTICES_WITHIN_MS });
    assert.equal(await shown(page, "#offline"), false, "live again");
    assert.ok(await markerKept(page), "made current in place");
    assert.equal(await field.inputValue(), "Write the release notes", "the text outlived the refresh");

    // The text is sent as it is now, and the note that it was not goes.
    await add.locator('button[type="submit"]').click();
    await waitFor(async () => (await tasksOf(db, listId)).some((task) => task.title === "Write the release notes"), "the task added");
    await page.locator("#unsent").waitFor({ state: "hidden", timeout: NOTICES_WITHIN_MS });
    await waitFor(async () => (await field.inputValue()) === "", "the sent form emptied");
  });
});

test("a change held back while a field has focus says 'updates paused while you type', and shows once the field is left", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, { name: "Release 2.0", tasks: ["Write the changelog", "Tag the release"] });
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await page.goto(board.url);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, taskIds[0], "todo", { column: "todo", timeoutMs: 1000 });
    assert.equal(await shown(page, "#paused"), false, "nothing paused yet");

    const field = actionForm(page, "add").locator('input[name="title"]');
    await field.click();
    await field.pressSequentially("half a tit");
    await cli(db, "a1", "task_claims", "claim_next", { list_id: listId });
    await page.locator("#paused").waitFor({ state: "visible", timeout: NOTICES_WITHIN_MS });
    assert.match(await page.locator("#paused").innerText(), /updates paused while you type/);
    assert.equal(await card(page, taskIds[0]).getAttribute("data-status"), "todo", "held back while typing");
    assert.equal(await field.inputValue(), "half a tit");

    // Leaving the field lets the change in, and the note goes.
    await page.locator("header.top .home").focus();
    await waitForCard(page, taskIds[0], "in_progress", { column: "running", timeoutMs: NOTICES_WITHIN_MS });
    await page.locator("#paused").waitFor({ state: "hidden", timeout: NOTICES_WITHIN_MS });
    assert.equal(await field.inputValue(), "half a tit", "the text stays");
  });
});

test("text typed into a card's field survives a change that redraws the card", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, { name: "Release 2.0", tasks: ["Write the changelog", "Tag the release"] });
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await page.goto(board.url);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, taskIds[1], "todo", { column: "todo", timeoutMs: 1000 });
    await selectCard(page, taskIds[1]);
    const outcome = actionForm(page, "done", card(page, taskIds[1])).locator('input[name="outcome"]');
    await outcome.fill("tagged v2.0");
    // The field left, the card still selected: an agent changes the task.
    await card(page, taskIds[1]).locator(".head .pos").click();
    await cli(db, "a1", "task_items", "update", { task_id: taskIds[1], priority: "high" });
    await waitFor(async () => /prio-high/.test((await card(page, taskIds[1]).getAttribute("class")) ?? ""), "the card redrawn as high priority", { timeoutMs: NOTICES_WITHIN_MS });
    assert.equal(await outcome.inputValue(), "tagged v2.0", "the typed outcome outlived the redraw");
  });
});

test("? lists every key of the key map with its label; ? and Esc close it; the page says ? shows them", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId } = await makeList(db, { name: "Release 2.0", tasks: ["Write the changelog"] });
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await page.goto(board.url);
    await open(page, board, `/lists/${listId}`);
    const hint = await page.locator("header.top .keys-hint").innerText();
    assert.match(hint, /\?/, `the always-visible hint: ${hint}`);
    assert.equal(await shown(page, "#keys"), false, "hidden until asked");

    await page.keyboard.press("?");
    await page.locator("#keys").waitFor({ state: "visible", timeout: 2000 });
    /** @type {{ key: string, label: string }[]} */
    const keys = JSON.parse((await page.locator("body").getAttribute("data-keys")) ?? "[]");
    assert.ok(keys.length >= 20, `the key map: ${keys.length} keys`);
    for (const { key, label } of keys) {
      const row = page.locator(`#keys tr[data-keys~="${key}"]`);
      assert.equal(await row.count(), 1, `one row for ${key}`);
      assert.ok((await row.innerText()).includes(label), `${key}'s row says ${label}: ${await row.innerText()}`);
      assert.ok(await row.isVisible(), `${key}'s row is shown`);
    }
    assert.equal(await page.locator('#keys tr[data-keys~="?"]').count(), 1, "the page's own key too");
    await screenshot(page, "board-keys");

    await page.keyboard.press("?");
    await page.locator("#keys").waitFor({ state: "hidden", timeout: 2000 });
    await page.locator("header.top .keys-hint").click();
    await page.locator("#keys").waitFor({ state: "visible", timeout: 2000 });
    await page.keyboard.press("Escape");
    await page.locator("#keys").waitFor({ state: "hidden", timeout: 2000 });
  });
});

test("A on a plan awaiting approval asks first: no leaves it pending, yes approves it; its button asks too", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const byKey = await makeList(db, { name: "Migrate the database", tasks: ["Back up", "Migrate"], requiresApproval: true });
  const byButton = await makeList(db, { name: "Rotate the keys", tasks: ["Make new keys"], requiresApproval: true });
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  const dialogs = browserDialogs(page);
  await withEvidence(board, console, async () => {
    await page.goto(board.url);
    await open(page, board, `/lists/${byKey.listId}`);
    await page.locator("main#board").waitFor();
    await markWindow(page);

    // A asks, naming the plan; Esc says no.
    await page.keyboard.press("A");
    const ask = page.locator("dialog#ask");
    await ask.waitFor({ state: "visible", timeout: 2000 });
    const question = await ask.innerText();
    assert.match(question, /Approve/, question);
    assert.match(question, /Migrate the database/, `it names what it approves: ${question}`);
    await screenshot(page, "board-asks-approval");
    await page.keyboard.press("Escape");
    await ask.waitFor({ state: "hidden", timeout: 2000 });
    await delay(500);
    assert.equal(await approvalState(db, byKey.listId), "pending", "no: still pending");

    // A again, and its No button: still pending.
    await page.keyboard.press("A");
    await ask.waitFor({ state: "visible", timeout: 2000 });
    await ask.locator('button[value="no"]').click();
    await ask.waitFor({ state: "hidden", timeout: 2000 });
    await delay(500);
    assert.equal(await approvalState(db, byKey.listId), "pending", "no: still pending");

    // A, yes: approved.
    await page.keyboard.press("A");
    await ask.waitFor({ state: "visible", timeout: 2000 });
    await ask.locator('button[value="yes"]').click();
    await waitFor(async () => (await approvalState(db, byKey.listId)) === "approved", "the plan approved on yes");
    assert.ok(await markerKept(page), "approved in place");

    // The form's own button asks too.
    await open(page, board, `/lists/${byButton.listId}`);
    await actionForm(page, "approve").locator('button[type="submit"]').click();
    await ask.waitFor({ state: "visible", timeout: 2000 });
    assert.match(await ask.innerText(), /Rotate the keys/);
    await ask.locator('button[value="no"]').click();
    await delay(500);
    assert.equal(await approvalState(db, byButton.listId), "pending", "the button's no: still pending");
    await actionForm(page, "approve").locator('button[type="submit"]').click();
    await ask.locator('button[value="yes"]').click();
    await waitFor(async () => (await approvalState(db, byButton.listId)) === "approved", "the plan approved by its button, on yes");
    assert.deepEqual(dialogs, [], "asked in the page, never by the browser's own dialog");
  });
});

test("a key that asks acts on the card it was pressed on: gone by the answer, nothing is done and the page says so", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId } = await makeList(db, { name: "Plan", tasks: ["Step one"], requiresApproval: true });
  await personVerb(db, "ann", ["approve", listId]);
  // Two steps added to the approved plan: each awaits approval.
  const added = await cli(db, "planner", "task_items", "add_many", { list_id: listId, tasks: [{ title: "Added first" }, { title: "Added second" }] });
  const [first, second] = added.tasks.map((/** @type {{ id: string }} */ task) => task.id);
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  const dialogs = browserDialogs(page);
  await withEvidence(board, console, async () => {
    await page.goto(board.url);
    await open(page, board, `/lists/${listId}?view=order`);
    await waitForCard(page, first, "todo", { timeoutMs: 1000 });
    // A on the first; before the answer, an agent deletes it.
    await selectCard(page, first);
    assert.equal(await actionForm(page, "approve", card(page, first)).count(), 1, "the first added step awaits approval");
    await page.keyboard.press("A");
    const ask = page.locator("dialog#ask");
    await ask.waitFor({ state: "visible", timeout: 2000 });
    assert.match(await ask.innerText(), /Added first/, "it names the card the key was pressed on");
    await cli(db, "planner", "task_items", "delete", { task_id: first });
    await waitFor(async () => (await card(page, first).count()) === 0, "the deleted card gone from the page", { timeoutMs: NOTICES_WITHIN_MS });
    await ask.locator('button[value="yes"]').click();
    const flash = page.locator("#flash.error");
    await flash.waitFor({ state: "visible", timeout: 2000 });
    assert.match(await flash.innerText(), /no longer on this page/, await flash.innerText());
    await delay(500);
    const tasks = await tasksOf(db, listId);
    const neighbour = tasks.find((task) => task.id === second);
    assert.equal(neighbour.awaits_approval, true, "the neighbour was not approved in its place");
    await selectCard(page, second);
    assert.equal(await actionForm(page, "approve", card(page, second)).count(), 1, "the neighbour still awaits approval on the page");
    assert.deepEqual(dialogs, []);
  });
});

test("d asks once, in the page, and deletes the selected task on yes", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, { name: "Release 2.0", tasks: ["Write the changelog", "Tag the release"] });
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  const dialogs = browserDialogs(page);
  await withEvidence(board, console, async () => {
    await page.goto(board.url);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, taskIds[1], "todo", { timeoutMs: 1000 });
    await selectCard(page, taskIds[1]);
    await page.keyboard.press("d");
    const ask = page.locator("dialog#ask");
    await ask.waitFor({ state: "visible", timeout: 2000 });
    assert.match(await ask.innerText(), /Tag the release/);
    await ask.locator('button[value="yes"]').click();
    await waitFor(async () => (await card(page, taskIds[1]).count()) === 0, "the task gone from the page", { timeoutMs: NOTICES_WITHIN_MS });
    assert.deepEqual((await tasksOf(db, listId)).map((task) => task.id), [taskIds[0]], "only the selected task deleted");
    assert.deepEqual(dialogs, [], "asked once, in the page");
  });
});

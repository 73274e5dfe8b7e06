// @ts-check
// Who the browser is, as a hostile page on another port of this host
// tries to change it, and what a person may do to a task an agent runs:
// a sign-in link another site sends the browser to is confirmed on the
// board's own page first (the live session is kept until the person
// says so); a running card offers only what can succeed, and its
// release takes the claim back, after a question.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { join } from "node:path";
import { test } from "node:test";
import { cli, cliCall, makeList } from "../lib/agents.mjs";
import { browse } from "../lib/browser.mjs";
import { childEnv, tasklistsBinary, tempDir, waitFor } from "../lib/env.mjs";
import { actionForm, card, open, sayYesInPage, selectCard, signIn, waitForCard } from "../lib/page.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/**
 * A person's token for `name`, stored in `db`.
 * @param {string} db
 * @param {string} name
 */
function personToken(db, name) {
  const out = execFileSync(tasklistsBinary(), ["--db", db, "token", "add", "--person", name], { env: childEnv(), encoding: "utf8" });
  return out.trim().split("\n")[1];
}

/**
 * A page on another port of 127.0.0.1 that sends the browser to `target`
 * as soon as it loads (what any local service, or a page it serves, can
 * do); closed when the test ends.
 * @param {import("node:test").TestContext} t
 * @param {string} target
 */
async function hostilePage(t, target) {
  const server = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<!doctype html><title>cat pictures</title><script>location.href = ${JSON.stringify(target)};</script>`);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  t.after(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  return `http://127.0.0.1:${address.port}/`;
}

test("a sign-in link sent by another site never replaces the live session without the person's yes", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  await makeList(db, { name: "Deploy", tasks: ["Build"] });
  const board = await serve(t, { db, person: "ann" });
  const bob = personToken(db, "bob");
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === `tasklists-${board.port}`);
    assert.ok(session, "signed in");
    assert.notEqual(session.value, board.token, "the cookie is a session, not the token");
    assert.match(await page.locator("header .who").innerText(), /@ann/);

    // Another port's page sends the browser to a sign-in link for bob.
    const evil = await hostilePage(t, `${board.origin}/?token=${bob}`);
    await page.goto(evil);
    await page.getByRole("heading", { name: "Switch to @bob?" }).waitFor({ timeout: 5000 });
    const after = (await page.context().cookies()).find((c) => c.name === session.name);
    assert.equal(after?.value, session.value, "the live session is kept");
    await open(page, board, "/");
    assert.match(await page.locator("header .who").innerText(), /@ann/, "still ann");

    // The person says yes on the board's own page: now bob.
    await page.goto(evil);
    await page.getByRole("button", { name: "Sign in as @bob" }).click();
    await page.waitForURL((url) => !url.searchParams.has("token"), { timeout: 5000 });
    assert.match(await page.locator("header .who").innerText(), /@bob/);
  });
});

test("a running card offers what can succeed, and release takes the claim back", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, { name: "Deploy", tasks: ["Build", "Ship"] });
  const claimed = await cli(db, "w3", "task_claims", "claim_next", { list_id: listId });
  assert.equal(claimed.task.id, taskIds[0]);
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, taskIds[0], "in_progress", { column: "running" });
    const running = card(page, taskIds[0]);
    // A card's forms come once it is selected.
    assert.equal(await running.locator("form.act").count(), 0, "a card at rest carries no forms");
    await selectCard(page, taskIds[0]);
    const actions = await running.locator("form.act").evaluateAll((forms) => forms.map((f) => f.getAttribute("data-action")));
    assert.deepEqual([...new Set(actions)].sort(), ["move", "release"], "only release and moves on a running card");

    await actionForm(page, "release", running).locator("button").click();
    const question = await sayYesInPage(page);
    assert.match(question, /Build/);
    await waitForCard(page, taskIds[0], "todo", { column: "todo", timeoutMs: 5000 });
    const task = (await cli(db, "w3", "task_lists", "get", { list_id: listId })).tasks.find((/** @type {any} */ x) => x.id === taskIds[0]);
    assert.equal(task.status, "todo");
    // The agent's next call with its claim: lost, and why.
    const late = await cliCall(db, "w3", "task_items", "update", { task_id: taskIds[0], status: "done", outcome: "built", claim_token: claimed.claim.token });
    assert.equal(late.ok, false);
    assert.match(late.ok ? "" : late.error.message, /ann \(a person\) released it/);
    await waitFor(async () => (await running.getAttribute("data-status")) === "todo", "the card stays todo");
  });
});

test("c on a closed card asks before it reopens, and the old outcome leaves the card for the task's notes", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, { name: "Deploy", tasks: ["Build"] });
  const claimed = await cli(db, "w3", "task_claims", "claim_next", { list_id: listId });
  await cli(db, "w3", "task_items", "update", { task_id: taskIds[0], status: "done", outcome: "built on main", claim_token: claimed.claim.token });
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t);
  /** @type {string[]} */
  const asked = [];
  let answer = false;
  page.on("dialog", (dialog) => {
    asked.push(dialog.message());
    (answer ? dialog.accept() : dialog.dismiss()).catch(() => {});
  });
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${listId}`);
    await waitForCard(page, taskIds[0], "done", { column: "closed" });
    await selectCard(page, taskIds[0]);
    // No: nothing changes.
    await page.keyboard.press("c");
    await waitFor(async () => asked.length === 1, "the page asks");
    assert.match(asked[0], /Reopen task "Build"\?/);
    assert.match(asked[0], /outcome moves to its notes/);
    const still = (await cli(db, "w3", "task_lists", "get", { list_id: listId })).tasks[0];
    assert.equal(still.status, "done");
    assert.equal(still.outcome, "built on main");
    // Yes: todo, and the card no longer shows the old outcome as current.
    answer = true;
    await selectCard(page, taskIds[0]);
    await page.keyboard.press("c");
    await waitForCard(page, taskIds[0], "todo", { column: "todo", timeoutMs: 5000 });
    const task = (await cli(db, "w3", "task_lists", "get", { list_id: listId })).tasks[0];
    assert.equal(task.outcome, undefined);
    assert.match(task.notes, /Reopened by ann .*done: built on main/);
  });
});

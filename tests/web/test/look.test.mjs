// @ts-check
// Reading the board at a glance: dense cards whose texts show once a card
// is selected (as written, lines kept); on a desktop the page is no taller
// than the window and each column scrolls inside it; on a phone running
// cards and those that need the person come first; a theme switch that a
// reload remembers; every text at WCAG AA contrast in both themes (axe-core
// on the board, a task's page and the overview with its inbox); a legend
// of every key on the page and `?` for the panel of all keys.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { cli } from "../lib/agents.mjs";
import { CHROMIUM, browse, screenshot } from "../lib/browser.mjs";
import { tempDir } from "../lib/env.mjs";
import { card, open, selectCard, signIn } from "../lib/page.mjs";
import { freshPgDatabase, pgSkip } from "../lib/pg.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/** axe-core's browser build, injected into pages whose CSP is bypassed. */
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The rules the board must pass: contrast, and a name for every control. */
const RULES = ["color-contrast", "label", "select-name", "button-name", "link-name", "aria-input-field-name"];

/** A screen as the issue measured it, and a phone's. */
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * A list of 30 tasks under way: one running with notes and a multi-line
 * verification, one asking the person a question, one finished waiting
 * for the person's review, one canceled, one waiting on another, the rest
 * todo. Returns the ids.
 * @param {string} db
 */
async function aLongPlan(db) {
  const created = await cli(db, "planner", "task_lists", "create", {
    name: "Launch plan",
    scope_type: "workspace",
    scope_key: process.cwd(),
    requires_review: true,
  });
  const listId = /** @type {string} */ (created.list.id);
  const tasks = [
    { title: "Write the changelog", priority: "high", labels: ["docs"], verification: "- unit tests green\n- docs updated" },
    { title: "Pick the colours", labels: ["design"] },
    { title: "Build the cache", priority: "high", labels: ["backend"] },
    { title: "Drop the old flag", priority: "low" },
  ];
  for (let i = 4; i < 30; i++) tasks.push({ title: `Step ${i}: <b>check</b> the part ${i}`, labels: i % 3 ? ["backend"] : ["frontend", "ui"] });
  const added = await cli(db, "planner", "task_items", "add_many", { list_id: listId, tasks });
  const ids = /** @type {string[]} */ (added.tasks.map((/** @type {{ id: string }} */ task) => task.id));
  await cli(db, "planner", "task_items", "update", { task_id: ids[5], depends_on: [ids[4]] });

  const running = await cli(db, "a1", "task_claims", "claim_next", { list_id: listId });
  await cli(db, "a1", "task_items", "update", { task_id: running.task.id, notes: "draft written\nlinks checked", claim_token: running.claim.token });
  const asking = await cli(db, "a2", "task_claims", "claim_next", { list_id: listId });
  await cli(db, "a2", "task_items", "update", { task_id: asking.task.id, question: "Dark or light first?", claim_token: asking.claim.token });
  const finished = await cli(db, "a3", "task_claims", "claim_next", { list_id: listId });
  await cli(db, "a3", "task_items", "update", { task_id: finished.task.id, status: "done", outcome: "LRU cache, 3 tests", claim_token: finished.claim.token });
  await cli(db, "planner", "task_items", "update", { task_id: ids[3], status: "canceled", outcome: "the flag was already gone" });
  return { listId, ids, running: running.task.id, asking: asking.task.id, finished: finished.task.id };
}

/**
 * Which cards are on the page and where they show, top to bottom.
 * @param {import("playwright-core").Page} page
 */
function shownCards(page) {
  return page.$$eval("article.task", (els) =>
    els
      .map((el) => {
        const box = el.getBoundingClientRect();
        return {
          id: el.getAttribute("data-task") ?? "",
          status: el.getAttribute("data-status") ?? "",
          needs: el.classList.contains("needs"),
          top: box.top + window.scrollY,
          height: box.height,
        };
      })
      .sort((a, b) => a.top - b.top),
  );
}

/**
 * axe-core's violations of `RULES` on the page as it is (every other
 * rule's too, as `others`, for the record).
 * @param {import("playwright-core").Page} page
 */
async function axe(page) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE });
  /** @type {{ id: string, nodes: { target: string[], failureSummary: string }[] }[]} */
  const violations = await page.evaluate(async () => {
    // @ts-ignore: injected above
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((/** @type {any} */ v) => ({
      id: v.id,
      nodes: v.nodes.map((/** @type {any} */ n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return {
    failing: violations.filter((v) => RULES.includes(v.id)),
    others: violations.filter((v) => !RULES.includes(v.id)).map((v) => `${v.id} (${v.nodes.length})`),
  };
}

/**
 * The whole look on the database `db`.
 * @param {import("node:test").TestContext} t
 * @param {string} db
 * @param {string} shot a prefix for the screenshots' names
 */
async function readAtAGlance(t, db, shot) {
  const plan = await aLongPlan(db);
  const board = await serve(t, { db, person: "ann" });
  const { page, console } = await browse(t, DESKTOP);
  await withEvidence(board, console, async () => {
    await signIn(page, board);
    await open(page, board, `/lists/${plan.listId}`);

    // The page is the window; the todo column holds more than it shows and scrolls.
    const sizes = await page.evaluate(() => {
      const todo = /** @type {HTMLElement} */ (document.querySelector('section.column[data-column="todo"]'));
      return {
        page: document.documentElement.scrollHeight,
        window: window.innerHeight,
        todo: { scroll: todo.scrollHeight, client: todo.clientHeight, overflow: getComputedStyle(todo).overflowY },
      };
    });
    assert.ok(sizes.page <= sizes.window, `the page (${sizes.page} px) is no taller than the window (${sizes.window} px)`);
    assert.ok(sizes.todo.scroll > sizes.todo.client && sizes.todo.overflow === "auto", `the todo column scrolls inside: ${JSON.stringify(sizes.todo)}`);

    // Cards at rest: the essentials only. Measured, and printed.
    const shown = await shownCards(page);
    const visible = shown.filter((c) => c.top + c.height <= sizes.window);
    const average = shown.reduce((sum, c) => sum + c.height, 0) / shown.length;
    console.push(`cards: ${shown.length}, average height ${average.toFixed(1)} px`);
    process.stdout.write(`# ${shot}: ${shown.length} cards, average card height ${average.toFixed(1)} px, ${visible.length} fully in a ${DESKTOP.width}×${DESKTOP.height} window\n`);
    assert.ok(average <= 139, `cards average ${average.toFixed(1)} px (Backlog's: 139)`);
    const running = card(page, plan.running);
    assert.match(await running.innerText(), /@a1/, "who holds it");
    assert.match(await running.innerText(), /until /, "until when");
    assert.equal(await running.locator(".texts").isVisible(), false, "its notes and verification wait for the selection");
    assert.match(await card(page, plan.ids[3]).innerText(), /the flag was already gone/, "a closed card keeps its outcome");
    assert.equal(await card(page, plan.ids[4]).locator("b").count(), 0, "markup in a title is text");
    assert.match(await card(page, plan.ids[4]).innerText(), /<b>check<\/b>/);
    await screenshot(page, `${shot}-board`);

    // Selected: its texts, multi-line ones as written.
    await selectCard(page, plan.running);
    await running.locator(".verification").waitFor({ state: "visible", timeout: 2000 });
    assert.equal(await running.locator(".verification .text").innerText(), "- unit tests green\n- docs updated");
    assert.match(await running.locator(".notes").innerText(), /links checked/);

    // The legend: every key of the key map, on the page.
    /** @type {{ key: string, label: string }[]} */
    const keys = JSON.parse((await page.locator("body").getAttribute("data-keys")) ?? "[]");
    const legend = page.locator("footer#legend");
    assert.ok(await legend.isVisible(), "the legend is on the page");
    for (const { key, label } of keys) {
      const entry = legend.locator(`[data-keys~="${key}"]`);
      assert.equal(await entry.count(), 1, `the legend names ${key}`);
      assert.ok(await entry.isVisible(), `${key} is shown`);
      assert.ok((await entry.innerText()).includes(label), `${key}'s entry says ${label}`);
    }
    for (const key of ["j", "k", "enter", "f", "escape"]) assert.equal(await legend.locator(`[data-keys~="${key}"]`).count(), 1, `${key} in the legend`);
    assert.match(await legend.innerText(), /\?\s*all keys/);
    const box = await legend.boundingBox();
    assert.ok(box && box.y + box.height <= DESKTOP.height, "the legend is in the window");

    // ? opens the panel of all keys, ? closes it.
    await page.locator("main").click({ position: { x: 2, y: 2 } });
    await page.keyboard.press("?");
    await page.locator("#keys").waitFor({ state: "visible", timeout: 2000 });
    for (const { key } of keys) assert.equal(await page.locator(`#keys tr[data-keys~="${key}"]`).count(), 1, `the panel has ${key}`);
    await page.keyboard.press("?");
    await page.locator("#keys").waitFor({ state: "hidden", timeout: 2000 });

    // The theme: the system's until chosen; dark, remembered by a reload.
    const theme = () =>
      page.evaluate(() => ({
        set: document.documentElement.dataset.theme ?? "",
        bg: getComputedStyle(document.body).backgroundColor,
        pressed: [...document.querySelectorAll('[data-theme-choice][aria-pressed="true"]')].map((b) => b.getAttribute("data-theme-choice")),
      }));
    const light = await theme();
    assert.deepEqual([light.set, light.pressed], ["", ["system"]]);
    await page.locator('header.top [data-theme-choice="dark"]').click();
    const dark = await theme();
    assert.deepEqual([dark.set, dark.pressed], ["dark", ["dark"]]);
    assert.notEqual(dark.bg, light.bg, "the page turned dark");
    await page.reload();
    assert.deepEqual(await theme(), dark, "the choice stays after a reload");
    const early = await page.evaluate(() => {
      const first = document.head.querySelector("script");
      return first ? { src: first.getAttribute("src"), defer: first.defer, async: first.async, beforeCss: !!first.compareDocumentPosition(/** @type {Element} */ (document.head.querySelector('link[rel="stylesheet"]'))) } : null;
    });
    assert.ok(early && /\/assets\/theme\.js/.test(early.src ?? "") && !early.defer && !early.async, `the theme is set by a blocking script before the page is drawn: ${JSON.stringify(early)}`);
    await screenshot(page, `${shot}-board-dark`);
    await page.locator('header.top [data-theme-choice="light"]').click();
    await page.reload();
    assert.equal((await theme()).set, "light");
    await page.locator('header.top [data-theme-choice="system"]').click();
    await page.reload();
    assert.deepEqual(await theme(), light, "system again: nothing kept");

    // On a phone: running cards first, then those that need the person.
    await page.setViewportSize(PHONE);
    await page.reload();
    const order = await shownCards(page);
    const first = order.findIndex((c) => c.status !== "in_progress" && !c.needs);
    assert.ok(first > 0, "some card runs or needs the person");
    const late = order.slice(first).filter((c) => c.status === "in_progress" || c.needs);
    assert.deepEqual(late, [], `running and needs-the-person cards first: ${JSON.stringify(order.slice(0, first + 2))}`);
    assert.equal(order[0].status, "in_progress", "a running card on top");
    assert.ok(order.slice(0, first).some((c) => c.id === plan.finished), "the finish waiting for review among them");
    await screenshot(page, `${shot}-board-phone`);
  });

  // axe-core in both themes, in a context that lets its script in.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  t.after(() => browser.close());
  const context = await browser.newContext({ bypassCSP: true, viewport: DESKTOP });
  const axePage = await context.newPage();
  const axeConsole = /** @type {string[]} */ ([]);
  axePage.on("pageerror", (e) => axeConsole.push(`pageerror: ${e.message}`));
  await withEvidence(board, axeConsole, async () => {
    await signIn(axePage, board);
    const pages = [
      ["the board", `/lists/${plan.listId}`],
      ["a task's page", `/tasks/${plan.running}`],
      ["a task waiting for review", `/tasks/${plan.finished}`],
      ["the overview and its inbox", "/"],
      ["the order view", `/lists/${plan.listId}?view=order`],
    ];
    for (const choice of ["light", "dark"]) {
      await axePage.goto(new URL("/", board.origin).href);
      await axePage.locator(`header.top [data-theme-choice="${choice}"]`).click();
      for (const [name, path] of pages) {
        await open(axePage, board, path);
        assert.ok(await axePage.locator("section.inbox article.entry").count() > 0 || path !== "/", "the inbox has entries");
        const { failing, others } = await axe(axePage);
        if (others.length) process.stdout.write(`# axe, ${name} (${choice}), other rules: ${others.join(", ")}\n`);
        assert.deepEqual(failing, [], `axe on ${name} in ${choice}`);
      }
      // A selected card: its texts and its bar of forms.
      await open(axePage, board, `/lists/${plan.listId}`);
      await selectCard(axePage, plan.running);
      const { failing } = await axe(axePage);
      assert.deepEqual(failing, [], `axe on a selected card in ${choice}`);
      await axePage.keyboard.press("?");
      await axePage.locator("#keys").waitFor({ state: "visible", timeout: 2000 });
      assert.deepEqual((await axe(axePage)).failing, [], `axe on the keys' panel in ${choice}`);
    }
  });
}

test("the board reads at a glance: dense cards, columns in the window, phone order, a remembered theme, AA contrast, the keys on the page", async (t) => {
  await readAtAGlance(t, join(tempDir(t), "tasks.db"), "look");
});

test("the board reads at a glance on PostgreSQL too", { skip: pgSkip }, async (t) => {
  await readAtAGlance(t, freshPgDatabase(t), "look-pg");
});

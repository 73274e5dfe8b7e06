// @ts-check
// What a person does on the board, in the browser: sign in with the
// printed URL, open a page, read the cards (the HTML contract of
// docs: `article.task[data-task][data-status]` in
// `section.column[data-column]`), act with a form's button or its key, read
// `#flash`. Every wait has a deadline.

/** @typedef {import("playwright-core").Page} Page */

/**
 * Opens the URL `tasklists serve` printed (the token becomes a cookie and
 * the server sends the browser to the same page without it).
 * @param {Page} page
 * @param {{ url: string, origin: string }} board
 */
export async function signIn(page, board) {
  const response = await page.goto(board.url);
  if (!response || response.status() !== 200) throw new Error(`signing in answered ${response?.status()} at ${page.url()}`);
  if (new URL(page.url()).searchParams.has("token")) throw new Error(`the token stayed in the address bar: ${page.url()}`);
}

/**
 * Goes to `path` on the board; fails unless it answers 200.
 * @param {Page} page
 * @param {{ origin: string }} board
 * @param {string} path
 */
export async function open(page, board, path) {
  const response = await page.goto(new URL(path, board.origin).href);
  if (!response || response.status() !== 200) throw new Error(`${path} answered ${response?.status()}: ${await response?.text()}`);
}

/**
 * Sets a marker on `window`: it survives as long as the page is not
 * reloaded or left.
 * @param {Page} page
 */
export async function markWindow(page) {
  await page.evaluate(() => {
    /** @type {any} */ (window).tasklistsTestMarker = "this page was not reloaded";
  });
}

/**
 * Whether the marker set by `markWindow` is still there.
 * @param {Page} page
 */
export function markerKept(page) {
  return page.evaluate(() => /** @type {any} */ (window).tasklistsTestMarker === "this page was not reloaded");
}

/**
 * The card of task `id`.
 * @param {Page} page
 * @param {string} id
 */
export function card(page, id) {
  return page.locator(`article.task[data-task="${id}"]`);
}

/**
 * Selects task `id`'s card as a person does, by clicking it (beside its
 * title link, which would open the task): on a board its forms show then
 * (the page fetches them for the card it selects); resolves once they do.
 * @param {Page} page
 * @param {string} id
 */
export async function selectCard(page, id) {
  const it = card(page, id);
  await it.locator(".head .pos").click();
  await page.waitForFunction(
    (id) => {
      const el = document.querySelector(`article.task[data-task="${id}"]`);
      return !!el && el.classList.contains("selected") && !!el.querySelector("form.act");
    },
    id,
    { timeout: 5000 },
  );
}

/**
 * Waits until task `id`'s card says `status` (and, given, sits in column
 * `column`); fails with the card's state when it does not in `timeoutMs`.
 * @param {Page} page
 * @param {string} id
 * @param {string} status
 * @param {{ column?: string, timeoutMs?: number }} [options]
 */
export async function waitForCard(page, id, status, { column, timeoutMs = 5000 } = {}) {
  try {
    await page.waitForFunction(
      ({ id, status, column }) => {
        const el = document.querySelector(`article.task[data-task="${id}"]`);
        if (!el || el.getAttribute("data-status") !== status) return false;
        return !column || el.closest("section.column")?.getAttribute("data-column") === column;
      },
      { id, status, column },
      { timeout: timeoutMs, polling: 50 },
    );
  } catch (e) {
    const seen = await page.evaluate((id) => {
      const el = document.querySelector(`article.task[data-task="${id}"]`);
      return el ? { status: el.getAttribute("data-status"), column: el.closest("section.column")?.getAttribute("data-column") } : null;
    }, id);
    throw new Error(`task ${id}'s card did not show ${status}${column ? ` in ${column}` : ""} within ${timeoutMs} ms (shows ${JSON.stringify(seen)}): ${e}`);
  }
}

/**
 * The cards of the page in document order: `[id, status, column]`.
 * @param {Page} page
 * @returns {Promise<[string, string, string][]>}
 */
export function cards(page) {
  return page.$$eval("article.task", (els) =>
    els.map((el) => /** @type {[string, string, string]} */ ([
      el.getAttribute("data-task") ?? "",
      el.getAttribute("data-status") ?? "",
      el.closest("section.column")?.getAttribute("data-column") ?? "",
    ])),
  );
}

/**
 * The form of `action` (in `within` if given, else the first on the page).
 * @param {Page} page
 * @param {string} action
 * @param {import("playwright-core").Locator} [within]
 */
export function actionForm(page, action, within) {
  return (within ?? page.locator("body")).locator(`form.act[data-action="${action}"]`).first();
}

/**
 * `#flash` once it shows an error: its text.
 * @param {Page} page
 * @param {number} [timeoutMs]
 */
export async function flashError(page, timeoutMs = 5000) {
  const flash = page.locator("#flash.error");
  await flash.waitFor({ state: "visible", timeout: timeoutMs });
  return (await flash.innerText()).trim();
}

/**
 * Says yes to the question the page asks in its own dialog (a key whose
 * binding asks first, or its form's button): resolves to the question's
 * text once it was answered.
 * @param {Page} page
 * @param {number} [timeoutMs]
 */
export async function sayYesInPage(page, timeoutMs = 5000) {
  const ask = page.locator("dialog#ask");
  await ask.waitFor({ state: "visible", timeout: timeoutMs });
  const question = (await ask.locator("#ask-question").innerText()).trim();
  await ask.locator('button[value="yes"]').click();
  await ask.waitFor({ state: "hidden", timeout: timeoutMs });
  return question;
}

/**
 * Accepts every `window.confirm` the page asks (a person saying yes), and
 * keeps their texts.
 * @param {Page} page
 */
export function sayYes(page) {
  /** @type {string[]} */
  const asked = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.message());
    dialog.accept().catch(() => {});
  });
  return asked;
}

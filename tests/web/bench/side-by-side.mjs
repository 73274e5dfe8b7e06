// @ts-check
// Our board and Backlog.md 1.52.0's web board side by side, holding the
// same 15-task plan (side-plan.mjs), in the system's headless Chromium on
// this machine, in one run:
//   npm --prefix tests/web run bench:side [-- --shots DIR] [--loads N] [--changes N]
// (defaults: screenshots in a fresh temp directory, 5 loads, 3 changes).
// Needs the release build (`cargo build --release -p tasklists`),
// /usr/bin/chromium, git, and npm with access to its registry: Backlog.md
// is installed into a temp directory (`npm install --no-save --prefix`),
// never into this package; if that fails the run says so and measures
// ours alone.
//
// Per board (ours: the list's page, signed in; Backlog's: its board):
// - load: a warm-up load, then `--loads` loads with the HTTP cache off,
//   alternating the boards; the bytes received (each response's encoded
//   length, headers included, and live-stream messages or WebSocket
//   frames) from navigation until the page is quiet (its live connection
//   open, nothing moving for 0.7 s); the time from navigation to the first
//   card in the DOM and to the frame after it was painted; medians;
// - per change: another process edits a todo task's title (ours: an
//   agent's `tasklists call task_items update`; Backlog's: `backlog task
//   edit -t`); the bytes received from just before it until the new title
//   shows and the page is quiet again; means;
// - the server's memory: the resident size of its process and children;
// - at 1366×900: cards, mean card height, cards a person sees, the page's
//   scroll height, draggable elements; the cards a filter in the URL
//   leaves (assignee carol, priority high: 3 in the plan);
// - safety: does a request with a foreign Host header (a DNS-rebinding
//   page's) get the tasks, does another site's POST create a task (ours
//   is sent the session cookie too, the worst case).
// Screenshots (PNG, the viewport): ours at 1366×900 and on a phone
// (390×844, scale 2, touch): the board, a task being edited (the task
// page's edit form where it has one, else the task page), a search with a
// filter; Backlog's board at 1366×900.
// Everything it starts (both servers, the browser) is stopped at the end,
// on failure or on Ctrl-C; both servers listen on 127.0.0.1 only.

import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { cli } from "../lib/agents.mjs";
import { CHROMIUM } from "../lib/browser.mjs";
import { makeTempDir, REPO, tasklistsBinary } from "../lib/env.mjs";
import { form, http } from "../lib/http.mjs";
import { signIn } from "../lib/page.mjs";
import { startServer } from "../lib/server.mjs";
import { BACKLOG_VERSION, initProject, installBacklog, startBacklogBrowser } from "./side-backlog.mjs";
import { firstCard, layout, meter, processTree, watchFirstCard } from "./side-meter.mjs";
import { backlog, EDITED, FILTER, makeBacklogs, makeOurs, PLAN, SEARCH } from "./side-plan.mjs";

const options = parseArgs(process.argv.slice(2));
const DESKTOP = { viewport: { width: 1366, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true };
/** The same flags as the tests' browser: quiet on loopback. */
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const INJECTED = "Injected from evil.example";

/**
 * Whether an answer holds any task of the plan (by title).
 * @param {string} body
 */
const holdsTasks = (body) => PLAN.some((t) => body.includes(t.title));

/**
 * `--shots DIR`, `--loads N`, `--changes N`.
 * @param {string[]} args
 */
function parseArgs(args) {
  const o = { shots: "", loads: 5, changes: 3 };
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i], args[i + 1]];
    if (flag === "--shots" && value) o.shots = resolve(value);
    else if ((flag === "--loads" || flag === "--changes") && /^[1-9]\d*$/.test(value ?? "")) o[flag === "--loads" ? "loads" : "changes"] = Number(value);
    else throw new Error(`usage: side-by-side.mjs [--shots DIR] [--loads N] [--changes N] (not ${JSON.stringify(flag)})`);
    i++;
  }
  return o;
}

/** The machine, in one line. */
function machine() {
  const chromium = execFileSync(CHROMIUM, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  return `${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}, ${chromium}`;
}

/** This checkout's commit, for the record. */
function commit() {
  try {
    return execFileSync("git", ["-C", REPO, "describe", "--always", "--dirty"], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
/** @param {number[]} xs */
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * What is stopped at the end, last started first.
 * @type {{ what: string, stop: () => Promise<void> | void }[]}
 */
const cleanups = [];
let cleaning = false;
async function cleanUp() {
  if (cleaning) return;
  cleaning = true;
  for (const { what, stop } of cleanups.reverse()) {
    try {
      await stop();
    } catch (e) {
      process.stderr.write(`stopping ${what}: ${e}\n`);
    }
  }
}
for (const [sig, number] of /** @type {[NodeJS.Signals, number][]} */ ([["SIGINT", 2], ["SIGTERM", 15], ["SIGHUP", 1]])) {
  process.on(sig, () => {
    process.stderr.write(`\n${sig}: stopping what the bench started\n`);
    cleanUp().finally(() => process.exit(128 + number));
  });
}

/** @param {string} s */
const say = (s) => process.stderr.write(`${s}\n`);

/**
 * One board as the bench drives it.
 * @typedef {object} Side
 * @property {string} name
 * @property {string} origin
 * @property {number} port
 * @property {number} pid the server's process (the root of its tree)
 * @property {string} board the board's path
 * @property {string} filtered the board's path with FILTER in the URL
 * @property {string} selector a card
 * @property {(page: import("playwright-core").Page) => Promise<void>} enter signs the page in where needed
 * @property {(title: string) => Promise<void>} edit another process retitles the EDITED task
 * @property {() => Promise<{ status: number, tasks: boolean }>} foreignHost a request with a foreign Host
 * @property {() => Promise<{ status: number, created: boolean }>} crossSitePost another site's POST
 */

/**
 * Ours: the plan made through the binary, `tasklists serve` on a free
 * loopback port as person ann.
 * @param {string} dir
 * @returns {Promise<Side & { listId: string, ids: Map<string, string> }>}
 */
async function startOurs(dir) {
  const db = join(dir, "tasks.db");
  const { listId, ids } = await makeOurs(db);
  const server = await startServer({ db, person: "ann" });
  cleanups.push({ what: "tasklists serve", stop: server.stop });
  const login = await http(server.port, "GET", `/?token=${server.token}`);
  const cookie = (login.headers["set-cookie"] ?? [])[0]?.split(";")[0] ?? "";
  if (!cookie) throw new Error(`signing in over HTTP gave no cookie (${login.status})`);
  const board = `/lists/${listId}`;
  const own = (/** @type {string} */ path) => http(server.port, "GET", path, { headers: { cookie } });
  return {
    name: "tasklists",
    origin: server.origin,
    port: server.port,
    pid: server.pid,
    board,
    filtered: `${board}?assignee=${FILTER.assignee}&priority=${FILTER.priority}`,
    selector: "article.task",
    listId,
    ids,
    enter: (page) => signIn(page, server),
    edit: async (title) => {
      await cli(db, "planner", "task_items", "update", { task_id: ids.get(EDITED), title });
    },
    foreignHost: async () => {
      const answer = await http(server.port, "GET", board, { headers: { host: `evil.example:${server.port}`, cookie } });
      return { status: answer.status, tasks: holdsTasks(answer.body) };
    },
    crossSitePost: async () => {
      const add = form({ action: "add", target: listId, title: INJECTED, return: board });
      const answer = await http(server.port, "POST", "/act", { headers: { ...add.headers, cookie, origin: "http://evil.example" }, body: add.body });
      return { status: answer.status, created: (await own(board)).body.includes(INJECTED) };
    },
  };
}

/**
 * Backlog.md: installed, a project with the plan, `backlog browser` on a
 * free loopback port.
 * @param {string} dir
 * @returns {Promise<Side>}
 */
async function startBacklog(dir) {
  const install = join(dir, "npm");
  const project = join(dir, "project");
  mkdirSync(install);
  mkdirSync(project);
  say(`installing backlog.md@${BACKLOG_VERSION} into ${install}…`);
  const bin = await installBacklog(install);
  await initProject(bin, project);
  say("creating the plan in Backlog.md (one process per task)…");
  const ids = await makeBacklogs(bin, project);
  const server = await startBacklogBrowser(bin, project);
  cleanups.push({ what: "backlog browser", stop: server.stop });
  const tasks = async () => (await http(server.port, "GET", "/api/tasks")).body;
  return {
    name: `Backlog.md ${BACKLOG_VERSION}`,
    origin: server.origin,
    port: server.port,
    pid: server.pid,
    board: "/",
    filtered: `/?assignee=@${FILTER.assignee}&priority=${FILTER.priority}`,
    selector: '[draggable="true"][aria-label^="Open "]',
    enter: async () => {},
    edit: async (title) => {
      await backlog(bin, project, ["task", "edit", /** @type {string} */ (ids.get(EDITED)), "--title", title, "--plain"]);
    },
    foreignHost: async () => {
      const answer = await http(server.port, "GET", "/api/tasks", { headers: { host: `evil.example:${server.port}` } });
      return { status: answer.status, tasks: holdsTasks(answer.body) };
    },
    crossSitePost: async () => {
      // What any page can send without a preflight: a "simple" POST, text/plain.
      const answer = await http(server.port, "POST", "/api/tasks", {
        headers: { origin: "http://evil.example", "content-type": "text/plain;charset=UTF-8" },
        body: JSON.stringify({ title: INJECTED }),
      });
      return { status: answer.status, created: (await tasks()).includes(INJECTED) };
    },
  };
}

/**
 * A page of `side` in its own desktop context, timed and metered.
 * @param {import("playwright-core").Browser} browser
 * @param {Side} side
 */
async function openSide(browser, side) {
  const context = await browser.newContext(DESKTOP);
  cleanups.push({ what: `${side.name}'s browser context`, stop: () => context.close() });
  const page = await context.newPage();
  await side.enter(page);
  await watchFirstCard(page, side.selector);
  const net = await meter(page);
  return { side, context, page, net };
}

/**
 * One cold load of `side`'s board: bytes, requests and times.
 * @param {Awaited<ReturnType<typeof openSide>>} s
 */
async function load(s) {
  s.net.reset();
  await s.page.goto(new URL(s.side.board, s.side.origin).href, { waitUntil: "load" });
  const seen = await firstCard(s.page);
  await s.net.quiet();
  return { ...s.net.read(), ...seen, responses: s.net.responses() };
}

/**
 * One title edit by another process while `side`'s board is open: what
 * the page received because of it, and when the new title showed.
 * @param {Awaited<ReturnType<typeof openSide>>} s
 * @param {string} title
 */
async function change(s, title) {
  await s.net.quiet();
  s.net.reset();
  const started = performance.now();
  // Watched from the start: a board may show the change before the editing process exits.
  const shown = s.page
    .waitForFunction(
      ({ selector, title }) => [...document.querySelectorAll(selector)].some((c) => c.textContent?.includes(title)),
      { selector: s.side.selector, title },
      { timeout: 15000, polling: 20 },
    )
    .then(
      () => performance.now() - started,
      () => {
        say(`${s.side.name}: the edited title "${title}" did not show within 15 s`);
        return NaN;
      },
    );
  await s.side.edit(title);
  const editMs = performance.now() - started;
  const shownMs = await shown;
  await s.net.quiet();
  return { ...s.net.read(), shownMs, editMs, responses: s.net.responses() };
}

/**
 * The cards `side` shows with FILTER in its URL (those laid out).
 * @param {Awaited<ReturnType<typeof openSide>>} s
 */
async function filtered(s) {
  await s.page.goto(new URL(s.side.filtered, s.side.origin).href, { waitUntil: "load" });
  await s.net.quiet();
  const shown = await s.page.evaluate((selector) => [...document.querySelectorAll(selector)].filter((c) => c.getClientRects().length > 0).length, s.side.selector);
  await s.page.goto(new URL(s.side.board, s.side.origin).href, { waitUntil: "load" });
  await s.net.quiet();
  return shown;
}

/**
 * Opens the editing of the task on `page` (its task page): a form with
 * its description field where the page shows one, or behind an "Edit"
 * control; else the rename field the page had before issue 38. Says
 * which.
 * @param {import("playwright-core").Page} page
 */
async function openEditor(page) {
  const description = page.locator('form textarea[name="description"]:visible, form input[name="description"]:visible, form textarea[name="verification"]:visible').first();
  if (await description.count()) {
    await description.focus();
    return "the task page's edit form (description field focused)";
  }
  const opener = page
    .locator("a:visible, button:visible, summary:visible")
    .filter({ hasText: /^\s*edit\b/i })
    .or(page.locator('a[href*="edit"]:visible'))
    .first();
  if (await opener.count()) {
    await opener.click();
    try {
      await description.waitFor({ state: "visible", timeout: 3000 });
      await description.focus();
      return "the edit form, opened with its Edit control (description field focused)";
    } catch {
      // Reported below, with whatever the page shows.
    }
  }
  const title = page.locator('form input[name="title"]:visible').first();
  if (await title.count()) {
    await title.focus();
    return "the task page: NO edit form for the description (its rename field focused)";
  }
  return "the task page: NO edit form";
}

/**
 * Ours in `context` (desktop or phone): the board, a task being edited, a
 * search with a filter, as PNGs named `tasklists-WHAT-FORM.png` in `dir`.
 * @param {import("playwright-core").BrowserContext} context
 * @param {Side & { ids: Map<string, string> }} ours
 * @param {string} formFactor
 * @param {string} dir
 */
async function shootOurs(context, ours, formFactor, dir) {
  const page = await context.newPage();
  await ours.enter(page);
  const net = await meter(page);
  /** @type {{ path: string, what: string }[]} */
  const shots = [];
  const shoot = async (/** @type {string} */ name, /** @type {string} */ what) => {
    await net.quiet();
    const path = join(dir, `tasklists-${name}-${formFactor}.png`);
    await page.screenshot({ path });
    shots.push({ path, what });
  };
  await page.goto(new URL(ours.board, ours.origin).href);
  await shoot("board", `the board (${ours.board})`);
  // Above the first running card, on a page read top to bottom.
  const beforeRunning = await page.evaluate(() => {
    const cards = [...document.querySelectorAll("article.task")].map((c) => ({ top: c.getBoundingClientRect().top, running: c.getAttribute("data-status") === "in_progress" }));
    const first = cards.filter((c) => c.running).sort((a, b) => a.top - b.top)[0];
    return first ? cards.filter((c) => !c.running && c.top < first.top).length : -1;
  });
  await page.goto(new URL(`/tasks/${ours.ids.get("endpoints")}`, ours.origin).href);
  await net.quiet();
  await shoot("edit", await openEditor(page));
  const search = `${ours.board}?q=${SEARCH}&priority=high`;
  await page.goto(new URL(search, ours.origin).href);
  const shown = await page.evaluate(() => [...document.querySelectorAll("article.task")].filter((c) => c.getClientRects().length > 0).length);
  await shoot("search", `a search with a filter (${search}): ${shown} cards shown`);
  await page.close();
  return { shots, beforeRunning };
}

const kb = (/** @type {number} */ b) => (b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(1)} KB`);
const msf = (/** @type {number} */ x) => (Number.isFinite(x) ? `${(x / 1000).toFixed(3)} s` : "not shown");
const mb = (/** @type {number} */ b) => `${(b / 2 ** 20).toFixed(1)} MiB`;

/**
 * Responses as "kind path size", in the order they finished.
 * @param {{ what: string, encoded: number }[]} responses
 */
const breakdown = (responses) => responses.map((r) => `${r.what} ${kb(r.encoded)}`).join("; ") || "no response";

/**
 * A table row: the measure, both values and Backlog's over ours.
 * @param {string} what
 * @param {number | undefined} ours
 * @param {number | undefined} theirs
 * @param {(x: number) => string} show
 */
function row(what, ours, theirs, show) {
  const cell = (/** @type {number | undefined} */ x) => (x === undefined ? "—" : show(x));
  const ratio = ours !== undefined && theirs !== undefined && ours > 0 && Number.isFinite(ours) && Number.isFinite(theirs) ? `${(theirs / ours).toFixed(2)}×` : "—";
  return `| ${what} | ${cell(ours)} | ${cell(theirs)} | ${ratio} |`;
}

async function main() {
  const temp = makeTempDir("tasklists-side-");
  cleanups.push({ what: "the temp directory", stop: temp.remove });
  for (const d of ["ours", "backlog"]) mkdirSync(join(temp.dir, d));

  say(`making the plan in tasklists (${tasklistsBinary()})…`);
  const ours = await startOurs(join(temp.dir, "ours"));
  /** @type {Side | undefined} */
  let theirs;
  let backlogProblem = "";
  try {
    theirs = await startBacklog(join(temp.dir, "backlog"));
  } catch (e) {
    backlogProblem = e instanceof Error ? e.message : String(e);
    say(`\n*** Backlog.md is not measured: ${backlogProblem}\n`);
  }

  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30000 });
  cleanups.push({ what: "Chromium", stop: () => browser.close() });
  const sides = [await openSide(browser, ours), ...(theirs ? [await openSide(browser, theirs)] : [])];

  say(`loads: 1 warm-up and ${options.loads} measured, alternating…`);
  for (const s of sides) await load(s);
  /** @type {Awaited<ReturnType<typeof load>>[][]} */
  const loads = sides.map(() => []);
  for (let i = 0; i < options.loads; i++) for (const [k, s] of sides.entries()) loads[k].push(await load(s));
  /** @type {Awaited<ReturnType<typeof layout>>[]} */
  const layouts = [];
  for (const s of sides) layouts.push(await layout(s.page, s.side.selector));

  say(`changes: ${options.changes} title edits by another process…`);
  /** @type {Awaited<ReturnType<typeof change>>[][]} */
  const changes = sides.map(() => []);
  for (let i = 0; i < options.changes; i++) {
    for (const [k, s] of sides.entries()) changes[k].push(await change(s, `${PLAN.find((t) => t.ref === EDITED)?.title} (edit ${i + 1})`));
  }
  const memory = sides.map((s) => processTree(s.side.pid));
  /** @type {number[]} */
  const filters = [];
  for (const s of sides) filters.push(await filtered(s));

  say("screenshots…");
  // Kept after the run (the lead decides where they go).
  const shotsDir = options.shots || makeTempDir("tasklists-side-shots-").dir;
  mkdirSync(shotsDir, { recursive: true });
  const shots = [];
  shots.push(...(await shootOurs(sides[0].context, ours, "desktop", shotsDir)).shots);
  const phone = await browser.newContext(PHONE);
  cleanups.push({ what: "the phone context", stop: () => phone.close() });
  const onPhone = await shootOurs(phone, ours, "phone", shotsDir);
  shots.push(...onPhone.shots);
  if (theirs) {
    const path = join(shotsDir, "backlog-board-desktop.png");
    await sides[1].page.goto(new URL(theirs.board, theirs.origin).href);
    await sides[1].net.quiet();
    await sides[1].page.screenshot({ path });
    shots.push({ path, what: "Backlog.md's board" });
  }

  say("safety checks…");
  /** @type {{ host: Awaited<ReturnType<Side["foreignHost"]>>, post: Awaited<ReturnType<Side["crossSitePost"]>> }[]} */
  const safety = [];
  for (const s of sides) safety.push({ host: await s.side.foreignHost(), post: await s.side.crossSitePost() });

  // Reading the results.
  const pick = (/** @type {number} */ k, /** @type {(l: Awaited<ReturnType<typeof load>>) => number} */ f) => (loads[k] ? median(loads[k].map(f)) : undefined);
  const per = (/** @type {number} */ k, /** @type {(c: Awaited<ReturnType<typeof change>>) => number} */ f) => (changes[k] ? mean(changes[k].map(f)) : undefined);
  const rss = (/** @type {number} */ k) => (memory[k] ? memory[k].reduce((a, p) => a + p.rss, 0) : undefined);
  const lay = (/** @type {number} */ k, /** @type {keyof Awaited<ReturnType<typeof layout>>} */ f) => layouts[k]?.[f];
  const yesNo = (/** @type {number} */ k, /** @type {(s: { host: { status: number, tasks: boolean }, post: { status: number, created: boolean } }) => string} */ f) =>
    safety[k] ? f(safety[k]) : "—";
  const n = (/** @type {number} */ x) => x.toFixed(0);
  const lines = [
    `Machine: ${machine()}.`,
    `tasklists ${commit()} (${tasklistsBinary()}) against Backlog.md ${BACKLOG_VERSION}${theirs ? "" : ` — NOT MEASURED: ${backlogProblem.split("\n").find((l) => /^npm error code/.test(l)) ?? backlogProblem.split("\n")[0]} (the whole message is above)`}; the same ${PLAN.length}-task plan in both.`,
    `Loads: ${options.loads} cold (HTTP cache off) after a warm-up, medians; changes: ${options.changes}, means. Ratio: Backlog.md over tasklists.`,
    "",
    `| measure | tasklists | Backlog.md ${BACKLOG_VERSION} | ratio |`,
    "|---|--:|--:|--:|",
    row("load: bytes received (encoded, headers included)", pick(0, (l) => l.encoded), pick(1, (l) => l.encoded), kb),
    row("load: bytes decoded", pick(0, (l) => l.decoded), pick(1, (l) => l.decoded), kb),
    row("load: requests", pick(0, (l) => l.requests), pick(1, (l) => l.requests), n),
    row("load: first card in the DOM", pick(0, (l) => l.inDom), pick(1, (l) => l.inDom), (x) => msf(x)),
    row("load: first card painted (tasks visible)", pick(0, (l) => l.painted), pick(1, (l) => l.painted), (x) => msf(x)),
    row("per change: bytes received", per(0, (c) => c.encoded), per(1, (c) => c.encoded), kb),
    row("per change: requests", per(0, (c) => c.requests), per(1, (c) => c.requests), (x) => x.toFixed(1)),
    row("per change: from the edit's start until the page shows it", per(0, (c) => c.shownMs), per(1, (c) => c.shownMs), msf),
    row("per change: the editing process's own time", per(0, (c) => c.editMs), per(1, (c) => c.editMs), msf),
    row("server memory (RSS, process and children)", rss(0), rss(1), mb),
    row("cards on the board", lay(0, "cards"), lay(1, "cards"), n),
    row("mean card height (px, 1366×900)", lay(0, "meanHeight"), lay(1, "meanHeight"), n),
    row("cards visible in 1366×900 (centre shown)", lay(0, "visible"), lay(1, "visible"), n),
    row("cards wholly visible in 1366×900", lay(0, "whole"), lay(1, "whole"), n),
    row("page scroll height (px)", lay(0, "scrollHeight"), lay(1, "scrollHeight"), n),
    row("draggable elements", lay(0, "draggable"), lay(1, "draggable"), n),
    row(`cards shown for ?assignee=${FILTER.assignee}&priority=${FILTER.priority} (the plan: 3)`, filters[0], filters[1], n),
    row("phone 390×844: cards above the first running one", onPhone.beforeRunning, undefined, n),
    `| a foreign Host header gets the tasks? | ${yesNo(0, (s) => `${s.host.tasks ? "YES" : "no"} (${s.host.status})`)} | ${yesNo(1, (s) => `${s.host.tasks ? "YES" : "no"} (${s.host.status})`)} | |`,
    `| another site's POST creates a task? | ${yesNo(0, (s) => `${s.post.created ? "YES" : "no"} (${s.post.status})`)} | ${yesNo(1, (s) => `${s.post.created ? "YES" : "no"} (${s.post.status})`)} | |`,
    "",
    ...sides.map((s, k) => `Last load of ${s.side.name}: ${breakdown(loads[k][loads[k].length - 1].responses)}.`),
    ...sides.map((s, k) => `Last change on ${s.side.name}: ${breakdown(changes[k][changes[k].length - 1].responses)} (and live messages).`),
    ...memory.map((tree, k) => `Memory of ${sides[k].side.name}: ${tree.map((p) => `${p.name} (${p.pid}) ${mb(p.rss)}`).join(", ")}.`),
    `Our board: ${ours.board}; Backlog's: ${theirs ? `${theirs.board} (filtered: ${theirs.filtered})` : "—"}. Our foreign-Host and cross-site requests carry the board's session cookie (a browser would not send it cross-site: the worst case).`,
    "",
    `Screenshots (viewport PNGs) in ${shotsDir}:`,
    ...shots.map((s) => `- ${s.path}: ${s.what}`),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

try {
  await main();
} catch (e) {
  process.exitCode = 1;
  say(`side-by-side failed: ${e instanceof Error ? e.stack : e}`);
} finally {
  await cleanUp();
}

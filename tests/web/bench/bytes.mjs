// @ts-check
// What the board costs a page, before and after, in one run:
//   npm --prefix tests/web run bench:bytes [-- BEFORE_BINARY [sizes…] [changes]]
// (defaults: no "before" row unless a binary is named; sizes 8 200 1000;
// 5 changes). Needs the release build (`cargo build --release -p
// tasklists`) and /usr/bin/chromium. BEFORE_BINARY is another build of
// `tasklists` (e.g. main's, copied aside before the change): each build
// serves its own database, made alike (one list of N tasks, titled
// "Task 0001"…), to a fresh headless Chromium tab.
//
// Per build and size:
// - load: the bytes the page received (DevTools' Network domain:
//   every response's encoded length, headers included, and the live
//   stream's messages) from navigation until the page is quiet (its live
//   stream open and its first refresh done), and the time from navigation
//   to its load event and to the first frame painted after it;
// - per change: an agent (the CLI, its own process) claims the next task;
//   the bytes the page received from just before the call until the card
//   shows `in_progress` and the page is quiet again, and the bytes it
//   sent (request lines and bodies); mean and max over `changes` changes.
// Prints the machine and one Markdown table.

import { execFileSync } from "node:child_process";
import { cpus, release, totalmem } from "node:os";
import { join } from "node:path";
import { cli } from "../lib/agents.mjs";
import { startBrowser } from "../lib/browser.mjs";
import { delay, makeTempDir, tasklistsBinary } from "../lib/env.mjs";
import { signIn } from "../lib/page.mjs";
import { startServer } from "../lib/server.mjs";

const args = process.argv.slice(2);
const before = args[0] && !/^\d+$/.test(args[0]) ? args.shift() : undefined;
const numbers = args.map(Number);
const changes = numbers.length > 1 ? /** @type {number} */ (numbers.pop()) : 5;
const sizes = numbers.length ? numbers : [8, 200, 1000];
const after = tasklistsBinary();
/** How long the page must stay without traffic to count as quiet. */
const QUIET_MS = 700;

/** The machine, in one line. */
function machine() {
  const model = cpus()[0]?.model ?? "unknown CPU";
  const chromium = execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  return `${model}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}, ${chromium}`;
}

/**
 * A list of `n` tasks in `db`, made with `binary` (in batches of 500, an
 * add_many's most).
 * @param {string} db
 * @param {number} n
 */
async function makeBoard(db, n) {
  const created = await cli(db, "planner", "task_lists", "create", { name: "Bench", scope_type: "workspace", scope_key: process.cwd() });
  const listId = created.list.id;
  for (let from = 0; from < n; from += 500) {
    const tasks = Array.from({ length: Math.min(500, n - from) }, (_, i) => ({ title: `Task ${String(from + i + 1).padStart(4, "0")}` }));
    await cli(db, "planner", "task_items", "add_many", { list_id: listId, tasks });
  }
  return listId;
}

/**
 * Counts what `page` receives and sends, through DevTools.
 * @param {import("playwright-core").Page} page
 */
async function meter(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const state = { received: 0, sent: 0, inFlight: new Set(), last: performance.now() };
  const touch = () => (state.last = performance.now());
  cdp.on("Network.requestWillBeSent", (e) => {
    state.inFlight.add(e.requestId);
    state.sent += e.request.url.length + (e.request.postData?.length ?? 0);
    touch();
  });
  cdp.on("Network.loadingFinished", (e) => {
    state.inFlight.delete(e.requestId);
    state.received += e.encodedDataLength;
    touch();
  });
  cdp.on("Network.loadingFailed", (e) => {
    state.inFlight.delete(e.requestId);
    touch();
  });
  cdp.on("Network.responseReceived", (e) => {
    // The live stream never finishes: counted by its messages.
    if (e.type === "EventSource") state.inFlight.delete(e.requestId);
    touch();
  });
  cdp.on("Network.eventSourceMessageReceived", (e) => {
    state.received += e.data.length + e.eventName.length + 16;
    touch();
  });
  return {
    /** Zeroes the counts. */
    reset() {
      state.received = 0;
      state.sent = 0;
    },
    /** The counts so far. */
    read: () => ({ received: state.received, sent: state.sent }),
    /** Resolves once nothing is in flight and nothing moved for QUIET_MS. */
    async quiet() {
      const limit = performance.now() + 30000;
      while (performance.now() < limit) {
        await delay(50);
        if (state.inFlight.size === 0 && performance.now() - state.last >= QUIET_MS) return;
      }
      throw new Error("the page never went quiet");
    },
  };
}

/**
 * One build's figures on an `n`-task board.
 * @param {string} binary
 * @param {number} n
 */
async function run(binary, n) {
  const temp = makeTempDir("tasklists-bytes-");
  const saved = process.env.TASKLISTS_BIN;
  process.env.TASKLISTS_BIN = binary;
  /** @type {(() => Promise<void> | void)[]} */
  const cleanups = [temp.remove];
  try {
    const db = join(temp.dir, "tasks.db");
    const listId = await makeBoard(db, n);
    const board = await startServer({ db, person: "ann" });
    cleanups.push(board.stop);
    const browser = await startBrowser();
    cleanups.push(browser.close);
    const { page } = browser;
    await signIn(page, board);
    const net = await meter(page);
    await net.quiet();

    // The load.
    net.reset();
    const started = performance.now();
    await page.goto(new URL(`/lists/${listId}`, board.origin).href, { waitUntil: "load" });
    const loaded = performance.now() - started;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const painted = performance.now() - started;
    await net.quiet();
    const load = net.read();
    const shown = await page.locator("article.task").count();

    // The changes.
    /** @type {{ received: number, sent: number }[]} */
    const each = [];
    for (let i = 0; i < changes; i++) {
      net.reset();
      const claimed = await cli(db, `agent-${i}`, "task_claims", "claim_next", { list_id: listId });
      const id = claimed.task.id;
      await page.waitForFunction((id) => document.querySelector(`article.task[data-task="${id}"]`)?.getAttribute("data-status") === "in_progress", id, { timeout: 10000, polling: 20 });
      await net.quiet();
      each.push(net.read());
    }
    const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      shown,
      load,
      loaded,
      painted,
      received: { mean: mean(each.map((e) => e.received)), max: Math.max(...each.map((e) => e.received)) },
      sent: mean(each.map((e) => e.sent)),
    };
  } finally {
    if (saved === undefined) delete process.env.TASKLISTS_BIN;
    else process.env.TASKLISTS_BIN = saved;
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (e) {
        process.stderr.write(`cleanup: ${e}\n`);
      }
    }
  }
}

const kb = (/** @type {number} */ b) => (b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(1)} KB`);
const ms = (/** @type {number} */ x) => `${x.toFixed(0)} ms`;
const builds = before ? [["before", before], ["after", after]] : [["this build", after]];
const rows = [];
for (const n of sizes) {
  for (const [name, binary] of builds) {
    const r = await run(binary, n);
    rows.push(`| ${n} (${r.shown} cards shown) | ${name} | ${kb(r.load.received)} | ${ms(r.loaded)} | ${ms(r.painted)} | ${kb(r.received.mean)} | ${kb(r.received.max)} | ${kb(r.sent)} |`);
    process.stderr.write(`${rows[rows.length - 1]}\n`);
  }
}
const out = [
  `Machine: ${machine()}.`,
  `${changes} changes per board (an agent's claim, the CLI in its own process); before: ${before ?? "(none)"}; after: ${after}.`,
  "",
  "| tasks | build | load: received | to load event | to first paint after | per change: received (mean) | (max) | sent (mean) |",
  "|--:|---|--:|--:|--:|--:|--:|--:|",
  ...rows,
];
process.stdout.write(`${out.join("\n")}\n`);

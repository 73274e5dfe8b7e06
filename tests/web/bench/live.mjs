// @ts-check
// The board's liveness and idle cost, in one run:
//   npm --prefix tests/web run bench [-- agents tasks idle_seconds think_ms]
// (defaults: 10 agents, 200 tasks, 20 s, 100 ms). Needs the release build
// (`cargo build --release -p tasklists`), the Node host (`bash
// scripts/node-host`) and /usr/bin/chromium.
//
// 1. Liveness: agents in processes of their own (half the CLI, one
//    process per call; half the Node host) work a list (claim, note,
//    close) while its board is open in Chromium. Each agent logs the wall
//    clock once its call returned (after the commit); a MutationObserver
//    in the page notes when each card first shows each `data-status`
//    (`performance.timeOrigin + performance.now()`). Latency = page time −
//    agent time, per claim and per close (a claim closed before the page's
//    next refresh shows only as its close: it counts until then).
// 2. Idle: the server's CPU (utime + stime from /proc/<pid>/stat) over
//    `idle_seconds` with the board open and nothing changing; then the
//    same server with no page open; then `tasklists watch --compact`
//    piped, idle, on the same database (the terminal's live view).
// Prints the machine and two Markdown tables.

import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, release, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { makeList } from "../lib/agents.mjs";
import { startBrowser } from "../lib/browser.mjs";
import { childEnv, delay, makeTempDir, nodeHostLibrary, tasklistsBinary, waitFor } from "../lib/env.mjs";
import { open, signIn } from "../lib/page.mjs";
import { startServer } from "../lib/server.mjs";

const [agentCount = 10, taskCount = 200, idleSeconds = 20, thinkMs = 100] = process.argv.slice(2).map(Number);
const view = process.env.BENCH_VIEW ?? "columns";
const AGENT = fileURLToPath(new URL("./agent.mjs", import.meta.url));
const CLK_TCK = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/**
 * The CPU time a process has used, in ms (all its threads).
 * @param {number} pid
 */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 (utime) and 15 (stime) of proc(5), counted from 3 (state) here.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/**
 * The CPU `pid` uses over `seconds`: ms and % of one core.
 * @param {number} pid
 * @param {number} seconds
 */
async function idleCpu(pid, seconds) {
  const before = cpuMs(pid);
  const start = performance.now();
  await delay(seconds * 1000);
  const used = cpuMs(pid) - before;
  const wall = performance.now() - start;
  return { ms: used, percent: (used / wall) * 100 };
}

/**
 * The value below which `p` % of the sorted `xs` fall.
 * @param {number[]} xs
 * @param {number} p
 */
function percentile(xs, p) {
  return xs[Math.min(xs.length - 1, Math.ceil((xs.length * p) / 100) - 1)];
}

/** The machine, in one line. */
function machine() {
  const model = cpus()[0]?.model ?? "unknown CPU";
  const chromium = execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  return `${model}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}, Node ${process.version}, ${chromium}`;
}

/** @type {(() => Promise<void> | void)[]} */
const cleanups = [];
const temp = makeTempDir("tasklists-bench-");
cleanups.push(temp.remove);

try {
  const db = join(temp.dir, "tasks.db");
  nodeHostLibrary();
  const { listId, taskIds } = await makeList(db, {
    name: "Bench",
    tasks: Array.from({ length: taskCount }, (_, i) => `Task ${String(i + 1).padStart(3, "0")}`),
  });
  const board = await startServer({ db, person: "ann" });
  cleanups.push(board.stop);
  const browser = await startBrowser();
  cleanups.push(browser.close);
  const { page } = browser;
  await signIn(page, board);
  await open(page, board, `/lists/${listId}?view=${view}`);
  const shown = await page.locator("article.task").count();
  if (shown !== taskCount) throw new Error(`the board shows ${shown} of ${taskCount} cards (view=${view})`);

  // The page's clock for each card's first appearance in each status.
  await page.evaluate(() => {
    /** @type {Record<string, number>} */
    const seen = {};
    /** @type {any} */ (window).benchSeen = seen;
    const scan = () => {
      const now = performance.timeOrigin + performance.now();
      for (const el of document.querySelectorAll("article.task")) {
        const key = `${el.getAttribute("data-task")} ${el.getAttribute("data-status")}`;
        if (!(key in seen)) seen[key] = now;
      }
    };
    scan();
    new MutationObserver(scan).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
  });

  // The agents.
  /** @type {{ task: string, status: string, at: number, agent: string }[]} */
  const events = [];
  const started = performance.now();
  const agents = Array.from({ length: agentCount }, (_, i) => {
    const mode = i % 2 === 0 ? "cli" : "node";
    const name = `${mode}-${i + 1}`;
    const child = spawn(process.execPath, [AGENT, mode, db, name, listId, String(thinkMs)], { env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let buffered = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (s) => {
      buffered += s;
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        events.push({ ...JSON.parse(buffered.slice(0, nl)), agent: name });
        buffered = buffered.slice(nl + 1);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (s) => (err += s));
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    return new Promise((resolve, reject) =>
      child.on("exit", (code) => (code === 0 ? resolve(undefined) : reject(new Error(`agent ${name} exited ${code}: ${err}`)))),
    );
  });
  await Promise.all(agents);
  const workSeconds = (performance.now() - started) / 1000;
  const closes = events.filter((e) => e.status === "done").length;
  if (closes !== taskCount) throw new Error(`the agents closed ${closes} of ${taskCount} tasks`);
  // Let the page catch up with the last change, then read what it saw.
  await waitFor(
    () => page.evaluate((ids) => ids.every((id) => `${id} done` in /** @type {any} */ (window).benchSeen), taskIds),
    "the page to show every task done",
    { timeoutMs: 10000, everyMs: 100 },
  );
  /** @type {Record<string, number>} */
  const seen = await page.evaluate(() => /** @type {any} */ (window).benchSeen);

  /** @type {number[]} */
  const latencies = [];
  let superseded = 0;
  let missed = 0;
  for (const e of events) {
    if (e.status === "note") continue;
    const at = seen[`${e.task} ${e.status}`];
    if (at !== undefined) {
      latencies.push(at - e.at);
    } else if (e.status === "in_progress" && seen[`${e.task} done`] !== undefined) {
      // Closed before the page's next refresh: the claim showed as its
      // close, so it counts until then.
      superseded++;
      latencies.push(seen[`${e.task} done`] - e.at);
    } else {
      missed++;
    }
  }
  latencies.sort((a, b) => a - b);
  const within = latencies.filter((l) => l <= 1000).length;

  // What one refresh of the board cost the server (its log: one line per request).
  const renders = [...board.stderr().matchAll(/^GET \/lists\/\S+ 200 (\d+) ms$/gm)].map((m) => Number(m[1])).sort((a, b) => a - b);

  // Idle: the board open, nothing changing.
  await delay(2000);
  const withPage = await idleCpu(board.pid, idleSeconds);
  await browser.close();
  await delay(2000);
  const noPage = await idleCpu(board.pid, idleSeconds);
  await board.stop();
  const watch = spawn(tasklistsBinary(), ["--db", db, "--agent-id", "watcher", "watch", "--compact"], { env: childEnv(), stdio: ["ignore", "pipe", "ignore"] });
  cleanups.push(() => {
    if (watch.exitCode === null && watch.signalCode === null) watch.kill("SIGKILL");
  });
  watch.stdout.on("data", () => {});
  await delay(2000);
  if (watch.exitCode !== null) throw new Error(`tasklists watch --compact exited ${watch.exitCode}`);
  const watchIdle = await idleCpu(/** @type {number} */ (watch.pid), idleSeconds);
  watch.kill("SIGTERM");

  const ms = (/** @type {number} */ x) => `${x.toFixed(0)} ms`;
  const cpu = (/** @type {{ ms: number, percent: number }} */ c) => `| ${c.ms.toFixed(0)} ms | ${c.percent.toFixed(2)} % |`;
  const out = [
    `Machine: ${machine()}.`,
    `${agentCount} agents (${Math.ceil(agentCount / 2)} CLI, ${Math.floor(agentCount / 2)} Node host, each its own process; ~${thinkMs} ms between calls) worked a ${taskCount}-task list in ${workSeconds.toFixed(1)} s (claim, note, close: ${((taskCount * 3) / workSeconds).toFixed(0)} commits/s), the board (view=${view}) open in headless Chromium.`,
    "",
    "| changes (claims and closes) | p50 | p95 | max | within 1 s | claims shown only as their close | not shown |",
    "|--:|--:|--:|--:|--:|--:|--:|",
    `| ${latencies.length} | ${ms(percentile(latencies, 50))} | ${ms(percentile(latencies, 95))} | ${ms(latencies[latencies.length - 1])} | ${((within / latencies.length) * 100).toFixed(1)} % | ${superseded} | ${missed} |`,
    "",
    `The server answered ${renders.length} board refreshes (the ${taskCount}-card board as \`part=main\`): p50 ${ms(percentile(renders, 50))}, p95 ${ms(percentile(renders, 95))}, max ${ms(renders[renders.length - 1] ?? 0)} each.`,
    "",
    `| idle for ${idleSeconds} s, nothing changing | CPU | of one core |`,
    "|---|--:|--:|",
    `| \`tasklists serve\`, the board open in Chromium ${cpu(withPage)}`,
    `| \`tasklists serve\`, no page open ${cpu(noPage)}`,
    `| \`tasklists watch --compact\`, piped (baseline) ${cpu(watchIdle)}`,
  ];
  process.stdout.write(`${out.join("\n")}\n`);
  if (missed > 0) process.exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (e) {
      process.stderr.write(`cleanup: ${e}\n`);
    }
  }
}

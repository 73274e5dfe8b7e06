// What loading the extension costs Pi: start-up time (spawn to the first
// RPC answer) and RSS once ready, over alternating runs with and without
// it; then the idle CPU of two Pi RPC processes side by side, with and
// without it, over the same window (default 60 s). The extension's widget
// is shown (one list in the workspace), so its poll runs as in real use.
//
//   node bench/measure.mjs [idle seconds] [start-up runs]

import { readFileSync } from "node:fs";
import { NodeHost } from "@tasklists/node-host";
import { delay, makeHome, startPi, stopAll } from "../test/harness.mjs";

const idleSeconds = Number(process.argv[2] ?? 60);
const runs = Number(process.argv[3] ?? 5);
const TICKS = 100; // USER_HZ

function stat(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return { cpuTicks: Number(fields[11]) + Number(fields[12]) };
}
function rssKiB(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const home = makeHome();
const host = await NodeHost.open({ db: home.db });
await host.call("task_lists", JSON.stringify({ action: "create", params: { name: "Bench", scope_type: "workspace" } }), {
  agentId: "bench",
  agentPinned: false,
  workspace: home.workspace,
});
await host.close();

try {
  const start = { with: [], without: [] };
  const rss = { with: [], without: [] };
  for (let i = 0; i < runs; i++) {
    for (const extension of [false, true]) {
      const t0 = performance.now();
      const pi = await startPi(home, { extension });
      const ms = performance.now() - t0;
      if (extension) await pi.waitFor((r) => r.method === "setWidget", { what: "the widget" });
      await delay(500);
      start[extension ? "with" : "without"].push(ms);
      rss[extension ? "with" : "without"].push(rssKiB(pi.pid));
      await pi.stop();
    }
  }
  console.log(`start-up (spawn to first RPC answer), median of ${runs}: without ${median(start.without).toFixed(0)} ms, with ${median(start.with).toFixed(0)} ms, added ${(median(start.with) - median(start.without)).toFixed(0)} ms`);
  console.log(`RSS once ready, median of ${runs}: without ${(median(rss.without) / 1024).toFixed(1)} MiB, with ${(median(rss.with) / 1024).toFixed(1)} MiB, added ${((median(rss.with) - median(rss.without)) / 1024).toFixed(1)} MiB`);

  const without = await startPi(home, { extension: false });
  const withExt = await startPi(home, { extension: true });
  await withExt.waitFor((r) => r.method === "setWidget", { what: "the widget" });
  await delay(2000);
  const a0 = stat(without.pid).cpuTicks;
  const b0 = stat(withExt.pid).cpuTicks;
  await delay(idleSeconds * 1000);
  const a = (stat(without.pid).cpuTicks - a0) / TICKS;
  const b = (stat(withExt.pid).cpuTicks - b0) / TICKS;
  const perMinute = (s) => ((s * 60) / idleSeconds).toFixed(3);
  console.log(`idle CPU over ${idleSeconds} s: without ${a.toFixed(2)} s (${perMinute(a)} s/min), with ${b.toFixed(2)} s (${perMinute(b)} s/min), added ${perMinute(b - a)} s of CPU per minute`);
  console.log(`idle RSS after ${idleSeconds} s: without ${(rssKiB(without.pid) / 1024).toFixed(1)} MiB, with ${(rssKiB(withExt.pid) / 1024).toFixed(1)} MiB`);
} finally {
  await stopAll();
}

#!/usr/bin/env node
// The Node host beside the wasmtime host, in one run, on the same workload
// (a list of 1,000 tasks; 500 calls of each): load time (import, compile,
// worker start and instantiation, first call; the wasmtime host's open
// includes loading its compiled component from the on-disk cache), per-call p50/p99 of claim_next,
// `get` (first page of 50) and `find`, and resident memory. The wasmtime
// side is `cargo run --release -p tasklists-host --example call_latency`.
//
//   node host-shim/node/bench/latency.mjs [tasks] [calls]
//
// Prints a table with the ratio Node/wasmtime per row.

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const tasks = Number(process.argv[2] ?? 1000);
const calls = Number(process.argv[3] ?? 500);
const repo = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const mib = () => process.memoryUsage().rss / 2 ** 20;

function summary(times) {
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.min(times.length - 1, Math.floor((times.length * p) / 100))];
  return { p50_ms: at(50), p99_ms: at(99) };
}

async function node() {
  const rssStart = mib();
  let started = performance.now();
  const { NodeHost } = await import("../dist/index.js");
  const importMs = performance.now() - started;
  const dir = mkdtempSync(join(tmpdir(), "tasklists-bench-"));
  try {
    started = performance.now();
    const host = await NodeHost.open({ db: join(dir, "tasks.db") });
    const openMs = performance.now() - started;
    const { compileMs, startMs } = host.loadTimes;
    const rssOpen = mib();
    const ctx = { agentId: "bench", agentPinned: false };
    started = performance.now();
    await host.callAction("task_lists", "find", "{}", ctx);
    const firstCallMs = performance.now() - started;
    const list = JSON.parse((await host.callAction("task_lists", "create", '{"name":"bench"}', ctx)).structured).list.id;
    for (let i = 0; i < tasks; i += 200) {
      const batch = Array.from({ length: Math.min(200, tasks - i) }, (_, k) => ({ title: `task ${i + k}` }));
      await host.callAction("task_items", "add_many", JSON.stringify({ list_id: list, tasks: batch }), ctx);
    }
    const run = async (tool, action, params) => {
      const times = [];
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        const reply = await host.callAction(tool, action, params, ctx);
        times.push(performance.now() - t);
        if (reply.outcome.tag === "err") throw new Error(reply.text);
      }
      return summary(times);
    };
    const result = {
      host: "node",
      import_ms: importMs,
      open_ms: openMs,
      compile_ms: compileMs,
      start_ms: startMs,
      first_call_ms: firstCallMs,
      claim_next: await run("task_claims", "claim_next", JSON.stringify({ list_id: list })),
      get: await run("task_lists", "get", JSON.stringify({ list_id: list, include_tasks: true, limit: 50 })),
      find: await run("task_lists", "find", "{}"),
      rss_start_mib: rssStart,
      rss_open_mib: rssOpen,
      rss_end_mib: mib(),
    };
    await host.close();
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function wasmtime() {
  process.stderr.write("bench: running the wasmtime host's side (cargo run --release --example call_latency)\n");
  const out = execFileSync("cargo", ["run", "--quiet", "--release", "--locked", "-p", "tasklists-host", "--example", "call_latency", "--", String(tasks), String(calls)], {
    cwd: repo,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").pop());
}

const n = await node();
const w = wasmtime();
const rows = [
  ["import (ms)", n.import_ms, null],
  ["open, all of it (ms)", n.open_ms, w.open_ms],
  ["… compile the core modules (ms)", n.compile_ms, null],
  ["… start the worker and instantiate (ms)", n.start_ms, null],
  ["first call (ms)", n.first_call_ms, w.first_call_ms],
  ["claim_next p50 (ms)", n.claim_next.p50_ms, w.claim_next.p50_ms],
  ["claim_next p99 (ms)", n.claim_next.p99_ms, w.claim_next.p99_ms],
  ["get first page p50 (ms)", n.get.p50_ms, w.get.p50_ms],
  ["get first page p99 (ms)", n.get.p99_ms, w.get.p99_ms],
  ["find p50 (ms)", n.find.p50_ms, w.find.p50_ms],
  ["find p99 (ms)", n.find.p99_ms, w.find.p99_ms],
  ["RSS before loading (MiB)", n.rss_start_mib, w.rss_start_mib],
  ["RSS once open (MiB)", n.rss_open_mib, null],
  ["RSS after the calls (MiB)", n.rss_end_mib, w.rss_end_mib],
];
const fmt = (v) => (v === null ? "—" : v.toFixed(v < 10 ? 3 : 1));
console.log(`Node host (jco + addon) beside the wasmtime host: ${tasks} tasks, ${calls} calls each`);
console.log(`| measure | Node host | wasmtime host | Node/wasmtime |`);
console.log(`|---|---:|---:|---:|`);
for (const [name, a, b] of rows) console.log(`| ${name} | ${fmt(a)} | ${fmt(b)} | ${a !== null && b ? `${(a / b).toFixed(2)}×` : "—"} |`);

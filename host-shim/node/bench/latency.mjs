#!/usr/bin/env node
// The Node host (jco + addon) beside the wasmtime host, in one run, on the
// same workload (a list of 1,000 tasks; 500 calls of each): per-call
// p50/p99 of claim_next, update notes, update done (each claim followed by
// the two updates on the claimed task), get (first page of 50) and find;
// load time (open: compile, worker start, instantiation; the wasmtime
// host's open loads its compiled component from the on-disk cache) and
// resident memory. The Node host runs twice: as built, and with jco's glue
// as jco wrote it (`generated/tasklists.plain.js`: every store and clock
// import call inside jco's async task bookkeeping, which the build's
// scripts/direct-imports.mjs removes), from a copy of the package in a
// temporary folder. The three alternate `reps` times (default 3) and
// medians are reported. The wasmtime side is
// `cargo run --release -p tasklists-host --example call_latency`.
//
// Then what loading the package adds to a Node process: fresh `node`
// processes (median of 10) running nothing, importing the package, and
// importing + opening a host + one call; wall time and peak RSS.
//
//   node host-shim/node/bench/latency.mjs [tasks] [calls] [reps]
//
// (The Node host must be built: `bash scripts/node-host`.)

import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, release, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const tasks = Number(process.argv[2] ?? 1000);
const calls = Number(process.argv[3] ?? 500);
const reps = Number(process.argv[4] ?? 3);
const repo = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const pkg = resolve(fileURLToPath(new URL("..", import.meta.url)));
const dist = join(pkg, "dist", "index.js");
const mib = () => process.memoryUsage().rss / 2 ** 20;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};
const ACTIONS = ["claim_next", "update_notes", "update_done", "get", "find"];

function summary(times) {
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.min(times.length - 1, Math.floor((times.length * p) / 100))];
  return { p50_ms: at(50), p99_ms: at(99) };
}

function machine() {
  const model = cpus()[0]?.model ?? "unknown CPU";
  return `${model}, ${cpus().length} cores, Linux ${release()}, Node ${process.version}`;
}

/**
 * A copy of the package whose glue is jco's as transpiled (the library and
 * the addon are the same): the Node host before the direct imports.
 */
function plainGluePackage() {
  const copy = mkdtempSync(join(tmpdir(), "tasklists-plain-glue-"));
  for (const dir of ["dist", "generated"]) cpSync(join(pkg, dir), join(copy, dir), { recursive: true });
  copyFileSync(join(pkg, "generated", "tasklists.plain.js"), join(copy, "generated", "tasklists.js"));
  copyFileSync(join(pkg, "package.json"), join(copy, "package.json"));
  for (const dir of ["native", "node_modules"]) symlinkSync(join(pkg, dir), join(copy, dir));
  return copy;
}

async function node(entry = dist) {
  const rssStart = mib();
  let started = performance.now();
  const { NodeHost } = await import(entry);
  const importMs = performance.now() - started;
  const dir = mkdtempSync(join(tmpdir(), "tasklists-bench-"));
  try {
    started = performance.now();
    const host = await NodeHost.open({ db: join(dir, "tasks.db") });
    const openMs = performance.now() - started;
    const { compileMs, startMs } = host.loadTimes;
    const rssOpen = mib();
    const ctx = { agentId: "bench", agentPinned: false };
    const call = async (tool, action, params, times) => {
      const t = performance.now();
      const reply = await host.callAction(tool, action, params, ctx);
      if (times) times.push(performance.now() - t);
      if (reply.outcome.tag === "err") throw new Error(reply.text);
      return JSON.parse(reply.structured);
    };
    started = performance.now();
    await call("task_lists", "find", "{}");
    const firstCallMs = performance.now() - started;
    const list = (await call("task_lists", "create", '{"name":"bench"}')).list.id;
    for (let i = 0; i < tasks; i += 200) {
      const batch = Array.from({ length: Math.min(200, tasks - i) }, (_, k) => ({ title: `task ${i + k}` }));
      await call("task_items", "add_many", JSON.stringify({ list_id: list, tasks: batch }));
    }
    const t = Object.fromEntries(ACTIONS.map((a) => [a, []]));
    const listParam = JSON.stringify({ list_id: list });
    for (let i = 0; i < calls; i++) {
      const claimed = await call("task_claims", "claim_next", listParam, t.claim_next);
      const [task_id, claim_token] = [claimed.task.id, claimed.claim.token];
      await call("task_items", "update", JSON.stringify({ task_id, notes: `note ${i}`, claim_token }), t.update_notes);
      await call("task_items", "update", JSON.stringify({ task_id, status: "done", outcome: "ok", claim_token }), t.update_done);
    }
    const getParam = JSON.stringify({ list_id: list, include_tasks: true, limit: 50 });
    for (let i = 0; i < calls; i++) {
      await call("task_lists", "get", getParam, t.get);
      await call("task_lists", "find", "{}", t.find);
    }
    const result = {
      host: "node",
      import_ms: importMs,
      open_ms: openMs,
      compile_ms: compileMs,
      start_ms: startMs,
      first_call_ms: firstCallMs,
      ...Object.fromEntries(ACTIONS.map((a) => [a, summary(t[a])])),
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
  const out = execFileSync("cargo", ["run", "--quiet", "--release", "--locked", "-p", "tasklists-host", "--example", "call_latency", "--", String(tasks), String(calls)], {
    cwd: repo,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.trim().split("\n").pop());
}

// A fresh `node` running `script` (an ES module, from a file: `-e` with
// `--input-type` would be inherited by the host's worker thread): wall
// time from spawn to exit, and the child's own peak RSS (it prints
// `process.resourceUsage()`).
const scratch = mkdtempSync(join(tmpdir(), "tasklists-load-"));
function freshNode(script, i) {
  const file = join(scratch, `load-${i}.mjs`);
  writeFileSync(file, `${script}\nconsole.log(process.resourceUsage().maxRSS);\n`);
  const started = performance.now();
  const out = execFileSync(process.execPath, [file], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const wall = performance.now() - started;
  return { wall_ms: wall, maxrss_mib: Number(out.trim().split("\n").pop()) / 1024 };
}

const loadCases = [
  ["plain `node`", ""],
  ["`node` importing the package", `await import(${JSON.stringify(dist)});`],
  [
    "`node` importing, opening a host, one call",
    `import { mkdtempSync } from "node:fs"; import { tmpdir } from "node:os"; import { join } from "node:path";
     const { NodeHost } = await import(${JSON.stringify(dist)});
     const host = await NodeHost.open({ db: join(mkdtempSync(join(tmpdir(), "tl-load-")), "t.db") });
     await host.callAction("task_lists", "find", "{}", { agentId: "bench", agentPinned: false });
     await host.close();`,
  ],
];

process.stderr.write(`bench: ${reps} alternating runs of each host (the wasmtime side through cargo run --example call_latency)\n`);
// Built once before timing anything, so no run includes a compile.
execFileSync("cargo", ["build", "--quiet", "--release", "--locked", "-p", "tasklists-host", "--example", "call_latency"], { cwd: repo, stdio: "inherit" });
const plain = plainGluePackage();
const ns = [];
const ps = [];
const ws = [];
for (let r = 0; r < reps; r++) {
  ns.push(await node());
  ps.push(await node(join(plain, "dist", "index.js")));
  ws.push(wasmtime());
}
rmSync(plain, { recursive: true, force: true });

const m = (runs, key, sub) => (runs[0][key] === undefined ? null : median(runs.map((x) => (sub ? x[key][sub] : x[key]))));
const rows = [
  ...ACTIONS.flatMap((a) => [
    [`${a} p50 (ms)`, m(ns, a, "p50_ms"), m(ps, a, "p50_ms"), m(ws, a, "p50_ms")],
    [`${a} p99 (ms)`, m(ns, a, "p99_ms"), m(ps, a, "p99_ms"), m(ws, a, "p99_ms")],
  ]),
  ["import, in this process (ms)", ns[0].import_ms, ps[0].import_ms, null],
  ["open, all of it (ms)", m(ns, "open_ms"), m(ps, "open_ms"), m(ws, "open_ms")],
  ["… compile the core modules (ms)", m(ns, "compile_ms"), m(ps, "compile_ms"), null],
  ["… start the worker and instantiate (ms)", m(ns, "start_ms"), m(ps, "start_ms"), null],
  ["first call (ms)", m(ns, "first_call_ms"), m(ps, "first_call_ms"), m(ws, "first_call_ms")],
  ["RSS once open (MiB)", m(ns, "rss_open_mib"), m(ps, "rss_open_mib"), null],
  ["RSS after the calls (MiB)", m(ns, "rss_end_mib"), m(ps, "rss_end_mib"), m(ws, "rss_end_mib")],
];
const fmt = (v) => (v === null ? "—" : v.toFixed(v < 10 ? 3 : 1));
console.log(`# Node host (jco + addon) beside the wasmtime host\n`);
console.log(`machine: ${machine()}`);
console.log(`parameters: ${tasks} tasks, ${calls} calls of each action, ${reps} alternating runs per host (medians)\n`);
console.log(`| measure | Node host | Node host, jco's glue as is | wasmtime host | Node/wasmtime | as is/wasmtime |`);
console.log(`|---|---:|---:|---:|---:|---:|`);
const ratio = (a, b) => (a !== null && b ? `${(a / b).toFixed(2)}×` : "—");
for (const [name, a, p, b] of rows) console.log(`| ${name} | ${fmt(a)} | ${fmt(p)} | ${fmt(b)} | ${ratio(a, b)} | ${ratio(p, b)} |`);

const loads = loadCases.map(() => []);
for (let r = 0; r < 10; r++) loadCases.forEach(([, script], i) => loads[i].push(freshNode(script, i)));
rmSync(scratch, { recursive: true, force: true });
const base = loads[0];
console.log(`\nWhat loading the package adds to a fresh Node process (median of 10 runs each):\n`);
console.log(`| process | wall ms | peak RSS MiB | + wall ms | + RSS MiB |`);
console.log(`|---|---:|---:|---:|---:|`);
loadCases.forEach(([name], i) => {
  const wall = median(loads[i].map((x) => x.wall_ms));
  const rss = median(loads[i].map((x) => x.maxrss_mib));
  const bw = median(base.map((x) => x.wall_ms));
  const br = median(base.map((x) => x.maxrss_mib));
  console.log(`| ${name} | ${wall.toFixed(1)} | ${rss.toFixed(1)} | ${(wall - bw).toFixed(1)} | ${(rss - br).toFixed(1)} |`);
});

// @ts-check
// The Node MCP server's memory bounds, the native server's numbers
// (tests/mcp/test_backpressure.py does the same against it): a client that
// floods calls under one reused id without reading the answers, and one
// that sends lines over 16 MiB, leave the server small; every oversized
// line is answered `-32600` under its id and skipped.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE, tempDir } from "./helpers.mjs";

// 4,000 calls of 64 KiB each (256 MB) under one id, while the worker is
// held by a lock on the database (one call waits for the store's 5 s busy
// budget).
const REUSED_FLOOD = 4_000;
const PAD = "x".repeat(64 * 1024);
// The server's 64 MiB of calls and unwritten answers, plus what a Node
// process with the component in a worker is made of.
const MAX_RSS_MB = 400;

/**
 * `tasklists-node mcp` on `db`, its stdout read only when asked.
 * @param {string} db
 */
function startServer(db) {
  const child = spawn(join(PACKAGE, "bin", "tasklists-node"), ["--db", db, "--agent-id", "flood", "mcp"], {
    env: { ...process.env, TASKLISTS_AGENT_ID: "", TASKLISTS_DB: "" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdout.pause();
  let buffered = "";
  /** @type {any[]} */
  const lines = [];
  /** @type {(() => void) | null} */
  let wake = null;
  const server = {
    child,
    stderr: () => stderr,
    /** Starts reading stdout (and keeps reading). */
    read() {
      child.stdout.on("data", (chunk) => {
        buffered += chunk;
        let newline;
        while ((newline = buffered.indexOf("\n")) !== -1) {
          lines.push(JSON.parse(buffered.slice(0, newline)));
          buffered = buffered.slice(newline + 1);
        }
        wake?.();
      });
      child.stdout.resume();
    },
    /** The next answer, failing after `ms`. */
    async next(ms = 60_000) {
      const until = Date.now() + ms;
      while (lines.length === 0) {
        if (Date.now() > until) throw new Error(`no answer within ${ms} ms; stderr: ${stderr}`);
        await new Promise((resolve) => {
          wake = () => resolve(undefined);
          setTimeout(resolve, 100);
        });
      }
      return lines.shift();
    },
    /** Writes a line; resolves once the pipe took it. */
    /** @param {string} line @returns {Promise<void>} */
    send(line) {
      return new Promise((resolve, reject) => child.stdin.write(line + "\n", (error) => (error ? reject(error) : resolve())));
    },
    exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))),
  };
  return server;
}

/** Resident memory of `pid` now, in MB. */
/** @param {number | undefined} pid */
function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(/** @type {string} */ (line).split(/\s+/)[1]) / 1024;
}

/**
 * Writes `line` `count` times, as fast as the pipe takes it, while
 * watching the server's RSS for `seconds`; past the bound the server is
 * killed, so that a failing run stays small. Returns how many lines were
 * taken and the peak RSS; the writing goes on in `rest`.
 */
/**
 * @param {ReturnType<typeof startServer>} server
 * @param {string} line
 * @param {number} count
 * @param {number} seconds
 */
async function flood(server, line, count, seconds) {
  let written = 0;
  let stop = false;
  const rest = (async () => {
    for (let i = 0; i < count && !stop; i++) {
      await server.send(line);
      written++;
    }
  })().catch(() => {});
  let peak = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until && written < count) {
    peak = Math.max(peak, rssMb(server.child.pid));
    if (peak > MAX_RSS_MB) {
      stop = true;
      server.child.kill("SIGKILL");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { written, peak, rest };
}

/** @param {ReturnType<typeof startServer>} server */
async function initialize(server) {
  await server.send(
    JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } } }),
  );
  await server.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
}

/**
 * @param {number} id
 * @param {string} tool
 * @param {object} args
 */
const call = (id, tool, args) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } });

/** Holds an exclusive lock on the SQLite database `db` until `release()`. */
/** @param {string} db */
async function lockDatabase(db) {
  const holder = spawn(
    "python3",
    ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read()", db],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  await new Promise((resolve, reject) => {
    holder.stdout.once("data", resolve);
    holder.once("exit", (code) => reject(new Error(`the lock holder exited (${code})`)));
  });
  return {
    release: () => new Promise((resolve) => {
      holder.once("exit", resolve);
      holder.stdin.end();
    }),
  };
}

test("calls that reuse one id are each counted: a flood leaves the Node server small", { timeout: 300_000 }, async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const server = startServer(db);
  t.after(() => server.child.kill("SIGKILL"));
  await initialize(server);
  await server.send(call(1, "task_lists", { action: "create", params: { name: "first" } }));
  server.read();
  assert.equal((await server.next()).id, 0);
  const created = await server.next();
  assert.equal(created.id, 1);
  assert.equal(created.result.isError, false, JSON.stringify(created));
  server.child.stdout.pause();
  server.child.stdout.removeAllListeners("data");

  const lock = await lockDatabase(db);
  let held;
  try {
    await server.send(call(2, "task_lists", { action: "create", params: { name: "held" } }));
    held = await flood(server, call(3, "task_help", { action: "workflow", pad: PAD }), REUSED_FLOOD, 4);
  } finally {
    await lock.release();
  }
  t.diagnostic(`flood of ${REUSED_FLOOD} calls with one id: ${held.written} taken while the worker was held, peak RSS ${held.peak.toFixed(0)} MB`);
  assert.ok(held.peak < MAX_RSS_MB, `peak RSS ${held.peak.toFixed(0)} MB after ${held.written} calls`);
  assert.ok(held.written < REUSED_FLOOD, "the server read every call while none could run");
  // Reading again lets the rest through; every call is answered.
  let answers = 0;
  server.child.stdout.on("data", (chunk) => (answers += chunk.toString().split("\n").length - 1));
  server.child.stdout.resume();
  await held.rest;
  server.child.stdin.end();
  assert.equal(await server.exited, 0, server.stderr());
  assert.equal(answers, REUSED_FLOOD + 1);
});

test("lines over 16 MiB are answered and skipped, never held whole", { timeout: 300_000 }, async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const server = startServer(db);
  t.after(() => server.child.kill("SIGKILL"));
  await initialize(server);
  server.read();
  assert.equal((await server.next()).id, 0);
  const big = "x".repeat(17 * 1024 * 1024);
  const count = 20;
  // The id written first, or last as the TypeScript SDK writes it.
  const first = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_help","arguments":{"action":"${big}"}}}`;
  const last = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"task_help","arguments":{"action":"${big}"}},"id":"seven"}`;
  const half = await flood(server, first, count / 2, 60);
  await half.rest;
  const other = await flood(server, last, count / 2, 60);
  await other.rest;
  const peak = Math.max(half.peak, other.peak);
  t.diagnostic(`${count} lines of 17 MiB: peak RSS ${peak.toFixed(0)} MB`);
  assert.ok(peak < MAX_RSS_MB, `peak RSS ${peak.toFixed(0)} MB`);
  const answers = [];
  for (let i = 0; i < count; i++) answers.push(await server.next(30_000));
  assert.deepEqual(
    answers.map((a) => a.id),
    [...Array(count / 2).fill(7), ...Array(count / 2).fill("seven")],
  );
  for (const answer of answers) {
    assert.equal(answer.error.code, -32600);
    assert.match(answer.error.message, /over the limit of 16 MiB/);
  }
  // The next request is served.
  await server.send(call(8, "task_help", { action: "workflow" }));
  const served = await server.next();
  assert.equal(served.id, 8);
  assert.equal(served.result.isError, false);
  server.child.stdin.end();
  assert.equal(await server.exited, 0, server.stderr());
});

// @ts-check
// The change check never waits on the store on the caller's thread: against
// a "PostgreSQL server" on 127.0.0.1 that accepts connections and never
// says a word, `dataVersion()` resolves within its limit with why the
// store cannot be read (the store's words, the location named, no
// password), and this thread's event loop stays free meanwhile
// (perf_hooks.monitorEventLoopDelay).

import assert from "node:assert/strict";
import { createServer } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { test } from "node:test";
import { CHECK_LIMIT_MS, NodeHost } from "../dist/index.js";

/** A TCP listener on 127.0.0.1 that accepts every connection and never answers. */
async function silentServer() {
  /** @type {Set<import("node:net").Socket>} */
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  let accepted = 0;
  server.on("connection", () => accepted++);
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return { port, close, accepted: () => accepted };
}

test("a server that never answers: the change check says so within its limit, and the event loop never waits", async () => {
  const server = await silentServer();
  let host;
  try {
    host = await NodeHost.open({ db: `postgresql://agent:s3cret@127.0.0.1:${server.port}/tasks` });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    // Two checks asked at once share one: a single connection attempt.
    const [seen, again] = await Promise.all([host.dataVersion(), host.dataVersion()]);
    const took = performance.now() - started;
    delay.disable();
    assert.equal(seen?.reachable, false, `the store is unreachable: ${JSON.stringify(seen)}`);
    assert.deepEqual(again, seen);
    assert.equal(seen.down.tag, "failed");
    assert.match(seen.down.val, new RegExp(`127\\.0\\.0\\.1:${server.port}`), "the store's words name it");
    assert.ok(!seen.down.val.includes("s3cret"), seen.down.val);
    assert.ok(took < CHECK_LIMIT_MS + 1000, `answered in ${took.toFixed(0)} ms (limit ${CHECK_LIMIT_MS} ms)`);
    assert.ok(delay.max / 1e6 < 100, `the event loop waited ${(delay.max / 1e6).toFixed(0)} ms`);
    assert.equal(server.accepted(), 1, "one connection for the two checks");
    // The component words it as the widget's one line, without the store.
    const lines = await host.widgetUnreachable(seen.down, 200);
    assert.equal(lines.length, 1);
    const text = lines[0].map((span) => span.text).join("");
    assert.match(text, /^✗ store unreachable: cannot connect to postgresql:\/\/agent@127\.0\.0\.1:/);
    const silent = await host.widgetUnreachable({ tag: "no-answer", val: 3000 }, 80);
    assert.equal(silent[0].map((span) => span.text).join(""), "✗ store unreachable: no answer within 3000 ms");
  } finally {
    await host?.close();
    await server.close();
  }
});

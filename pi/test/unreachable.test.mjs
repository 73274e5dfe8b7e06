// @ts-check
// A store that does not answer never freezes Pi: TASKLISTS_DB names a
// PostgreSQL server on 127.0.0.1 that accepts connections and never says
// a word. Pi's own event loop is measured from inside Pi
// (fixtures/loop-probe.mjs, an extension loaded after ours, using
// perf_hooks.monitorEventLoopDelay on Pi's main thread) over several
// polls of the widget's change check, and the widget shows the
// component's one line for an unreachable store.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";
import { EXTENSION, PACKAGE, delay, makeHome, startPi, stopAll } from "./harness.mjs";

const PROBE = join(PACKAGE, "test", "fixtures", "loop-probe.mjs");

/** The largest event-loop delay Pi may show, in milliseconds. */
const MAX_DELAY_MS = 100;

/** How long the loop is watched once Pi is up: several polls of the widget (one a second). */
const WATCH_MS = 6000;

after(stopAll);

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
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return { port, close, accepted: () => sockets.size };
}

/** The probe's windows (`{at, maxMs}`) that closed after `since` (ms since the epoch). */
/**
 * @param {string} file
 * @param {number} since
 * @returns {{ at: number, maxMs: number }[]}
 */
function windows(file, since) {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((w) => w.at > since);
}

test("a PostgreSQL server that never answers: Pi's event loop never waits on it, and the widget shows the component's unreachable line", async () => {
  const server = await silentServer();
  try {
    const home = makeHome();
    const probe = join(home.dir, "loop.jsonl");
    const db = `postgresql://agent@127.0.0.1:${server.port}/tasks`;
    const pi = await startPi(home, {
      extension: false,
      // Ours first, the probe after it: the probe's monitor starts before
      // any session_start handler runs.
      args: ["-e", EXTENSION, "-e", PROBE],
      env: { TASKLISTS_DB: db, TASKLISTS_TEST_LOOP_PROBE: probe },
    });
    const up = Date.now();
    await delay(WATCH_MS);
    // A block in progress ends before Pi answers; the window holding it
    // closes within the next 250 ms.
    await pi.send({ type: "get_state" });
    await delay(300);
    const watched = windows(probe, up + 250);
    const report = watched.map((w) => `+${w.at - up}ms:${w.maxMs.toFixed(0)}`).join(" ");
    const worst = Math.max(...watched.map((w) => w.maxMs));
    assert.ok(worst < MAX_DELAY_MS, `Pi's event loop was blocked for ${worst.toFixed(0)} ms (windows, end:max delay: ${report})`);
    // A blocked loop also closes fewer windows than the time allows.
    assert.ok(watched.length >= WATCH_MS / 250 - 4, `the probe reported ${watched.length} windows in ${WATCH_MS} ms: ${report}`);
    assert.ok(server.accepted() > 0, "the change check did try the server");
    // The widget: one line, the component's words for a store it cannot reach.
    const shown = await pi.waitFor(
      (r) => r.type === "extension_ui_request" && r.method === "setWidget" && r.widgetKey === "tasklists" && r.widgetLines?.length === 1,
      { what: "the widget's one line", timeoutMs: 30000 },
    );
    const line = /** @type {string[]} */ (pi.widgets().findLast((l) => l?.length === 1))[0];
    assert.match(line, /store unreachable/, JSON.stringify(shown));
    assert.match(line, new RegExp(`127\\.0\\.0\\.1:${server.port}`), "the line names the store");
    // Pi answers at once, and the loop stayed free throughout (the start-up included).
    const asked = Date.now();
    await pi.send({ type: "get_state" });
    assert.ok(Date.now() - asked < 1000, "Pi answered a command promptly");
    const all = windows(probe, 0);
    const slowest = Math.max(...all.map((w) => w.maxMs));
    assert.ok(slowest < MAX_DELAY_MS, `Pi's event loop was blocked for ${slowest.toFixed(0)} ms at some point`);
  } finally {
    await stopAll();
    await server.close();
  }
});

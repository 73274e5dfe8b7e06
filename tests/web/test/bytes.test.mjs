// @ts-check
// Fewer bytes: the pages and assets come gzipped to a browser that asks
// (the live stream does not, so each change arrives when it is sent), and
// a page just loaded is not read a second time when its live stream
// opens, while a change made between its read and its stream's opening
// still reaches it.

import assert from "node:assert/strict";
import { request } from "node:http";
import { join } from "node:path";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import { cli, makeList } from "../lib/agents.mjs";
import { browse } from "../lib/browser.mjs";
import { delay, tempDir } from "../lib/env.mjs";
import { http } from "../lib/http.mjs";
import { open, signIn, waitForCard } from "../lib/page.mjs";
import { freshPgDatabase, pgSkip } from "../lib/pg.mjs";
import { serve, withEvidence } from "../lib/server.mjs";

/**
 * The head of an answer and its raw body bytes (the first `limit` of them:
 * a stream is cut there).
 * @param {number} port
 * @param {string} path
 * @param {Record<string, string>} headers
 * @param {number} [limit]
 * @returns {Promise<{ status: number, headers: import("node:http").IncomingHttpHeaders, body: Buffer }>}
 */
function raw(port, path, headers, limit = Infinity) {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, headers: { host: `127.0.0.1:${port}`, ...headers }, timeout: 10000 }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      let size = 0;
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      res.on("data", (chunk) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= limit) {
          res.destroy();
          done();
        }
      });
      res.on("end", done);
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${path}: no answer in 10 s`)));
    req.on("error", reject);
    req.end();
  });
}

/** The session cookie `tasklists serve` sets for the token in a link. */
async function cookieOf(/** @type {{ port: number, token: string }} */ board) {
  const login = await http(board.port, "GET", `/?token=${board.token}`);
  const [setCookie] = login.headers["set-cookie"] ?? [];
  assert.ok(setCookie, "the sign-in link sets a cookie");
  return setCookie.split(";")[0];
}

test("pages and assets come gzipped to a browser that asks, the same bytes unzipped; the live stream does not", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const titles = Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: check the release notes of part ${i + 1}`);
  const { listId } = await makeList(db, { name: "Release", tasks: titles });
  const board = await serve(t, { db, person: "ann" });
  const cookie = await cookieOf(board);

  const plain = await raw(board.port, `/lists/${listId}`, { cookie });
  const zipped = await raw(board.port, `/lists/${listId}`, { cookie, "accept-encoding": "gzip, deflate, br" });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers["content-encoding"], undefined, "no encoding to a client that does not ask");
  assert.equal(zipped.headers["content-encoding"], "gzip");
  assert.equal(gunzipSync(zipped.body).toString("utf8").replace(/data-since="\d+"/, ""), plain.body.toString("utf8").replace(/data-since="\d+"/, ""));
  assert.ok(zipped.body.length * 4 < plain.body.length, `the board gzipped: ${zipped.body.length} of ${plain.body.length} bytes`);
  assert.match(String(zipped.headers["content-security-policy"]), /script-src 'self'/, "the security headers stay");

  const script = /src="(\/assets\/board\.js\?v=[0-9a-f]+)"/.exec(plain.body.toString("utf8"))?.[1];
  assert.ok(script, "the page names its script");
  const asset = await raw(board.port, script, { cookie, "accept-encoding": "gzip" });
  assert.equal(asset.headers["content-encoding"], "gzip", "the script gzipped");
  assert.match(String(asset.headers["cache-control"]), /immutable/, "and still kept for good");

  const stream = await raw(board.port, "/events", { cookie, "accept-encoding": "gzip" }, 1);
  assert.equal(stream.status, 200);
  assert.match(String(stream.headers["content-type"]), /^text\/event-stream/);
  assert.equal(stream.headers["content-encoding"], undefined, "the live stream is sent as it is");
});

for (const store of ["sqlite", "postgres"]) {
  test(`${store}: a page just loaded is not read again when its live stream opens; a change made before the stream opened still shows`, { skip: store === "postgres" ? pgSkip : false }, async (t) => {
    const db = store === "postgres" ? freshPgDatabase(t) : join(tempDir(t), "tasks.db");
    const { listId, taskIds } = await makeList(db, { name: "Ship it", tasks: ["Build", "Test", "Ship"] });
    const board = await serve(t, { db, person: "ann" });
    const { page, console } = await browse(t);
    /** @type {string[]} */
    const reads = [];
    page.on("request", (r) => {
      if (r.url().includes("part=main")) reads.push(r.url());
    });
    await withEvidence(board, console, async () => {
      await signIn(page, board);

      // A quiet store: the page is read once, its stream opens, and no
      // second read follows.
      const opened = page.waitForRequest((r) => r.url().includes("/events"));
      await open(page, board, `/lists/${listId}`);
      assert.match((await opened).url(), /\/events\?since=\d+$/, "the stream opens from the count the page was read at");
      await waitForCard(page, taskIds[0], "todo", { column: "todo" });
      await delay(1500);
      assert.deepEqual(reads, [], "no read of the page as its stream opened");
      assert.equal(await page.locator("#offline").isHidden(), true, "the page is live");

      // A change, then the page hears of it (one read).
      await cli(db, "a1", "task_claims", "claim_next", { list_id: listId });
      await waitForCard(page, taskIds[0], "in_progress", { column: "running" });
      assert.ok(reads.length >= 1, "a change is read");

      // A change made after the page was read and before its stream opens
      // (the stream held back until the change is in): the stream tells it
      // at once.
      await page.route("**/events*", async (route) => {
        await cli(db, "a2", "task_claims", "claim_next", { list_id: listId });
        await route.continue();
      });
      reads.length = 0;
      await page.reload();
      await waitForCard(page, taskIds[1], "in_progress", { column: "running", timeoutMs: 8000 });
      assert.ok(reads.length >= 1, "the page read itself because the stream said it was behind");
    });
  });
}

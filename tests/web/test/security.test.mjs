// @ts-check
// The board's doors, over plain HTTP from Node: every request
// authenticated (the printed token becomes an HttpOnly, SameSite=Strict
// cookie), a wrong Host refused (DNS rebinding), a cross-site or
// origin-less state change refused and nothing changed, the CSP on every
// answer and no inline script in any page; beyond loopback only with a
// token file.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cli, makeList } from "../lib/agents.mjs";
import { tempDir } from "../lib/env.mjs";
import { form, http } from "../lib/http.mjs";
import { serve, serveRefused } from "../lib/server.mjs";

/**
 * The approval state of `listId`, as an agent reads it.
 * @param {string} db
 * @param {string} listId
 */
async function approvalState(db, listId) {
  return (await cli(db, "observer", "task_lists", "get", { list_id: listId })).list.approval.state;
}

/**
 * Checks the headers every answer carries.
 * @param {import("node:http").IncomingHttpHeaders} headers
 * @param {string} what
 */
function assertSafeHeaders(headers, what) {
  const csp = String(headers["content-security-policy"] ?? "");
  for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "form-action 'self'", "base-uri 'none'"]) {
    assert.ok(csp.includes(directive), `${what}: the CSP has ${directive}: ${csp}`);
  }
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, `${what}: the CSP allows no inline script`);
  assert.equal(headers["x-content-type-options"], "nosniff", what);
  assert.equal(String(headers["x-frame-options"]).toUpperCase(), "DENY", what);
  assert.equal(headers["referrer-policy"], "same-origin", what);
}

/**
 * Checks a page has no inline script, inline style or event handler.
 * @param {string} html
 * @param {string} what
 */
function assertNoInlineScript(html, what) {
  assert.match(html, /^<!doctype html>/i, what);
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) assert.match(tag, /\bsrc="\/assets\//, `${what}: every script is an asset: ${tag}`);
  assert.doesNotMatch(html, /<script\b[^>]*>[^<]+<\/script>/i, `${what}: no script body`);
  assert.doesNotMatch(html, /<[^>]*\son[a-z]+\s*=/i, `${what}: no on* handler`);
  assert.doesNotMatch(html, /<[^>]*\sstyle\s*=/i, `${what}: no style attribute`);
  assert.doesNotMatch(html, /javascript:/i, `${what}: no javascript: URL`);
}

test("the board answers only the token's holder, on its own host, and changes nothing for another site", async (t) => {
  const db = join(tempDir(t), "tasks.db");
  const { listId, taskIds } = await makeList(db, { name: "Deploy", tasks: ["Build", "Ship"], requiresApproval: true });
  const board = await serve(t, { db, person: "ann" });
  const { port, token } = board;
  assert.match(token, /^\S{20,}$/, "a long random token");

  // No token, a wrong token: 401, with the component's short page and the headers.
  const anonymous = await http(port, "GET", "/");
  assert.equal(anonymous.status, 401);
  assertSafeHeaders(anonymous.headers, "401");
  assert.equal(anonymous.headers["set-cookie"], undefined);
  assert.equal((await http(port, "GET", `/lists/${listId}`, { headers: { cookie: `tasklists-${port}=wrong${token}` } })).status, 401);
  assert.equal((await http(port, "GET", "/?token=wrong")).status, 401);
  assert.equal((await http(port, "GET", "/events")).status, 401, "the live events need the token too");

  // The token in the URL: 303 to the same page without it, and the cookie.
  const login = await http(port, "GET", `/lists/${listId}?view=order&token=${token}`);
  assert.equal(login.status, 303);
  assert.equal(login.headers.location, `/lists/${listId}?view=order`);
  const [setCookie] = login.headers["set-cookie"] ?? [];
  assert.ok(setCookie, "a cookie is set");
  const parts = setCookie.split(";").map((p) => p.trim().toLowerCase());
  // A session of its own, never the token: another service on this host
  // (browsers send it a host's cookies whatever the port) gets nothing it
  // could call the tools with.
  assert.match(setCookie.split(";")[0], new RegExp(`^tasklists-${port}=[0-9a-f]{64}$`));
  assert.ok(!setCookie.includes(token), setCookie);
  assert.ok(parts.includes("httponly"), setCookie);
  assert.ok(parts.includes("samesite=strict"), setCookie);
  assert.ok(parts.includes("path=/"), setCookie);
  const cookie = setCookie.split(";")[0];
  const session = cookie.split("=")[1];
  assert.equal((await http(port, "POST", "/mcp", { headers: { authorization: `Bearer ${session}`, "content-type": "application/json" }, body: "{}" })).status, 401, "a session is no token at /mcp");

  // With the cookie, the pages load: headers, and no inline script in any.
  for (const path of ["/", `/lists/${listId}`, `/lists/${listId}?view=order`, `/tasks/${taskIds[0]}`, `/lists/${listId}/audit`]) {
    const page = await http(port, "GET", path, { headers: { cookie } });
    assert.equal(page.status, 200, `${path}: ${page.body.slice(0, 300)}`);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    assertSafeHeaders(page.headers, path);
    assert.equal(page.headers["cache-control"], "no-store", path);
    assertNoInlineScript(page.body, path);
  }
  assert.equal((await http(port, "GET", "/", { headers: { authorization: `Bearer ${token}` } })).status, 200, "a bearer token works too");

  // A wrong Host (a DNS-rebinding page's): refused, even with the cookie; loopback names pass.
  for (const host of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, "127.0.0.1", `localhost:${port + 1}`]) {
    const answer = await http(port, "GET", "/", { headers: { host, cookie } });
    assert.equal(answer.status, 421, `Host ${host}: ${answer.status}`);
    assertSafeHeaders(answer.headers, `Host ${host}`);
  }
  const rebindLogin = await http(port, "GET", `/?token=${token}`, { headers: { host: `evil.example:${port}` } });
  assert.equal(rebindLogin.status, 421);
  assert.equal(rebindLogin.headers["set-cookie"], undefined, "no cookie for a foreign host");
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
    assert.equal((await http(port, "GET", "/", { headers: { host, cookie } })).status, 200, `Host ${host}`);
  }

  // A state change from another site, or without an Origin: 403, and the plan is still pending.
  const approve = form({ action: "approve", target: listId, confirmed: "1", return: `/lists/${listId}` });
  for (const origin of [`http://evil.example`, `http://localhost:${port + 1}`, "null", undefined]) {
    const headers = { ...approve.headers, cookie, ...(origin === undefined ? {} : { origin }) };
    const answer = await http(port, "POST", "/act", { headers, body: approve.body });
    assert.equal(answer.status, 403, `Origin ${origin}: ${answer.status} ${answer.body.slice(0, 200)}`);
    assert.equal(await approvalState(db, listId), "pending", `Origin ${origin}: nothing changed`);
  }
  const noCookie = await http(port, "POST", "/act", { headers: { ...approve.headers, origin: `http://127.0.0.1:${port}` }, body: approve.body });
  assert.equal(noCookie.status, 401);
  assert.equal(await approvalState(db, listId), "pending");

  // The same form from the board's own origin does it.
  const own = await http(port, "POST", "/act", { headers: { ...approve.headers, cookie, origin: `http://127.0.0.1:${port}` }, body: approve.body });
  assert.equal(own.status, 303, own.body.slice(0, 300));
  assert.equal(own.headers.location, `/lists/${listId}`);
  assert.equal(await approvalState(db, listId), "approved");
});

test("the board refuses to listen beyond loopback without a token file; with one and --allow-host it answers the file's people by that name only", async (t) => {
  const dir = tempDir(t);
  const db = join(dir, "tasks.db");
  const refused = await serveRefused({ db, args: ["--listen", "0.0.0.0:0"] });
  assert.equal(refused.code, 2, `exit code; stderr: ${refused.stderr}`);
  assert.equal(refused.stdout, "", "no URL printed");
  assert.match(refused.stderr, /--token-file/, "it says how");

  const tokens = join(dir, "tokens");
  const bob = randomBytes(24).toString("hex");
  writeFileSync(tokens, `bob ${bob}\n`, { mode: 0o600 });
  const board = await serve(t, { db, person: "ann", args: ["--listen", "0.0.0.0:0", "--token-file", tokens, "--allow-host", "board.test"] });
  assert.ok(!board.url.includes(bob), "the printed line never shows a token of the file");
  const host = `board.test:${board.port}`;
  assert.equal((await http(board.port, "GET", "/", { headers: { host } })).status, 401, "no token");
  const page = await http(board.port, "GET", "/", { headers: { host, authorization: `Bearer ${bob}` } });
  assert.equal(page.status, 200);
  assert.match(page.body, /data-person="bob"/, "the token's holder is the person");
  // Listening on every address names no host by itself: only --allow-host's.
  const other = await http(board.port, "GET", "/", { headers: { authorization: `Bearer ${bob}` } });
  assert.equal(other.status, 421, "Host 127.0.0.1:PORT is not a name of this board");
});

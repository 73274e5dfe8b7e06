// @ts-check
// The deny-all WASI: the component imports nothing but its store, its
// clock and the WASI interfaces std needs, and every one of those is
// served with nothing behind it.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ExitCalled, StderrCapture, denyAllWasi } from "../dist/wasi.js";
import { PACKAGE } from "./helpers.mjs";

/** The interfaces the transpiled component imports, from jco's own declaration of them. */
function componentImports() {
  const declared = readFileSync(join(PACKAGE, "generated", "tasklists.d.ts"), "utf8");
  const object = declared.slice(declared.indexOf("export interface ImportObject"), declared.indexOf("export interface Root"));
  return [...object.matchAll(/'([^']+)@[\d.]+':/g)].map((m) => m[1]).filter((name) => name !== "tasklists:component/types");
}

test("the component imports only the store, the clock and deny-all WASI", () => {
  const imports = componentImports();
  const served = new Set([...Object.keys(denyAllWasi(new StderrCapture(16))), "tasklists:component/store", "tasklists:component/clock"]);
  assert.ok(imports.length > 2);
  for (const name of imports) assert.ok(served.has(name), `${name} is imported and served by the deny-all WASI`);
  for (const name of imports) {
    assert.doesNotMatch(name, /^wasi:(filesystem|sockets|http|clocks)\//, `${name}: no files, network or wall time`);
  }
});

test("no environment, no exit, no stdout; stderr is captured and bounded", (t) => {
  process.env.TASKLISTS_SECRET_FOR_TEST = "must not leak";
  t.after(() => delete process.env.TASKLISTS_SECRET_FOR_TEST);
  const stderr = new StderrCapture(16);
  // The imports as jco calls them (the library types them loosely).
  const wasi = /** @type {any} */ (denyAllWasi(stderr));
  assert.deepEqual(wasi["wasi:cli/environment"].getEnvironment(), []);
  assert.throws(() => wasi["wasi:cli/exit"].exit({ tag: "ok" }), ExitCalled);
  assert.equal(wasi["wasi:cli/terminal-stdout"].getTerminalStdout(), undefined);

  /** @type {unknown[]} */
  const written = [];
  const original = process.stdout.write;
  process.stdout.write = /** @type {typeof original} */ (
    (/** @type {any} */ chunk, /** @type {any[]} */ ...rest) => (written.push(chunk), original.call(process.stdout, chunk, ...rest))
  );
  try {
    wasi["wasi:cli/stdout"].getStdout().write(new TextEncoder().encode("to the protocol?"));
  } finally {
    process.stdout.write = original;
  }
  assert.deepEqual(written, [], "the component's stdout reaches nothing");

  const err = wasi["wasi:cli/stderr"].getStderr();
  err.write(new TextEncoder().encode("panicked at src/lib.rs: a long panic message"));
  assert.equal(stderr.text(), "panicked at src/");
  assert.ok(stderr.written);
  stderr.clear();
  assert.equal(stderr.text(), "");
});

test("randomness comes from the platform and differs call to call", () => {
  const wasi = /** @type {any} */ (denyAllWasi(new StderrCapture(16)));
  const a = wasi["wasi:random/random"].getRandomU64();
  const b = wasi["wasi:random/random"].getRandomU64();
  assert.equal(typeof a, "bigint");
  assert.notEqual(a, b);
});

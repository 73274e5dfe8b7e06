// @ts-check
// The build's rewrites of jco's glue: the store, clock and random imports
// are the core wasm's imports themselves, without jco's async task
// bookkeeping (scripts/direct-imports.mjs), and every JSPI probe goes
// through a helper that throws an error made in advance
// (scripts/jspi-probe.mjs); nothing else changes. A glue that differs
// from the pinned jco's fails the build instead of being half rewritten.
// (What the rewritten host does is what every other test checks: they
// run on it.)

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { DIRECT_IMPORTS, directHostImports } from "../scripts/direct-imports.mjs";
import { quietJspiProbes } from "../scripts/jspi-probe.mjs";

const GENERATED = new URL("../generated/", import.meta.url);
const plain = readFileSync(new URL("tasklists.plain.js", GENERATED), "utf8");
const built = readFileSync(new URL("tasklists.js", GENERATED), "utf8");

/** The trampoline numbers of the imports of `prefix`'s interface, by the names jco gives them. */
function trampolines(/** @type {string} */ source, /** @type {string} */ prefix) {
  return [...source.matchAll(/^ {2}_trampoline(\d+)\.fnName = '([^']+)';$/gm)].filter((m) => m[2].startsWith(prefix)).map((m) => m[1]);
}

test("the built glue is jco's with the store, clock and random imports called directly", () => {
  assert.equal(quietJspiProbes(directHostImports(plain)), built);
  const direct = ["tasklists:component/store@", "tasklists:component/clock@", "wasi:random/random@"].flatMap((i) => trampolines(plain, i));
  assert.equal(direct.length, DIRECT_IMPORTS);
  for (const n of direct) {
    assert.match(plain, new RegExp(`let trampoline${n} = _trampoline${n}\\.manuallyAsync \\? `));
    assert.match(built, new RegExp(`let trampoline${n} = _trampoline${n};\\n`));
  }
  // Every other import (WASI's streams, exit, …) keeps jco's lowering.
  const lowered = (/** @type {string} */ s) => s.split("_lowerImportBackwardsCompat.bind(").length - 1;
  assert.equal(lowered(built), lowered(plain) - 2 * DIRECT_IMPORTS);
  assert.ok(lowered(built) > 0);
});

test("a glue whose task bookkeeping differs fails the build, naming the import", () => {
  const changed = plain.replace("        task.setParentSubtask(subtask);\n", "        task.adoptSubtask(subtask);\n");
  assert.notEqual(changed, plain);
  assert.throws(() => directHostImports(changed), /direct imports: the task creation of .+ differs/);
  const unquieted = plain.replace("  const _debugLog = () => {};", "  const _debugLog = console.debug;");
  assert.throws(() => directHostImports(unquieted), /direct imports: the quieted _debugLog is not there once/);
});

test("every JSPI probe of the built glue goes through the helper, whose catch takes the plain export", () => {
  const probes = plain.split("WebAssembly.promising(").length - 1;
  assert.ok(probes > 0);
  assert.equal(built.split("WebAssembly.promising(").length - 1, 0);
  assert.equal(built.split(" = _promising(").length - 1, probes);
  const changed = plain.replace(/( {2}\} catch\(err\) \{\n {4}\w+ = )exports1\.cabi_realloc;/, "$1undefined;");
  assert.notEqual(changed, plain);
  assert.throws(() => quietJspiProbes(changed), /jspi probes: the catch of \w+ does not take exports1\.cabi_realloc/);
});

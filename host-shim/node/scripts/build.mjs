#!/usr/bin/env node
// Builds the Node host from a fresh clone, with no wasmtime involved:
//
//   1. the component (`cargo build -p tasklists-guest --target wasm32-wasip2`,
//      adding the target with rustup when it is missing), or the prebuilt
//      one named by TASKLISTS_GUEST_WASM;
//   2. the native host shim addon (`cargo build -p tasklists-node-addon`),
//      copied to native/tasklists.node;
//   3. the component transpiled by jco (pinned in package-lock.json) into
//      generated/, synchronous instantiation, no WASI shim (the host brings
//      its own deny-all WASI), with jco's debug logging made a no-op;
//   4. the library compiled by tsc into dist/.
//
// Each step says what it does; a failing step stops with its command.

import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { transpile, writeFiles } from "@bytecodealliance/jco-transpile";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, "..");
const root = resolve(pkg, "../..");
const target = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(root, "target");
const WASM_TARGET = "wasm32-wasip2";

function step(message) {
  process.stderr.write(`node-host build: ${message}\n`);
}

function run(command, args, options = {}) {
  const shown = [command, ...args].join(" ");
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.error || result.status !== 0) {
    const why = result.error ? result.error.message : `exit status ${result.status}`;
    throw new Error(`\`${shown}\` failed (${why})`);
  }
}

/** The component: prebuilt, or built for wasm32-wasip2 like the wasmtime host's build.rs does. */
function component() {
  const prebuilt = process.env.TASKLISTS_GUEST_WASM;
  if (prebuilt) {
    step(`using the prebuilt component ${prebuilt} (TASKLISTS_GUEST_WASM)`);
    return resolve(prebuilt);
  }
  const installed = execFileSync("rustup", ["target", "list", "--installed"], { cwd: root, encoding: "utf8" });
  if (!installed.split("\n").includes(WASM_TARGET)) {
    step(`the ${WASM_TARGET} target is missing from the toolchain; adding it with rustup`);
    run("rustup", ["target", "add", WASM_TARGET]);
  }
  step(`building the component (cargo, ${WASM_TARGET}, profile guest)`);
  // The same target directory as the wasmtime host's nested guest build,
  // so whichever host is built second reuses the component.
  const guestTarget = join(target, "guest");
  run("cargo", ["build", "--locked", "-p", "tasklists-guest", "--profile", "guest", "--target", WASM_TARGET, "--target-dir", guestTarget]);
  return join(guestTarget, WASM_TARGET, "guest", "tasklists_guest.wasm");
}

/** The addon, as Node loads it: a shared library named `.node`. */
function addon() {
  step("building the native host shim addon (cargo, release)");
  run("cargo", ["build", "--locked", "--release", "-p", "tasklists-node-addon"]);
  const built = { linux: "libtasklists_node_addon.so", darwin: "libtasklists_node_addon.dylib", win32: "tasklists_node_addon.dll" }[process.platform];
  if (!built) throw new Error(`no addon file name is known for platform ${process.platform}`);
  mkdirSync(join(pkg, "native"), { recursive: true });
  copyFileSync(join(target, "release", built), join(pkg, "native", "tasklists.node"));
}

async function transpiled(componentPath) {
  step("transpiling the component with jco (synchronous instantiation, no WASI shim)");
  const out = join(pkg, "generated");
  rmSync(out, { recursive: true, force: true });
  const { files } = await transpile(componentPath, {
    name: "tasklists",
    instantiation: "sync",
    wasiShim: false,
    emitTypescriptDeclarations: true,
    outDir: out,
  });
  await writeFiles(files);
  quietDebugLog(join(out, "tasklists.js"));
}

/**
 * jco's glue builds an argument object for `_debugLog` at every step of
 * every import call and checks `process.env.JCO_DEBUG` inside it; in our
 * worker the environment is always empty, so it never logs. Making it a
 * no-op lets V8 drop those allocations: a third of a claim's time on the
 * Node host (measured with bench/latency.mjs). The pinned jco's exact
 * definition is required, so a jco upgrade that changes it fails here
 * instead of silently skipping the rewrite.
 */
function quietDebugLog(glue) {
  const definition = [
    "  const _debugLog = (...args) => {",
    "    if (!globalThis?.process?.env?.JCO_DEBUG) { return; }",
    "    console.debug(...args);",
    "  };",
  ].join("\n");
  const source = readFileSync(glue, "utf8");
  const found = source.split(definition).length - 1;
  if (found !== 1) {
    throw new Error(`expected jco's _debugLog definition once in ${glue}, found it ${found} times: check the glue of this jco version`);
  }
  writeFileSync(glue, source.replace(definition, "  // Rewritten by scripts/build.mjs: the worker has no environment, so\n  // JCO_DEBUG is never set.\n  const _debugLog = () => {};"));
}

function typescript() {
  step("compiling the library (tsc)");
  run(process.execPath, [join(pkg, "node_modules", "typescript", "bin", "tsc"), "-p", pkg]);
}

try {
  if (!existsSync(join(pkg, "node_modules", "@bytecodealliance", "jco-transpile"))) {
    throw new Error("the npm packages are missing: run `npm ci` in host-shim/node (or `bash scripts/node-host`)");
  }
  const wasm = component();
  addon();
  await transpiled(wasm);
  typescript();
  step("done: host-shim/node/dist (library), bin/tasklists-node (MCP server)");
} catch (e) {
  step(`failed: ${e.message}`);
  process.exit(1);
}

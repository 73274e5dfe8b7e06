// The host's hot imports (`store`, `clock`, and WASI's `random`, which
// makes ids and claim tokens) called directly by the component's core
// wasm, as a rewrite of jco's glue at build time.
//
// The pinned jco wraps every import call in the bookkeeping of the
// component model's async tasks: `_lowerImportBackwardsCompat` creates a
// subtask, the import's trampoline creates a task under it, enters it,
// sets the global "current task", tracks the call as a host operation,
// resolves and exits the task. Each store statement pays for all of it
// (in a CPU profile of claims, jco's glue was a quarter of the call, most
// of it this; bench/latency.mjs shows the call with and without it),
// though these imports are synchronous host functions that never block,
// never return a promise and never lend a handle beyond the call.
//
// The rewrite keeps each trampoline's own lifting, lowering, resource
// borrows and error mapping (a store error as the WIT `store-error`, a
// trap marked as jco marks it) and drops only the task bookkeeping: the
// trampoline is the core wasm's import, and it runs under a task that
// records nothing. Every piece it replaces is matched exactly; anything
// else (another jco version's glue) fails the build with what differed.

/** The interfaces whose imports are rewritten: all synchronous host functions. */
const INTERFACES = ["tasklists:component/store@", "tasklists:component/clock@", "wasi:random/random@"];

/** How many functions those interfaces import (store: 7 + dialect, clock: 2, random: 1). */
export const DIRECT_IMPORTS = 10;

/** What jco's `_debugLog` is after `quietDebugLog`: the stand-in task goes right after it. */
const QUIET_DEBUG_LOG = "  const _debugLog = () => {};";

/** A task that records nothing, for the rewritten trampolines. */
const NO_TASK = [
  "  // Set by scripts/direct-imports.mjs: the task the host's own imports run",
  "  // under, which records nothing (they are synchronous and never block).",
  "  const NO_TASK = Object.freeze({ id: () => 0, componentIdx: () => 0, getParentSubtask: () => undefined, setErrored() {}, reject() {}, resolve() {}, exit() {} });",
].join("\n");

const TASK_START = "    let parentTask;\n";
const TASK_END = "    const started = task.enterSync();\n";
/** The task creation block jco writes in a host import's trampoline, between TASK_START and TASK_END. */
const TASK_BLOCK = /^ {4}let parentTask;\n {4}let task;\n {4}let subtask;\n[\s\S]*?\n {4}taskCreation: \{\n[\s\S]*?task\.setParentSubtask\(subtask\);\n {6}\}\n {4}\}\n {4}\n {4}const started = task\.enterSync\(\);\n$/;
/** The host call inside its task's bookkeeping; group 1 is the call. */
const TRACKED_CALL = /_withGlobalCurrentTaskMeta\(\{\n\s*componentIdx: task\.componentIdx\(\),\n\s*taskID: task\.id\(\),\n\s*fn: \(\) => _trackHostOperation\(\(\) => (.*)\),\n\s*\}\)/g;

/** @returns {never} */
function fail(/** @type {string} */ what) {
  throw new Error(`direct imports: ${what}; check the glue of this jco version (scripts/direct-imports.mjs)`);
}

/** Where `text` first is in `source` from `from`; fails when it is not there. */
function indexOnce(/** @type {string} */ source, /** @type {string} */ text, from = 0) {
  const at = source.indexOf(text, from);
  if (at < 0) fail(`${JSON.stringify(text)} is missing`);
  return at;
}

/** The glue `source` (already quieted) with the store, clock and random imports called directly. */
export function directHostImports(/** @type {string} */ source) {
  if (source.split(QUIET_DEBUG_LOG).length !== 2) fail("the quieted _debugLog is not there once");
  const names = [...source.matchAll(/^ {2}_trampoline(\d+)\.fnName = '([^']+)';$/gm)]
    .filter(([, , name]) => INTERFACES.some((i) => name.startsWith(i)))
    .map(([, n, name]) => ({ n, name }));
  if (names.length !== DIRECT_IMPORTS) fail(`expected ${DIRECT_IMPORTS} store and clock imports, found ${names.length}`);
  let out = source;
  for (const { n, name } of names) {
    // The trampoline: its task bookkeeping out, the host call direct.
    const start = indexOnce(out, `  const _trampoline${n} = function(`);
    const end = indexOnce(out, `  _trampoline${n}.fnName = `, start);
    let body = out.slice(start, end);
    const from = indexOnce(body, TASK_START);
    const to = indexOnce(body, TASK_END, from) + TASK_END.length;
    if (!TASK_BLOCK.test(body.slice(from, to))) fail(`the task creation of ${name} differs`);
    body = `${body.slice(0, from)}    const task = NO_TASK;\n${body.slice(to)}`;
    let calls = 0;
    body = body.replace(TRACKED_CALL, (/** @type {string} */ _, /** @type {string} */ call) => {
      calls += 1;
      return call;
    });
    if (calls !== 1) fail(`${name} makes ${calls} tracked host calls, not one`);
    if (/\b(parentTask|subtask|_withGlobalCurrentTaskMeta|_trackHostOperation)\b/.test(body)) fail(`${name} still refers to its task's bookkeeping`);
    out = out.slice(0, start) + body + out.slice(end);
    // The core import: the trampoline itself, not its lowering through a subtask.
    const binding = indexOnce(out, `  let trampoline${n} = _trampoline${n}.manuallyAsync ? `);
    const first = indexOnce(out, `    importFn: _trampoline${n},\n`, binding);
    const second = indexOnce(out, `    importFn: _trampoline${n},\n`, first + 1);
    const bindingEnd = indexOnce(out, "\n  },\n  );\n", second) + "\n  },\n  );\n".length;
    const lowered = out.slice(binding, bindingEnd);
    for (const sync of ["isAsync: false,", "funcTypeIsAsync: false,", "_lowerImportBackwardsCompat.bind("]) {
      if (lowered.split(sync).length !== 3) fail(`the binding of ${name} lacks ${sync} twice`);
    }
    out = `${out.slice(0, binding)}  let trampoline${n} = _trampoline${n};\n${out.slice(bindingEnd)}`;
  }
  return out.replace(QUIET_DEBUG_LOG, `${QUIET_DEBUG_LOG}\n${NO_TASK}`);
}

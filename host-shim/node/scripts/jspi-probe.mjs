// jco's glue asks for JSPI (`WebAssembly.promising`) once per core export
// at every instantiation, in a `try`, and takes the plain export in its
// `catch` when the runtime has none (Node 20 and 22). Where it is missing
// each probe throws a TypeError whose message V8 builds by parsing the
// enclosing function again to name the callee: here the instantiation
// generator, some 13,000 lines, so every probe cost milliseconds and an
// instance took 150-450 ms (bench/latency.mjs, CPU profile). The rewrite
// calls a helper that throws one error made in advance instead: the same
// `catch` takes the same plain export, and a runtime with JSPI gets its
// promising export as before. Every probe is matched exactly; anything
// else fails the build.

/** What jco's `_debugLog` is after `quietDebugLog`: the helper goes right after it. */
const QUIET_DEBUG_LOG = "  const _debugLog = () => {};";

const HELPER = [
  "  // Set by scripts/jspi-probe.mjs: JSPI's `promising` where the runtime has",
  "  // it; else a throw of one error made in advance, which the probe's",
  "  // `catch` takes as before (a new TypeError would parse this file's",
  "  // instantiation again to word its message).",
  "  const NO_JSPI = new TypeError('WebAssembly.promising is not available');",
  "  const _promising = typeof WebAssembly.promising === 'function' ? WebAssembly.promising : () => { throw NO_JSPI; };",
].join("\n");

/** One probe: `x = WebAssembly.promising(e);` in a `try` whose `catch` sets `x = e;`. */
const PROBE = /( {4}(\w+) = )WebAssembly\.promising\(([^\n]+)\);\n( {2}\} catch\(err\) \{\n {4}(\w+) = ([^\n]+);\n)/g;

/** The glue `source` (already quieted) with every JSPI probe through `_promising`. */
export function quietJspiProbes(/** @type {string} */ source) {
  if (source.split(QUIET_DEBUG_LOG).length !== 2) throw new Error("jspi probes: the quieted _debugLog is not there once (scripts/jspi-probe.mjs)");
  const all = source.split("WebAssembly.promising(").length - 1;
  let probes = 0;
  const out = source.replace(PROBE, (whole, set, name, exported, rest, fallbackName, fallback) => {
    if (name !== fallbackName || exported !== fallback) {
      throw new Error(`jspi probes: the catch of ${name} does not take ${exported}; check the glue of this jco version (scripts/jspi-probe.mjs)`);
    }
    probes += 1;
    return `${set}_promising(${exported});\n${rest}`;
  });
  if (probes === 0 || probes !== all) {
    throw new Error(`jspi probes: ${probes} of ${all} WebAssembly.promising calls are probes of the expected shape; check the glue of this jco version (scripts/jspi-probe.mjs)`);
  }
  return out.replace(QUIET_DEBUG_LOG, `${QUIET_DEBUG_LOG}\n${HELPER}`);
}

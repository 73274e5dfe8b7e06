// @ts-check
// The tests' fault injection: a Node host whose workers wrap their store
// connection (test/faulty-store.mjs), and `injectFault` to make that store
// misbehave on a statement or a commit of the next call. Only the tests
// have it: the library's published API carries no fault injection.

import { openWithStoreWrapper } from "../dist/host.js";
import { AFTER_MS, BEFORE_MS, FAULT_WORDS, KIND, KINDS, ON_STATEMENT } from "./faulty-store.mjs";

/**
 * What the store does wrong on purpose.
 *
 * - `trap` / `hang` on the `onStatement`-th statement of the next call
 *   (1-based, every statement counted: `execute`, `query`, `pipeline`,
 *   `queryThenCommit`): throws as a host
 *   bug would, or spins forever (a runaway call).
 * - `slow-commit`: the next write commit sleeps `beforeMs` before sending
 *   COMMIT and `afterMs` after it returned, in native code, where
 *   terminating the worker cannot cut it short, so a test can land a
 *   deadline inside the commit.
 * - `trap-after-commit`: the next write commit succeeds, then the import
 *   throws as a host bug would.
 *
 * @typedef {{ kind: "trap" | "hang"; onStatement: number }
 *   | { kind: "slow-commit"; beforeMs?: number; afterMs?: number }
 *   | { kind: "trap-after-commit" }} StoreFault
 */

/**
 * @typedef {import("../dist/index.js").NodeHost & {
 *   injectFault(fault: StoreFault | null): Promise<void>
 * }} FaultyHost A host whose store misbehaves when told to.
 */

/**
 * Opens a host (as `NodeHost.open` does) whose store can be made to
 * misbehave with `host.injectFault(fault)` (`null` disarms).
 *
 * @param {import("../dist/index.js").HostOptions} options
 * @returns {Promise<FaultyHost>}
 */
export async function openWithFaults(options) {
  const shared = new SharedArrayBuffer(FAULT_WORDS * Int32Array.BYTES_PER_ELEMENT);
  const module = new URL("./faulty-store.mjs", import.meta.url).href;
  const host = await openWithStoreWrapper(options, { module, shared });
  const fault = new Int32Array(shared);
  return Object.assign(host, {
    /** @param {StoreFault | null} armed */
    async injectFault(armed) {
      Atomics.store(fault, KIND, KINDS.none);
      if (!armed) return;
      Atomics.store(fault, ON_STATEMENT, "onStatement" in armed ? armed.onStatement : 0);
      Atomics.store(fault, BEFORE_MS, "beforeMs" in armed ? (armed.beforeMs ?? 0) : 0);
      Atomics.store(fault, AFTER_MS, "afterMs" in armed ? (armed.afterMs ?? 0) : 0);
      // Last: a worker reads the numbers only once the kind is set.
      Atomics.store(fault, KIND, KINDS[armed.kind]);
    },
  });
}

// @ts-check
// Runs in the Node host's worker (never in the library): wraps the store
// connection the component's imports use so that a test can make it
// misbehave on purpose. The test arms a fault through memory it shares
// with every worker of its host (test/faults.mjs), so arming needs no
// message and survives a worker's restart; a fault fires once, then
// disarms itself.

/** @typedef {import("../dist/addon.js").NativeStore} NativeStore */

/** The words of the shared fault: which fault, and its numbers. */
export const KIND = 0;
export const ON_STATEMENT = 1;
export const BEFORE_MS = 2;
export const AFTER_MS = 3;
export const FAULT_WORDS = 4;

/** The fault kinds, as stored in {@link KIND}. */
export const KINDS = Object.freeze({ none: 0, trap: 1, hang: 2, "slow-commit": 3, "trap-after-commit": 4 });

/**
 * `store`, with the fault armed in `shared` applied: `trap` throws as a
 * host bug would and `hang` spins forever on the armed statement of a
 * call (every statement counted from 1: `execute`, `query`, `pipeline`,
 * `queryThenCommit`); `slow-commit`
 * slows the next write commit natively; `trap-after-commit` throws once
 * the next write commit succeeded.
 *
 * @param {NativeStore} store
 * @param {SharedArrayBuffer} shared
 * @returns {NativeStore}
 */
export function wrap(store, shared) {
  const fault = new Int32Array(shared);
  let statements = 0;
  /** Open write transactions: only a write's commit is slowed or trapped. */
  const writes = new Set();
  /** @param {number} kind fires `kind` if it is armed: disarms it and says whether it did. */
  const take = (kind) => Atomics.compareExchange(fault, KIND, kind, KINDS.none) === kind;
  const onStatement = () => {
    const kind = Atomics.load(fault, KIND);
    if (kind !== KINDS.trap && kind !== KINDS.hang) return;
    statements += 1;
    if (statements !== Atomics.load(fault, ON_STATEMENT) || !take(kind)) return;
    if (kind === KINDS.trap) throw new Error(`injected host fault on statement #${statements}`);
    // A runaway: only terminating the worker stops it.
    for (;;);
  };
  /** @type {Partial<NativeStore>} */
  const faulty = {
    beginCall(timeLimitMs) {
      statements = 0;
      store.beginCall(timeLimitMs);
    },
    begin(write) {
      const tx = store.begin(write);
      if (write) writes.add(tx);
      return tx;
    },
    execute(tx, sql, params) {
      onStatement();
      return store.execute(tx, sql, params);
    },
    query(tx, sql, params) {
      onStatement();
      return store.query(tx, sql, params);
    },
    // A statement sent with the next one (PostgreSQL) or run at once
    // (SQLite): a statement of the call all the same.
    pipeline(tx, sql, params) {
      onStatement();
      return store.pipeline(tx, sql, params);
    },
    queryThenCommit(tx, sql, params) {
      onStatement();
      writes.delete(tx);
      return store.queryThenCommit(tx, sql, params);
    },
    commit(tx) {
      const write = writes.delete(tx);
      if (write && take(KINDS["slow-commit"])) store.delayNextCommit(Atomics.load(fault, BEFORE_MS), Atomics.load(fault, AFTER_MS));
      store.commit(tx);
      if (write && take(KINDS["trap-after-commit"])) throw new Error("injected host fault after a commit");
    },
    abandon(tx) {
      writes.delete(tx);
      store.abandon(tx);
    },
  };
  return new Proxy(store, {
    get(target, name) {
      if (Object.hasOwn(faulty, name)) return Reflect.get(faulty, name);
      const value = Reflect.get(target, name);
      // The addon's methods need the native object as `this`.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

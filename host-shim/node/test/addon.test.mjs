// @ts-check
// The addon's store, directly: values of every kind cross N-API (as the
// payloads the host library passes in, as jco's shape of the packed WIT
// `rows` out) and come back exactly as sent (surrogate pairs, NUL, empty
// texts, integers beyond 2^53, reals, blobs, NULL); store errors carry
// their WIT case; the SQL sandbox holds (no ATTACH).

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { addon } from "../dist/addon.js";
import { tempDir } from "./helpers.mjs";

/**
 * Packed rows read back cell by cell, as the component reads them
 * (`guest/src/store/packed.rs`), with every list checked to be used whole.
 * @param {import("../dist/addon.js").SqlRows} packed
 */
function unpackRows(packed) {
  const { width, cells, integers, reals, text, textEnds, blobs } = packed;
  assert.ok(integers instanceof BigInt64Array && reals instanceof Float64Array && textEnds instanceof Uint32Array, "typed arrays jco copies whole");
  const bytes = new TextEncoder().encode(text);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const at = { i: 0, r: 0, t: 0, b: 0, start: 0 };
  /** @type {Array<{tag: string, val?: unknown}>} */
  const flat = [...cells].map((kind) => {
    switch (kind) {
      case "n": return { tag: "null" };
      case "i": return { tag: "integer", val: integers[at.i++] };
      case "r": return { tag: "real", val: reals[at.r++] };
      case "t": {
        const end = textEnds[at.t++];
        const val = decoder.decode(bytes.subarray(at.start, end));
        at.start = end;
        return { tag: "text", val };
      }
      case "b": return { tag: "blob", val: blobs[at.b++] };
      default: throw new Error(`unknown cell kind ${kind}`);
    }
  });
  assert.deepEqual([at.i, at.r, at.t, at.b, at.start], [integers.length, reals.length, textEnds.length, blobs.length, bytes.length], "every list used whole");
  const rows = [];
  for (let i = 0; i < flat.length; i += width) rows.push(flat.slice(i, i + width));
  return { width, rows };
}

/** @param {import("node:test").TestContext} t */
function store(t) {
  const native = addon();
  const s = new native.Store(join(tempDir(t), "addon.db"));
  s.beginCall(10_000);
  t.after(() => s.endCall());
  return s;
}

test("every kind of value makes the round trip exactly", (t) => {
  const s = store(t);
  const tx = s.begin(false);
  const values = [
    { tag: "null" },
    { tag: "integer", val: 0n },
    { tag: "integer", val: -42n },
    { tag: "integer", val: 9007199254740993n },
    { tag: "integer", val: -9223372036854775808n },
    { tag: "real", val: 1.5 },
    { tag: "real", val: -0.000001 },
    { tag: "text", val: "" },
    { tag: "text", val: "héllo 🌍 \u0000 end" },
    { tag: "text", val: "𝄞".repeat(1000) },
    { tag: "blob", val: new Uint8Array([0, 1, 255]) },
    { tag: "text", val: "after the blob" },
  ];
  const sql = `SELECT ${values.map((_, i) => `?${i + 1} AS c${i}`).join(", ")}`;
  // The host library passes each value's payload alone (store-import.ts).
  const payloads = values.map((v) => ("val" in v && v.val !== undefined ? v.val : null));
  const { width, rows } = unpackRows(s.query(tx, sql, payloads));
  assert.equal(width, values.length);
  assert.equal(rows.length, 1);
  assert.deepEqual(rows[0], values);
  s.commit(tx);
});

test("many rows come back in order, and an empty result has its width", (t) => {
  const s = store(t);
  const tx = s.begin(true);
  s.execute(tx, "CREATE TABLE t (n INTEGER, s TEXT)", []);
  for (let i = 0; i < 300; i++) s.execute(tx, "INSERT INTO t VALUES (?1, ?2)", [BigInt(i), `row ${i} ✓`]);
  const all = unpackRows(s.query(tx, "SELECT n, s FROM t ORDER BY n", []));
  assert.equal(all.rows.length, 300);
  assert.deepEqual(all.rows[299], [{ tag: "integer", val: 299n }, { tag: "text", val: "row 299 ✓" }]);
  const none = unpackRows(s.query(tx, "SELECT n, s FROM t WHERE n < 0", []));
  assert.deepEqual(none, { width: 2, rows: [] });
  s.commit(tx);
});

test("store errors carry their WIT case, and ATTACH is refused", (t) => {
  const s = store(t);
  const tx = s.begin(true);
  assert.throws(() => s.query(tx, "SELEC nonsense", []), { code: "store:sql" });
  assert.throws(() => s.execute(tx, `ATTACH DATABASE '${join(tempDir(t), "other.db")}' AS other`, []), (/** @type {{ code: string }} */ e) => e.code.startsWith("store:"));
  s.commit(tx);
  assert.throws(() => s.commit(tx), { code: "store:invalid-state" });
});

test("a parameter the host library would never pass is a host bug, not a store error", (t) => {
  const s = store(t);
  const tx = s.begin(false);
  // An integer that is no s64: the addon's own check.
  assert.throws(() => s.query(tx, "SELECT ?1", [2n ** 64n]), { code: "host-bug" });
  // A payload of no store type, or jco's whole `{tag, val}`: napi-rs
  // refuses the argument (store-import.ts traps the call on any error
  // that is not a `store:` one).
  for (const wrong of [true, undefined, { tag: "integer", val: 1n }]) {
    assert.throws(() => s.query(tx, "SELECT ?1", [/** @type {any} */ (wrong)]), { code: "InvalidArg" });
  }
  s.commit(tx);
});

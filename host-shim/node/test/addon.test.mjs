// @ts-check
// The addon's store, directly: values of every kind cross N-API (as jco's
// shapes in, packed rows out) and come back exactly as sent (surrogate pairs, NUL, empty
// texts, integers beyond 2^53, reals, blobs, NULL); store errors carry
// their WIT case; the SQL sandbox holds (no ATTACH).

import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { addon } from "../dist/addon.js";
import { unpackRows } from "../dist/store-import.js";
import { tempDir } from "./helpers.mjs";

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
  const { columns, rows } = unpackRows(s.query(tx, sql, values));
  assert.deepEqual(columns, values.map((_, i) => `c${i}`));
  assert.equal(rows.length, 1);
  const normalized = rows[0].map((v) => (v.tag === "integer" ? { tag: "integer", val: BigInt(/** @type {bigint | number} */ (v.val)) } : v));
  assert.deepEqual(normalized, values);
  s.commit(tx);
});

test("many rows come back in order, and an empty result has its columns", (t) => {
  const s = store(t);
  const tx = s.begin(true);
  s.execute(tx, "CREATE TABLE t (n INTEGER, s TEXT)", []);
  for (let i = 0; i < 300; i++) s.execute(tx, "INSERT INTO t VALUES (?1, ?2)", [{ tag: "integer", val: BigInt(i) }, { tag: "text", val: `row ${i} ✓` }]);
  const all = unpackRows(s.query(tx, "SELECT n, s FROM t ORDER BY n", []));
  assert.equal(all.rows.length, 300);
  assert.deepEqual(all.rows[299], [{ tag: "integer", val: 299 }, { tag: "text", val: "row 299 ✓" }]);
  const none = unpackRows(s.query(tx, "SELECT n, s FROM t WHERE n < 0", []));
  assert.deepEqual(none, { columns: ["n", "s"], rows: [] });
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

test("a value jco would never pass is a host bug, not a store error", (t) => {
  const s = store(t);
  const tx = s.begin(false);
  assert.throws(() => s.query(tx, "SELECT ?1", [{ tag: "integer", val: 1.5 }]), { code: "host-bug" });
  assert.throws(() => s.query(tx, "SELECT ?1", [{ tag: "nothing" }]), { code: "host-bug" });
  s.commit(tx);
});

// @ts-check
// The Node MCP server's line decoding, piece by piece: the same cases as
// the native server's unit tests (host-shim/tasklists/src/mcp/decode.rs). What each
// whole line gets back from both servers is tests/mcp/test_malformed.py.

import assert from "node:assert/strict";
import { test } from "node:test";
import { INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, decode, topLevelId, trailingId } from "../dist/mcp-decode.js";

/** @param {string | Buffer} line */
function refusal(line) {
  const decoded = decode(Buffer.isBuffer(line) ? line : Buffer.from(line));
  assert.equal(decoded.kind, "refuse", `${line.slice(0, 80)}: ${JSON.stringify(decoded)}`);
  return decoded.kind === "refuse" ? JSON.parse(decoded.answer) : null;
}

test("only the outermost id is taken from a line that does not parse", () => {
  const id = (/** @type {string} */ text) => topLevelId(Buffer.from(text));
  assert.equal(id('{"id": 42, "x": '), 42);
  assert.equal(id('{"params":{"id":"inner"},"id":"r-1"'), "r-1");
  assert.equal(id('{"params":{"id":"inner"},"x":"\\"id\\":5"}'), null);
  assert.equal(id('{"id":"a\\"b"}'), 'a"b');
  assert.equal(id('{"id":-3}'), -3);
  assert.equal(id('{"id":null}'), null);
  assert.equal(id('{"id":1.5}'), null);
  assert.equal(id('{"id":1e3}'), null);
  assert.equal(id('{"id":99999999999999999999}'), null);
  assert.equal(id("garbage"), null);
});

test("the trailing id of an oversized line is the outermost one", () => {
  const id = (/** @type {string} */ text) => trailingId(Buffer.from(text));
  assert.equal(id('xxxxx"}}},"jsonrpc":"2.0","id":42}'), 42);
  assert.equal(id('xx","id":"t-1"}}}'), null);
  assert.equal(id('x"},"id": "r-9" , "jsonrpc":"2.0"}'), "r-9");
  assert.equal(id("xxxxxxxx"), null);
});

test("broken JSON is a parse error under the request id, wherever it is written", () => {
  const surrogate = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_items","arguments":{"action":"create","params":{"title":"cut \\ud83d"}}}}';
  const answer = refusal(surrogate);
  assert.equal(answer.id, 7);
  assert.equal(answer.error.code, PARSE_ERROR);
  assert.match(answer.error.message, /surrogate/);
  const idLast = '{"method":"tools/call","params":{"name":"task_items","arguments":{"action":"update","params":{"id":"t-123","title":"\\ud83d"}}},"jsonrpc":"2.0","id":42}';
  assert.equal(refusal(idLast).id, 42);
  const deep = `{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":${"[".repeat(300)}${"]".repeat(300)}}`;
  assert.deepEqual([refusal(deep).id, refusal(deep).error.code], ["abc", PARSE_ERROR]);
  assert.equal(refusal(Buffer.from('{"jsonrpc":"2.0","id":8,"method":"ping","params":{"x":"\xff"}}', "latin1")).id, 8);
  assert.equal(refusal("{not json").id, null);
});

test("well-formed JSON that is no request is invalid request under a null id", () => {
  for (const line of [
    '{"hello":"world"}',
    '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    '{"jsonrpc":"2.0","id":null,"method":"ping"}',
    '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    '{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}',
  ]) {
    const answer = refusal(line);
    assert.equal(answer.error.code, INVALID_REQUEST, line);
    assert.ok(Object.hasOwn(answer, "id") && answer.id === null, line);
  }
  // A JSON-RPC key written twice makes no message; another key does not matter.
  assert.equal(refusal('{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}').id, 2);
  assert.equal(decode(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","x":1,"x":2}')).kind, "message");
  // A notification nobody can read is not answered.
  const skipped = decode(Buffer.from('{"jsonrpc":"2.0","method":"tools/call","params":7}'));
  assert.equal(skipped.kind, "skip");
});

test("a served method with params of the wrong shape is invalid params", () => {
  for (const line of [
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"task_help","arguments":[1]}}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call"}',
    '{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}',
  ]) {
    const answer = refusal(line);
    assert.equal(answer.id, 3, line);
    assert.equal(answer.error.code, INVALID_PARAMS, line);
    assert.match(answer.error.message, /do not match the MCP schema/, line);
  }
});

test("a message reaches the SDK with its JSON-RPC keys only; blank lines are skipped", () => {
  const decoded = decode(Buffer.from('\uFEFF {"jsonrpc":"2.0","id":1,"method":"ping","params":null,"x":1}\r'));
  assert.deepEqual(decoded, { kind: "message", message: { jsonrpc: "2.0", id: 1, method: "ping" } });
  assert.deepEqual(decode(Buffer.from(" \t\r")), { kind: "skip", why: null });
});

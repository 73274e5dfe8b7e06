// What one line of MCP input is: a message for the SDK, nothing, or a
// JSON-RPC error to answer with, decided as the native server decides it
// (host-shim/tasklists/src/mcp/decode.rs, over serde_json and rmcp). The SDK's own
// `deserializeMessage` throws on anything it cannot read and its transport
// then answers nothing, so a client waits on that id for its whole timeout;
// `JSON.parse` also takes what serde_json refuses (lone surrogates, nesting
// without limit). Here a broken line is answered under its request id when
// one can be read, `null` otherwise; only notifications go unanswered.

import { isUtf8 } from "node:buffer";
import { type JSONRPCMessage, specTypeSchemas } from "@modelcontextprotocol/server";

/** JSON-RPC's "Parse error": the line is not JSON. */
export const PARSE_ERROR = -32700;
/** JSON-RPC's "Invalid Request": JSON, but no JSON-RPC 2.0 message. */
export const INVALID_REQUEST = -32600;
/** JSON-RPC's "Invalid params": a standard MCP method with params of the wrong shape. */
export const INVALID_PARAMS = -32602;

/** The deepest nesting accepted: serde_json's recursion limit (128) is the first depth refused. */
export const MAX_DEPTH = 127;

/** A JSON-RPC request id as both servers read it. */
export type RequestId = string | number;

/** What one line of input is. */
export type Decoded =
  /** A message for the SDK, rebuilt from the JSON-RPC keys only (as serde ignores the others). */
  | { kind: "message"; message: JSONRPCMessage }
  /** Nothing to do: a blank line, or (with `why`) a notification nobody can read. */
  | { kind: "skip"; why: string | null }
  /** The error line to write back (without its newline), and why, for the log. */
  | { kind: "refuse"; answer: string; why: string };

/**
 * The standard MCP requests this server serves, with the SDK's schema for
 * each: their params are checked here, so that a wrong shape is `-32602`
 * as on the native server (the SDK answers `-32603` for some of them).
 */
const SERVED_REQUESTS = {
  initialize: specTypeSchemas.InitializeRequest,
  ping: specTypeSchemas.PingRequest,
  "tools/list": specTypeSchemas.ListToolsRequest,
  "tools/call": specTypeSchemas.CallToolRequest,
} as const;

const SKIP: Decoded = { kind: "skip", why: null };

/** Decodes one line (its bytes without the newline, within the line limit). */
export function decode(raw: Buffer): Decoded {
  const line = trimAscii(raw.subarray(startsWithBom(raw) ? 3 : 0));
  if (line.length === 0) return SKIP;
  const notJson = (detail: string) =>
    refuse(
      topLevelId(line),
      PARSE_ERROR,
      `the message is not valid JSON (${detail}); send one JSON-RPC message per line, UTF-8, without lone surrogates`,
    );
  if (!isUtf8(line)) return notJson("invalid UTF-8");
  const { tooDeep, duplicateKey } = outline(line);
  if (tooDeep) return notJson(`nested deeper than ${MAX_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(line.toString("utf8"));
  } catch (error) {
    return notJson(error instanceof Error ? error.message : String(error));
  }
  if (hasLoneSurrogate(value)) return notJson("a lone UTF-16 surrogate in a string");
  return classify(value, duplicateKey);
}

/** A JSON-RPC error line answering `id` (`null` when it is unknown). */
export function refuse(id: RequestId | null, code: number, message: string): Decoded {
  return { kind: "refuse", answer: JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }), why: message };
}

/** A parsed line as a message, or why it is none. */
function classify(value: unknown, duplicateKey: string | null): Decoded {
  if (!isObject(value)) return refuse(null, INVALID_REQUEST, "not a JSON-RPC 2.0 request (a message is one JSON object)");
  const problem = duplicateKey !== null ? `the key "${duplicateKey}" appears twice` : whyNotMessage(value);
  if (problem === null) return check(message(value));
  // No `id` key at all: a notification, which gets no answer.
  if (!Object.hasOwn(value, "id") && typeof value.method === "string") {
    return { kind: "skip", why: `ignored a notification it cannot read (${problem})` };
  }
  return refuse(requestId(value.id), INVALID_REQUEST, `not a JSON-RPC 2.0 request (${problem})`);
}

/**
 * Why an object is no JSON-RPC 2.0 message, or null. Its kind is told by
 * its keys, as rmcp tells it: `method` and `id` a request, `method` alone a
 * notification, `result` or `error` (without `method`) a response.
 */
function whyNotMessage(m: Record<string, unknown>): string | null {
  const has = (key: string) => Object.hasOwn(m, key);
  if (m.jsonrpc !== "2.0") return `"jsonrpc" must be "2.0"`;
  const [method, result, error] = [has("method"), has("result"), has("error")];
  const badId = `"id" must be a string or an integer of at most 53 bits`;
  if (method && !result && !error) {
    if (typeof m.method !== "string") return `"method" must be a string`;
    if (has("id") && requestId(m.id) === null) return badId;
    if (m.params === undefined || m.params === null) return null;
    if (!isObject(m.params)) return `"params" must be an object`;
    if (m.params._meta !== undefined && !isObject(m.params._meta)) return `"params._meta" must be an object`;
    return null;
  }
  if (!method && result && !error) {
    if (requestId(m.id) === null) return `a result needs the request's id; ${badId}`;
    return isObject(m.result) ? null : `"result" must be an object`;
  }
  if (!method && !result && error) {
    if (m.id !== undefined && m.id !== null && requestId(m.id) === null) return badId;
    const e = m.error;
    return isObject(e) && Number.isSafeInteger(e.code) && typeof e.message === "string"
      ? null
      : `"error" must be an object with an integer "code" and a string "message"`;
  }
  return `a message has a "method" (a request, or without "id" a notification), a "result" or an "error"`;
}

/** The message a valid object stands for, with only its JSON-RPC keys. */
function message(m: Record<string, unknown>): JSONRPCMessage {
  const params = m.params === undefined || m.params === null ? {} : { params: m.params };
  if (typeof m.method === "string") {
    const id = Object.hasOwn(m, "id") ? { id: m.id } : {};
    return { jsonrpc: "2.0", ...id, method: m.method, ...params } as JSONRPCMessage;
  }
  if (Object.hasOwn(m, "result")) return { jsonrpc: "2.0", id: m.id, result: m.result } as JSONRPCMessage;
  const { code, message, data } = m.error as Record<string, unknown>;
  const id = m.id === undefined || m.id === null ? {} : { id: m.id };
  return { jsonrpc: "2.0", ...id, error: { code, message, ...(data === undefined ? {} : { data }) } } as JSONRPCMessage;
}

/** A standard request the server serves, refused `-32602` when its params do not match the MCP schema. */
function check(message: JSONRPCMessage): Decoded {
  if (!("id" in message) || !("method" in message) || !Object.hasOwn(SERVED_REQUESTS, message.method)) {
    return { kind: "message", message };
  }
  const schema = SERVED_REQUESTS[message.method as keyof typeof SERVED_REQUESTS];
  const checked = schema["~standard"].validate({ method: message.method, params: message.params });
  if (!checked.issues) return { kind: "message", message };
  const [issue] = checked.issues;
  const path = (issue.path ?? []).map((key) => String(typeof key === "object" ? key.key : key)).join(".");
  return refuse(
    message.id,
    INVALID_PARAMS,
    `the params of \`${message.method}\` do not match the MCP schema (${path ? `${path}: ` : ""}${issue.message})`,
  );
}

/** An id as a request id: a string, or an integer JavaScript holds exactly. */
function requestId(id: unknown): RequestId | null {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a string anywhere in `value` (a key or a value) holds a lone UTF-16 surrogate, which serde_json refuses. */
function hasLoneSurrogate(value: unknown): boolean {
  const lone = /\p{Cs}/u;
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (lone.test(item)) return true;
    } else if (Array.isArray(item)) {
      // One by one: spreading millions of items would overflow the call stack.
      for (const inner of item) stack.push(inner);
    } else if (isObject(item)) {
      for (const key of Object.keys(item)) {
        if (lone.test(key)) return true;
        stack.push(item[key]);
      }
    }
  }
  return false;
}

function startsWithBom(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** ASCII whitespace, as Rust's `trim_ascii` counts it. */
function isAsciiSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0c || byte === 0x0d;
}

function trimAscii(bytes: Buffer): Buffer {
  let start = 0;
  let end = bytes.length;
  while (start < end && isAsciiSpace(bytes[start])) start++;
  while (end > start && isAsciiSpace(bytes[end - 1])) end--;
  return bytes.subarray(start, end);
}

/** The keys of a JSON-RPC message, which rmcp refuses to read twice (JSON.parse keeps the last silently). */
const MESSAGE_KEYS = new Set(["jsonrpc", "id", "method", "params", "result", "error"]);

/**
 * What a lexical pass over a line finds: whether it nests deeper than
 * {@link MAX_DEPTH} (JSON.parse would take it; serde_json does not), and a
 * {@link MESSAGE_KEYS} key the outermost object has twice.
 */
function outline(bytes: Buffer): { tooDeep: boolean; duplicateKey: string | null } {
  let depth = 0;
  let objectAtTop = false;
  let expectingKey = false;
  let duplicateKey: string | null = null;
  const keys = new Set<string>();
  for (let i = 0; i < bytes.length; i++) {
    switch (bytes[i]) {
      case 0x22: {
        const end = stringEnd(bytes, i);
        // An unterminated string: JSON.parse says why.
        if (end === null) return { tooDeep: false, duplicateKey };
        if (depth === 1 && objectAtTop && expectingKey && duplicateKey === null) {
          const key = jsonString(bytes.subarray(i, end + 1));
          if (key !== null && MESSAGE_KEYS.has(key)) {
            if (keys.has(key)) duplicateKey = key;
            keys.add(key);
          }
        }
        expectingKey = false;
        i = end;
        break;
      }
      case 0x7b:
      case 0x5b:
        depth++;
        if (depth > MAX_DEPTH) return { tooDeep: true, duplicateKey };
        if (depth === 1) objectAtTop = bytes[i] === 0x7b;
        expectingKey = depth === 1 && objectAtTop;
        break;
      case 0x7d:
      case 0x5d:
        depth = Math.max(0, depth - 1);
        break;
      case 0x2c:
        if (depth === 1) expectingKey = objectAtTop;
        break;
    }
  }
  return { tooDeep: false, duplicateKey };
}

/** A JSON string token's value, or null when it is not one. */
function jsonString(token: Buffer): string | null {
  try {
    const value: unknown = JSON.parse(token.toString("utf8"));
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/**
 * The id of a line that does not parse: the value of the key `id` of the
 * outermost object (decode.rs's `top_level_id`, byte for byte). Strings are
 * skipped lexically (an escape skips one byte), so what broke the parse
 * inside a string does not matter; an `id` key of a nested object is never
 * taken for the request's.
 */
export function topLevelId(bytes: Buffer): RequestId | null {
  let depth = 0;
  let expectingKey = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x22) {
      const end = stringEnd(bytes, i);
      if (end === null) return null;
      if (depth === 1 && expectingKey) {
        expectingKey = false;
        const after = skipSpace(bytes, end + 1);
        if (end - i === 3 && bytes[i + 1] === 0x69 && bytes[i + 2] === 0x64 && bytes[after] === 0x3a) {
          return scalarId(bytes.subarray(skipSpace(bytes, after + 1)));
        }
      }
      i = end;
    } else if (byte === 0x7b || byte === 0x5b) {
      depth++;
      expectingKey = byte === 0x7b && depth === 1;
    } else if (byte === 0x7d || byte === 0x5d) {
      depth = Math.max(0, depth - 1);
    } else if (byte === 0x2c && depth === 1) {
      expectingKey = true;
    }
  }
  return null;
}

/**
 * The id in the last bytes of a line too long to read whole, where clients
 * that write the id last (the TypeScript SDK) put it: the last
 * `"id": <scalar>` followed by nothing but one closing brace and other
 * top-level scalars, i.e. a key of the outermost object (decode.rs's
 * `trailing_id`).
 */
export function trailingId(tail: Buffer): RequestId | null {
  let end = tail.length;
  for (;;) {
    const at = end < 4 ? -1 : tail.lastIndexOf('"id"', end - 4, "latin1");
    if (at === -1) return null;
    end = at;
    const colon = skipSpace(tail, at + 4);
    if (tail[colon] !== 0x3a) continue;
    const start = skipSpace(tail, colon + 1);
    const id = scalarId(tail.subarray(start));
    if (id === null) continue;
    const rest = tail.subarray(start + scalarLength(tail.subarray(start)));
    const closing = rest.filter((b) => b === 0x7d).length;
    if (closing === 1 && !rest.some((b) => b === 0x7b || b === 0x5b || b === 0x5d)) return id;
  }
}

/**
 * The index of the quote closing the string that opens at `start`, or
 * null: the first quote after an even run of backslashes (what skipping
 * one byte after each backslash finds, found by `indexOf`: a long line is
 * mostly strings).
 */
function stringEnd(bytes: Buffer, start: number): number | null {
  let from = start + 1;
  for (;;) {
    const quote = bytes.indexOf(0x22, from);
    if (quote === -1) return null;
    let backslashes = 0;
    while (quote - backslashes - 1 > start && bytes[quote - backslashes - 1] === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

function skipSpace(bytes: Buffer, i: number): number {
  while (i < bytes.length && isAsciiSpace(bytes[i])) i++;
  return i;
}

/** The length of the scalar token `rest` starts with. */
function scalarLength(rest: Buffer): number {
  if (rest[0] === 0x22) {
    const end = stringEnd(rest, 0);
    return end === null ? rest.length : end + 1;
  }
  const stop = rest.findIndex((b) => b === 0x2c || b === 0x7d || b === 0x5d || isAsciiSpace(b));
  return stop === -1 ? rest.length : stop;
}

/** A request id (a string, or an integer in integer form) at the start of `rest`. */
function scalarId(rest: Buffer): RequestId | null {
  const token = rest.subarray(0, scalarLength(rest)).toString("utf8");
  if (token.startsWith('"')) return jsonString(Buffer.from(token));
  if (!/^-?(?:0|[1-9]\d*)$/.test(token)) return null;
  const id = Number(token);
  return Number.isSafeInteger(id) ? id : null;
}

"""What one line of MCP input is: a message for the SDK, nothing, or a
JSON-RPC error to answer with, decided as the native server decides it
(host-shim/tasklists/src/mcp/decode.rs) and as the Node host ports it
(host-shim/node/src/mcp-decode.ts). The Python SDK's stdio reader answers
nothing to a line it cannot read, so a client would wait on that id for
its whole timeout, and Python's `json` takes what serde_json refuses (NaN,
lone surrogates, nesting without limit). Here a broken line is answered
under its request id when one can be read, `null` otherwise; only
notifications go unanswered."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from pydantic import ValidationError

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
#: The deepest nesting accepted: serde_json's recursion limit (128) is the
#: first depth refused.
MAX_DEPTH = 127
#: JavaScript's safe integers, the ids the other servers take.
MAX_SAFE = 2**53 - 1

#: The standard requests served, their params checked here (a wrong shape
#: is -32602, as on the native server); True: params are required.
SERVED = {
    "initialize": (types.InitializeRequestParams, True),
    "ping": (types.RequestParams, False),
    "tools/list": (types.PaginatedRequestParams, False),
    "tools/call": (types.CallToolRequestParams, True),
}
MESSAGE_KEYS = {"jsonrpc", "id", "method", "params", "result", "error"}
_SPACE = b" \t\n\x0c\r"
_LONE = re.compile("[\ud800-\udfff]")
_INT = re.compile(rb"-?(?:0|[1-9][0-9]*)")


@dataclass(frozen=True)
class Decoded:
    """`kind` is `message` (`text` for the SDK), `skip`, or `refuse`
    (`text` the error line to write back); `why` for the log."""

    kind: str
    text: str = ""
    why: str = ""


SKIP = Decoded("skip")


def refuse(id: Any, code: int, message: str) -> Decoded:
    """A JSON-RPC error line answering `id` (None: null)."""
    return Decoded("refuse", json.dumps({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}), message)


def _trim(raw: bytes) -> bytes:
    return raw.strip(_SPACE)


def _string_end(data: bytes, start: int) -> int | None:
    """The index of the quote closing the string opening at `start`."""
    frm = start + 1
    while True:
        quote = data.find(b'"', frm)
        if quote < 0:
            return None
        backslashes = 0
        while quote - backslashes - 1 > start and data[quote - backslashes - 1] == 0x5C:
            backslashes += 1
        if backslashes % 2 == 0:
            return quote
        frm = quote + 1


def _skip_space(data: bytes, i: int) -> int:
    while i < len(data) and data[i] in _SPACE:
        i += 1
    return i


def _json_string(token: bytes) -> str | None:
    try:
        value = json.loads(token.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return value if isinstance(value, str) else None


def _scalar_length(rest: bytes) -> int:
    if rest[:1] == b'"':
        end = _string_end(rest, 0)
        return len(rest) if end is None else end + 1
    for i, b in enumerate(rest):
        if b in b",}]" or b in _SPACE:
            return i
    return len(rest)


def _scalar_id(rest: bytes) -> str | int | None:
    token = rest[: _scalar_length(rest)]
    if token.startswith(b'"'):
        return _json_string(token)
    if not _INT.fullmatch(token):
        return None
    value = int(token)
    return value if -MAX_SAFE <= value <= MAX_SAFE else None


def top_level_id(data: bytes) -> str | int | None:
    """The id of a line that does not parse: the value of the key `id` of
    the outermost object (strings skipped lexically)."""
    depth = 0
    expecting_key = False
    i = 0
    while i < len(data):
        b = data[i]
        if b == 0x22:
            end = _string_end(data, i)
            if end is None:
                return None
            if depth == 1 and expecting_key:
                expecting_key = False
                after = _skip_space(data, end + 1)
                if data[i + 1 : end] == b"id" and after < len(data) and data[after] == 0x3A:
                    return _scalar_id(data[_skip_space(data, after + 1) :])
            i = end
        elif b in (0x7B, 0x5B):
            depth += 1
            expecting_key = b == 0x7B and depth == 1
        elif b in (0x7D, 0x5D):
            depth = max(0, depth - 1)
        elif b == 0x2C and depth == 1:
            expecting_key = True
        i += 1
    return None


def trailing_id(tail: bytes) -> str | int | None:
    """The id in the last bytes of a line too long to read whole, where
    clients that write the id last put it."""
    end = len(tail)
    while True:
        at = tail.rfind(b'"id"', 0, end)
        if at < 0:
            return None
        end = at
        colon = _skip_space(tail, at + 4)
        if colon >= len(tail) or tail[colon] != 0x3A:
            continue
        start = _skip_space(tail, colon + 1)
        id = _scalar_id(tail[start:])
        if id is None:
            continue
        rest = tail[start + _scalar_length(tail[start:]) :]
        if rest.count(b"}") == 1 and not any(c in rest for c in (b"{", b"[", b"]")):
            return id


def _outline(data: bytes) -> tuple[bool, str | None]:
    """Whether the line nests deeper than MAX_DEPTH, and a message key the
    outermost object has twice."""
    depth = 0
    object_at_top = expecting_key = False
    duplicate: str | None = None
    keys: set[str] = set()
    i = 0
    while i < len(data):
        b = data[i]
        if b == 0x22:
            end = _string_end(data, i)
            if end is None:
                return False, duplicate
            if depth == 1 and object_at_top and expecting_key and duplicate is None:
                key = _json_string(data[i : end + 1])
                if key is not None and key in MESSAGE_KEYS:
                    if key in keys:
                        duplicate = key
                    keys.add(key)
            expecting_key = False
            i = end
        elif b in (0x7B, 0x5B):
            depth += 1
            if depth > MAX_DEPTH:
                return True, duplicate
            if depth == 1:
                object_at_top = b == 0x7B
            expecting_key = depth == 1 and object_at_top
        elif b in (0x7D, 0x5D):
            depth = max(0, depth - 1)
        elif b == 0x2C and depth == 1:
            expecting_key = object_at_top
        i += 1
    return False, duplicate


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _LONE.search(item):
                return True
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            for key, inner in item.items():
                if _LONE.search(key):
                    return True
                stack.append(inner)
    return False


def _request_id(id: Any) -> str | int | None:
    if isinstance(id, str):
        return id
    if isinstance(id, int) and not isinstance(id, bool) and -MAX_SAFE <= id <= MAX_SAFE:
        return id
    return None


def _why_not_message(m: dict[str, Any]) -> str | None:
    if m.get("jsonrpc") != "2.0":
        return '"jsonrpc" must be "2.0"'
    method, result, error = "method" in m, "result" in m, "error" in m
    bad_id = '"id" must be a string or an integer of at most 53 bits'
    if method and not result and not error:
        if not isinstance(m["method"], str):
            return '"method" must be a string'
        if "id" in m and _request_id(m["id"]) is None:
            return bad_id
        params = m.get("params")
        if params is None:
            return None
        if not isinstance(params, dict):
            return '"params" must be an object'
        if "_meta" in params and not isinstance(params["_meta"], dict):
            return '"params._meta" must be an object'
        return None
    if not method and result and not error:
        if _request_id(m.get("id")) is None:
            return f"a result needs the request's id; {bad_id}"
        return None if isinstance(m["result"], dict) else '"result" must be an object'
    if not method and not result and error:
        if m.get("id") is not None and _request_id(m["id"]) is None:
            return bad_id
        e = m["error"]
        ok = isinstance(e, dict) and isinstance(e.get("code"), int) and not isinstance(e.get("code"), bool) \
            and isinstance(e.get("message"), str)
        return None if ok else '"error" must be an object with an integer "code" and a string "message"'
    return 'a message has a "method" (a request, or without "id" a notification), a "result" or an "error"'


def _message(m: dict[str, Any]) -> dict[str, Any]:
    """The message with its JSON-RPC keys only (as serde ignores the others)."""
    params = {} if m.get("params") is None else {"params": m["params"]}
    if isinstance(m.get("method"), str):
        id = {"id": m["id"]} if "id" in m else {}
        return {"jsonrpc": "2.0", **id, "method": m["method"], **params}
    if "result" in m:
        return {"jsonrpc": "2.0", "id": m["id"], "result": m["result"]}
    e = m["error"]
    error = {"code": e["code"], "message": e["message"], **({"data": e["data"]} if "data" in e else {})}
    return {"jsonrpc": "2.0", **({} if m.get("id") is None else {"id": m["id"]}), "error": error}


def _check(message: dict[str, Any]) -> Decoded:
    text = json.dumps(message, ensure_ascii=False)
    method = message.get("method")
    if "id" not in message or method not in SERVED:
        return Decoded("message", text)
    model, required = SERVED[method]
    params = message.get("params")
    try:
        if params is None:
            if required:
                raise ValueError("params: required")
        else:
            model.model_validate(params)
    except (ValidationError, ValueError) as e:
        detail = str(e).splitlines()
        reason = "; ".join(line.strip() for line in detail[:3] if line.strip())
        return refuse(message["id"], INVALID_PARAMS, f"the params of `{method}` do not match the MCP schema ({reason})")
    return Decoded("message", text)


def _classify(value: Any, duplicate: str | None) -> Decoded:
    if not isinstance(value, dict):
        return refuse(None, INVALID_REQUEST, "not a JSON-RPC 2.0 request (a message is one JSON object)")
    problem = f'the key "{duplicate}" appears twice' if duplicate is not None else _why_not_message(value)
    if problem is None:
        return _check(_message(value))
    if "id" not in value and isinstance(value.get("method"), str):
        return Decoded("skip", why=f"ignored a notification it cannot read ({problem})")
    return refuse(_request_id(value.get("id")), INVALID_REQUEST, f"not a JSON-RPC 2.0 request ({problem})")


def decode(raw: bytes) -> Decoded:
    """Decodes one line (its bytes without the newline, within the limit)."""
    line = _trim(raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw)
    if not line:
        return SKIP

    def not_json(detail: str) -> Decoded:
        return refuse(top_level_id(line), PARSE_ERROR,
                      f"the message is not valid JSON ({detail}); send one JSON-RPC message per line, UTF-8, "
                      "without lone surrogates")

    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return not_json("invalid UTF-8")
    too_deep, duplicate = _outline(line)
    if too_deep:
        return not_json(f"nested deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as e:
        return not_json(str(e))
    if _has_lone_surrogate(value):
        return not_json("a lone UTF-16 surrogate in a string")
    return _classify(value, duplicate)


def oversized(head: bytes, tail: bytes, limit: int) -> Decoded:
    """The answer to a line over the limit, under the id at either end."""
    id = top_level_id(head)
    if id is None:
        id = trailing_id(tail)
    return refuse(id, INVALID_REQUEST, f"the message is longer than {limit >> 20} MiB; it was not read")

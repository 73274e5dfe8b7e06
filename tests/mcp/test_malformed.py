"""Every line a client may get wrong, and the answer each MCP server owes it.

One list, run against whichever server `$TASKLISTS_BIN` names: the native
`tasklists mcp` (from `cargo test -p tasklists-host --test host mcp_python::`) and
the Node host's `tasklists-node mcp` (from host-shim/node/test/mcp.test.mjs),
so both give the same answer to the same line. A line that carries a
readable id (a string or an integer) is answered under it; a line without
one that is not a notification is answered under a `null` id (`-32700`
when it is not JSON, `-32600` when it is JSON but no message); a
notification is never answered. Each line is sent alone on a fresh server
(before initialize too, unless its answer comes from the session) and all
of them in one session; after them a well-formed call is still served,
and the server exits cleanly when stdin closes."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from rawclient import RawServer

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602


@dataclass(frozen=True)
class Answer:
    """What a line must get back: an error `code` under `id`, or (code None) a result."""

    id: int | str | None
    code: int | None


@dataclass(frozen=True)
class Line:
    """One line a client sends (without its newline) and what it must get back."""

    name: str
    data: bytes
    answer: Answer | None  # None: no answer at all (a notification, a response, a blank line)
    # The answer comes from the session, not from reading the line: the line
    # is sent after initialize only (before it, the native server holds a
    # request to the 2026-07-28 rules, the Node one to the 2025 ones).
    session: bool = False


def refused(name: str, data: bytes, id: int | str | None, code: int, session: bool = False) -> Line:
    return Line(name, data, Answer(id, code), session)


def served(name: str, data: bytes, id: int | str, session: bool = False) -> Line:
    return Line(name, data, Answer(id, None), session)


def unanswered(name: str, data: bytes) -> Line:
    return Line(name, data, None)


def tool_call(id: bytes, arguments: bytes, name: bytes = b'"task_help"') -> bytes:
    return b'{"jsonrpc":"2.0","id":' + id + b',"method":"tools/call","params":{"name":' + name + b',"arguments":' + arguments + b"}}"


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def oversized(id_first: bool, id: int) -> bytes:
    """A tools/call over the 16 MiB line limit, its id written first or (as the TypeScript SDK does) last."""
    request = {"method": "tools/call", "params": {"name": "task_help", "arguments": {"action": "x" * (17 << 20)}}}
    ends = {"jsonrpc": "2.0", "id": id}
    return json.dumps(ends | request if id_first else request | ends).encode()


# The envelope, params and arguments are three levels: 124 more make the
# 127 levels serde_json parses, 125 more its limit (the native server's).
LINES = [
    # Not JSON: -32700, under the id when one can be read.
    refused("truncated JSON", b'{"jsonrpc":"2.0","id":101,"method":"tools/call","params":{"name":"task_help"', 101, PARSE_ERROR),
    refused("trailing characters", b'{"jsonrpc":"2.0","id":102,"method":"ping"} x', 102, PARSE_ERROR),
    refused("two objects on one line", b'{"jsonrpc":"2.0","id":103,"method":"ping"}{"jsonrpc":"2.0","id":1030,"method":"ping"}', 103, PARSE_ERROR),
    refused("a trailing comment", b'{"jsonrpc":"2.0","id":104,"method":"ping"} // hi', 104, PARSE_ERROR),
    refused("a NUL inside a string", tool_call(b"105", b'{"action":"a\x00b"}'), 105, PARSE_ERROR),
    refused("a raw tab inside a string", tool_call(b"106", b'{"action":"a\tb"}'), 106, PARSE_ERROR),
    refused("NaN", tool_call(b"107", b'{"action":NaN}'), 107, PARSE_ERROR),
    refused("nested 5,000 deep", tool_call(b"108", b'{"x":' + nested(5000) + b"}"), 108, PARSE_ERROR),
    refused("nested 128 deep", tool_call(b"109", b'{"x":' + nested(125) + b"}"), 109, PARSE_ERROR),
    refused("a lone high surrogate", tool_call(b"110", rb'{"action":"cut \ud83d"}'), 110, PARSE_ERROR),
    refused("a lone low surrogate", tool_call(b"111", rb'{"action":"\udc00x"}'), 111, PARSE_ERROR),
    refused("a lone surrogate in a key", tool_call(b"112", rb'{"\ud83d":"all"}'), 112, PARSE_ERROR),
    refused(
        "the id last, after params holding an id of their own",
        rb'{"method":"tools/call","params":{"name":"task_items","arguments":{"action":"update","params":{"id":"t-1","title":"\ud83d"}}},"jsonrpc":"2.0","id":113}',
        113,
        PARSE_ERROR,
    ),
    refused("invalid UTF-8", b'{"jsonrpc":"2.0","id":114,"method":"tools/call","params":{"name":"task_help\xff"}}', 114, PARSE_ERROR),
    refused("a surrogate encoded in UTF-8 bytes", tool_call(b"115", b'{"action":"\xed\xa0\xbd"}'), 115, PARSE_ERROR),
    refused("an overlong UTF-8 encoding", tool_call(b'"s-116"', b'{"action":"\xc0\xaf"}'), "s-116", PARSE_ERROR),
    refused("no JSON at all", b"{not json", None, PARSE_ERROR),
    refused("single quotes", b"{'jsonrpc':'2.0','id':117,'method':'ping'}", None, PARSE_ERROR),
    refused("broken JSON with a boolean id", b'{"jsonrpc":"2.0","id":true,"method":', None, PARSE_ERROR),
    refused("broken JSON with only a nested id", b'{"params":{"id":118},"method":"tools/call",', None, PARSE_ERROR),
    # JSON, but no JSON-RPC 2.0 message: -32600.
    refused('"jsonrpc":"1.0"', b'{"jsonrpc":"1.0","id":120,"method":"ping"}', 120, INVALID_REQUEST),
    refused("no jsonrpc", b'{"id":121,"method":"ping"}', 121, INVALID_REQUEST),
    refused('"params":[] on tools/list', b'{"jsonrpc":"2.0","id":122,"method":"tools/list","params":[]}', 122, INVALID_REQUEST),
    refused('"params":[] on tools/call', b'{"jsonrpc":"2.0","id":123,"method":"tools/call","params":[]}', 123, INVALID_REQUEST),
    refused("params a string", b'{"jsonrpc":"2.0","id":124,"method":"ping","params":"x"}', 124, INVALID_REQUEST),
    refused("_meta not an object", tool_call(b"125", b'{"action":"all"},"_meta":5', b'"task_help"'), 125, INVALID_REQUEST),
    refused("a method that is no string", b'{"jsonrpc":"2.0","id":126,"method":5}', 126, INVALID_REQUEST),
    refused("an id and nothing else", b'{"jsonrpc":"2.0","id":127}', 127, INVALID_REQUEST),
    refused("a method and a result", b'{"jsonrpc":"2.0","id":128,"method":"ping","result":{}}', 128, INVALID_REQUEST),
    refused("the id key twice (the last one counts)", b'{"jsonrpc":"2.0","id":1290,"id":129,"method":"ping"}', 129, INVALID_REQUEST),
    refused("a fractional id", b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', None, INVALID_REQUEST),
    refused("a boolean id", b'{"jsonrpc":"2.0","id":true,"method":"ping"}', None, INVALID_REQUEST),
    refused("an object id", b'{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}', None, INVALID_REQUEST),
    refused("an array id", b'{"jsonrpc":"2.0","id":[1],"method":"ping"}', None, INVALID_REQUEST),
    refused("a null id", b'{"jsonrpc":"2.0","id":null,"method":"ping"}', None, INVALID_REQUEST),
    refused("an id over 64 bits", b'{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}', None, INVALID_REQUEST),
    refused("a batch array", b'[{"jsonrpc":"2.0","id":130,"method":"ping"}]', None, INVALID_REQUEST),
    refused("an empty batch", b"[]", None, INVALID_REQUEST),
    refused("a number", b"42", None, INVALID_REQUEST),
    refused("a string", b'"ping"', None, INVALID_REQUEST),
    refused("null", b"null", None, INVALID_REQUEST),
    refused("an empty object", b"{}", None, INVALID_REQUEST),
    refused("an object that is no message", b'{"hello":"world"}', None, INVALID_REQUEST),
    refused("a result without an id", b'{"jsonrpc":"2.0","result":{}}', None, INVALID_REQUEST),
    # A standard method with params of the wrong shape: -32602.
    refused("tools/call arguments an array", tool_call(b"140", b"[1]"), 140, INVALID_PARAMS),
    refused("tools/call name a number", b'{"jsonrpc":"2.0","id":"s-141","method":"tools/call","params":{"name":5}}', "s-141", INVALID_PARAMS),
    refused("tools/call without params", b'{"jsonrpc":"2.0","id":142,"method":"tools/call"}', 142, INVALID_PARAMS),
    refused("initialize without its params", b'{"jsonrpc":"2.0","id":143,"method":"initialize","params":{}}', 143, INVALID_PARAMS),
    refused("an unknown tool", tool_call(b"144", b"{}", b'"no_such_tool"'), 144, INVALID_PARAMS, session=True),
    refused("an unknown method", b'{"jsonrpc":"2.0","id":145,"method":"no/such/method"}', 145, METHOD_NOT_FOUND, session=True),
    # Nothing to answer.
    unanswered("an unknown notification", b'{"jsonrpc":"2.0","method":"notifications/no_such"}'),
    unanswered("a notification with params []", b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":[]}'),
    unanswered("a notification without jsonrpc", b'{"method":"notifications/cancelled"}'),
    unanswered("a cancellation of no request", b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":12345}}'),
    unanswered("a response to no request", b'{"jsonrpc":"2.0","id":146,"result":{}}'),
    unanswered("an error without an id", b'{"jsonrpc":"2.0","error":{"code":-32000,"message":"x"}}'),
    unanswered("a blank line", b" \t "),
    # Tolerated and served.
    served("a byte order mark", b'\xef\xbb\xbf{"jsonrpc":"2.0","id":150,"method":"ping"}', 150),
    served("a CRLF line end", b'{"jsonrpc":"2.0","id":151,"method":"ping"}\r', 151),
    served("spaces around the object", b'   {"jsonrpc":"2.0","id":152,"method":"ping"}  ', 152),
    served("an extra top-level key", b'{"jsonrpc":"2.0","id":153,"method":"ping","x":1}', 153),
    served("an extra top-level key twice", b'{"jsonrpc":"2.0","id":158,"method":"ping","x":1,"x":2}', 158),
    served('"params":null', b'{"jsonrpc":"2.0","id":154,"method":"ping","params":null}', 154),
    served("an escaped NUL", tool_call(b"155", rb'{"action":"a\u0000b"}'), 155, session=True),
    served("a surrogate pair", tool_call(b"156", rb'{"action":"\ud83d\ude00"}'), 156, session=True),
    served("nested 127 deep", tool_call(b"157", b'{"x":' + nested(124) + b"}"), 157, session=True),
    # Over the 16 MiB line limit: -32600 under the id at either end.
    refused("over 16 MiB, the id first", oversized(True, 160), 160, INVALID_REQUEST),
    refused("over 16 MiB, the id last", oversized(False, 161), 161, INVALID_REQUEST),
]

# The well-formed call sent after the bad lines.
FINAL_ID = 999


def test_the_lines_are_told_apart_by_their_answers():
    """Each answer names one line: no id is used twice, nor the final call's."""
    ids = [line.answer.id for line in LINES if line.answer and line.answer.id is not None]
    assert len(ids) == len(set(ids)) and FINAL_ID not in ids
    assert len({line.name for line in LINES}) == len(LINES)


def run(db, lines: list[Line], before_initialize: bool = False, end: bytes = b"") -> tuple[list[dict[str, Any]], RawServer]:
    """Sends `lines` after initialize (or before it), then the final call
    and `end` (bytes without a newline); closes stdin. Returns every answer
    but initialize's, once the server has exited 0."""
    with RawServer(db) as server:
        for line in lines if before_initialize else []:
            server.send_line(line.data)
        server.request(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}})
        server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        for line in [] if before_initialize else lines:
            server.send_line(line.data)
        server.request(FINAL_ID, "tools/call", {"name": "task_help", "arguments": {"action": "workflow"}})
        server.proc.stdin.write(end)
        assert server.close() == 0, server.stderr.decode(errors="replace")[-2000:]
    answers = [json.loads(raw) for raw in server.stdout_lines]
    initialized = [a for a in answers if a.get("id") == 0]
    assert len(initialized) == 1 and "result" in initialized[0], initialized
    return [a for a in answers if a.get("id") != 0], server


def check(answers: list[dict[str, Any]], lines: list[Line]) -> None:
    """Every line got exactly its answer, nothing else came, and the final call was served."""
    final = [a for a in answers if a.get("id") == FINAL_ID]
    assert len(final) == 1 and final[0]["result"]["isError"] is False, final
    answers = [a for a in answers if a.get("id") != FINAL_ID]
    for answer in answers:
        assert answer.get("jsonrpc") == "2.0" and "id" in answer, answer
        assert ("result" in answer) != ("error" in answer), answer
        if "error" in answer:
            assert isinstance(answer["error"]["code"], int), answer
            assert answer["error"]["message"], answer
    got = Counter(shape(a) for a in answers)
    want = Counter((line.answer.id, line.answer.code) for line in lines if line.answer)
    missing, extra = want - got, got - want
    named = {(l.answer.id, l.answer.code): l.name for l in lines if l.answer}
    assert not missing and not extra, {
        "missing": {named.get(k, k): n for k, n in missing.items()},
        "unexpected": dict(extra),
        "answers": [json.dumps(a)[:200] for a in answers],
    }


def shape(answer: dict[str, Any]) -> tuple[Any, int | None]:
    return answer["id"], answer["error"]["code"] if "error" in answer else None


@pytest.mark.parametrize(
    "line, before_initialize",
    [pytest.param(line, False, id=line.name) for line in LINES]
    + [pytest.param(line, True, id=f"{line.name}, before initialize") for line in LINES if not line.session],
)
def test_a_fresh_server_answers_the_line(db, line, before_initialize):
    answers, _ = run(db, [line], before_initialize)
    check(answers, [line])


def test_a_line_cut_off_by_the_end_of_input_is_answered(db):
    """The last line, without its newline, is read as a line when stdin closes."""
    cut = refused("cut off", b'{"jsonrpc":"2.0","id":170,"method":"tools/call","params":{"name":"task_', 170, PARSE_ERROR)
    answers, _ = run(db, [], end=cut.data)
    check(answers, [cut])


def test_one_session_answers_every_line(db):
    answers, server = run(db, LINES)
    check(answers, LINES)
    assert b"panick" not in server.stderr

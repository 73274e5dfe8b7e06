"""The wire: protocol revisions, tools/list, pipelining, logs on stderr
only, and a clean exit when stdin closes."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest
from conftest import call, connect
from rawclient import RawServer

# Every tool's annotations, set deliberately (MCP's defaults would call an
# unannotated tool destructive and open-world).
EXPECTED_ANNOTATIONS = {
    # delete removes lists; creating twice makes two lists.
    "task_lists": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": False},
    # delete removes tasks; updates overwrite fields.
    "task_items": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": False},
    # claims change state but never destroy data.
    "task_claims": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False, "openWorldHint": False},
    "task_audit": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    "task_help": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
}


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_older_revisions_are_negotiated(db, version):
    with RawServer(db) as server:
        response = server.initialize(version)
        assert response["result"]["protocolVersion"] == version
        assert response["result"]["serverInfo"]["name"] == "tasklists"
        assert "tools" in response["result"]["capabilities"]
        result = server.call(1, "tools/call", {"name": "task_help", "arguments": {"action": "workflow"}})["result"]
        assert result["isError"] is False
        assert "workflow" in result["structuredContent"]
        assert server.close() == 0


def test_tools_list_is_the_catalogue_with_deliberate_annotations(db):
    with RawServer(db) as server:
        server.initialize()
        response = server.call(1, "tools/list")
        tools = response["result"]["tools"]
        assert [t["name"] for t in tools] == list(EXPECTED_ANNOTATIONS)
        for tool in tools:
            assert tool["annotations"] == EXPECTED_ANNOTATIONS[tool["name"]], tool["name"]
            assert tool["description"] and tool["title"]
            schema = tool["inputSchema"]
            assert schema["type"] == "object"
            assert schema["required"] == ["action"]
            assert schema["additionalProperties"] is False
            assert schema["properties"]["action"]["enum"]
        size = len(json.dumps(tools, separators=(",", ":")))
        # It is sent in every agent's prompt: keep it small.
        print(f"tools/list: {size} bytes, ~{size // 4} tokens")
        assert size < 6000
        assert server.close() == 0


def test_stdout_is_only_protocol_and_logs_go_to_stderr(db):
    with RawServer(db) as server:
        server.initialize()
        server.call(1, "tools/call", {"name": "task_lists", "arguments": {"action": "create", "params": {"name": "L"}}})
        server.call(2, "tools/call", {"name": "task_lists", "arguments": {"action": "nope"}})
        server.call(3, "tools/list")
        assert server.close() == 0
    for line in server.stdout_lines:
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
    assert len(server.stdout_lines) == 4
    log = server.stderr.decode()
    assert "INFO serving 5 tools on" in log and "raw-agent" in log
    assert "stopped" in log


def test_exits_promptly_when_stdin_closes(db):
    with RawServer(db) as server:
        server.initialize()
        started = time.monotonic()
        assert server.close() == 0
        assert time.monotonic() - started < 5


def test_exits_when_stdin_closes_before_initialize(db):
    with RawServer(db) as server:
        assert server.close() == 0


def test_pipelined_requests_run_one_at_a_time_in_arrival_order(db):
    """Requests sent back to back without waiting are each answered once,
    under their own id, and run in the order they were sent: 200 creates
    make positions 1..200 in sending order."""
    with RawServer(db) as server:
        server.initialize()
        created = server.call(
            1, "tools/call", {"name": "task_lists", "arguments": {"action": "create", "params": {"name": "Pipelined"}}}
        )
        list_id = created["result"]["structuredContent"]["list"]["id"]
        ids = list(range(100, 300))
        for i in ids:
            server.request(
                i,
                "tools/call",
                {"name": "task_items", "arguments": {"action": "create", "params": {"list_id": list_id, "title": f"t{i}"}}},
            )
        responses = [server.receive() for _ in ids]
        assert sorted(r["id"] for r in responses) == ids
        position = {r["id"]: r["result"]["structuredContent"]["task"]["position"] for r in responses}
        assert [position[i] for i in ids] == list(range(1, len(ids) + 1))
        assert server.close() == 0


def test_pipelined_answers_land_in_order_around_cancelled_calls(db):
    """Answers come back in the order the calls were sent, also when the
    client cancels some of them meanwhile: a cancelled call goes
    unanswered and lets no later answer overtake the ones before it."""
    calls = 2000
    cancelled = set(range(7, calls, 10))
    with RawServer(db) as server:
        server.initialize()
        for i in range(1, calls + 1):
            action = "all" if i % 7 == 0 else "claim_next"
            server.request(i, "tools/call", {"name": "task_help", "arguments": {"action": action}})
            if i - 3 in cancelled:
                server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": i - 3, "reason": "test"}})
        server.request(calls + 1, "tools/call", {"name": "task_help", "arguments": {"action": "workflow"}})
        ids = []
        while not ids or ids[-1] != calls + 1:
            ids.append(server.receive()["id"])
        # A cancelled call may have been answered before its cancellation
        # arrived; the others are all there, in order.
        assert ids == sorted(ids)
        assert set(range(1, calls + 2)) - cancelled <= set(ids)
        assert server.close() == 0


def test_pipelined_answers_land_in_order_when_read_in_bursts(db):
    """A client that writes calls from one thread and reads their answers
    in bursts, pausing between them, gets them in the order it sent the
    calls: answers that wait for stdout must not swap on their way there.
    `TASKLISTS_ORDER_CALLS=30000` runs it long: at that length, a build
    without the answers' ordering (before `mcp/order.rs`) swapped some in
    four runs of seven."""
    calls = int(os.environ.get("TASKLISTS_ORDER_CALLS", "3000"))
    with RawServer(db) as server:
        server.initialize()

        def write() -> None:
            for i in range(1, calls + 1):
                action = "all" if i % 3 == 0 else "claim_next"
                server.request(i, "tools/call", {"name": "task_help", "arguments": {"action": action}})

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        ids: list[int] = []
        while len(ids) < calls:
            for _ in range(min(700, calls - len(ids))):
                ids.append(server.receive()["id"])
            time.sleep(0.02)
        writer.join(30)
        out_of_place = [(k + 1, got) for k, got in enumerate(ids) if got != k + 1]
        assert not out_of_place, f"answers out of place (position, id): {out_of_place[:10]}"
        assert server.close() == 0


def test_every_bad_line_gets_an_answer(db):
    """Nothing a client sends goes unanswered: broken JSON (a lone UTF-16
    surrogate, as JavaScript makes of a string cut mid-emoji; nesting past
    the parser's limit; invalid UTF-8) is a Parse error under the request's
    id; JSON that is no JSON-RPC request is Invalid Request; tools/call with
    params of the wrong shape is Invalid params. The session goes on."""
    deep = b"[" * 200 + b"]" * 200
    cases = [
        (rb'{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"task_lists","arguments":{"action":"create","params":{"name":"cut \ud83d"}}}}', 11, -32700),
        (b'{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"task_lists","arguments":{"action":"find","params":{"name":' + deep + b"}}}}", 12, -32700),
        (b'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"task_lists\xff"}}', 13, -32700),
        (b"{not json", None, -32700),
        (b'{"hello": "world"}', None, -32600),
        (b'[{"jsonrpc":"2.0","id":14,"method":"ping"}]', None, -32600),
        (b'{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"task_help","arguments":[1]}}', 15, -32602),
        (b'{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":5}}', 16, -32602),
        (b'{"jsonrpc":"2.0","id":17,"method":"tools/call"}', 17, -32602),
        # The TypeScript SDK writes the id last, after params that may
        # carry an "id" of their own: the answer goes to the request's id.
        (rb'{"method":"tools/call","params":{"name":"task_items","arguments":{"action":"update","params":{"id":"t-123","title":"\ud83d"}}},"jsonrpc":"2.0","id":18}', 18, -32700),
        (b'{"jsonrpc":"2.0","id":null,"method":"ping"}', None, -32600),
        (b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', None, -32600),
    ]
    with RawServer(db) as server:
        server.initialize()
        for line, expected_id, code in cases:
            server.send_line(line)
            answer = server.receive()
            assert "id" in answer and answer["id"] == expected_id, (line[:80], answer)
            assert answer["error"]["code"] == code, (line[:80], answer)
            assert answer["error"]["message"], answer
        response = server.call(5, "no/such/method")
        assert response["error"]["code"] == -32601
        response = server.call(6, "tools/call", {"name": "task_help", "arguments": {"action": "workflow"}})
        assert response["result"]["isError"] is False
        # None of the refused lines changed anything.
        found = server.call(7, "tools/call", {"name": "task_lists", "arguments": {"action": "find"}})
        assert found["result"]["structuredContent"]["lists"] == []
        assert server.close() == 0
    assert "refused an incoming message" in server.stderr.decode()


@pytest.mark.parametrize("id_first", [True, False])
def test_an_oversized_line_is_answered_and_skipped(db, id_first):
    """A line over 16 MiB is never buffered whole; it gets Invalid Request
    under its id (written first or, as the TypeScript SDK does, last) and
    the next request is served."""
    with RawServer(db) as server:
        server.initialize()
        request = {"method": "tools/call", "params": {"name": "task_help", "arguments": {"action": "x" * (17 * 1024 * 1024)}}}
        ends = {"jsonrpc": "2.0", "id": 9}
        huge = json.dumps(ends | request if id_first else request | ends)
        server.send_line(huge.encode())
        answer = server.receive()
        assert answer["id"] == 9 and answer["error"]["code"] == -32600
        assert "over the limit of 16 MiB" in answer["error"]["message"]
        response = server.call(10, "tools/call", {"name": "task_help", "arguments": {"action": "workflow"}})
        assert response["result"]["isError"] is False
        assert server.close() == 0


@pytest.mark.parametrize(
    "stray",
    [
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
        {"jsonrpc": "2.0", "id": 5, "result": {}},
    ],
)
def test_stray_messages_before_initialize_do_not_stop_the_server(db, stray):
    with RawServer(db) as server:
        server.send(stray)
        server.call(1, "ping")
        server.send(stray)
        response = server.initialize()
        assert response["result"]["serverInfo"]["name"] == "tasklists"
        result = server.call(2, "tools/call", {"name": "task_help", "arguments": {"action": "workflow"}})["result"]
        assert result["isError"] is False
        assert server.close() == 0
    assert "before initialize" in server.stderr.decode()


def test_an_unsupported_inline_version_then_a_notification_keeps_serving(db):
    """A 2026-07-28-style request with a version the server does not speak
    leaves the session unopened; a notification after it is ignored."""
    with RawServer(db) as server:
        meta = {
            "io.modelcontextprotocol/protocolVersion": "2099-01-01",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
        }
        response = server.call(1, "tools/list", {"_meta": meta})
        assert "error" in response
        server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}})
        assert server.initialize()["result"]["serverInfo"]["name"] == "tasklists"
        assert server.close() == 0


def test_every_queued_request_is_answered_after_stdin_closes(db):
    """A script that pipes many calls in and closes its end at once gets
    every answer before the server exits (rmcp alone drops the answers
    still pending five seconds after stdin closes)."""
    with RawServer(db) as server:
        server.initialize()
        created = server.call(
            1, "tools/call", {"name": "task_lists", "arguments": {"action": "create", "params": {"name": "Drain"}}}
        )
        list_id = created["result"]["structuredContent"]["list"]["id"]
        count = 3000
        lines = b"".join(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 1000 + i,
                    "method": "tools/call",
                    "params": {
                        "name": "task_items",
                        "arguments": {"action": "create", "params": {"list_id": list_id, "title": f"t{i}"}},
                    },
                }
            ).encode()
            + b"\n"
            for i in range(count)
        )

        def feed():
            server.proc.stdin.write(lines)
            server.proc.stdin.close()

        # Written from a thread: the answers must be read meanwhile.
        writer = threading.Thread(target=feed)
        writer.start()
        # Read late, so answers are still pending past rmcp's own window.
        time.sleep(6)
        answers = [server.receive() for _ in range(count)]
        writer.join()
        assert server.proc.wait(30) == 0
        assert sorted(a["id"] for a in answers) == list(range(1000, 1000 + count))
        assert all(a["result"]["isError"] is False for a in answers)


def test_a_closed_stdout_stops_the_server(db):
    """Once nobody reads the answers, the server stops taking requests and
    exits with an error instead of working for nobody."""
    with RawServer(db) as server:
        server.initialize()
        server.proc.stdout.close()
        for i in range(50):
            try:
                server.request(
                    100 + i,
                    "tools/call",
                    {"name": "task_lists", "arguments": {"action": "create", "params": {"name": f"unseen {i}"}}},
                )
            except BrokenPipeError:
                break  # the server already stopped reading
            time.sleep(0.02)
        assert server.proc.wait(20) == 2
        server._stderr_thread.join(20)
    assert "stdout" in server.stderr.decode()


@pytest.mark.anyio
# The SDK warns that ping is gone from 2026-07-28; this session is legacy.
@pytest.mark.filterwarnings("ignore:ping is removed")
async def test_ping_and_list_through_the_sdk(db):
    # ping exists up to 2025-11-25 (the handshake revisions).
    async with connect(db, "builder-1", mode="legacy") as client:
        await client.send_ping()
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == list(EXPECTED_ANNOTATIONS)
        help_data = await call(client, "task_help", "workflow")
        assert help_data["workflow"]

"""The wire: protocol revisions, tools/list, pipelining, logs on stderr
only, and a clean exit when stdin closes."""

from __future__ import annotations

import json
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
    assert "tasklists mcp: serving 5 tools on" in log and "raw-agent" in log
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


def test_pipelined_requests_are_all_answered_one_guest_call_at_a_time(db):
    """Requests sent back to back without waiting run concurrently in the
    server; each is answered once, under its own id, and the writes are
    serialized: 40 creates make positions 1..40 with no gap or duplicate."""
    with RawServer(db) as server:
        server.initialize()
        created = server.call(
            1, "tools/call", {"name": "task_lists", "arguments": {"action": "create", "params": {"name": "Pipelined"}}}
        )
        list_id = created["result"]["structuredContent"]["list"]["id"]
        ids = list(range(100, 140))
        for i in ids:
            server.request(
                i,
                "tools/call",
                {"name": "task_items", "arguments": {"action": "create", "params": {"list_id": list_id, "title": f"t{i}"}}},
            )
        responses = [server.receive() for _ in ids]
        assert sorted(r["id"] for r in responses) == ids
        positions = sorted(r["result"]["structuredContent"]["task"]["position"] for r in responses)
        assert positions == list(range(1, 41))
        assert server.close() == 0


def test_bad_messages_leave_the_session_usable(db):
    """Unparsable lines are ignored (as every official MCP SDK does: there is
    no id to answer); well-formed JSON that is not a JSON-RPC message gets
    Invalid Request; an unknown method gets Method not found."""
    with RawServer(db) as server:
        server.initialize()
        server.send_line(b"{not json")
        server.send_line(b'{"hello": "world"}')
        invalid = server.receive()
        assert invalid["error"]["code"] == -32600
        response = server.call(5, "no/such/method")
        assert response["error"]["code"] == -32601
        response = server.call(6, "tools/call", {"name": "task_help", "arguments": {"action": "workflow"}})
        assert response["result"]["isError"] is False
        assert server.close() == 0


def test_oversized_line_is_dropped_and_logged(db):
    """rmcp drops a line over 16 MiB without reading it whole; the server
    says so on stderr and keeps serving."""
    with RawServer(db) as server:
        server.initialize()
        huge = json.dumps(
            {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "task_help", "arguments": {"action": "x" * (17 * 1024 * 1024)}}}
        )
        server.send_line(huge.encode())
        response = server.call(10, "tools/call", {"name": "task_help", "arguments": {"action": "workflow"}})
        assert response["result"]["isError"] is False
        assert server.close() == 0
    assert "maximum line length" in server.stderr.decode()


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

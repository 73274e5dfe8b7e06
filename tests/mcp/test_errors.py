"""Refusals through MCP: contract errors are `isError: true` results that
carry the contract's `{error: {code, message, hint}}` (as text and as
`structuredContent`) and change nothing; an unknown tool is a JSON-RPC
error."""

from __future__ import annotations

import pytest
from conftest import call, connect, refused, sqlite_only
from mcp.shared.exceptions import MCPError

INVALID_PARAMS = -32602


async def new_list(client, **params):
    return (await call(client, "task_lists", "create", **params))["list"]["id"]


@pytest.mark.transports
@pytest.mark.anyio
async def test_unknown_action_names_the_valid_ones(db):
    async with connect(db, "builder-1") as client:
        error = await refused(client, "task_lists", "archive")
        assert error["code"] == "unknown_action"
        assert "create, find, get, delete" in error["message"]
        assert error["hint"]


@pytest.mark.transports
@pytest.mark.anyio
async def test_done_without_outcome_is_refused_and_changes_nothing(db):
    async with connect(db, "builder-1") as client:
        list_id = await new_list(client, name="Outcomes")
        task_id = (await call(client, "task_items", "create", list_id=list_id, title="t"))["task"]["id"]
        claimed = await call(client, "task_claims", "claim_next", list_id=list_id)
        error = await refused(
            client, "task_items", "update", task_id=task_id, status="done", claim_token=claimed["claim"]["token"]
        )
        assert error["code"] == "outcome_required"
        assert error["hint"]
        after = await call(client, "task_lists", "get", list_id=list_id, include_tasks=True)
        assert after["tasks"][0]["status"] == "in_progress"
        assert "outcome" not in after["tasks"][0]


@pytest.mark.transports
@pytest.mark.anyio
async def test_private_list_of_another_agent_is_forbidden(db):
    async with connect(db, "owner") as owner:
        list_id = await new_list(owner, name="Mine", visibility="private")
    async with connect(db, "intruder") as intruder:
        error = await refused(intruder, "task_lists", "get", list_id=list_id)
        assert error["code"] == "forbidden"
        assert "owner" not in error["message"]
        error = await refused(intruder, "task_items", "create", list_id=list_id, title="sneaky")
        assert error["code"] == "forbidden"
        # It does not show up in their find either.
        assert (await call(intruder, "task_lists", "find"))["lists"] == []
    async with connect(db, "owner") as owner:
        got = await call(owner, "task_lists", "get", list_id=list_id, include_tasks=True)
        assert got["tasks"] == []


@pytest.mark.transports
@pytest.mark.anyio
async def test_unknown_tool_is_a_json_rpc_error(db):
    async with connect(db, "builder-1") as client:
        with pytest.raises(MCPError) as failure:
            await client.call_tool("task_list", {"action": "find"})
        assert failure.value.error.code == INVALID_PARAMS
        assert "task_lists" in failure.value.error.message
        # The session is still usable afterwards.
        await call(client, "task_help", "workflow")


@pytest.mark.transports
@pytest.mark.anyio
async def test_malformed_arguments_are_invalid_params(db):
    async with connect(db, "builder-1") as client:
        for arguments, needle in [
            ({}, "no `action`"),
            ({"action": 7}, "must be a string"),
            ({"action": "find", "params": [1, 2]}, "must be a JSON object"),
            ({"action": "find", "list_id": "list_x"}, "allowed keys are action, params"),
            ({"action": "find", "params": {"listId": "x"}}, "list"),
        ]:
            result = await client.call_tool("task_lists", arguments)
            assert result.is_error, arguments
            error = result.structured_content["error"]
            assert error["code"] == "invalid_params", (arguments, error)
            assert needle in error["message"], (arguments, error)


@pytest.mark.transports
@pytest.mark.anyio
async def test_sql_looking_and_huge_input_is_refused_untouched(db):
    async with connect(db, "builder-1") as client:
        list_id = await new_list(client, name="x'); DROP TABLE tasks; --")
        got = await call(client, "task_lists", "get", list_id=list_id)
        assert got["list"]["name"] == "x'); DROP TABLE tasks; --"
        # Over the 4 MiB params limit, within what every transport reads
        # (over HTTP a body past the limit plus 64 KiB is refused as 413
        # before it is parsed).
        huge = "y" * ((4 << 20) + 1000)
        error = await refused(client, "task_items", "create", list_id=list_id, title=huge)
        assert error["code"] == "invalid_params"
        assert "over the limit" in error["message"]
        assert (await call(client, "task_lists", "get", list_id=list_id, include_tasks=True))["tasks"] == []


@pytest.mark.anyio
async def test_identity_defaults_overrides_and_pinning(db):
    # No identity at all: reads work, writes need one.
    async with connect(db, None) as anonymous:
        await call(anonymous, "task_lists", "find")
        error = await refused(anonymous, "task_lists", "create", name="x")
        assert error["code"] == "agent_required"
        # params.agent_id supplies it.
        made = await call(anonymous, "task_lists", "create", name="x", agent_id="explicit")
        assert made["list"]["created_by_agent_id"] == "explicit"

    # --agent-id is the default; params.agent_id overrides it.
    async with connect(db, "default-agent") as client:
        made = await call(client, "task_lists", "create", name="y")
        assert made["list"]["created_by_agent_id"] == "default-agent"
        made = await call(client, "task_lists", "create", name="z", agent_id="other")
        assert made["list"]["created_by_agent_id"] == "other"

    # --pin-agent refuses a different params.agent_id, accepts the same one.
    async with connect(db, "pinned", "--pin-agent") as client:
        error = await refused(client, "task_lists", "create", name="w", agent_id="other")
        assert error["code"] == "forbidden"
        made = await call(client, "task_lists", "create", name="w", agent_id="pinned")
        assert made["list"]["created_by_agent_id"] == "pinned"


@pytest.mark.anyio
async def test_identity_from_the_environment(db):
    from conftest import READ_TIMEOUT_SECONDS, server_params
    from mcp import Client

    params = server_params(db, None, env={"TASKLISTS_AGENT_ID": "from-env"})
    async with Client(params, read_timeout_seconds=READ_TIMEOUT_SECONDS) as client:
        made = await call(client, "task_lists", "create", name="env")
        assert made["list"]["created_by_agent_id"] == "from-env"


@pytest.mark.parametrize("agent", ["bad\nid", "x" * 201])
def test_a_bad_host_identity_stops_the_server_at_start(db, agent):
    """The identity given by flag or environment obeys the contract's rule
    for agent ids; a bad one is refused once, at start-up, on stderr."""
    from rawclient import RawServer

    with RawServer(db, agent) as server:
        assert server.close() == 2
    assert "host's agent id" in server.stderr.decode()
    assert server.stdout_lines == []


def test_pin_agent_without_identity_is_refused_at_start(db):
    from rawclient import RawServer

    with RawServer(db, None, "--pin-agent") as server:
        assert server.close() == 2
    assert "--pin-agent needs an identity" in server.stderr.decode()


@pytest.mark.anyio
async def test_a_file_that_is_not_a_database_is_reported_by_every_call_untouched(db):
    """The server still starts and lists its tools; every call is a
    `storage` error naming the file, which is never modified; once the file
    is moved away, the next call works without a restart."""
    sqlite_only()
    db.write_bytes(b"not a database at all" * 100)
    before = db.read_bytes()
    async with connect(db, "builder-1") as client:
        listed = await client.list_tools()
        assert len(listed.tools) == 5
        for _ in range(2):
            error = await refused(client, "task_lists", "find")
            assert error["code"] == "storage"
            assert str(db) in error["message"] and "left untouched" in error["message"]
            assert "--db" in error["hint"]
        assert db.read_bytes() == before
        db.rename(db.with_suffix(".broken"))
        made = await call(client, "task_lists", "create", name="after the fix")
        assert made["created"] is True
    assert db.with_suffix(".broken").read_bytes() == before


@pytest.mark.anyio
async def test_a_newer_database_is_a_storage_error_on_each_call(db):
    """A database written by a newer tasklists is served, and every call
    says why it cannot be used, so the agent can tell its user."""
    import sqlite3

    sqlite_only()

    async with connect(db, "builder-1") as client:
        await call(client, "task_lists", "create", name="old")
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 999")
    async with connect(db, "builder-1") as client:
        error = await refused(client, "task_lists", "find")
        assert error["code"] == "storage"
        assert "newer" in error["message"]


@pytest.mark.transports
@pytest.mark.anyio
async def test_hostile_text_reaches_the_model_escaped(db):
    # Escape sequences (ESC, CSI as U+009B, OSC as U+009D), DEL, a
    # right-to-left override and zero-width characters in every text field.
    evil = "a\x1b[2J\x9b31m\x9d0;pwned\x07\x7f\u202egnp.exe\u2066\u200b\ufeffz"
    async with connect(db, "builder-1") as client:
        # `call` checks every result: no raw control or invisible character
        # in the summary or the JSON text, and the JSON means the data.
        list_id = (await call(client, "task_lists", "create", name=evil))["list"]["id"]
        await call(client, "task_items", "create", list_id=list_id, title=evil, notes=evil)
        got = await call(client, "task_lists", "get", list_id=list_id)
        assert got["list"]["name"] == evil and got["tasks"][0]["title"] == evil, "stored as sent"
        await call(client, "task_claims", "claim_next", list_id=list_id)
        await call(client, "task_lists", "find")
        result = await client.call_tool("task_lists", {"action": "find"})
        assert "\\u009b" in result.content[0].text and "\\u202e" in result.content[0].text
        # Refusals quote the bad value escaped too.
        error = await refused(client, "task_lists", "find", **{evil: 1})
        assert "\\u009b" in error["message"] and "\x9b" not in error["message"]

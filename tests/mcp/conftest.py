"""Shared fixtures for the MCP tests: the server binary, fresh databases,
and a connected client speaking through the official Python SDK.

The binary is `$TASKLISTS_BIN`, else `target/release/tasklists` at the
repository root (`host-shim/tests/mcp_python.rs` passes the binary of its build).
"""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

REPO = Path(__file__).resolve().parents[2]

# A request unanswered for this long fails the test instead of hanging CI.
READ_TIMEOUT_SECONDS = 60


def server_binary() -> Path:
    """The `tasklists` binary under test; fails loudly when it is missing."""
    path = Path(os.environ.get("TASKLISTS_BIN", REPO / "target" / "release" / "tasklists"))
    if not path.is_file():
        pytest.fail(f"no server binary at {path}: run `cargo build --release` or set TASKLISTS_BIN")
    return path


def server_params(db: Path, agent: str | None = None, *flags: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    """How to launch `tasklists mcp` on `db` as `agent` (no identity if None)."""
    args = ["--db", str(db)]
    if agent is not None:
        args += ["--agent-id", agent]
    args += [*flags, "mcp"]
    # A test must not pick up the developer's own identity or database.
    base = {"TASKLISTS_AGENT_ID": "", "TASKLISTS_DB": "", "TASKLISTS_CACHE_DIR": str(REPO / "target" / "mcp-test-cache")}
    return StdioServerParameters(command=str(server_binary()), args=args, env=base | (env or {}))


@asynccontextmanager
async def connect(db: Path, agent: str | None = None, *flags: str, mode: str = "auto") -> AsyncIterator[Client]:
    """A client connected to a fresh `tasklists mcp` process."""
    params = server_params(db, agent, *flags)
    async with Client(params, mode=mode, read_timeout_seconds=READ_TIMEOUT_SECONDS) as client:
        yield client


class ToolFailed(Exception):
    """A tool call came back with `isError: true`; `.error` is the contract's error object."""

    def __init__(self, error: dict[str, Any]):
        super().__init__(f"{error['code']}: {error['message']}")
        self.error = error


async def call(client: Client, tool: str, action: str, **params: Any) -> dict[str, Any]:
    """Calls `tool` `action` with `params`; returns the data or raises ToolFailed.

    Every result is checked against the contract's two delivery forms: the
    text block (summary line + compact JSON) and `structuredContent`.
    """
    arguments: dict[str, Any] = {"action": action}
    if params:
        arguments["params"] = params
    result = await client.call_tool(tool, arguments)
    assert len(result.content) == 1 and result.content[0].type == "text"
    text = result.content[0].text
    if result.is_error:
        error = json.loads(text)
        assert error == result.structured_content
        assert set(error["error"]) == {"code", "message", "hint"}
        raise ToolFailed(error["error"])
    summary, _, data_json = text.partition("\n")
    assert summary and "\n" not in data_json
    # Compact JSON, in the same order as the structured copy.
    assert data_json == json.dumps(result.structured_content, separators=(",", ":"), ensure_ascii=False)
    return result.structured_content


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database path in a fresh directory (the server creates the file)."""
    return tmp_path / "tasks.db"


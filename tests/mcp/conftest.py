"""Shared fixtures for the MCP tests: the server binary, fresh databases,
and a connected client speaking through the official Python SDK.

The binary is `$TASKLISTS_BIN`, else `target/release/tasklists` at the
repository root (`host-shim/tasklists/tests/mcp_python.rs` passes the binary of its build).

A test marked `@pytest.mark.transports` runs twice: over stdio (a
`tasklists mcp` process per `connect`) and over Streamable HTTP (one
`tasklists serve` per database, each agent with its own token, pinned).
`$TASKLISTS_MCP_TRANSPORTS` (comma-separated, default `stdio,http`) narrows
that for a binary without `serve`, such as the Node host's.
"""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

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


# The servers of the running test over HTTP, by database (None: stdio).
_HTTP: dict[Path, Any] | None = None


@asynccontextmanager
async def connect(db: Path, agent: str | None = None, *flags: str, mode: str = "auto") -> AsyncIterator[Client]:
    """A client connected to a fresh `tasklists mcp` process, or, in a test
    running over HTTP, to the database's `tasklists serve` with `agent`'s token."""
    if _HTTP is not None:
        from httpserver import Server, http_client

        assert agent is not None and not flags, "over HTTP an agent is its token"
        server = _HTTP.get(db) or _HTTP.setdefault(db, Server(db))
        async with http_client(server.mcp, server.token(agent), mode) as client:
            yield client
        return
    params = server_params(db, agent, *flags)
    async with Client(params, mode=mode, read_timeout_seconds=READ_TIMEOUT_SECONDS) as client:
        yield client


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "transports: run over stdio and over Streamable HTTP")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker("transports"):
        metafunc.parametrize("transport", transports(), indirect=True)


def transports() -> list[str]:
    """The transports a `transports` test runs over, from `$TASKLISTS_MCP_TRANSPORTS`."""
    names = [t.strip() for t in os.environ.get("TASKLISTS_MCP_TRANSPORTS", "stdio,http").split(",") if t.strip()]
    unknown = set(names) - {"stdio", "http"}
    if unknown or not names:
        raise pytest.UsageError(f"TASKLISTS_MCP_TRANSPORTS names {sorted(unknown) or 'nothing'}; use stdio and/or http")
    return names


@pytest.fixture(autouse=True)
def transport(request: pytest.FixtureRequest) -> Iterator[str]:
    """The transport `connect` uses in this test; its HTTP servers stop with it."""
    global _HTTP
    kind = getattr(request, "param", "stdio")
    _HTTP = {} if kind == "http" else None
    try:
        yield kind
    finally:
        servers, _HTTP = _HTTP, None
        for server in (servers or {}).values():
            server.stop()


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
    # The text a model reads never carries a raw control or invisible
    # character: the component escapes DEL, C1 and bidi/zero-width ones.
    assert not any(unsafe(c) for c in summary + data_json), repr(text)
    # Compact JSON, the same data in the same order as the structured copy.
    assert json.loads(data_json) == result.structured_content
    assert data_json == component_json(result.structured_content)
    return result.structured_content


async def refused(client: Client, tool: str, action: str, **params: Any) -> dict[str, Any]:
    """The contract error of a call that must fail."""
    with pytest.raises(ToolFailed) as failure:
        await call(client, tool, action, **params)
    return failure.value.error


def unsafe(c: str) -> bool:
    """Controls (C0, DEL, C1) and Unicode's invisible characters (bidi
    controls, zero-width and tag characters, …; variation selectors are
    fine): what the component never lets reach a model's text raw."""
    code = ord(c)
    if code < 0x20 or 0x7F <= code <= 0x9F:
        return True
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return False
    return any(
        lo <= code <= hi
        for lo, hi in [
            (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160), (0x17B4, 0x17B5),
            (0x180B, 0x180F), (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
            (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x1BCA0, 0x1BCA3),
            (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
        ]
    )


def component_json(value: Any) -> str:
    """Compact JSON as the component writes it: json.dumps, plus \\uXXXX
    (UTF-16 units) for the unsafe characters json.dumps leaves raw."""
    out = []
    for c in json.dumps(value, separators=(",", ":"), ensure_ascii=False):
        if unsafe(c):
            units = c.encode("utf-16-be")
            out += [f"\\u{int.from_bytes(units[k:k + 2], 'big'):04x}" for k in range(0, len(units), 2)]
        else:
            out.append(c)
    return "".join(out)


async def all_tasks(client: Client, list_id: str, **params: Any) -> list[dict[str, Any]]:
    """Every task of a list, following `task_lists get`'s pages."""
    tasks: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = await call(client, "task_lists", "get", list_id=list_id, **params, **({"cursor": cursor} if cursor else {}))
        tasks += page["tasks"]
        cursor = page["next_cursor"]
        if cursor is None:
            return tasks


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


#: The store the contract tests run on: `sqlite` (a fresh file per test), or
#: `postgres` (a fresh database per test on the server whose admin URL is
#: $TASKLISTS_TEST_PG, dropped afterwards), from $TASKLISTS_MCP_STORE.
STORE = os.environ.get("TASKLISTS_MCP_STORE", "sqlite")


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Any]:
    """A database path in a fresh directory (the server creates the file),
    or, on PostgreSQL, the connection string of a fresh database."""
    if STORE == "sqlite":
        yield tmp_path / "tasks.db"
        return
    if STORE != "postgres":
        raise pytest.UsageError(f"TASKLISTS_MCP_STORE is {STORE!r}; use sqlite or postgres")
    import subprocess
    import uuid
    from urllib.parse import urlsplit, urlunsplit

    admin = os.environ.get("TASKLISTS_TEST_PG")
    if not admin:
        pytest.fail("TASKLISTS_MCP_STORE=postgres needs TASKLISTS_TEST_PG (an admin URL)")
    name = f"mcp_{uuid.uuid4().hex[:16]}"
    psql = ["psql", admin, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c"]
    subprocess.run([*psql, f"CREATE DATABASE {name}"], check=True, capture_output=True)
    url = urlsplit(admin)
    try:
        yield urlunsplit(url._replace(path=f"/{name}"))
    finally:
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True)


def sqlite_only() -> None:
    """Skips a test that is SQLite's by nature (a file's bytes, its pragmas)."""
    if STORE != "sqlite":
        pytest.skip("SQLite's by nature: it reads or writes the database file")


"""`tasklists serve` for the MCP tests over Streamable HTTP: a server on
127.0.0.1 (a free port) over a database, tokens made with `tasklists token
add`, and clients of the official Python SDK's Streamable HTTP transport
carrying a token as `Authorization: Bearer`."""

from __future__ import annotations

import os
import signal
import subprocess
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

# A raw MCP `initialize` request, and the headers Streamable HTTP asks of a
# POST, for the tests that speak HTTP without the SDK.
INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}

# How long the server may take to print its URL.
START_SECONDS = 30


def env() -> dict[str, str]:
    """The environment of every `tasklists` the tests start: none of the
    developer's identity or database."""
    from conftest import REPO

    return os.environ | {
        "TASKLISTS_AGENT_ID": "",
        "TASKLISTS_DB": "",
        "TASKLISTS_PERSON": "",
        "TASKLISTS_CACHE_DIR": str(REPO / "target" / "mcp-test-cache"),
    }


def add_token(db: Path, name: str, person: bool = False) -> str:
    """A fresh token for `name` (an agent's; a person's with `person`)."""
    from conftest import server_binary

    who = ["--person", name] if person else [name]
    out = subprocess.run(
        [str(server_binary()), "--db", str(db), "token", "add", *who],
        env=env(), capture_output=True, text=True, timeout=60, check=True,
    ).stdout.splitlines()
    assert len(out) == 2 and len(out[1]) == 64, out
    return out[1]


def token_command(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`tasklists token ARGS…` on `db`."""
    from conftest import server_binary

    return subprocess.run(
        [str(server_binary()), "--db", str(db), "token", *args],
        env=env(), capture_output=True, text=True, timeout=60,
    )


class Server:
    """One `tasklists serve` process; `url` ends in `/` (on 127.0.0.1 even
    when it listens on every address)."""

    def __init__(self, db: Path, *flags: str, listen: str = "127.0.0.1:0", extra_env: dict[str, str] | None = None):
        from conftest import server_binary

        self.db = db
        self.process = subprocess.Popen(
            [str(server_binary()), "--db", str(db), "serve", "--listen", listen, *flags],
            env=env() | (extra_env or {}), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = self.process.stdout.readline()
        if not line.startswith("tasklists board: "):
            self.stop()
            raise AssertionError(f"serve printed {line!r}; stderr: {self.stderr}")
        url = line.split()[2].replace("//0.0.0.0:", "//127.0.0.1:")
        self.owner_token = url.split("?token=", 1)[1] if "?token=" in url else None
        self.url = url.split("?", 1)[0]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        self.mcp = self.url + "mcp"
        self.tokens: dict[str, str] = {}

    def token(self, name: str, person: bool = False) -> str:
        """`name`'s token, made on first use."""
        if name not in self.tokens:
            self.tokens[name] = add_token(self.db, name, person)
        return self.tokens[name]

    def pid(self) -> int:
        return self.process.pid

    def stop(self) -> None:
        """Ends the server; what it wrote to stderr stays in `self.stderr`."""
        self.stderr = ""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr and not self.process.stderr.closed:
            self.stderr = self.process.stderr.read()
        for stream in (self.process.stdout, self.process.stderr):
            if stream:
                stream.close()


@asynccontextmanager
async def http_client(url: str, token: str, mode: str = "auto", verify: Any = True) -> AsyncIterator[Client]:
    """A client of the SDK's Streamable HTTP transport on `url`, as `token`
    (`verify`: the TLS trust, as httpx takes it)."""
    from conftest import READ_TIMEOUT_SECONDS

    headers = {"Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient(headers=headers, timeout=READ_TIMEOUT_SECONDS, verify=verify) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, mode=mode, read_timeout_seconds=READ_TIMEOUT_SECONDS) as client:
            yield client


def rss_kib(pid: int) -> int:
    """The resident memory of process `pid`, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")

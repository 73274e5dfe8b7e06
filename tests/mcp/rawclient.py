"""A bare JSON-RPC-over-stdio driver for what the SDK client hides: exact
bytes on stdout and stderr, pipelined requests, old protocol revisions,
and the process exit when stdin closes."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path
from typing import Any

from conftest import server_params


class RawServer:
    """`tasklists mcp` as a subprocess, spoken to line by line."""

    def __init__(self, db: Path, agent: str | None = "raw-agent", *flags: str):
        params = server_params(db, agent, *flags)
        import os

        self.proc = subprocess.Popen(
            [params.command, *params.args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=os.environ | params.env,
        )
        self.stdout_lines: list[bytes] = []
        self.stderr = b""
        self._stderr_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_thread.start()

    def _drain_stderr(self) -> None:
        self.stderr = self.proc.stderr.read()

    def send_line(self, line: bytes) -> None:
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_line(json.dumps(message).encode())

    def request(self, id: int, method: str, params: dict[str, Any] | None = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def receive(self) -> dict[str, Any]:
        line = self.proc.stdout.readline()
        if not line:
            raise EOFError(f"the server closed stdout; stderr: {self.stderr!r}")
        self.stdout_lines.append(line)
        return json.loads(line)

    def call(self, id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.request(id, method, params)
        response = self.receive()
        assert response["id"] == id, response
        return response

    def tool(self, id: int, name: str, action: str, params: dict[str, Any]) -> dict[str, Any]:
        """Calls a tool and returns its structured result; a refusal raises."""
        result = self.call(id, "tools/call", {"name": name, "arguments": {"action": action, "params": params}})["result"]
        if result.get("isError"):
            raise AssertionError(result["content"][0]["text"])
        return result["structuredContent"]

    def page_faults(self) -> int:
        """The server's minor page faults so far, over all its threads
        (`minflt`, the field after the flags in each thread's
        /proc/PID/task/TID/stat; Linux only)."""
        total = 0
        for thread in Path(f"/proc/{self.proc.pid}/task").iterdir():
            stat = (thread / "stat").read_text()
            total += int(stat[stat.rfind(")") + 1 :].split()[7])
        return total

    def initialize(self, version: str = "2025-11-25") -> dict[str, Any]:
        response = self.call(
            0,
            "initialize",
            {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return response

    def close(self, timeout: float = 20) -> int:
        """Closes stdin and waits for the exit code."""
        self.proc.stdin.close()
        code = self.proc.wait(timeout)
        rest = self.proc.stdout.read()
        self.stdout_lines += rest.splitlines(keepends=True)
        self._stderr_thread.join(timeout)
        return code

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

"""Claim and close through `tasklists mcp` over stdio, as an agent works a
list: milliseconds and page faults per cycle (a `claim_next`, then the
`update` that closes the task), for one server binary or several side by
side, alternating, in one run.

    python3 tests/mcp/bench_write_cycle.py [BIN ...] [--cycles N] [--runs R]

Each run starts a server on a fresh database with a 1,000-task list,
waits 4 s (so the database's directory is quiet, as a running server's
is), then times N cycles from a bare JSON-RPC line client and counts the
page faults the server's threads took meanwhile (/proc/PID/task/*/stat).
The default binary is target/release/tasklists. Needs only Python 3.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class Server:
    """A `tasklists mcp` process spoken to one line at a time."""

    def __init__(self, binary: str, db: Path):
        self.proc = subprocess.Popen(
            [binary, "--db", str(db), "--agent-id", "bench", "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 0
        self.rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        self.proc.stdin.flush()

    def rpc(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("the server closed its stdout")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                return reply

    def tool(self, name: str, action: str, params: dict) -> dict:
        result = self.rpc("tools/call", {"name": name, "arguments": {"action": action, "params": params}})["result"]
        if result.get("isError"):
            raise RuntimeError(result["content"][0]["text"])
        return result["structuredContent"]

    def faults(self) -> int:
        total = 0
        for thread in os.listdir(f"/proc/{self.proc.pid}/task"):
            stat = Path(f"/proc/{self.proc.pid}/task/{thread}/stat").read_text()
            total += int(stat[stat.rfind(")") + 1:].split()[7])
        return total

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def run(binary: str, cycles: int) -> tuple[float, float]:
    """Milliseconds and page faults per cycle, for one fresh server."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(binary, Path(tmp) / "tasks.db")
        try:
            list_id = server.tool("task_lists", "create", {"name": "bench"})["list"]["id"]
            for start in range(0, max(cycles, 1000), 200):
                tasks = [{"title": f"task {start + k}"} for k in range(200)]
                server.tool("task_items", "add_many", {"list_id": list_id, "tasks": tasks})
            time.sleep(4)
            faults = server.faults()
            started = time.perf_counter()
            for _ in range(cycles):
                claimed = server.tool("task_claims", "claim_next", {"list_id": list_id})
                server.tool("task_items", "update", {"task_id": claimed["task"]["id"], "status": "done",
                                                     "outcome": "ok", "claim_token": claimed["claim"]["token"]})
            elapsed = time.perf_counter() - started
            return elapsed / cycles * 1e3, (server.faults() - faults) / cycles
        finally:
            server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binaries", nargs="*", default=[str(REPO / "target/release/tasklists")])
    parser.add_argument("--cycles", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {b: [] for b in args.binaries}
    for _ in range(args.runs):
        for binary in args.binaries:
            results[binary].append(run(binary, args.cycles))
    print(f"# claim + close through `tasklists mcp`, {args.cycles} cycles, {args.runs} alternating runs (medians)\n")
    print("| server | ms per cycle | page faults per cycle | runs (ms) |")
    print("|---|--:|--:|---|")
    for binary, runs in results.items():
        ms = statistics.median(r[0] for r in runs)
        faults = statistics.median(r[1] for r in runs)
        print(f"| {binary} | {ms:.3f} | {faults:.1f} | {', '.join(f'{r[0]:.3f}' for r in runs)} |")


if __name__ == "__main__":
    main()

"""Claim and close through `tasklists mcp` over stdio, as an agent works a
list: milliseconds and page faults per cycle (a `claim_next`, then the
`update` that closes the task), for one server binary or several side by
side, alternating, in one run.

    .venv/bin/python tests/mcp/bench_write_cycle.py [BIN ...] [--cycles N] [--runs R]

Each run starts a server on a fresh database with a 1,000-task list,
waits 4 s (so the database's directory is quiet, as a running server's
is), then times N cycles from a bare JSON-RPC line client
(`rawclient.py`) and counts the page faults the server's threads took
meanwhile. The default binary is target/release/tasklists.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import tempfile
import time
from pathlib import Path

from rawclient import RawServer

REPO = Path(__file__).resolve().parents[2]


def run(binary: str, cycles: int) -> tuple[float, float]:
    """Milliseconds and page faults per cycle, for one fresh server."""
    os.environ["TASKLISTS_BIN"] = binary
    ids = itertools.count(1)
    with tempfile.TemporaryDirectory() as tmp, RawServer(Path(tmp) / "tasks.db", "bench") as server:
        server.initialize()
        list_id = server.tool(next(ids), "task_lists", "create", {"name": "bench"})["list"]["id"]
        for start in range(0, max(cycles, 1000), 200):
            tasks = [{"title": f"task {start + k}"} for k in range(200)]
            server.tool(next(ids), "task_items", "add_many", {"list_id": list_id, "tasks": tasks})
        time.sleep(4)
        faults = server.page_faults()
        started = time.perf_counter()
        for _ in range(cycles):
            claimed = server.tool(next(ids), "task_claims", "claim_next", {"list_id": list_id})
            close = {"task_id": claimed["task"]["id"], "status": "done", "outcome": "ok", "claim_token": claimed["claim"]["token"]}
            server.tool(next(ids), "task_items", "update", close)
        elapsed = time.perf_counter() - started
        result = (elapsed / cycles * 1e3, (server.page_faults() - faults) / cycles)
        server.close()
        return result


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

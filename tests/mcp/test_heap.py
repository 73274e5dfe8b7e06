"""A server claiming and closing tasks in a row keeps the memory SQLite's
statements free for its next call instead of faulting it in again each
time (`tasklists_store::sqlite::keep_heap_top`, set by the wasmtime host).
Without it a `tasklists mcp` server took 60 to 100 page faults per claim
and close (here about 18,000 in the 200 cycles measured; with it, 30 to
60). BENCHMARKS.md, "the heap's top kept between calls"."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from rawclient import RawServer

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.confstr("CS_GNU_LIBC_VERSION") is None,
    reason="counts page faults from /proc on Linux with glibc",
)


def page_faults(pid: int) -> int:
    """Minor page faults of every thread of `pid` so far (`minflt`, the
    field after the flags in each thread's `stat`)."""
    total = 0
    for thread in os.listdir(f"/proc/{pid}/task"):
        stat = Path(f"/proc/{pid}/task/{thread}/stat").read_text()
        total += int(stat[stat.rfind(")") + 1 :].split()[7])
    return total


def tool(server: RawServer, id: int, name: str, action: str, params: dict) -> dict:
    response = server.call(id, "tools/call", {"name": name, "arguments": {"action": action, "params": params}})
    result = response["result"]
    assert not result.get("isError"), result
    return result["structuredContent"]


def test_claims_and_closes_in_a_row_reuse_the_heap_instead_of_faulting_it_in(tmp_path):
    with RawServer(tmp_path / "tasks.db", "heap-agent") as server:
        server.initialize()
        ids = iter(range(1, 10_000))
        list_id = tool(server, next(ids), "task_lists", "create", {"name": "heap"})["list"]["id"]
        # Two batches: with fewer tasks, in one, the heap's top happened
        # to stay in use between calls, and the test could not fail.
        for start in (0, 200):
            tasks = [{"title": f"task {start + i}"} for i in range(200)]
            tool(server, next(ids), "task_items", "add_many", {"list_id": list_id, "tasks": tasks})

        def cycle() -> None:
            claimed = tool(server, next(ids), "task_claims", "claim_next", {"list_id": list_id})
            close = {"task_id": claimed["task"]["id"], "claim_token": claimed["claim"]["token"], "status": "done", "outcome": "ok"}
            tool(server, next(ids), "task_items", "update", close)

        for _ in range(30):
            cycle()
        before = page_faults(server.proc.pid)
        for _ in range(200):
            cycle()
        faults = page_faults(server.proc.pid) - before
        print(f"\n{faults} page faults in 200 claims and closes")
        assert faults < 200, f"{faults} page faults in 200 claims and closes"
        assert server.close() == 0

"""A load test: 64 concurrent agents claiming from one list until it is
empty, over Streamable HTTP (one `tasklists serve`, each agent with its own
token and client) and, beside it, over stdio (one `tasklists mcp` process,
the same 64 agents' calls multiplexed on one connection, each naming its
agent). Loopback only, a fixed amount of work, a deadline: it stops by
itself. Every task is handed out exactly once and ends done.

Prints p50/p99 of a call and the calls per second; run it alone for the
figures in BENCHMARKS.md:

    .venv/bin/python tests/mcp/test_load.py [clients] [tasks]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path

import anyio
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import call, connect  # noqa: E402
from httpserver import Server, add_token, http_client  # noqa: E402

CLIENTS = 64
TASKS = 640
DEADLINE_SECONDS = 300


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def run_load(transport: str, db: Path, clients: int = CLIENTS, tasks: int = TASKS) -> dict:
    """The workload over `transport`; its figures and who claimed what."""
    latencies: list[float] = []
    claimed: list[tuple[str, str]] = []
    agents = [f"load-{i:02d}" for i in range(clients)]
    async with AsyncExitStack() as stack:
        if transport == "http":
            server = Server(db)
            stack.callback(server.stop)
            tokens = {agent: add_token(db, agent) for agent in ["planner", *agents]}
            planner = await stack.enter_async_context(http_client(server.mcp, tokens["planner"]))
            sessions = {}
            for agent in agents:
                sessions[agent] = await stack.enter_async_context(http_client(server.mcp, tokens[agent]))
            named = False
        else:
            planner = await stack.enter_async_context(connect(db, None))
            sessions = {agent: planner for agent in agents}
            named = True
        mine = {"agent_id": "planner"} if named else {}
        list_id = (await call(planner, "task_lists", "create", name="Load", **mine))["list"]["id"]
        for start in range(0, tasks, 100):
            batch = [{"title": f"task {i}"} for i in range(start, min(tasks, start + 100))]
            await call(planner, "task_items", "add_many", list_id=list_id, tasks=batch, **mine)

        async def timed(client, tool, action, **params):
            started = time.perf_counter()
            result = await call(client, tool, action, **params)
            latencies.append(time.perf_counter() - started)
            return result

        async def agent_loop(agent: str) -> None:
            client = sessions[agent]
            who = {"agent_id": agent} if named else {}
            while True:
                result = await timed(client, "task_claims", "claim_next", list_id=list_id, **who)
                task = result["task"]
                if task is None:
                    return
                assert task["claimed_by_agent_id"] == agent
                claimed.append((task["id"], agent))
                await timed(
                    client, "task_items", "update", task_id=task["id"], status="done",
                    outcome="done", claim_token=result["claim"]["token"], **who,
                )

        started = time.perf_counter()
        with anyio.fail_after(DEADLINE_SECONDS):
            async with anyio.create_task_group() as tg:
                for agent in agents:
                    tg.start_soon(agent_loop, agent)
        elapsed = time.perf_counter() - started
    return {
        "transport": transport,
        "clients": clients,
        "calls": len(latencies),
        "p50": percentile(latencies, 50) * 1000,
        "p99": percentile(latencies, 99) * 1000,
        "mean": statistics.fmean(latencies) * 1000,
        "throughput": len(latencies) / elapsed,
        "claimed": claimed,
    }


def row(figures: dict) -> str:
    return (
        f"| {figures['transport']} | {figures['clients']} | {figures['calls']} | "
        f"{figures['p50']:.1f} | {figures['p99']:.1f} | {figures['throughput']:.0f} |"
    )


HEADER = "| transport | clients | calls | p50 ms | p99 ms | calls/s |\n|---|---|---|---|---|---|"


def check(figures: dict, tasks: int) -> None:
    counts = Counter(task for task, _ in figures["claimed"])
    assert len(counts) == tasks, f"{len(counts)} of {tasks} tasks claimed"
    assert max(counts.values()) == 1, "a task was handed out twice"


@pytest.mark.anyio
async def test_64_agents_claim_from_one_list_over_http_and_stdio(tmp_path, capsys):
    rows = []
    for transport in ("http", "stdio"):
        figures = await run_load(transport, tmp_path / f"{transport}.db")
        check(figures, TASKS)
        rows.append(row(figures))
    with capsys.disabled():
        print("\n" + HEADER + "\n" + "\n".join(rows))


async def main(clients: int, tasks: int) -> None:
    print(HEADER)
    for transport in ("http", "stdio"):
        with tempfile.TemporaryDirectory() as tmp:
            figures = await run_load(transport, Path(tmp) / "load.db", clients, tasks)
            check(figures, tasks)
            print(row(figures), flush=True)


if __name__ == "__main__":
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else CLIENTS, int(sys.argv[2]) if len(sys.argv) > 2 else TASKS)

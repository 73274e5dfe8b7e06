"""One server for a team: `tasklists serve` running its calls on a pool of
component instances, beside the same server on one worker (what every
server did before the pool) and beside one `tasklists mcp` process per
agent (each its own instance and connection: the most a team gets from the
same binary), in one run, on SQLite and on PostgreSQL through the latency
proxy (`latency_proxy`, ~3 ms round trip by default).

    cargo build --release -p tasklists
    cargo build --release -p tasklists-tests --bin latency_proxy
    bash scripts/pg-cluster start /tmp/pg-bench && source /tmp/pg-bench/env
    .venv/bin/python tests/mcp/bench_pool.py [--clients 64] [--tasks 640] [--rtt-ms 3]
        [--stores sqlite,postgres] [--reps 3] [--also-workers 2,4]

Without `TASKLISTS_TEST_PG` only SQLite runs. Every agent loops claim_next,
then update to done with an outcome, until the list is empty (what
`test_load.py` does); every task must be handed out once and end done.
The clients are raw JSON-RPC (one `httpx` client with a connection per
agent; one pipe pair per stdio server), not the SDK, so the servers, not
the client's Python, are what is measured. Each arm has a fresh database
(a fresh file, a fresh PostgreSQL database) and runs in the same process,
one after the other.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx2

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import REPO, server_binary  # noqa: E402
from httpserver import HEADERS, Server, add_token, env, rss_kib  # noqa: E402

DEADLINE_SECONDS = 600
IDS = itertools.count(1)


class Failed(Exception):
    """A call answered with an error."""


def request(tool: str, action: str, params: dict[str, Any]) -> dict[str, Any]:
    arguments: dict[str, Any] = {"action": action}
    if params:
        arguments["params"] = params
    return {"jsonrpc": "2.0", "id": next(IDS), "method": "tools/call", "params": {"name": tool, "arguments": arguments}}


def data_of(answer: dict[str, Any]) -> dict[str, Any]:
    result = answer.get("result")
    if result is None or result.get("isError"):
        raise Failed(json.dumps(answer)[:500])
    return result["structuredContent"]


class HttpAgent:
    """An agent calling `/mcp` as its token."""

    def __init__(self, http: httpx2.AsyncClient, url: str, token: str):
        self.http, self.url, self.auth = http, url, {"Authorization": f"Bearer {token}"}

    async def call(self, tool: str, action: str, **params: Any) -> dict[str, Any]:
        answer = await self.http.post(self.url, json=request(tool, action, params), headers=self.auth)
        answer.raise_for_status()
        return data_of(answer.json())


class StdioAgent:
    """An agent with a `tasklists mcp` process of its own."""

    @classmethod
    async def start(cls, db: str, agent: str) -> StdioAgent:
        proc = await asyncio.create_subprocess_exec(
            str(server_binary()), "--db", db, "--agent-id", agent, "mcp",
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=env(), limit=64 << 20,
        )
        self = cls(proc)
        init = {
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
        }
        await self.send(init)
        await self.proc.stdout.readline()
        await self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self

    def __init__(self, proc: asyncio.subprocess.Process):
        self.proc = proc

    async def send(self, message: dict[str, Any]) -> None:
        self.proc.stdin.write(json.dumps(message).encode() + b"\n")
        await self.proc.stdin.drain()

    async def call(self, tool: str, action: str, **params: Any) -> dict[str, Any]:
        await self.send(request(tool, action, params))
        return data_of(json.loads(await self.proc.stdout.readline()))

    async def stop(self) -> None:
        self.proc.stdin.close()
        await self.proc.wait()


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def workload(agents: dict[str, Any], planner: Any, tasks: int) -> dict[str, Any]:
    """Fills a list with `tasks`, then every agent claims and closes until
    it is empty; the figures, checked."""
    list_id = (await planner.call("task_lists", "create", name="Pool"))["list"]["id"]
    for start in range(0, tasks, 100):
        batch = [{"title": f"task {i}"} for i in range(start, min(tasks, start + 100))]
        await planner.call("task_items", "add_many", list_id=list_id, tasks=batch)
    latencies: list[float] = []
    claimed: list[str] = []

    async def timed(agent: Any, tool: str, action: str, **params: Any) -> dict[str, Any]:
        started = time.perf_counter()
        data = await agent.call(tool, action, **params)
        latencies.append(time.perf_counter() - started)
        return data

    async def loop(name: str, agent: Any) -> None:
        while True:
            result = await timed(agent, "task_claims", "claim_next", list_id=list_id)
            task = result["task"]
            if task is None:
                return
            assert task["claimed_by_agent_id"] == name, task
            claimed.append(task["id"])
            await timed(
                agent, "task_items", "update", task_id=task["id"], status="done",
                outcome="done", claim_token=result["claim"]["token"],
            )

    started = time.perf_counter()
    await asyncio.wait_for(asyncio.gather(*(loop(n, a) for n, a in agents.items())), DEADLINE_SECONDS)
    elapsed = time.perf_counter() - started
    counts = Counter(claimed)
    assert len(counts) == tasks, f"{len(counts)} of {tasks} tasks claimed"
    assert max(counts.values()) == 1, "a task was handed out twice"
    # Every close answered without an error: every task ended done.
    return {
        "claims": tasks / elapsed,
        "calls": len(latencies) / elapsed,
        "p50": percentile(latencies, 50) * 1000,
        "p99": percentile(latencies, 99) * 1000,
    }


async def over_http(db: str, names: list[str], tasks: int, workers: int | None) -> dict[str, Any]:
    """One `tasklists serve`, each agent its own token (`workers`: the
    pool's size, None for the server's own choice)."""
    tokens = {name: add_token(db, name) for name in ["planner", *names]}
    extra = {} if workers is None else {"TASKLISTS_SERVE_WORKERS": str(workers)}
    server = Server(db, "--max-requests", str(4 * len(names)), extra_env=extra)
    try:
        limits = httpx2.Limits(max_connections=len(names) + 8, max_keepalive_connections=len(names) + 8)
        async with httpx2.AsyncClient(headers=HEADERS, timeout=120, limits=limits) as http:
            agents = {name: HttpAgent(http, server.mcp, tokens[name]) for name in names}
            planner = HttpAgent(http, server.mcp, tokens["planner"])
            figures = await workload(agents, planner, tasks)
            figures["rss"] = f"{rss_kib(server.pid()) / 1024:.0f}"
            return figures
    finally:
        server.stop()


async def over_stdio(db: str, names: list[str], tasks: int) -> dict[str, Any]:
    """One `tasklists mcp` per agent (and one for the planner)."""
    agents: dict[str, StdioAgent] = {}
    try:
        for name in ["planner", *names]:
            agents[name] = await StdioAgent.start(db, name)
        planner = agents.pop("planner")
        agents_only = dict(agents)
        agents["planner"] = planner
        return await workload(agents_only, planner, tasks)
    finally:
        for agent in agents.values():
            await agent.stop()


class Stores:
    """Fresh databases: SQLite files, or PostgreSQL databases reached
    through the latency proxy."""

    def __init__(self, tmp: Path, rtt_ms: float):
        self.tmp, self.n, self.rtt_ms = tmp, 0, rtt_ms
        self.admin = os.environ.get("TASKLISTS_TEST_PG") or None
        self.proxy: subprocess.Popen[str] | None = None
        self.port = 0

    def fresh(self, kind: str) -> str:
        self.n += 1
        if kind == "sqlite":
            return str(self.tmp / f"pool-{self.n}.db")
        assert self.admin
        name = f"pool_bench_{os.getpid()}_{self.n}"
        subprocess.run(["psql", self.admin, "-qc", f"CREATE DATABASE {name}"], check=True)
        url = self.admin.replace("/postgres?", f"/{name}?")
        if self.proxy is None:
            upstream = self.admin.split("@", 1)[1].split("/", 1)[0]
            proxy = REPO / "target" / "release" / "latency_proxy"
            self.proxy = subprocess.Popen(
                [str(proxy), upstream, str(int(self.rtt_ms * 500))], stdout=subprocess.PIPE, text=True,
            )
            self.port = int(self.proxy.stdout.readline())
        host = url.split("@", 1)[1].split("/", 1)[0]
        return url.replace(host, f"127.0.0.1:{self.port}")

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.kill()
            self.proxy.wait()


def machine() -> str:
    model = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--tasks", type=int, default=640)
    parser.add_argument("--rtt-ms", type=float, default=3.0)
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--reps", type=int, default=1, help="runs of each arm, interleaved; the median is shown")
    parser.add_argument("--also-workers", default="", help="more pool sizes to run beside, e.g. 2,4")
    args = parser.parse_args()
    kinds = [k for k in args.stores.split(",") if k == "sqlite" or os.environ.get("TASKLISTS_TEST_PG")]
    names = [f"agent-{i:02d}" for i in range(args.clients)]
    print(f"# one server for a team: {args.clients} agents, {args.tasks} tasks (claim_next + update done)\n")
    print(
        f"machine: {machine()}; PostgreSQL through the latency proxy at {args.rtt_ms} ms round trip; "
        f"median of {args.reps} interleaved run(s) per row\n"
    )
    print("| store | server | claims/s | calls/s | p50 ms | p99 ms | server RSS MiB | × stdio | × 1 worker |")
    print("|---|---|---|---|---|---|---|---|---|")
    stdio_label = f"stdio, {args.clients} servers"

    def http_arm(workers: int | None):
        return lambda db: over_http(db, names, args.tasks, workers)

    arms = [("http, 1 worker (before)", http_arm(1)), ("http, pool", http_arm(None))]
    arms += [(f"http, {n} workers", http_arm(int(n))) for n in args.also_workers.split(",") if n]
    arms.append((stdio_label, lambda db: over_stdio(db, names, args.tasks)))
    with tempfile.TemporaryDirectory() as tmp:
        stores = Stores(Path(tmp), args.rtt_ms)
        try:
            for kind in kinds:
                runs: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in arms}
                for rep in range(args.reps):
                    # Rotated, so a slow spell of the machine hits every arm.
                    order = arms[rep % len(arms):] + arms[:rep % len(arms)]
                    for label, run in order:
                        figures = await run(stores.fresh(kind))
                        runs[label].append(figures)
                        print(f"{kind} {label}: {figures['claims']:.0f} claims/s", file=sys.stderr, flush=True)
                median = {label: sorted(rs, key=lambda f: f["claims"])[len(rs) // 2] for label, rs in runs.items()}
                stdio, one = median[stdio_label]["claims"], median[arms[0][0]]["claims"]
                for label, f in median.items():
                    print(
                        f"| {kind} | {label} | {f['claims']:.0f} | {f['calls']:.0f} | {f['p50']:.1f} | "
                        f"{f['p99']:.1f} | {f.get('rss', '–')} | {f['claims'] / stdio:.2f} | {f['claims'] / one:.2f} |",
                        flush=True,
                    )
        finally:
            stores.stop()


if __name__ == "__main__":
    asyncio.run(main())

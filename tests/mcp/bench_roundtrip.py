"""Round-trip latency of MCP calls, each beside `ping` in the same run.

    .venv/bin/python tests/mcp/bench_roundtrip.py [calls]   (default 1000)

(`bash scripts/python-env` makes `.venv`; the server is `$TASKLISTS_BIN`,
else `target/release/tasklists`.)

Two clients, each on its own `tasklists mcp` process and fresh database:
- the official Python SDK client (what most MCP hosts resemble);
- a raw JSON-RPC line client (`rawclient.py`: write a line, read a line),
  so the SDK's own overhead can be told apart from the server's.

Cases, interleaved round-robin so machine noise hits every case alike:
`ping` (the protocol round trip alone: the baseline), `task_help workflow`
(guest only), `task_lists find`, `task_lists get` (first page of a
50-task list), and the writes `task_claims claim_next`, `task_items update`
status done, `task_items update` notes, `task_items create` (add). Prints
p50/p90/p99 and the ratio of each p50 and p99 to ping's.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import connect, server_binary  # noqa: E402
from rawclient import RawServer  # noqa: E402

WARMUP = 30


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def machine() -> str:
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


class Workload:
    """The calls of one round, over any `call(tool, arguments) -> data`.

    Each round claims the next task and closes it, so the claim list holds
    enough tasks for every round; `get` reads a second, fixed 50-task list
    so its page never changes; `add` creates tasks on a third list.
    """

    def __init__(self, call: Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]], ping: Callable[[], Awaitable[Any]]):
        self.call, self.ping = call, ping
        self.counter = 0

    async def setup(self, rounds: int) -> None:
        act = self.act
        self.claims = (await act("task_lists", "create", name="claims"))["list"]["id"]
        for start in range(0, rounds, 200):
            titles = [{"title": f"claim {i}"} for i in range(start, min(rounds, start + 200))]
            await act("task_items", "add_many", list_id=self.claims, tasks=titles)
        self.page = (await act("task_lists", "create", name="page"))["list"]["id"]
        await act("task_items", "add_many", list_id=self.page, tasks=[{"title": f"t{i}"} for i in range(50)])
        self.adds = (await act("task_lists", "create", name="adds"))["list"]["id"]

    async def act(self, tool: str, action: str, **params: Any) -> dict[str, Any]:
        arguments: dict[str, Any] = {"action": action}
        if params:
            arguments["params"] = params
        return await self.call(tool, arguments)

    async def round(self, samples: dict[str, list[float]]) -> None:
        """One of each case, timed; the claim feeds the two updates."""
        self.counter += 1
        n = self.counter

        async def timed(name: str, op: Awaitable[Any]) -> Any:
            started = time.perf_counter()
            result = await op
            samples.setdefault(name, []).append((time.perf_counter() - started) * 1000)
            return result

        await timed("ping (baseline)", self.ping())
        await timed("task_help workflow", self.act("task_help", "workflow"))
        await timed("task_lists find", self.act("task_lists", "find"))
        await timed("task_lists get (first page)", self.act("task_lists", "get", list_id=self.page))
        claim = await timed("task_claims claim_next", self.act("task_claims", "claim_next", list_id=self.claims))
        task_id, token = claim["task"]["id"], claim["claim"]["token"]
        await timed(
            "task_items update notes",
            self.act("task_items", "update", task_id=task_id, notes=f"note {n}", claim_token=token),
        )
        await timed(
            "task_items update done",
            self.act("task_items", "update", task_id=task_id, status="done", outcome=f"done {n}", claim_token=token),
        )
        await timed("task_items create (add)", self.act("task_items", "create", list_id=self.adds, title=f"added {n}"))


async def measure(workload: Workload, rounds: int) -> dict[str, list[float]]:
    await workload.setup(rounds + WARMUP)
    warm: dict[str, list[float]] = {}
    for _ in range(WARMUP):
        await workload.round(warm)
    samples: dict[str, list[float]] = {}
    for _ in range(rounds):
        await workload.round(samples)
    return samples


async def sdk_client(db: Path, rounds: int) -> dict[str, list[float]]:
    async with connect(db, "bench", mode="legacy") as client:

        async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            result = await client.call_tool(tool, arguments)
            if result.is_error:
                raise RuntimeError(f"{tool} {arguments}: {result.content[0].text}")
            return result.structured_content

        return await measure(Workload(call, client.session.send_ping), rounds)


async def raw_client(db: Path, rounds: int) -> dict[str, list[float]]:
    with RawServer(db, "bench") as server:
        server.initialize()
        ids = iter(range(1, 10**9))

        async def call(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
            response = server.call(next(ids), "tools/call", {"name": tool, "arguments": arguments})
            result = response["result"]
            if result.get("isError"):
                raise RuntimeError(f"{tool} {arguments}: {result['content'][0]['text']}")
            return result["structuredContent"]

        async def ping() -> Any:
            return server.call(next(ids), "ping")

        samples = await measure(Workload(call, ping), rounds)
        server.close()
        return samples


def table(title: str, results: dict[str, list[float]]) -> None:
    base50 = statistics.median(results["ping (baseline)"])
    base99 = percentile(results["ping (baseline)"], 99)
    print(f"\n{title}\n")
    print("| call | p50 ms | p90 ms | p99 ms | p50 × ping | p99 × ping |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, samples in results.items():
        p50, p99 = statistics.median(samples), percentile(samples, 99)
        print(f"| {name} | {p50:.3f} | {percentile(samples, 90):.3f} | {p99:.3f} | {p50 / base50:.2f}× | {p99 / base99:.2f}× |")


async def main(rounds: int) -> None:
    print("# MCP round trips over stdio, per call, beside ping in the same run\n")
    print(f"machine: {machine()}")
    print(f"parameters: {rounds} timed rounds (+{WARMUP} warm-up) of every call, interleaved; server {server_binary()}")
    with tempfile.TemporaryDirectory() as tmp:
        sdk = await sdk_client(Path(tmp) / "sdk.db", rounds)
        raw = await raw_client(Path(tmp) / "raw.db", rounds)
    table("Official Python SDK client (`mcp`, legacy session so `ping` exists):", sdk)
    table("Raw JSON-RPC line client (one request line, one answer line):", raw)
    sdk_ping = statistics.median(sdk["ping (baseline)"])
    raw_ping = statistics.median(raw["ping (baseline)"])
    print(f"\nSDK client overhead: ping p50 {sdk_ping:.3f} ms (SDK) vs {raw_ping:.3f} ms (raw), {sdk_ping / raw_ping:.1f}×")


if __name__ == "__main__":
    # ping is gone from 2026-07-28; the SDK benchmark's session is legacy.
    warnings.filterwarnings("ignore", message="ping is removed")
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 1000)

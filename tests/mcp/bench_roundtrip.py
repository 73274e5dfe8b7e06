"""Round-trip latency of MCP calls from the official Python client.

    .venv/bin/python tests/mcp/bench_roundtrip.py [calls]   (default 2000)

Measures, over one `tasklists mcp` process on a fresh database:
- `ping`: the protocol round trip alone (the baseline of the same run);
- `task_help workflow`: a read-only guest call;
- `task_lists find`: a read of the store;
- `task_items update notes`: a write (one transaction) on a claimed task;
and prints p50/p90/p99 and each p50 as a ratio of the ping p50.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import call, connect  # noqa: E402


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def timed(n: int, operation) -> list[float]:
    for _ in range(min(50, n)):  # warm-up
        await operation()
    samples = []
    for _ in range(n):
        started = time.perf_counter()
        await operation()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


async def main(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        async with connect(db, "bench", mode="legacy") as client:
            list_id = (await call(client, "task_lists", "create", name="Bench"))["list"]["id"]
            await call(client, "task_items", "add_many", list_id=list_id, tasks=[{"title": f"t{i}"} for i in range(50)])
            claim = await call(client, "task_claims", "claim_next", list_id=list_id)
            task_id, token = claim["task"]["id"], claim["claim"]["token"]
            counter = iter(range(10**9))

            cases = {
                "ping (baseline)": lambda: client.session.send_ping(),
                "task_help workflow": lambda: call(client, "task_help", "workflow"),
                "task_lists find": lambda: call(client, "task_lists", "find"),
                "task_items update notes": lambda: call(
                    client, "task_items", "update", task_id=task_id, notes=f"note {next(counter)}", claim_token=token
                ),
            }
            results = {name: await timed(n, op) for name, op in cases.items()}

    base = statistics.median(results["ping (baseline)"])
    print(f"MCP round trips over stdio, {n} calls each (ms), Python SDK client, protocol 2025-11-25")
    print(f"{'case':<26}{'p50':>8}{'p90':>8}{'p99':>8}{'x ping':>8}")
    for name, samples in results.items():
        p50 = statistics.median(samples)
        print(
            f"{name:<26}{p50:>8.3f}{percentile(samples, 90):>8.3f}{percentile(samples, 99):>8.3f}{p50 / base:>8.2f}"
        )


if __name__ == "__main__":
    # ping is gone from 2026-07-28; the benchmark's session is legacy.
    warnings.filterwarnings("ignore", message="ping is removed")
    anyio.run(main, int(sys.argv[1]) if len(sys.argv) > 1 else 2000)

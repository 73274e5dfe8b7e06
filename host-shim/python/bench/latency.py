"""The Python host beside the wasmtime host, on the same workload as the
wasmtime host's `call_latency` example and the Node host's
bench/latency.mjs (a list of 1,000 tasks; 500 calls of each): per-call
p50/p99 of claim_next, update notes, update done (each claim followed by
the two updates on the claimed task), get (first page of 50) and find;
open time (the Python host's open loads its compiled component from the
on-disk cache, as the wasmtime host's does) and resident memory. The two
alternate `reps` times (default 3); medians are reported.

    python host-shim/python/bench/latency.py [tasks] [calls] [reps]

The wasmtime side is $TASKLISTS_CALL_LATENCY, else
target/release/examples/call_latency, else built with
`cargo build --release -p tasklists-host --example call_latency`."""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
ACTIONS = ["claim_next", "update_notes", "update_done", "get", "find"]


def summary(times: list[float]) -> dict[str, float]:
    times.sort()
    at = lambda p: times[min(len(times) - 1, len(times) * p // 100)]  # noqa: E731
    return {"p50_ms": at(50), "p99_ms": at(99)}


def rss_mib() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def python_run(tasks: int, calls: int) -> dict:
    """One run of the workload in a fresh process (its own RSS)."""
    out = subprocess.run([sys.executable, __file__, "--one", str(tasks), str(calls)],
                         capture_output=True, text=True, check=True, env=dict(os.environ, PYTHONPATH=str(REPO / "host-shim/python/src")))
    return json.loads(out.stdout.strip().splitlines()[-1])


def one(tasks: int, calls: int) -> None:
    rss_start = rss_mib()
    started = time.perf_counter()
    from tasklists_py import Host

    with tempfile.TemporaryDirectory() as d:
        host = Host(os.path.join(d, "tasks.db"), agent_id="bench")
        open_ms = (time.perf_counter() - started) * 1e3
        started = time.perf_counter()
        host.call_action("task_lists", "find", "{}")
        first_ms = (time.perf_counter() - started) * 1e3
        list_id = host.call("task_lists", {"action": "create", "params": {"name": "bench"}})[1]["list"]["id"]
        for start in range(0, tasks, 200):
            batch = [{"title": f"task {i}"} for i in range(start, min(tasks, start + 200))]
            host.call("task_items", {"action": "add_many", "params": {"list_id": list_id, "tasks": batch}})
        times: dict[str, list[float]] = {a: [] for a in ACTIONS}

        def timed(tool: str, action: str, params: str, name: str) -> dict:
            t0 = time.perf_counter()
            reply = host.call_action(tool, action, params)
            times[name].append((time.perf_counter() - t0) * 1e3)
            assert not reply.is_error, reply.text
            return reply.data

        list_param = json.dumps({"list_id": list_id})
        for i in range(calls):
            claimed = timed("task_claims", "claim_next", list_param, "claim_next")
            task, token = claimed["task"]["id"], claimed["claim"]["token"]
            timed("task_items", "update", json.dumps({"task_id": task, "notes": f"note {i}", "claim_token": token}), "update_notes")
            timed("task_items", "update", json.dumps({"task_id": task, "status": "done", "outcome": "ok", "claim_token": token}), "update_done")
        get_param = json.dumps({"list_id": list_id, "include_tasks": True, "limit": 50})
        for _ in range(calls):
            timed("task_lists", "get", get_param, "get")
            timed("task_lists", "find", "{}", "find")
        print(json.dumps({"host": "python", "open_ms": open_ms, "first_call_ms": first_ms,
                          **{a: summary(t) for a, t in times.items()},
                          "rss_start_mib": rss_start, "rss_end_mib": rss_mib()}))


def wasmtime_run(tasks: int, calls: int) -> dict:
    binary = os.environ.get("TASKLISTS_CALL_LATENCY") or str(REPO / "target/release/examples/call_latency")
    if not Path(binary).is_file():
        subprocess.run(["cargo", "build", "--quiet", "--release", "--locked", "-p", "tasklists-host", "--example", "call_latency"],
                       cwd=REPO, check=True)
    out = subprocess.run([binary, str(tasks), str(calls)], capture_output=True, text=True, check=True, cwd=REPO)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    if sys.argv[1:2] == ["--one"]:
        one(int(sys.argv[2]), int(sys.argv[3]))
        return
    tasks = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    py, ws = [], []
    for _ in range(reps):
        py.append(python_run(tasks, calls))
        ws.append(wasmtime_run(tasks, calls))

    def med(runs: list[dict], action: str, key: str) -> float:
        return statistics.median(r[action][key] if key else r[action] for r in runs)

    print(f"# Python host (wasmtime-py {__import__('importlib.metadata').metadata.version('wasmtime')}, APSW) beside the wasmtime host\n")
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Linux {platform.release()}, Python {platform.python_version()}; "
          f"{tasks} tasks, {calls} calls of each, median of {reps} alternating runs\n")
    print("| measure | Python host | wasmtime host | Python/wasmtime |")
    print("| --- | ---: | ---: | ---: |")
    for action in ACTIONS:
        for key in ("p50_ms", "p99_ms"):
            p, w = med(py, action, key), med(ws, action, key)
            print(f"| {action} {key[:3]} (ms) | {p:.3f} | {w:.3f} | {p / w:.1f}x |")
    for key, label in (("open_ms", "open (ms)"), ("first_call_ms", "first call (ms)"), ("rss_end_mib", "RSS at the end (MiB)")):
        p, w = med(py, key, ""), med(ws, key, "")
        print(f"| {label} | {p:.1f} | {w:.1f} | {p / w:.1f}x |")


if __name__ == "__main__":
    main()

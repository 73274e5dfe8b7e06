"""Three hosts, one list: processes of the wasmtime host (the native
`race_worker`), the Node host (its race worker) and the Python host claim
from one list on one SQLite file, and on one PostgreSQL database: every
task is handed out once, nothing is lost, no call fails, no process starves
(as host-shim/node/test/race.test.mjs and tests/tests/race.rs).

The native worker is $TASKLISTS_RACE_WORKER, else target/release/race_worker
(`cargo build --release --workspace`); the Node worker needs the built Node
host ($TASKLISTS_NODE_HOST, else host-shim/node, with its dist/:
`bash scripts/node-host`). Either missing: the
test is skipped, saying why."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import HERE, REPO
from pg import fresh_database, needs_pg
from tasklists_py import Host

TASKS = 600
PER_HOST = 2


def _workers() -> dict[str, list[str]]:
    native = os.environ.get("TASKLISTS_RACE_WORKER") or str(REPO / "target" / "release" / "race_worker")
    node_host = Path(os.environ.get("TASKLISTS_NODE_HOST") or REPO / "host-shim" / "node")
    node_worker = node_host / "test" / "fixtures" / "race-worker.mjs"
    node_dist = node_host / "dist" / "index.js"
    node = shutil.which("node")
    missing = []
    if not Path(native).is_file():
        missing.append(f"no native race_worker at {native} (cargo build --release --workspace, or set TASKLISTS_RACE_WORKER)")
    if not node or not node_dist.is_file():
        missing.append(f"no built Node host at {node_dist} (bash scripts/node-host)")
    if missing:
        pytest.skip("; ".join(missing))
    return {
        "native": [native],
        "node": [node, str(node_worker)],
        "python": [sys.executable, str(HERE / "race_worker.py")],
    }


def _env() -> dict[str, str]:
    env = dict(os.environ, TASKLISTS_AGENT_ID="", TASKLISTS_CACHE_DIR=str(REPO / "target" / "python-test-cache"))
    if not os.environ.get("TASKLISTS_PY_INSTALLED"):
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE.parent / "src"), os.environ.get("PYTHONPATH")]))
    return env


def _race(db: str) -> None:
    commands = _workers()
    planner = Host(db, agent_id="planner")
    _, made = planner.call("task_lists", {"action": "create", "params": {"name": "Race"}})
    list_id = made["list"]["id"]
    for i in range(0, TASKS, 200):
        planner.call("task_items", {"action": "add_many", "params": {
            "list_id": list_id, "tasks": [{"title": f"task {i + k}"} for k in range(200)]}})

    workers = []
    for n in range(PER_HOST):
        for kind, command in commands.items():
            name = f"{kind}-{n}"
            child = subprocess.Popen([*command, db, list_id, name], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, env=_env())
            workers.append((name, child))
    for name, child in workers:
        line = child.stdout.readline()
        assert json.loads(line or "{}").get("ready"), f"{name} did not start: {line!r}"
    read: dict[str, str] = {}
    readers = [threading.Thread(target=lambda n=name, c=child: read.__setitem__(n, c.stdout.read())) for name, child in workers]
    started = time.monotonic()
    for _, child in workers:
        child.stdin.write("go\n")
        child.stdin.close()
    for reader in readers:
        reader.start()
    outputs = {}
    for (name, child), reader in zip(workers, readers):
        reader.join(timeout=600)
        child.wait(timeout=60)
        out = read.get(name, "")
        assert child.returncode == 0, f"{name} exited with {child.returncode}: {out[-2000:]}"
        outputs[name] = [json.loads(line) for line in out.splitlines() if line.strip()]
    seconds = time.monotonic() - started

    claimed: dict[str, list[str]] = {}
    shares = {name: 0 for name, _ in workers}
    errors = []
    for name, lines in outputs.items():
        for line in lines:
            if "error" in line:
                errors.append({"name": name, **line})
            if not line.get("claimed") or line.get("resumed"):
                continue
            claimed.setdefault(line["claimed"], []).append(name)
            shares[name] += 1
    assert [t for t, by in claimed.items() if len(by) > 1] == [], "no task handed out twice"
    assert len(claimed) == TASKS, "every task handed out"
    assert errors == [], "no error at all"
    print(f"three-host race on {planner.session.backend.dialect()}: {TASKS} tasks in {seconds:.2f} s; shares {shares}")
    # No process starves (each gets a tenth of an equal share: a Python
    # call costs several times a native one, and six processes share two
    # cores in CI).
    equal = TASKS / len(workers)
    for name, n in shares.items():
        assert n >= equal / 10, f"{name} got {n} of {TASKS} (an equal share is {equal})"

    # The store agrees: each task done by its claimer, one claimed event each.
    tasks, cursor = [], None
    while True:
        params = {"list_id": list_id, "include_tasks": True, "limit": 500, **({"cursor": cursor} if cursor else {})}
        _, page = planner.call("task_lists", {"action": "get", "params": params})
        tasks += page["tasks"]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert len(tasks) == TASKS
    for task in tasks:
        assert task["status"] == "done"
        assert task["outcome"] == f"done by {claimed[task['id']][0]}"
    events, cursor = [], None
    while True:
        params = {"list_id": list_id, "kinds": "claimed", "limit": 200, **({"cursor": cursor} if cursor else {})}
        _, page = planner.call("task_audit", {"action": "get", "params": params})
        events += [e["task_id"] for e in page["events"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert len(events) == TASKS and len(set(events)) == TASKS
    planner.close()


def test_three_hosts_share_one_sqlite_file(tmp_path):
    _race(str(tmp_path / "race.db"))


@needs_pg
def test_three_hosts_share_one_postgresql_database():
    with fresh_database() as url:
        _race(url)

"""One `tasklists serve` running its calls on a pool of instances: many
agents claiming from one list over HTTP get every task once, and every
close lands, on SQLite (tool calls on one worker, pages and token lookups
beside it) and, when `TASKLISTS_TEST_PG` names a server, on PostgreSQL
(calls on many workers at once). The figures are `bench_pool.py`'s."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pool import over_http  # noqa: E402

AGENTS = [f"pool-{i:02d}" for i in range(24)]
TASKS = 120


def postgres_database(name: str) -> str:
    """A fresh database on the test server (dropped by the cluster's end)."""
    admin = os.environ["TASKLISTS_TEST_PG"]
    subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {name}"], check=True)
    return admin.replace("/postgres?", f"/{name}?")


@pytest.mark.anyio
async def test_a_pooled_server_hands_out_each_task_once_on_sqlite(tmp_path):
    # over_http asserts every task claimed once, by the agent it names,
    # and every close answered without an error.
    await over_http(str(tmp_path / "pool.db"), AGENTS, TASKS, None)


@pytest.mark.anyio
@pytest.mark.skipif(not os.environ.get("TASKLISTS_TEST_PG"), reason="TASKLISTS_TEST_PG is not set")
async def test_a_pooled_server_hands_out_each_task_once_on_postgres():
    await over_http(postgres_database(f"pool_test_{os.getpid()}"), AGENTS, TASKS, None)

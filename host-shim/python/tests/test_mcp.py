"""The MCP contract tests of tests/mcp/ (the official Python SDK as the
client) against `tasklists-py mcp`, unchanged, as the Node host runs them:
the workflow, errors and two-servers-on-one-database files, on SQLite and
on PostgreSQL, and the answer to every malformed line. The server is
$TASKLISTS_PY_BIN (CI: the console script of the installed wheel), else
the checkout's host-shim/python/bin/tasklists-py."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import HERE, REPO

CONTRACT_TESTS = ["tests/mcp/test_workflow.py", "tests/mcp/test_errors.py", "tests/mcp/test_two_servers.py"]
#: Every line a client may get wrong: the transport's, whatever the store,
#: so run on SQLite only.
TRANSPORT_TESTS = ["tests/mcp/test_malformed.py"]


def server() -> str:
    return os.environ.get("TASKLISTS_PY_BIN") or str(HERE.parent / "bin" / "tasklists-py")


import pytest


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_the_mcp_contract_tests_pass_against_the_python_server(store):
    if store == "postgres" and not os.environ.get("TASKLISTS_TEST_PG"):
        pytest.skip("TASKLISTS_TEST_PG is not set (an admin URL such as postgresql://postgres@127.0.0.1:54329/postgres)")
    env = dict(os.environ, TASKLISTS_BIN=server(), TASKLISTS_MCP_TRANSPORTS="stdio", TASKLISTS_MCP_STORE=store)
    # Two workers: each test starts its own server, mostly process start-up.
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2", *CONTRACT_TESTS,
         *(TRANSPORT_TESTS if store == "sqlite" else [])],
        cwd=REPO, env=env, timeout=900,
    )
    assert run.returncode == 0, "the MCP contract suite failed against tasklists-py mcp: see pytest's report above"


def _initialize() -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


def test_every_request_read_before_stdin_closed_is_answered(db):
    requests = [_initialize(), {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    requests += [
        {"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
         "params": {"name": "task_lists", "arguments": {"action": "create", "params": {"name": f"piped {i}"}}}}
        for i in range(5)
    ]
    run = subprocess.run(
        [server(), "--db", str(db), "mcp", "--agent-id", "piped"],
        input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True, text=True, timeout=120,
        env=dict(os.environ, TASKLISTS_AGENT_ID="", TASKLISTS_DB=""),
    )
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.strip().splitlines()]
    assert sorted(a["id"] for a in answers) == [1, 10, 11, 12, 13, 14]
    assert all(a["result"]["isError"] is False for a in answers if a["id"] >= 10)


def test_flags_before_or_after_the_command_and_their_refusals(db):
    run = subprocess.run([server(), "mcp", "--pin-agent"], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, TASKLISTS_AGENT_ID="", TASKLISTS_DB=str(db)))
    assert run.returncode == 2 and "--pin-agent needs an identity" in run.stderr
    run = subprocess.run([server(), "--db", str(db), "serve"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "serves `mcp` only" in run.stderr
    # Flags after the command, as the native binary accepts them.
    run = subprocess.run([server(), "mcp", "--db", str(db), "--agent-id", "late", "--thread", "t1"],
                         capture_output=True, text=True, timeout=60, input="")
    assert run.returncode == 0 and "default agent `late`" in run.stderr, run.stderr


def test_a_request_the_client_cancelled_does_not_hold_the_end_of_input(db):
    requests = [
        _initialize(),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 20, "method": "tools/call",
         "params": {"name": "task_help", "arguments": {"action": "workflow"}}},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 20}},
    ]
    run = subprocess.run(
        [server(), "--db", str(db), "mcp"], input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True, text=True, timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[0])["id"] == 1

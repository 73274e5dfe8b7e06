"""The Python host on PostgreSQL: the same calls, the server's clock, the
native binary reading what it wrote, and no password in what it shows."""

from __future__ import annotations

import os
import subprocess

from pg import fresh_database, needs_pg
from tasklists_py import Host


@needs_pg
def test_a_workflow_on_postgresql_that_the_native_host_reads():
    with fresh_database() as url:
        host = Host(url, agent_id="py-pg")
        assert host.session.backend.dialect() == "postgres"
        _, made = host.call("task_lists", {"action": "create", "params": {"name": "On PostgreSQL"}})
        list_id = made["list"]["id"]
        host.call("task_items", {"action": "add_many", "params": {"list_id": list_id, "tasks": [{"title": "a"}, {"title": "b"}]}})
        _, claimed = host.call("task_claims", {"action": "claim_next", "params": {"list_id": list_id}})
        assert claimed["task"]["title"] == "a"
        # The lease is the server's clock: the host reads it as it begins.
        assert host.session.backend.keeps_clock() is True
        native = os.environ.get("TASKLISTS_BIN")
        if native and os.path.isfile(native):
            out = subprocess.run(
                [native, "--db", url, "--agent-id", "native", "call", "--json", "task_claims",
                 f'{{"action":"claim_next","params":{{"list_id":"{list_id}"}}}}'],
                capture_output=True, text=True, timeout=60, check=True,
            ).stdout
            assert '"title":"b"' in out, out
        host.close()


@needs_pg
def test_the_location_shown_has_no_password():
    from urllib.parse import urlsplit

    with fresh_database() as url:
        password = urlsplit(url).password
        assert password, "the test cluster's URL carries a password"
        host = Host(url)
        assert password not in host.location and "***" in host.location
        assert not host.reply("task_lists", {"action": "find"}).is_error
        host.close()


def test_a_silent_server_is_given_the_calls_time_not_more():
    """A server that accepts the connection and never answers: the call
    fails within its own time limit, as the native backend words it (it
    used to wait libpq's 10 s `connect_timeout`, past the call's limit)."""
    import socket
    import time

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    port = listener.getsockname()[1]
    try:
        host = Host(f"postgresql://u@127.0.0.1:{port}/db?sslmode=disable", agent_id="py", call_timeout_ms=1500)
        started = time.monotonic()
        reply = host.reply("task_lists", {"action": "find"})
        took = time.monotonic() - started
        assert reply.is_error, reply.text
        assert "did not answer within" in reply.text and "the call's time limit" in reply.text, reply.text
        assert took < 3, f"{took:.1f} s for a call limited to 1.5 s"
        host.close()
    finally:
        listener.close()

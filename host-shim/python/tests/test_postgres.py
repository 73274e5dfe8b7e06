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

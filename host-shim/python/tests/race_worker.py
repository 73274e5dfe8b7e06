"""One Python-host agent process of the three-host race (test_race.py),
speaking the protocol of the native `race_worker` (tests/src/bin) and the
Node host's (host-shim/node/test/fixtures/race-worker.mjs):

    python race_worker.py <db> <list-id> <agent-id>

Prints {"ready": true}, waits for a line on stdin, then loops claim_next +
update status done until claim_next returns no task: one JSON line per
claimed task ({"claimed": id, "resumed": …, "claim_us": …}), one per error
({"error": code, "during": …, "message": …}), then {"done": true, …}."""

from __future__ import annotations

import json
import sys
import time

from tasklists_py import Host


def say(line: dict) -> None:
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


def main() -> None:
    db, list_id, agent = sys.argv[1:4]
    host = Host(db, agent_id=agent)
    say({"ready": True})
    sys.stdin.readline()
    claims = errors = consecutive = 0
    params = json.dumps({"list_id": list_id})
    while True:
        started = time.perf_counter()
        reply = host.call_action("task_claims", "claim_next", params)
        claim_us = round((time.perf_counter() - started) * 1e6)
        if reply.is_error:
            errors += 1
            e = reply.data["error"]
            say({"error": e["code"], "during": "claim_next", "message": e["message"], "claim_us": claim_us})
            consecutive += 1
            if consecutive > 50:
                break
            continue
        consecutive = 0
        data = reply.data
        if data["task"] is None:
            say({"done": True, "claims": claims, "errors": errors, "idle_claim_us": claim_us})
            break
        resumed = data.get("resumed") is True
        if not resumed:
            claims += 1
        updated = host.call_action("task_items", "update", json.dumps({
            "task_id": data["task"]["id"], "status": "done", "outcome": f"done by {agent}", "claim_token": data["claim"]["token"],
        }))
        if updated.is_error:
            errors += 1
            say({"error": updated.data["error"]["code"], "during": "update", "message": updated.data["error"]["message"]})
        say({"claimed": data["task"]["id"], "resumed": resumed, "claim_us": claim_us})
    host.close()


if __name__ == "__main__":
    main()

"""Two `tasklists mcp` processes on one database, each with its own client
and several agents claiming concurrently: every task is handed out exactly
once, and every task ends done by the agent that claimed it."""

from __future__ import annotations

from collections import Counter

import anyio
import pytest
from conftest import all_tasks, call, connect

TASKS = 120
AGENTS_PER_SERVER = 3


async def work_until_empty(client, list_id, agent, claimed_by):
    """An agent's loop: claim_next, write a note, close with an outcome,
    until claim_next has nothing left."""
    while True:
        result = await call(client, "task_claims", "claim_next", list_id=list_id, agent_id=agent)
        task = result["task"]
        if task is None:
            return
        assert task["claimed_by_agent_id"] == agent
        claimed_by.append((task["id"], agent))
        token = result["claim"]["token"]
        await call(
            client,
            "task_items",
            "update",
            task_id=task["id"],
            status="done",
            notes=f"{agent} was here",
            outcome=f"done by {agent}",
            claim_token=token,
            agent_id=agent,
        )


@pytest.mark.anyio
async def test_two_servers_hand_out_each_task_once(db):
    async with connect(db, "planner") as planner:
        list_id = (await call(planner, "task_lists", "create", name="Race"))["list"]["id"]
        added = await call(
            planner, "task_items", "add_many", list_id=list_id, tasks=[{"title": f"task {i}"} for i in range(TASKS)]
        )
        all_ids = {t["id"] for t in added["tasks"]}
        assert len(all_ids) == TASKS

    claimed_by: list[tuple[str, str]] = []
    async with connect(db, "server-a") as a, connect(db, "server-b") as b:
        async with anyio.create_task_group() as group:
            for name, client in (("a", a), ("b", b)):
                for n in range(AGENTS_PER_SERVER):
                    group.start_soon(work_until_empty, client, list_id, f"agent-{name}{n}", claimed_by)

        counts = Counter(task_id for task_id, _ in claimed_by)
        duplicates = {task_id: n for task_id, n in counts.items() if n > 1}
        assert duplicates == {}
        assert set(counts) == all_ids
        per_server = Counter(agent[len("agent-")] for _, agent in claimed_by)
        print(f"two servers, {TASKS} tasks: {dict(per_server)} claims per server, 0 duplicates")
        # Both processes really took part.
        assert per_server["a"] > 0 and per_server["b"] > 0

        # The store agrees: every task done by its claimer, one `claimed`
        # event per task.
        owner = dict(claimed_by)
        tasks = await all_tasks(a, list_id, limit=50)
        assert len(tasks) == TASKS
        assert {t["id"] for t in tasks} == all_ids
        for task in tasks:
            assert task["status"] == "done"
            assert task["outcome"] == f"done by {owner[task['id']]}"
        claimed_events: list[str] = []
        cursor = None
        while True:
            page = await call(
                b, "task_audit", "get", list_id=list_id, kinds="claimed", limit=200, **({"cursor": cursor} if cursor else {})
            )
            claimed_events += [e["task_id"] for e in page["events"]]
            cursor = page.get("next_cursor")
            if not cursor:
                break
        assert Counter(claimed_events) == Counter({task_id: 1 for task_id in all_ids})

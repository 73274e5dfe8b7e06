"""The standard agent workflow, end to end, through the official client:
find → create → add_many → claim_next → update notes → done with outcome →
claim_next returns no task. Run on both the initialize handshake (legacy,
2025-11-25) and the stateless 2026-07-28 protocol the client negotiates by
default."""

from __future__ import annotations

import pytest
from conftest import call, connect


@pytest.mark.transports
@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_standard_workflow(db, mode):
    async with connect(db, "builder-1", mode=mode) as client:
        expected = "2026-07-28" if mode == "auto" else "2025-11-25"
        assert client.protocol_version == expected

        found = await call(client, "task_lists", "find", name="Release")
        assert found["lists"] == []

        created = await call(client, "task_lists", "create", name="Release 1.2", get_or_create=True)
        assert created["created"] is True
        list_id = created["list"]["id"]
        assert list_id.startswith("list_")

        added = await call(
            client,
            "task_items",
            "add_many",
            list_id=list_id,
            tasks=[{"title": "Write the changelog"}, {"title": "Tag the release"}],
        )
        ids = [t["id"] for t in added["tasks"]]
        assert [t["position"] for t in added["tasks"]] == [1, 2]

        for expected_id in ids:
            claimed = await call(client, "task_claims", "claim_next", list_id=list_id)
            task = claimed["task"]
            assert task["id"] == expected_id
            assert task["status"] == "in_progress"
            assert task["claimed_by_agent_id"] == "builder-1"
            token = claimed["claim"]["token"]

            noted = await call(
                client, "task_items", "update", task_id=expected_id, notes="tried X; Y next", claim_token=token
            )
            assert noted["task"]["notes"] == "tried X; Y next"

            closed = await call(
                client,
                "task_items",
                "update",
                task_id=expected_id,
                status="done",
                outcome="done: shipped",
                claim_token=token,
            )
            assert closed["task"]["status"] == "done"
            assert closed["task"]["outcome"] == "done: shipped"

        nothing = await call(client, "task_claims", "claim_next", list_id=list_id)
        assert nothing["task"] is None

        # The list is found again, with its counts.
        found = await call(client, "task_lists", "find", name="release")
        assert [l["id"] for l in found["lists"]] == [list_id]


@pytest.mark.transports
@pytest.mark.anyio
async def test_the_text_block_carries_full_ids(db):
    """The model reads the text block, so every full id must be in it."""
    async with connect(db, "builder-1") as client:
        created = await call(client, "task_lists", "create", name="Ids")
        list_id = created["list"]["id"]
        result = await client.call_tool(
            "task_items", {"action": "create", "params": {"list_id": list_id, "title": "one"}}
        )
        text = result.content[0].text
        task_id = result.structured_content["task"]["id"]
        summary = text.split("\n", 1)[0]
        assert task_id in summary and list_id in text


@pytest.mark.transports
@pytest.mark.anyio
async def test_the_database_outlives_the_server(db):
    """A second server process on the same file sees the first one's work."""
    async with connect(db, "builder-1") as client:
        list_id = (await call(client, "task_lists", "create", name="Persisted"))["list"]["id"]
        await call(client, "task_items", "create", list_id=list_id, title="survives")
    async with connect(db, "builder-2") as client:
        got = await call(client, "task_lists", "get", list_id=list_id, include_tasks=True)
        assert [t["title"] for t in got["tasks"]] == ["survives"]

"""The library a Python agent uses: calls, the catalogue, the views."""

from __future__ import annotations

import json

import pytest
from tasklists_py import Host, ToolCallError


def test_a_workflow_through_call(db):
    host = Host(db, agent_id="py-1")
    summary, data = host.call("task_lists", {"action": "create", "params": {"name": "Release"}})
    assert summary.startswith("created list list_")
    list_id = data["list"]["id"]
    _, added = host.call("task_items", {"action": "add_many", "params": {"list_id": list_id, "tasks": [{"title": "one"}, {"title": "two"}]}})
    assert [t["position"] for t in added["tasks"]] == [1, 2]
    _, claimed = host.call("task_claims", {"action": "claim_next", "params": {"list_id": list_id}})
    assert claimed["task"]["title"] == "one" and claimed["task"]["claimed_by_agent_id"] == "py-1"
    token = claimed["claim"]["token"]
    summary, done = host.call(
        "task_items",
        json.dumps({"action": "update", "params": {"task_id": claimed["task"]["id"], "claim_token": token, "status": "done", "outcome": "shipped"}}),
    )
    assert done["task"]["status"] == "done", summary


def test_a_refusal_carries_the_components_words(db):
    host = Host(db, agent_id="py-1")
    with pytest.raises(ToolCallError) as refused:
        host.call("task_lists", {"action": "nope"})
    assert refused.value.code == "unknown_action"
    assert "task_lists has no action" in refused.value.message
    assert json.loads(refused.value.text)["error"]["code"] == "unknown_action"
    reply = host.reply("task_lists", '{"action": "nope"}')
    assert reply.is_error and reply.data["error"]["code"] == "unknown_action"


def test_state_changes_need_an_identity(db):
    host = Host(db)
    with pytest.raises(ToolCallError) as refused:
        host.call("task_lists", {"action": "create", "params": {"name": "x"}})
    assert refused.value.code == "agent_required"
    # The context can be given per call.
    summary, _ = host.call("task_lists", {"action": "create", "params": {"name": "x"}}, agent_id="py-2")
    assert summary.startswith("created list")


def test_a_pinned_identity_refuses_another(db):
    host = Host(db, agent_id="py-1", pin_agent=True)
    with pytest.raises(ToolCallError) as refused:
        host.call("task_lists", {"action": "create", "params": {"name": "x", "agent_id": "other"}})
    assert refused.value.code == "forbidden"


def test_the_catalogue_is_the_components(db):
    tools = Host(db).tools()
    assert [t.name for t in tools] == ["task_lists", "task_items", "task_claims", "task_audit", "task_help"]
    for tool in tools:
        assert tool.input_schema["type"] == "object"
        assert tool.description and tool.title and tool.prompt_snippet
        assert set(tool.annotations) == {"read_only", "destructive", "idempotent", "open_world"}
    assert next(t for t in tools if t.name == "task_help").annotations["read_only"] is True


def test_the_views(db):
    host = Host(db, agent_id="py-1")
    assert host.widget(width=60) == []  # no visible list: nothing to show
    _, data = host.call("task_lists", {"action": "create", "params": {"name": "Widget list"}})
    lines = host.widget(width=60)
    assert lines[0].startswith("╭─ tasks") and any("Widget list" in line for line in lines)
    assert all(len(line) <= 60 for line in lines)
    names = [c["name"] for c in host.commands()]
    assert "task-lists" in names
    effect = host.run_command("task-lists", "", width=70)
    assert effect["tag"] == "show"
    assert data["list"]["id"] in json.dumps(effect["val"])
    reply = host.reply("task_lists", {"action": "find"})
    rendered = host.render_reply("task_lists", {"action": "find"}, reply)
    assert any("Widget list" in line for line in rendered)


def test_the_package_under_test_is_the_one_meant():
    import os

    import tasklists_py
    from conftest import HERE

    checkout = str(HERE.parent / "src")
    if os.environ.get("TASKLISTS_PY_INSTALLED"):
        assert not tasklists_py.__file__.startswith(checkout), tasklists_py.__file__
    else:
        assert tasklists_py.__file__.startswith(checkout), tasklists_py.__file__

"""The README's example: the tools bound to a Pydantic AI agent. A scripted
model (Pydantic AI's FunctionModel, no network) makes the calls a real one
would; the component answers them on a real store."""

from __future__ import annotations

import json
import sys

import pytest
from conftest import HERE

pydantic_ai = pytest.importorskip("pydantic_ai", reason="pydantic-ai-slim is not installed (host-shim/python/requirements.txt)")
sys.path.insert(0, str(HERE.parent / "examples"))

from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart  # noqa: E402
from pydantic_ai.models.function import FunctionModel  # noqa: E402
from pydantic_ai_agent import agent, instructions  # noqa: E402
from tasklists_py import Host  # noqa: E402


def test_an_agent_works_through_the_tools(db):
    host = Host(db, agent_id="pai-1")
    replies: list[str] = []

    def scripted(messages, info):
        tools = {t.name for t in info.function_tools}
        assert tools == {"task_lists", "task_items", "task_claims", "task_audit", "task_help"}
        returns = [p for m in messages for p in getattr(m, "parts", []) if isinstance(p, ToolReturnPart)]
        replies.extend(str(p.content) for p in returns[len(replies):])
        if not returns:
            return ModelResponse(parts=[ToolCallPart("task_lists", {"action": "create", "params": {"name": "From an agent"}})])
        if len(returns) == 1:
            list_id = json.loads(returns[0].content.partition("\n")[2])["list"]["id"]
            return ModelResponse(parts=[ToolCallPart("task_items", {"action": "add_many", "params": {
                "list_id": list_id, "tasks": [{"title": "first step"}]}})])
        if len(returns) == 2:
            return ModelResponse(parts=[ToolCallPart("task_lists", {"action": "nope"})])
        return ModelResponse(parts=[TextPart("planned")])

    result = agent(host, FunctionModel(scripted)).run_sync("plan it")
    assert result.output == "planned"
    assert replies[0].startswith("created list list_")
    assert replies[1].startswith("added 1 task")
    assert '"code":"unknown_action"' in replies[2]  # the component's words reach the model
    _, found = host.call("task_lists", {"action": "find", "params": {"name": "From an agent"}})
    assert len(found["lists"]) == 1


def test_the_instructions_are_the_catalogues(db):
    text = instructions(Host(db))
    for name in ("task_lists", "task_items", "task_claims", "task_audit", "task_help"):
        assert f"- {name}: " in text

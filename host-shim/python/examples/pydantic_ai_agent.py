"""The five tasklists tools bound to a Pydantic AI agent (pydantic-ai-slim).

Every tool's name, description and JSON Schema come from the component's
catalogue (`Host.tools()`); each call goes to the component as the model
sent it, and the model reads the component's reply text, errors included.
The system prompt's lines are the catalogue's own snippets and guidelines.

    pip install dist/tasklists_py-*.whl pydantic-ai-slim==2.68.0
    python pydantic_ai_agent.py "Plan the 1.2 release in a list, then start on it"

(with a model configured for Pydantic AI, e.g. OPENAI_API_KEY and
`--model openai:gpt-5`)."""

from __future__ import annotations

import argparse
from typing import Any

from pydantic_ai import Agent, Tool

from tasklists_py import Host


def _runner(host: Host, tool: str) -> Any:
    def run(**arguments: Any) -> str:
        # The reply text is what an agent reads: the summary line and the
        # compact JSON, or the error with its hint.
        return host.reply(tool, arguments).text

    return run


def tasklists_tools(host: Host) -> list[Tool[Any]]:
    """The component's tools as Pydantic AI tools, each run on `host`."""
    return [
        Tool.from_schema(_runner(host, info.name), name=info.name, description=info.description, json_schema=info.input_schema)
        for info in host.tools()
    ]


def instructions(host: Host) -> str:
    """The system prompt's lines about the tools, from the catalogue."""
    lines = []
    for info in host.tools():
        lines.append(f"- {info.name}: {info.prompt_snippet}")
        lines += [f"  {rule}" for rule in info.prompt_guidelines]
    return "You keep your work in shared task lists:\n" + "\n".join(lines)


def agent(host: Host, model: Any) -> Agent[None, str]:
    """An agent with the tasklists tools over `host`."""
    return Agent(model, tools=tasklists_tools(host), instructions=instructions(host))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prompt")
    parser.add_argument("--model", default="openai:gpt-5")
    parser.add_argument("--db", help="the store [default: $TASKLISTS_DB, else the user's data directory]")
    parser.add_argument("--agent-id", default="pydantic-ai-agent")
    args = parser.parse_args()
    host = Host(args.db, agent_id=args.agent_id)
    print(agent(host, args.model).run_sync(args.prompt).output)


if __name__ == "__main__":
    main()

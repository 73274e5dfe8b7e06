"""The MCP server on the Python host, built on the official MCP Python SDK
(`mcp`, the low-level `Server` over stdio). It only carries what the
component answers: the tool list is the component's catalogue, every reply
is the component's text and structured data, and an unknown tool is a
JSON-RPC invalid-params error worded by the component."""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from .host import Host
from .stdio_bounds import Answers, BoundedStdin, CountingStdout

VERSION = "0.1.0"


def _tool(info: Any) -> types.Tool:
    schema = info.input_schema if isinstance(info.input_schema, dict) else {"type": "object"}
    return types.Tool(
        name=info.name,
        title=info.title,
        description=info.description,
        input_schema=schema,
        annotations=types.ToolAnnotations(
            read_only_hint=info.annotations["read_only"],
            destructive_hint=info.annotations["destructive"],
            idempotent_hint=info.annotations["idempotent"],
            open_world_hint=info.annotations["open_world"],
        ),
    )


def build_server(host: Host) -> Server[Any]:
    """The MCP server of `host`: its catalogue, and each call run on it."""
    catalogue = host.tools()
    tools = [_tool(t) for t in catalogue]
    known = {t.name for t in catalogue}

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        # The arguments go to the component as the client sent them; it
        # checks them like any other request (keys, action, params, size).
        arguments = json.dumps(params.arguments if params.arguments is not None else {}, ensure_ascii=False)
        # The host blocks (wasm, SQL): off the event loop, one call at a time.
        reply = await anyio.to_thread.run_sync(host.reply, params.name, arguments)
        if reply.is_error and params.name not in known:
            raise MCPError(types.INVALID_PARAMS, reply.summary)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=reply.text)],
            structured_content=reply.data,
            is_error=reply.is_error,
        )

    return Server("tasklists", version=VERSION, title="Task lists", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve(host: Host) -> None:
    """Serves MCP on stdin/stdout until stdin closes."""
    server = build_server(host)
    stdout = CountingStdout(sys.stdout.buffer, Answers())
    stdin = BoundedStdin(sys.stdin.buffer, lambda m: print(f"tasklists-py mcp: {m}", file=sys.stderr), stdout)
    async with stdio_server(stdin=stdin, stdout=stdout) as (read, write):  # type: ignore[arg-type]
        await server.run(read, write, server.create_initialization_options())

"""tasklists for Python: the tasklists WebAssembly component run by
wasmtime-py, its store served by SQLite (or PostgreSQL), for Python
agents (`Host`) and as an MCP server (`tasklists-py mcp`)."""

from .errors import HostError
from .host import Host, Reply, ToolCallError, ToolInfo

__all__ = ["Host", "HostError", "Reply", "ToolCallError", "ToolInfo"]

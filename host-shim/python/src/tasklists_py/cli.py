"""`tasklists-py`: the Python host's command line, with the native
`tasklists` command's global flags and environment variables (accepted
before or after the command), so that a client configured for one starts
the other by changing the command only. It serves `mcp`; the other
commands stay the native CLI's. Exit code 2 for usage and host errors."""

from __future__ import annotations

import argparse
import os
import sys

USAGE = """usage: tasklists-py [--db DB] [--agent-id ID] [--pin-agent] [--workspace PATH] [--thread ID] mcp

Serves the five tools over MCP on stdin/stdout from the Python host (the same
component as the native `tasklists mcp`, run by wasmtime-py).
  --db DB           the store: a database file, or a PostgreSQL URL (postgresql://user@host/db, or libpq key=value words) [default: $TASKLISTS_DB, else $XDG_DATA_HOME/tasklists/tasks.db, else ~/.local/share/tasklists/tasks.db]
  --agent-id ID     your agent identity [default: $TASKLISTS_AGENT_ID]
  --pin-agent       refuse a different params.agent_id (forbidden) instead of letting it override --agent-id
  --workspace PATH  the workspace (default scope_key of workspace lists) [default: the current directory]
  --thread ID       the conversation thread (default scope_key of thread lists)
"""


def _fail(message: str) -> "None":
    print(f"tasklists: {message}", file=sys.stderr)
    sys.exit(2)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        _fail(f"{message}\n{USAGE}")


def main(argv: list[str] | None = None) -> None:
    """Runs the command line."""
    parser = _Parser(prog="tasklists-py", add_help=False, usage=argparse.SUPPRESS)
    parser.add_argument("--db")
    parser.add_argument("--agent-id")
    parser.add_argument("--pin-agent", action="store_true")
    parser.add_argument("--workspace")
    parser.add_argument("--thread")
    # Accepted as the native CLI accepts it; the MCP server renders nothing.
    parser.add_argument("--color")
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("command", nargs="*")
    args = parser.parse_intermixed_args(argv)
    if args.help:
        sys.stdout.write(USAGE)
        return
    if args.command != ["mcp"]:
        _fail(f"the Python host serves `mcp` only (the other commands are the native `tasklists`'s)\n{USAGE}")
    # An empty variable means "unset", as for the native CLI.
    agent_id = (args.agent_id if args.agent_id is not None else os.environ.get("TASKLISTS_AGENT_ID", "")).strip() or None
    if args.pin_agent and not agent_id:
        _fail("--pin-agent needs an identity to pin: pass --agent-id or set TASKLISTS_AGENT_ID")

    from .errors import HostError
    from .host import Host

    try:
        host = Host(args.db, agent_id, pin_agent=args.pin_agent, workspace=args.workspace, thread=args.thread)
    except HostError as e:
        _fail(str(e))
    # One read before serving, as the native server does, so that what would
    # fail every call fails once, at start-up: an identity the contract
    # refuses. A database the component cannot use is only reported.
    check = host.call_action("task_lists", "find", '{"limit":1}')
    if check.is_error:
        error = check.data.get("error", {})
        if error.get("code") == "invalid_params":
            host.close()
            _fail(f"{error.get('message')}; start the server with a valid --agent-id or TASKLISTS_AGENT_ID")
        print(f"tasklists-py mcp: the database is not usable: {error.get('message')} ({error.get('hint')})", file=sys.stderr)
    if agent_id:
        identity = f"agent `{agent_id}` (pinned)" if args.pin_agent else f"default agent `{agent_id}`"
    else:
        identity = "no default agent (calls that change state need params.agent_id)"
    print(f"tasklists-py mcp: serving on {host.location}; {identity}", file=sys.stderr)

    import anyio

    from .mcp_server import serve

    try:
        anyio.run(serve, host)
    finally:
        host.close()


if __name__ == "__main__":
    main()

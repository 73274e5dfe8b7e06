// `tasklists-node`: the Node host's command line, with the native
// `tasklists` command's global flags and environment variables, so that a
// client configured for one starts the other by changing the command only.
// It serves `mcp`; the other commands stay the native CLI's.
//
// Exit codes as the native CLI: 2 for usage and host errors.

import { parseArgs } from "node:util";
import { HostError } from "./errors.js";
import { NodeHost } from "./host.js";
import { serveMcp } from "./mcp.js";
import type { CallContext } from "./types.js";

const USAGE = `usage: tasklists-node [--db DB] [--agent-id ID] [--pin-agent] [--workspace PATH] [--thread ID] mcp

Serves the five tools over MCP on stdin/stdout from the Node host (the same
component as the native \`tasklists mcp\`, in a worker thread of Node).
  --db DB           the store: a database file, or a PostgreSQL URL (postgresql://user@host/db, or libpq key=value words) [default: $TASKLISTS_DB, else $XDG_DATA_HOME/tasklists/tasks.db, else ~/.local/share/tasklists/tasks.db]
  --agent-id ID     your agent identity [default: $TASKLISTS_AGENT_ID]
  --pin-agent       refuse a different params.agent_id (forbidden) instead of letting it override --agent-id
  --workspace PATH  the workspace (default scope_key of workspace lists) [default: the current directory]
  --thread ID       the conversation thread (default scope_key of thread lists)
`;

function fail(message: string): never {
  process.stderr.write(`tasklists: ${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        db: { type: "string" },
        "agent-id": { type: "string" },
        "pin-agent": { type: "boolean" },
        workspace: { type: "string" },
        thread: { type: "string" },
        // Accepted as the native CLI accepts it; the MCP server renders nothing.
        color: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    fail(`${(e as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (positionals.length !== 1 || positionals[0] !== "mcp") {
    fail(`the Node host serves \`mcp\` only (the other commands are the native \`tasklists\`'s)\n${USAGE}`);
  }
  // An empty variable means "unset", as for the native CLI.
  const agentId = (values["agent-id"] ?? process.env.TASKLISTS_AGENT_ID)?.trim() || undefined;
  // No `person`: an MCP client is an agent, never the person at a keyboard.
  const ctx: CallContext = {
    agentId,
    agentPinned: values["pin-agent"] ?? false,
    workspace: values.workspace ?? process.cwd(),
    thread: values.thread,
  };
  if (ctx.agentPinned && !ctx.agentId) {
    fail("--pin-agent needs an identity to pin: pass --agent-id or set TASKLISTS_AGENT_ID");
  }
  let host: NodeHost;
  try {
    host = await NodeHost.open({ db: values.db });
  } catch (e) {
    fail(e instanceof HostError ? e.message : String(e));
  }
  // One read before serving, as the native server does, so that what would
  // fail every call fails once, at start-up: an identity the contract
  // refuses. A database the component cannot use is only reported: each
  // call tells the agent.
  const check = await host.callAction("task_lists", "find", '{"limit":1}', ctx);
  if (check.outcome.tag === "err") {
    const error = check.outcome.val;
    if (error.code === "invalid-params") {
      await host.close();
      fail(`${error.message}; start the server with a valid --agent-id or TASKLISTS_AGENT_ID`);
    }
    // The store's backend already scrubs its messages; this holds even if one slipped through.
    process.stderr.write(host.redact(`tasklists-node mcp: the database is not usable: ${error.message} (${error.hint})\n`));
  }
  const identity = ctx.agentId
    ? ctx.agentPinned
      ? `agent \`${ctx.agentId}\` (pinned)`
      : `default agent \`${ctx.agentId}\``
    : "no default agent (calls that change state need params.agent_id)";
  // Never the connection string itself: it may hold a password.
  process.stderr.write(`tasklists-node mcp: serving on ${host.location}; ${identity}\n`);
  await serveMcp(host, ctx);
}

await main();

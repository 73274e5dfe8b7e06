// The MCP server on the Node host, built on the official TypeScript SDK
// (`@modelcontextprotocol/server`, v2, which serves both the 2026-07-28
// protocol and the 2025 `initialize` handshake on stdio). It only carries
// what the component answers: the tool list is the component's catalogue,
// every reply is the component's text and structured data, and an unknown
// tool is a JSON-RPC invalid-params error worded by the component.

import { INVALID_PARAMS, ProtocolError, Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createRequire } from "node:module";
import type { NodeHost } from "./host.js";
import { BoundedStdioTransport, Budget } from "./mcp-stdio.js";
import type { CallContext, ToolInfo, ToolReply } from "./types.js";

/** The package's version, reported as the server's. */
const VERSION: string = createRequire(import.meta.url)("../package.json").version;

/** A catalogue entry as an MCP tool, every annotation set explicitly. */
function tool(info: ToolInfo) {
  let inputSchema: { type: "object"; [key: string]: unknown };
  try {
    inputSchema = JSON.parse(info.inputSchema);
  } catch {
    // The component always publishes an object schema; anything else
    // degrades to "any object", as in the native server.
    inputSchema = { type: "object" };
  }
  return {
    name: info.name,
    title: info.title,
    description: info.description,
    inputSchema,
    annotations: {
      readOnlyHint: info.annotations.readOnly,
      destructiveHint: info.annotations.destructive,
      idempotentHint: info.annotations.idempotent,
      openWorldHint: info.annotations.openWorld,
    },
  };
}

/** A reply as MCP's result, carried as the component made it. */
function result(reply: ToolReply) {
  return {
    content: [{ type: "text" as const, text: reply.text }],
    structuredContent: JSON.parse(reply.structured) as Record<string, unknown>,
    isError: reply.outcome.tag === "err",
  };
}

/** Counts the calls being served, so that the end of input waits for their answers. */
class InFlight {
  #count = 0;
  #waiters: (() => void)[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.#count++;
    try {
      return await work();
    } finally {
      if (--this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
    }
  }

  /** Resolves once no call is being served. */
  idle(): Promise<void> {
    return this.#count === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/**
 * Serves MCP on stdin/stdout until stdin closes, then answers every request
 * already received before it returns (as the native server does; the SDK's
 * stdio transport alone would drop answers still in flight at the end of
 * input), and closes the host. Every line that is no message is answered
 * as on the native server (see mcp-decode.ts). Memory stays bounded as on
 * the native server (see mcp-stdio.ts): lines over 16 MiB are refused
 * unread, and stdin is left unread while 64 MiB of calls and unwritten
 * answers are held.
 */
export async function serveMcp(host: NodeHost, ctx: CallContext): Promise<void> {
  const catalogue = await host.catalogue();
  const tools = catalogue.map(tool);
  const known = new Set(catalogue.map((t) => t.name));
  const inFlight = new InFlight();
  const budget = new Budget(process.stdout);
  // The transport does not close at the end of stdin: the session ends
  // only once every call received has been answered.
  const warn = (message: string) => process.stderr.write(`tasklists-node mcp: ${message}\n`);
  const transport = new BoundedStdioTransport(process.stdin, process.stdout, budget, warn);
  const handle = serveStdio(
    () => {
      const server = new Server({ name: "tasklists", version: VERSION, title: "Task lists" }, { capabilities: { tools: {} } });
      server.setRequestHandler("tools/list", async () => ({ tools }));
      server.setRequestHandler("tools/call", (request) =>
        inFlight.run(async () => {
          const { name, arguments: args } = request.params;
          // The arguments go to the component as the client sent them; it
          // checks them like any other request (keys, action, params, size).
          const json = JSON.stringify(args ?? {});
          // Every call counts until it has run, whatever its request id.
          const reply = await budget.call(Buffer.byteLength(json), () => host.call(name, json, ctx));
          if (reply.outcome.tag === "err" && !known.has(name)) {
            throw new ProtocolError(INVALID_PARAMS, reply.outcome.val.message);
          }
          return result(reply);
        }),
      );
      return server;
    },
    {
      transport,
      onerror: (e) => warn(e.message),
    },
  );
  await transport.ended;
  await inFlight.idle();
  // The last answers are written after their handlers return: let them out.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => process.stdout.write("", resolve));
  await host.close();
  await handle.close();
}

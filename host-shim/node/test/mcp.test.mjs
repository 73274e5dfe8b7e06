// @ts-check
// The contract tests of tests/mcp/ (the official Python SDK as the client)
// against the Node host's MCP server, unchanged: the same workflow,
// errors and two-servers-on-one-database tests the native server passes,
// and the same answer to every malformed line (test_malformed.py). The
// native server's own transport tests (protocol, backpressure, recovery)
// stay specific to it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE, REPO } from "./helpers.mjs";

const CONTRACT_TESTS = ["tests/mcp/test_workflow.py", "tests/mcp/test_errors.py", "tests/mcp/test_two_servers.py", "tests/mcp/test_malformed.py"];

test("the MCP contract tests pass against the Node MCP server", { timeout: 600_000 }, () => {
  const env = spawnSync("bash", [join(REPO, "scripts", "python-env")], { stdio: "inherit" });
  assert.equal(env.status, 0, "scripts/python-env could not build .venv");
  // Two workers: each test starts its own Node server (most of its time is
  // that process starting), and these files check answers, not timing.
  const pytest = spawnSync(join(REPO, ".venv", "bin", "python"), ["-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "2", ...CONTRACT_TESTS], {
    cwd: REPO,
    stdio: "inherit",
    // The Node host serves MCP over stdio only; `tasklists serve` is the native binary's.
    env: { ...process.env, TASKLISTS_BIN: join(PACKAGE, "bin", "tasklists-node"), TASKLISTS_MCP_TRANSPORTS: "stdio" },
  });
  assert.equal(pytest.status, 0, "the MCP contract suite failed against the Node server: see pytest's report above");
});

test("the Node MCP server answers every request it received before stdin closed", async (t) => {
  const { tempDir } = await import("./helpers.mjs");
  const db = join(tempDir(t), "tasks.db");
  const requests = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    ...Array.from({ length: 5 }, (_, i) => ({
      jsonrpc: "2.0",
      id: 10 + i,
      method: "tools/call",
      params: { name: "task_lists", arguments: { action: "create", params: { name: `piped ${i}` } } },
    })),
  ];
  // All requests at once, then end of input: the answers must still come.
  const server = spawnSync(join(PACKAGE, "bin", "tasklists-node"), ["--db", db, "--agent-id", "piped", "mcp"], {
    input: requests.map((r) => JSON.stringify(r)).join("\n") + "\n",
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, TASKLISTS_AGENT_ID: "", TASKLISTS_DB: "" },
  });
  assert.equal(server.status, 0, server.stderr);
  const answers = server.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(answers.map((a) => a.id).sort((a, b) => a - b), [1, 10, 11, 12, 13, 14]);
  for (const answer of answers.filter((a) => a.id >= 10)) assert.equal(answer.result.isError, false, JSON.stringify(answer));
});

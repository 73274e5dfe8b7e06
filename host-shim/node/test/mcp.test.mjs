// The contract tests of tests/mcp/ (the official Python SDK as the client)
// against the Node host's MCP server, unchanged: the same workflow,
// errors and two-servers-on-one-database tests the native server passes.
// The native server's own transport tests (protocol, backpressure,
// recovery) stay specific to it.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE, REPO } from "./helpers.mjs";

const CONTRACT_TESTS = ["tests/mcp/test_workflow.py", "tests/mcp/test_errors.py", "tests/mcp/test_two_servers.py"];

test("the MCP contract tests pass against the Node MCP server", { timeout: 600_000 }, () => {
  const env = spawnSync("bash", [join(REPO, "scripts", "python-env")], { stdio: "inherit" });
  assert.equal(env.status, 0, "scripts/python-env could not build .venv");
  const pytest = spawnSync(join(REPO, ".venv", "bin", "python"), ["-m", "pytest", "-p", "no:cacheprovider", "-q", ...CONTRACT_TESTS], {
    cwd: REPO,
    stdio: "inherit",
    env: { ...process.env, TASKLISTS_BIN: join(PACKAGE, "bin", "tasklists-node") },
  });
  assert.equal(pytest.status, 0, "the MCP contract suite failed against the Node server: see pytest's report above");
});

// @ts-check
// Agents in processes of their own, on the board's database: the native
// CLI (`tasklists --agent-id A call TOOL '{"action":…}' --json`, one
// process per call) and the Node host library (one long-lived process,
// `node-agent.mjs`, that answers calls sent as JSON lines).

import { execFile, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { childEnv, nodeHostLibrary, tasklistsBinary } from "./env.mjs";

/**
 * @typedef {{ code: string, message: string, hint?: string }} ToolError
 * @typedef {{ ok: true, data: any } | { ok: false, error: ToolError }} Answer
 */

/**
 * The CLI's `--json` output (the summary line, a newline, the data or
 * `{"error":…}`) as an answer.
 * @param {string} out
 * @returns {Answer}
 */
function parseJsonOutput(out) {
  const lines = out.trimEnd().split("\n");
  const data = JSON.parse(lines[lines.length - 1]);
  return data && typeof data === "object" && "error" in data && Object.keys(data).length === 1
    ? { ok: false, error: data.error }
    : { ok: true, data };
}

/**
 * One `tasklists call` by `agent` on `db`, in a process of its own.
 * Resolves to the answer (a tool error is an answer, not a failure); fails
 * on a usage or host error (exit 2) or an unreadable output.
 * @param {string} db
 * @param {string} agent
 * @param {string} tool
 * @param {string} action
 * @param {object} [params]
 * @returns {Promise<Answer>}
 */
export function cliCall(db, agent, tool, action, params = {}) {
  const args = ["--db", db, "--agent-id", agent, "call", tool, JSON.stringify({ action, params }), "--json"];
  return new Promise((resolve, reject) => {
    execFile(tasklistsBinary(), args, { env: childEnv(), encoding: "utf8", timeout: 30000 }, (error, stdout, stderr) => {
      const code = error ? /** @type {{ code?: unknown }} */ (error).code : 0;
      if (code !== 0 && code !== 1) {
        reject(new Error(`tasklists ${args.join(" ")} failed (${code}): ${stderr || error?.message}`));
        return;
      }
      try {
        resolve(parseJsonOutput(stdout));
      } catch (e) {
        reject(new Error(`tasklists ${args.join(" ")} printed ${JSON.stringify(stdout)}: ${e}; stderr: ${stderr}`));
      }
    });
  });
}

/**
 * `cliCall` that must succeed: its data.
 * @param {string} db
 * @param {string} agent
 * @param {string} tool
 * @param {string} action
 * @param {object} [params]
 */
export async function cli(db, agent, tool, action, params = {}) {
  const answer = await cliCall(db, agent, tool, action, params);
  if (!answer.ok) throw new Error(`${agent}: ${tool} ${action} refused: ${answer.error.code}: ${answer.error.message}`);
  return answer.data;
}

const NODE_AGENT = fileURLToPath(new URL("./node-agent.mjs", import.meta.url));

/**
 * An agent on the Node host in a process of its own (`node-agent.mjs`).
 * `call` sends one tool call and resolves to its answer; `stop` ends the
 * process (closing its host first when it can).
 * @param {string} db
 * @param {string} agent
 */
export async function startNodeAgent(db, agent) {
  const child = spawn(process.execPath, [NODE_AGENT, nodeHostLibrary(), db, agent], {
    env: childEnv(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let err = "";
  child.stderr.setEncoding("utf8").on("data", (s) => (err = (err + s).slice(-100000)));
  /** @type {Map<number, { resolve: (a: any) => void, reject: (e: Error) => void }>} */
  const waiting = new Map();
  let buffered = "";
  let next = 0;
  child.stdout.setEncoding("utf8").on("data", (s) => {
    buffered += s;
    for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
      const message = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      const w = waiting.get(message.id);
      waiting.delete(message.id);
      if (!w) continue;
      if (message.failed) w.reject(new Error(`node agent ${agent}: ${message.failed}`));
      else w.resolve(message.answer);
    }
  });
  /** @type {Promise<unknown>} */
  const exited = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      for (const w of waiting.values()) w.reject(new Error(`node agent ${agent} exited (${code ?? signal}); stderr:\n${err}`));
      waiting.clear();
      resolve(undefined);
    });
    child.on("error", resolve);
  });
  /**
   * @param {string} tool
   * @param {string} action
   * @param {object} [params]
   * @returns {Promise<Answer>}
   */
  const call = (tool, action, params = {}) =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new Error(`node agent ${agent} has exited; stderr:\n${err}`));
        return;
      }
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.stdin.write(`${JSON.stringify({ id, tool, action, params })}\n`);
    });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin.end();
    const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(killer);
  };
  // The first call opens the host: a build or store problem shows here.
  try {
    const ready = await call("task_help", "workflow");
    if (!ready.ok) throw new Error(`node agent ${agent}: task_help refused: ${ready.error.message}`);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    call,
    /**
     * `call` that must succeed: its data.
     * @param {string} tool
     * @param {string} action
     * @param {object} [params]
     */
    async must(tool, action, params = {}) {
      const answer = await call(tool, action, params);
      if (!answer.ok) throw new Error(`${agent}: ${tool} ${action} refused: ${answer.error.code}: ${answer.error.message}`);
      return answer.data;
    },
    stop,
  };
}

/**
 * `startNodeAgent`, stopped when the test ends.
 * @param {import("node:test").TestContext} t
 * @param {string} db
 * @param {string} agent
 */
export async function nodeAgent(t, db, agent) {
  const a = await startNodeAgent(db, agent);
  t.after(a.stop);
  return a;
}

/**
 * A list made by agent `planner` through the CLI: `name`, its tasks (each a
 * title or a task object of `add_many`), awaiting a person's approval when
 * `requiresApproval`. A list of the workspace the tests run in (their
 * current directory), as agents working in a project make: the board's
 * overview, started in the same directory, shows it. Resolves to the
 * list's id and the tasks' ids in order.
 * @param {string} db
 * @param {{ name: string, tasks: (string | Record<string, unknown>)[], requiresApproval?: boolean, planner?: string }} plan
 */
export async function makeList(db, { name, tasks, requiresApproval = false, planner = "planner" }) {
  const created = await cli(db, planner, "task_lists", "create", {
    name,
    scope_type: "workspace",
    scope_key: process.cwd(),
    ...(requiresApproval ? { requires_approval: true } : {}),
  });
  const listId = /** @type {string} */ (created.list.id);
  const added = await cli(db, planner, "task_items", "add_many", {
    list_id: listId,
    tasks: tasks.map((task) => (typeof task === "string" ? { title: task } : task)),
  });
  return { listId, taskIds: /** @type {string[]} */ (added.tasks.map((/** @type {{ id: string }} */ task) => task.id)) };
}

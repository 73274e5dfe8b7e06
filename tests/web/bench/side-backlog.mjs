// @ts-check
// Backlog.md for the side-by-side: installed into a temp directory (never
// into this package), a project initialised without questions in a temp
// git repository, and its web board (`backlog browser`) started on a
// loopback port in a process group of its own, which `stop()` ends.

import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { backlog } from "./side-plan.mjs";

/** The version compared with. */
export const BACKLOG_VERSION = "1.52.0";

/**
 * Runs `cmd ARGS…` in `cwd`; resolves to its stdout, fails with its output.
 * @param {string} cmd
 * @param {string[]} args
 * @param {string} cwd
 * @param {number} [timeoutMs]
 */
function run(cmd, args, cwd, timeoutMs = 60000) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, encoding: "utf8", timeout: timeoutMs }, (error, stdout, stderr) => {
      // Its last lines say why (npm's first are a stack).
      const said = `${stdout}${stderr}`.trim().split("\n").slice(0, 6).join("\n");
      if (error) reject(new Error(`${cmd} ${args.join(" ")} failed (${error.code ?? error.signal}):\n${said}`));
      else resolve(stdout);
    });
  });
}

/**
 * `npm install --no-save --prefix DIR backlog.md@VERSION`: the path of its
 * `backlog` command, or a failure saying what npm said.
 * @param {string} dir
 */
export async function installBacklog(dir) {
  try {
    await run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, `backlog.md@${BACKLOG_VERSION}`], dir, 300000);
  } catch (e) {
    throw new Error(`could not install backlog.md@${BACKLOG_VERSION} with npm (offline? registry refused?): ${e instanceof Error ? e.message : e}`);
  }
  const bin = join(dir, "node_modules", ".bin", "backlog");
  if (!existsSync(bin)) throw new Error(`npm installed backlog.md@${BACKLOG_VERSION} but ${bin} is missing`);
  const version = (await run(bin, ["--version"], dir)).trim();
  if (version !== BACKLOG_VERSION) throw new Error(`${bin} --version says ${version}, not ${BACKLOG_VERSION}`);
  return bin;
}

/**
 * A Backlog.md project in `dir` (a fresh git repository): `backlog init`
 * with its defaults and no AI integration, then without remote or branch
 * checks (there is no remote; they would only add delays).
 * @param {string} bin
 * @param {string} dir
 */
export async function initProject(bin, dir) {
  await run("git", ["init", "-q"], dir);
  await run("git", ["config", "user.email", "bench@example.invalid"], dir);
  await run("git", ["config", "user.name", "bench"], dir);
  await backlog(bin, dir, ["init", "Release 2.0", "--defaults", "--integration-mode", "none", "--auto-open-browser", "false"]);
  await backlog(bin, dir, ["config", "set", "remoteOperations", "false"]);
  await backlog(bin, dir, ["config", "set", "checkActiveBranches", "false"]);
}

/** A free loopback port (asked of the kernel, then let go). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `backlog browser --port N --no-open --non-interactive` in `dir`, in a
 * process group of its own; resolves once it printed its URL.
 * @param {string} bin
 * @param {string} dir
 * @returns {Promise<{ origin: string, port: number, pid: number, stop: () => Promise<void> }>}
 */
export async function startBacklogBrowser(bin, dir) {
  const port = await freePort();
  const child = spawn(bin, ["browser", "--port", String(port), "--no-open", "--non-interactive"], {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", BROWSER: "true" },
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (s) => (out = (out + s).slice(-20000)));
  child.stderr.setEncoding("utf8").on("data", (s) => (out = (out + s).slice(-20000)));
  /** @type {Promise<unknown>} */
  const exited = new Promise((resolve) => {
    child.on("exit", resolve);
    child.on("error", resolve);
  });
  const pid = /** @type {number} */ (child.pid);
  /** Signals the whole group (the npm wrapper and the binary it starts). */
  const signal = (/** @type {NodeJS.Signals} */ sig) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // Already gone.
    }
  };
  const stop = async () => {
    signal("SIGTERM");
    const killer = setTimeout(() => signal("SIGKILL"), 5000);
    if (child.exitCode === null && child.signalCode === null) await exited;
    // The wrapper may go first: whatever is left of the group goes too.
    signal("SIGKILL");
    clearTimeout(killer);
  };
  try {
    const deadline = Date.now() + 30000;
    for (;;) {
      const m = /running at (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      if (m) return { origin: m[1], port: Number(m[2]), pid, stop };
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`backlog browser exited before serving:\n${out}`);
      if (Date.now() > deadline) throw new Error(`backlog browser printed no URL within 30 s:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (e) {
    await stop();
    throw e;
  }
}

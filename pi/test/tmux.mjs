// @ts-check
// Driving Pi's interactive TUI in tmux: a real terminal of a fixed size on
// a tmux server of the test's own (its own socket, no user configuration),
// keys sent with `send-keys`, the screen read with `capture-pane`. Every
// wait has a deadline; `stop()` kills the test's tmux server, whatever
// happened.

import { execFileSync, spawnSync } from "node:child_process";
import { EXTENSION, PI_CLI, delay } from "./harness.mjs";

/** Whether tmux is on PATH (CI installs it: .ci/run). */
export function haveTmux() {
  return spawnSync("tmux", ["-V"], { encoding: "utf8" }).status === 0;
}

let sessions = 0;

/** An interactive Pi in a tmux terminal. */
export class TmuxPi {
  /** The tmux server's socket name (`tmux -L`), the test's alone. */
  #socket;

  /** @param {string} socket */
  constructor(socket) {
    this.#socket = socket;
  }

  /**
   * Starts `pi` (interactive, no session file, the mock model, the
   * extension with `-e`) in a `columns`×`rows` terminal, with `home`'s
   * environment and `env` on top, in the home's workspace.
   * @param {import("./harness.mjs").Home} home
   * @param {{ env?: Record<string, string>, columns?: number, rows?: number }} [options]
   */
  static async start(home, { env = {}, columns = 120, rows = 45 } = {}) {
    const pi = new TmuxPi(`tasklists-test-${process.pid}-${sessions++}`);
    const vars = Object.entries({ ...home.env, ...env })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}`);
    const argv = [process.execPath, PI_CLI, "--no-session", "--provider", "mock", "--model", "mock-1", "-e", EXTENSION];
    pi.#tmux(["new-session", "-d", "-x", String(columns), "-y", String(rows), "-c", home.workspace, "env", "-i", ...vars, ...argv]);
    return pi;
  }

  /** @param {string[]} args */
  #tmux(args) {
    return execFileSync("tmux", ["-L", this.#socket, "-f", "/dev/null", ...args], { encoding: "utf8", timeout: 10000 });
  }

  /** The screen as text (no colors). */
  screen() {
    return this.#tmux(["capture-pane", "-p"]);
  }

  /**
   * Sends keys by tmux's names (`Enter`, `Escape`, `Down`, a character).
   * @param {...string} keys
   */
  keys(...keys) {
    this.#tmux(["send-keys", ...keys]);
  }

  /**
   * Types `text` literally.
   * @param {string} text
   */
  type(text) {
    this.#tmux(["send-keys", "-l", text]);
  }

  /**
   * The screen once `ok` accepts it, polled until `timeoutMs`; fails with
   * the last screen.
   * @param {(screen: string) => unknown} ok
   * @param {string} what
   * @param {number} [timeoutMs]
   */
  async waitFor(ok, what, timeoutMs = 15000) {
    const deadline = Date.now() + timeoutMs;
    let screen = "";
    for (;;) {
      screen = this.screen();
      if (ok(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen:\n${screen}`);
      await delay(100);
    }
  }

  /** Kills the test's tmux server (and so Pi). */
  stop() {
    spawnSync("tmux", ["-L", this.#socket, "-f", "/dev/null", "kill-server"], { timeout: 10000 });
  }
}

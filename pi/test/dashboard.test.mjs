// @ts-check
// The person's dashboard in Pi's interactive TUI, in tmux: `/tasks` opens
// it, keys drive it (the keys read from the component's key map, never
// assumed), and the store and the widget follow: approve the plan, move a
// task first, cycle a priority, block, add through the prompt, close as
// done, close the dashboard. Its screen after the approval and the move is
// kept for the closing note when TASKLISTS_CAPTURE names a file.

import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { after, test } from "node:test";
import { NodeHost } from "@tasklists/node-host";
import { makeHome, stopAll } from "./harness.mjs";
import { TmuxPi, haveTmux } from "./tmux.mjs";

/** tmux's names of the WIT's named keys. */
const TMUX_KEYS = /** @type {Record<string, string>} */ ({
  up: "Up",
  down: "Down",
  left: "Left",
  right: "Right",
  enter: "Enter",
  escape: "Escape",
  tab: "Tab",
  backspace: "BSpace",
  space: "Space",
  pageup: "PPage",
  pagedown: "NPage",
  home: "Home",
  end: "End",
});

/** @type {TmuxPi[]} */
const started = [];
after(async () => {
  for (const pi of started) pi.stop();
  await stopAll();
});

/**
 * The widget's counters line on `screen` (inside its frame, apart from the dashboard's own counters).
 * @param {string} screen
 */
const widgetCounters = (screen) => screen.split("\n").find((l) => /^\s*│ Launch plan .*│\s*$/.test(l)) ?? "";

const TITLES = ["Draft the announcement", "Update the docs", "Tag the release"];

test("/tasks opens the dashboard; keys approve, move first, cycle priority, block, add, close as done, and the widget follows", async () => {
  assert.ok(haveTmux(), "tmux is needed to drive Pi's TUI (.ci/run installs it)");
  const home = makeHome();
  const agent = { agentId: "planner", agentPinned: false, workspace: home.workspace };
  const host = await NodeHost.open({ db: home.db });
  try {
    /**
     * @param {string} tool
     * @param {string} action
     * @param {object} params
     * @returns {Promise<any>}
     */
    const call = async (tool, action, params) => {
      const reply = await host.callAction(tool, action, JSON.stringify(params), agent);
      assert.equal(reply.outcome.tag, "ok", reply.text);
      return JSON.parse(reply.structured);
    };
    const list = (await call("task_lists", "create", { name: "Launch plan", scope_type: "workspace", requires_approval: true })).list;
    const tasks = (await call("task_items", "add_many", { list_id: list.id, tasks: TITLES.map((title) => ({ title })) })).tasks;
    const read = async () => call("task_lists", "get", { list_id: list.id, include_tasks: true, limit: 100 });
    /**
     * Waits (bounded) until the store shows what `ok` wants.
     * @param {(data: any) => boolean} ok
     * @param {string} what
     */
    const stored = async (ok, what) => {
      const deadline = Date.now() + 10000;
      for (;;) {
        const data = await read();
        if (ok(data)) return data;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the list:\n${JSON.stringify(data)}\nthe screen:\n${pi.screen()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const keyMap = await host.keyMap();
    /**
     * The first key bound to `action` (with `label`, for actions of several keys: `move`).
     * @param {string} action
     * @param {string} [label]
     */
    const keyOf = (action, label) => {
      const binding = keyMap.find((k) => k.action === action && (label === undefined || k.label === label));
      assert.ok(binding, `the key map binds ${action} ${label ?? ""}: ${JSON.stringify(keyMap)}`);
      return binding;
    };
    /**
     * @param {string} action
     * @param {string} [label]
     */
    const press = (action, label) => send(keyOf(action, label).key);
    /** @param {string} key a WIT key name */
    const send = (key) => (TMUX_KEYS[key] ? pi.keys(TMUX_KEYS[key]) : pi.type(key));
    const footer = keyOf("close").label;

    const pi = await TmuxPi.start(home, { env: { TASKLISTS_PERSON: "ana" } });
    started.push(pi);
    await pi.waitFor((s) => s.includes("Launch plan"), "the widget with the plan");
    pi.type("/tasks");
    pi.keys("Enter");
    let screen = await pi.waitFor((s) => s.includes(footer) && /as @ana/.test(s), "the dashboard, acting as ana");

    // Approve the plan (the selected list): it asks first, `y` says yes.
    assert.equal(keyOf("approve").input, "confirm");
    press("approve");
    screen = await pi.waitFor((s) => /Approve list "Launch plan"\?/.test(s), "the approval's question");
    pi.type("y");
    await stored((d) => d.list.approval?.state === "approved", "the approval");
    assert.equal((await read()).list.approval.by, "ana");

    // Open the plan (where the dashboard shows the lists: one list shows
    // its tasks at once), select its last task and move it first.
    if (!TITLES.every((t) => pi.screen().includes(t))) press("open");
    await pi.waitFor((s) => TITLES.every((t) => s.includes(t)), "the plan's tasks");
    /**
     * Moves the selection down to the row of `title` (the component marks the selected row).
     * @param {string} title
     */
    const select = async (title) => {
      for (let i = 0; i < 10; i++) {
        const line = pi.screen().split("\n").find((l) => l.includes(title));
        if (line?.includes("▸")) return;
        press("select-next");
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`could not select ${title}:\n${pi.screen()}`);
    };
    /** Moves the selection to the first row. */
    const top = async () => {
      for (let i = 0; i < 10; i++) press("select-previous");
      await new Promise((r) => setTimeout(r, 300));
    };
    const last = tasks[2];
    await select(last.title);
    press("move", "move first");
    await stored((d) => d.tasks[0].id === last.id, "the last task moved first");
    screen = await pi.waitFor((s) => s.indexOf(TITLES[2]) < s.indexOf(TITLES[0]), "the dashboard showing the move");
    if (process.env.TASKLISTS_CAPTURE) writeFileSync(process.env.TASKLISTS_CAPTURE, screen);

    // Cycle its priority: medium → high.
    press("priority");
    await stored((d) => d.tasks.find((/** @type {any} */ t) => t.id === last.id).priority === "high", "the priority cycled");

    // Block it, and the widget follows.
    press("block");
    await stored((d) => d.tasks.find((/** @type {any} */ t) => t.id === last.id).status === "blocked", "the task blocked");
    await pi.waitFor((s) => /blocked 1/.test(widgetCounters(s)), "the widget counting the blocked task");

    // Add a task through the prompt (a `q` typed into it does not close it).
    press("add");
    pi.type("Quick fix for the FAQ");
    pi.keys("Enter");
    await stored((d) => d.tasks.some((/** @type {any} */ t) => t.title === "Quick fix for the FAQ"), "the added task");
    await pi.waitFor((s) => s.includes("Quick fix for the FAQ") && s.includes(footer), "the dashboard showing the added task");

    // Close one as done, with its outcome.
    await top();
    await select(TITLES[0]);
    press("done");
    pi.type("announcement drafted");
    pi.keys("Enter");
    await stored((d) => d.tasks.some((/** @type {any} */ t) => t.status === "done" && t.outcome === "announcement drafted"), "a task done");
    await pi.waitFor((s) => /done 1/.test(widgetCounters(s)), "the widget counting the done task");

    // Close the dashboard: the editor is back.
    press("close");
    await pi.waitFor((s) => !s.includes(footer), "the dashboard closed");

    // Every action is audited as the person.
    const audit = await call("task_audit", "get", { list_id: list.id, limit: 100 });
    const byAna = audit.events.filter((/** @type {any} */ e) => e.agent_id === "ana");
    // approve, move, priority, block, add, done
    assert.ok(byAna.length >= 6, JSON.stringify(audit.events));
    assert.ok(byAna.every((/** @type {any} */ e) => e.data.by === "person"), JSON.stringify(byAna));
    for (const kind of ["approved", "reordered", "created"]) assert.ok(byAna.some((/** @type {any} */ e) => e.kind === kind), `${kind}: ${JSON.stringify(byAna)}`);
  } finally {
    await host.close();
  }
});

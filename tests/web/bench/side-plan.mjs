// @ts-check
// The 15-task plan the side-by-side puts in both boards, written once as
// data, and how each tool is given it: ours through the binary's tools
// (an agent process per call, as agents do), Backlog.md through its own
// CLI (`backlog task create …`, a process per task, as its users do).

import { execFile } from "node:child_process";
import { cli } from "../lib/agents.mjs";

/**
 * One task of the plan. `ref` names it inside the plan (dependencies);
 * `verification` is a list of checks (Backlog's acceptance criteria, one
 * line each in ours); `status` is where it stands when the page opens.
 * @typedef {object} PlanTask
 * @property {string} ref
 * @property {string} title
 * @property {string} description
 * @property {"high" | "medium" | "low"} priority
 * @property {string} [assignee] an agent's name, without Backlog's "@"
 * @property {string[]} labels
 * @property {string[]} verification
 * @property {string[]} depends refs of tasks earlier in the plan
 * @property {"todo" | "in_progress" | "done"} status
 * @property {string} [outcome] what a done task's holder reported
 */

/** @type {PlanTask[]} */
export const PLAN = [
  {
    ref: "spec",
    title: "Write the API spec",
    description: "Endpoints, errors and pagination for the 2.0 API.\nOne page per resource, with examples.",
    priority: "high",
    assignee: "carol",
    labels: ["docs", "api"],
    verification: ["spec reviewed by two people", "every example runs against the mock"],
    depends: [],
    status: "done",
    outcome: "Spec merged as docs/api.md; reviewed by dave and erin.",
  },
  {
    ref: "schema",
    title: "Design the database schema",
    description: "Tables for lists, tasks, claims and the audit log.",
    priority: "high",
    assignee: "dave",
    labels: ["db"],
    verification: ["schema diagram in the spec"],
    depends: ["spec"],
    status: "done",
    outcome: "Five tables; diagram added to the spec.",
  },
  {
    ref: "migrations",
    title: "Write the migrations",
    description: "Forward and backward migrations for the new schema.",
    priority: "medium",
    assignee: "dave",
    labels: ["db"],
    verification: ["migrate up then down leaves an empty database"],
    depends: ["schema"],
    status: "in_progress",
  },
  {
    ref: "auth",
    title: "Add token authentication",
    description: "Bearer tokens, hashed at rest, revocable.",
    priority: "high",
    assignee: "carol",
    labels: ["api", "security"],
    verification: ["a revoked token is refused on its next request", "tokens never appear in logs"],
    depends: ["spec"],
    status: "in_progress",
  },
  {
    ref: "endpoints",
    title: "Implement the task endpoints",
    description: "Create, read, update and close tasks, as the spec says.",
    priority: "high",
    assignee: "erin",
    labels: ["api"],
    verification: ["the spec's examples pass as tests"],
    depends: ["schema", "auth"],
    status: "todo",
  },
  {
    ref: "ratelimit",
    title: "Rate-limit the public endpoints",
    description: "Per token and per address; 429 with Retry-After.",
    priority: "medium",
    labels: ["api", "security"],
    verification: [],
    depends: ["endpoints"],
    status: "todo",
  },
  {
    ref: "board",
    title: "Build the board view",
    description: "Columns per status, a card per task, live updates.",
    priority: "medium",
    assignee: "frank",
    labels: ["ui"],
    verification: ["usable with the keyboard alone"],
    depends: ["endpoints"],
    status: "todo",
  },
  {
    ref: "search",
    title: "Search and filters on the board",
    description: "Text search; filters by assignee, priority and label, kept in the URL.",
    priority: "low",
    assignee: "frank",
    labels: ["ui"],
    verification: [],
    depends: ["board"],
    status: "todo",
  },
  {
    ref: "ci",
    title: "Set up CI for the monorepo",
    description: "Build, lint and test on every push; cache the toolchain.",
    priority: "high",
    assignee: "carol",
    labels: ["ci"],
    verification: ["a failing test fails the build"],
    depends: [],
    status: "todo",
  },
  {
    ref: "pgtests",
    title: "Integration tests against PostgreSQL",
    description: "Run the store's tests on a throwaway cluster.",
    priority: "medium",
    assignee: "dave",
    labels: ["tests", "db"],
    verification: [],
    depends: ["migrations"],
    status: "todo",
  },
  {
    ref: "guide",
    title: "Write the user guide",
    description: "Install, first list, sharing with a colleague.",
    priority: "low",
    labels: ["docs"],
    verification: [],
    depends: [],
    status: "todo",
  },
  {
    ref: "profile",
    title: "Profile the list endpoint under load",
    description: "1,000 tasks, 50 clients; find the slowest query.",
    priority: "low",
    assignee: "erin",
    labels: ["perf"],
    verification: [],
    depends: [],
    status: "in_progress",
  },
  {
    ref: "backups",
    title: "Nightly backups with a restore drill",
    description: "Back up every night; restore into a scratch database weekly.",
    priority: "medium",
    assignee: "dave",
    labels: ["ops", "db"],
    verification: ["last night's backup restores"],
    depends: [],
    status: "todo",
  },
  {
    ref: "notes",
    title: "Draft the release notes",
    description: "What changed for users and for operators.",
    priority: "low",
    labels: ["docs"],
    verification: [],
    depends: ["endpoints", "board"],
    status: "todo",
  },
  {
    ref: "ship",
    title: "Tag and ship 2.0",
    description: "Tag, build the packages, announce.",
    priority: "high",
    labels: ["release"],
    verification: ["packages install on a clean machine", "the announcement links the notes"],
    depends: ["pgtests", "ratelimit", "notes"],
    status: "todo",
  },
];

/** The task whose title another process edits while the page is open: a todo card. */
export const EDITED = "guide";

/** The filter both boards are asked for, and the cards it should leave. */
export const FILTER = { assignee: "carol", priority: "high" };

/** The search the screenshots show (with the filter's priority). */
export const SEARCH = "endpoints";

/**
 * The plan in `db`, made through the binary: one list (of the
 * workspace the bench runs in), the tasks in one `add_many` by `planner`,
 * the done ones closed by their assignee, the running ones claimed by
 * theirs. Resolves to the list's id and each ref's task id.
 * @param {string} db
 */
export async function makeOurs(db) {
  const created = await cli(db, "planner", "task_lists", "create", { name: "Release 2.0", scope_type: "workspace", scope_key: process.cwd() });
  const listId = /** @type {string} */ (created.list.id);
  const added = await cli(db, "planner", "task_items", "add_many", {
    list_id: listId,
    tasks: PLAN.map((t) => ({
      ref: t.ref,
      title: t.title,
      description: t.description,
      priority: t.priority,
      labels: t.labels,
      ...(t.assignee ? { assigned_to_agent_id: t.assignee } : {}),
      ...(t.verification.length ? { verification: t.verification.map((v) => `- ${v}`).join("\n") } : {}),
      ...(t.depends.length ? { depends_on: t.depends } : {}),
    })),
  });
  /** @type {Map<string, string>} */
  const ids = new Map(PLAN.map((t, i) => [t.ref, /** @type {string} */ (added.tasks[i].id)]));
  for (const t of PLAN.filter((t) => t.status === "done")) {
    await cli(db, t.assignee ?? "planner", "task_items", "update", {
      task_id: ids.get(t.ref),
      status: "done",
      outcome: t.outcome ?? "done",
      ...(t.verification.length ? { verification_result: t.verification.map((v) => `- ${v}: yes`).join("\n") } : {}),
    });
  }
  for (const t of PLAN.filter((t) => t.status === "in_progress")) {
    // The task's own label narrows the claim to it (a claim takes the next ready task).
    const claimed = await cli(db, t.assignee ?? "planner", "task_claims", "claim_next", { list_id: listId, labels: [t.labels[t.labels.length - 1]] });
    if (claimed.task?.id !== ids.get(t.ref)) {
      throw new Error(`the plan: ${t.assignee} claimed ${claimed.task?.id} (${claimed.task?.title}), not "${t.title}"`);
    }
  }
  return { listId, ids };
}

/**
 * Runs `backlog ARGS…` in `cwd`; resolves to its stdout, fails with its stderr.
 * @param {string} bin
 * @param {string} cwd
 * @param {string[]} args
 */
export function backlog(bin, cwd, args) {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd, encoding: "utf8", timeout: 60000, env: { ...process.env, NO_COLOR: "1" } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`backlog ${args.join(" ")} failed: ${error.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/**
 * The plan in the Backlog.md project at `cwd` (initialised), one
 * `backlog task create` per task in order (so the nth is TASK-n).
 * Resolves to each ref's task id.
 * @param {string} bin
 * @param {string} cwd
 */
export async function makeBacklogs(bin, cwd) {
  /** @type {Map<string, string>} */
  const ids = new Map();
  for (const [i, t] of PLAN.entries()) {
    const id = `TASK-${i + 1}`;
    const args = ["task", "create", t.title, "--plain", "--description", t.description, "--priority", t.priority];
    args.push("--assignee", t.assignee ? `@${t.assignee}` : "");
    if (t.labels.length) args.push("--labels", t.labels.join(","));
    for (const v of t.verification) args.push("--ac", v);
    if (t.depends.length) args.push("--depends-on", t.depends.map((d) => ids.get(d)).join(","));
    args.push("--status", { todo: "To Do", in_progress: "In Progress", done: "Done" }[t.status]);
    if (t.outcome) args.push("--final-summary", t.outcome);
    const out = await backlog(bin, cwd, args);
    if (!out.includes(`Task ${id} - ${t.title}`)) throw new Error(`backlog task create "${t.title}" did not make ${id}:\n${out}`);
    ids.set(t.ref, id);
  }
  return ids;
}

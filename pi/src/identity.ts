// Who calls and from where: one agent identity per Pi session, the
// session's working directory as the workspace, the session as the thread;
// and the person at the keyboard, only when told who it is.

import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { CallContext } from "@tasklists/node-host";

/** Pi's command-line flag naming the person at the keyboard (`pi --tasklists-person NAME`). */
export const PERSON_FLAG = "tasklists-person";

/**
 * The agent identity of a Pi session: `TASKLISTS_AGENT_ID` when set, else
 * `pi-` and the random tail of the session id (Pi's ids are UUIDv7, whose
 * head is a timestamp), so it is the same after a resume or a reload and
 * differs between sessions.
 */
export function agentId(sessionId: string): string {
  const configured = process.env.TASKLISTS_AGENT_ID?.trim();
  if (configured) return configured;
  return `pi-${sessionId.replace(/-/g, "").slice(-12)}`;
}

/** Registers `--tasklists-person` with Pi (once per extension instance). */
export function registerPersonFlag(pi: ExtensionAPI): void {
  pi.registerFlag(PERSON_FLAG, { description: "tasklists: the person at the keyboard (who approves and acts on the /tasks dashboard)", type: "string" });
}

/**
 * The person at the keyboard: `--tasklists-person`, else
 * `TASKLISTS_PERSON`; never invented (none: the person's surfaces are
 * read-only, and the component says how to name one). The component
 * checks the name.
 */
export function person(pi: ExtensionAPI): string | undefined {
  const flag = pi.getFlag(PERSON_FLAG);
  const given = (typeof flag === "string" ? flag : process.env.TASKLISTS_PERSON)?.trim();
  return given || undefined;
}

/**
 * The call context of the session `ctx` belongs to, as the agent's tools
 * get it: never pinned (`params.agent_id` may override it), and no person
 * (no tool call acts as the person).
 */
export function callContext(ctx: ExtensionContext): CallContext {
  const sessionId = ctx.sessionManager.getSessionId();
  return { agentId: agentId(sessionId), agentPinned: false, workspace: ctx.cwd, thread: sessionId };
}

/** The context of the person's surfaces (commands, dashboard): the session's, with the person at the keyboard. */
export function personContext(ctx: ExtensionContext, who: string | undefined): CallContext {
  return { ...callContext(ctx), person: who };
}

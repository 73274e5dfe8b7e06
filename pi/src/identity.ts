// Who calls and from where: one agent identity per Pi session, the
// session's working directory as the workspace, the session as the thread.

import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import type { CallContext } from "@tasklists/node-host";

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

/** The call context of the session `ctx` belongs to (never pinned: `params.agent_id` may override it). */
export function callContext(ctx: ExtensionContext): CallContext {
  const sessionId = ctx.sessionManager.getSessionId();
  return { agentId: agentId(sessionId), agentPinned: false, workspace: ctx.cwd, thread: sessionId };
}

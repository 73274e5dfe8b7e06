// The component's five tools as Pi tools: names, descriptions and JSON
// Schemas from its catalogue; a call goes to the component as the model
// sent it and comes back exactly as the component worded it; the
// transcript shows the component's renderings.

import type { AgentToolResult, ExtensionAPI } from "@mariozechner/pi-coding-agent";
import type { ToolInfo, ToolReply } from "@tasklists/node-host";
import type { Component } from "./component.js";
import { callContext } from "./identity.js";
import { Rendered } from "./rendered.js";
import { styled, textBlock } from "./style.js";

/** The arguments every tool takes (`task_help` only `action`). */
interface ToolArgs {
  action?: string;
  params?: unknown;
}

const MAX_REPLIES = 500;

/**
 * The reply a result stands for, for a transcript restored from a saved
 * session (the replies of this session are kept as they came). `undefined`
 * for an error the component did not word (Pi's own argument check).
 */
function replyOf(result: AgentToolResult<unknown>, isError: boolean): ToolReply | undefined {
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  if (!isError) {
    const summary = text.split("\n", 1)[0] ?? "";
    return { text, structured: JSON.stringify(result.details ?? {}), outcome: { tag: "ok", val: summary } };
  }
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string; hint: string } };
    // The contract's codes in JSON are the WIT enum's cases with `_` for `-`.
    const code = error.code.replace(/_/g, "-") as Extract<ToolReply["outcome"], { tag: "err" }>["val"]["code"];
    return { text, structured: text, outcome: { tag: "err", val: { code, message: error.message, hint: error.hint } } };
  } catch {
    return undefined;
  }
}

/**
 * Registers the catalogue's tools. `onCall` runs after every call the
 * component answered (the widget redraws).
 */
export function registerTools(pi: ExtensionAPI, component: Component, catalogue: ToolInfo[], onCall: () => void): Rendered {
  const rendered = new Rendered();
  const replies = new Map<string, ToolReply>();
  for (const info of catalogue) {
    const name = info.name;
    pi.registerTool({
      name,
      label: info.title,
      description: info.description,
      promptSnippet: info.promptSnippet,
      promptGuidelines: info.promptGuidelines,
      parameters: JSON.parse(info.inputSchema),
      async execute(toolCallId, params, _signal, _onUpdate, ctx) {
        const reply = await component.use((host) => host.call(name, JSON.stringify(params), callContext(ctx)));
        if (replies.size >= MAX_REPLIES) replies.delete(replies.keys().next().value ?? "");
        replies.set(toolCallId, reply);
        onCall();
        if (reply.outcome.tag === "err") throw new Error(reply.text);
        return { content: [{ type: "text", text: reply.text }], details: JSON.parse(reply.structured) as unknown };
      },
      renderCall(raw, theme, context) {
        const args = (raw ?? {}) as ToolArgs;
        const params = args.params === undefined ? "" : JSON.stringify(args.params);
        const key = `call ${name} ${args.action ?? ""} ${params}`;
        const lines = rendered.get(key, () => component.use((host) => host.renderCall(name, args.action ?? "", params)), context.invalidate);
        return textBlock(lines ? styled(theme, lines) : [theme.fg("toolTitle", name)], context.lastComponent);
      },
      renderResult(result, { expanded, isPartial }, theme, context) {
        if (isPartial) return textBlock([], context.lastComponent);
        const reply = replies.get(context.toolCallId) ?? replyOf(result, context.isError);
        // Not the component's reply: Pi shows its own text (the fallback).
        if (!reply) throw new Error("not a tasklists reply");
        const args = JSON.stringify(context.args ?? {});
        const key = `${expanded ? "expanded" : "collapsed"} ${context.toolCallId} ${reply.text.length}`;
        const lines = rendered.get(
          key,
          () => component.use((host) => (expanded ? host.renderReply(name, args, reply) : host.renderCollapsed(name, args, reply))),
          context.invalidate,
        );
        return textBlock(lines ? styled(theme, lines) : [], context.lastComponent);
      },
    });
  }
  return rendered;
}

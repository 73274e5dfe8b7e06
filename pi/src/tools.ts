// The component's five tools as Pi tools: names, descriptions and JSON
// Schemas from its catalogue; a call goes to the component as the model
// sent it and comes back exactly as the component worded it; the
// transcript shows the component's renderings.

import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
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
 * What a tasklists tool result carries in `details`, and so what a saved
 * session keeps: the component's reply as it came (an error's too, added
 * by the `tool_result` handler, since a failing tool throws and Pi keeps
 * only the thrown text).
 */
export interface ReplyDetails {
  reply: ToolReply;
}

/**
 * The component's reply a result carries in its `details`, for a
 * transcript restored from a saved session (the replies of this session
 * are kept as they came). `undefined` for a result the component did not
 * word (Pi's own argument check): Pi then shows its own text. The shape is
 * checked, not trusted: a saved session is a file.
 */
function replyOf(details: unknown): ToolReply | undefined {
  if (typeof details !== "object" || details === null || !("reply" in details)) return undefined;
  return isReply(details.reply) ? details.reply : undefined;
}

/**
 * Whether `value` has a reply's shape; the component checks the rest when
 * it renders it (a bad one is a host error, and Pi shows its own text).
 */
function isReply(value: unknown): value is ToolReply {
  if (typeof value !== "object" || value === null) return false;
  if (!("text" in value && typeof value.text === "string" && "structured" in value && typeof value.structured === "string")) return false;
  if (!("outcome" in value && typeof value.outcome === "object" && value.outcome !== null && "tag" in value.outcome)) return false;
  return value.outcome.tag === "ok" || value.outcome.tag === "err";
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
        // Pi reports an error only when the tool throws; the reply reaches
        // the result's details through the `tool_result` handler below.
        if (reply.outcome.tag === "err") throw new Error(reply.text);
        const details: ReplyDetails = { reply };
        return { content: [{ type: "text", text: reply.text }], details };
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
        const reply = replies.get(context.toolCallId) ?? replyOf(result.details);
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
  // A failed call threw its reply's text; its details get the reply itself.
  pi.on("tool_result", (event) => {
    const reply = event.isError ? replies.get(event.toolCallId) : undefined;
    if (reply?.outcome.tag !== "err") return undefined;
    const details: ReplyDetails = { reply };
    return { details };
  });
  return rendered;
}

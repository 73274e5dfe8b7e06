// @ts-check
// A scripted OpenAI-compatible chat completions server on 127.0.0.1 (no
// dependencies): each request gets the next step of the script, streamed
// as Pi's openai-completions provider reads it. A step sees the request
// (with the tool results of the previous step) and returns tool calls or
// text. Every request body is kept, so a test can check what the model
// received.

import { createServer } from "node:http";

/** @typedef {{ calls: { name: string, args: object }[] } | { text: string }} Step One answer of the model: tool calls, or text. */

/**
 * The tool results of the request's last turn: [{name, text}], in call order.
 * @param {any} body a chat completions request, as the provider sent it
 */
export function toolResults(body) {
  /** @type {{ name: string | undefined, id: string, text: string }[]} */
  const results = [];
  /** @type {Map<string, string>} */
  const names = new Map();
  for (const m of body.messages) {
    if (m.role === "assistant") for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
  }
  for (let i = body.messages.length - 1; i >= 0 && body.messages[i].role === "tool"; i--) {
    const m = body.messages[i];
    const text = typeof m.content === "string" ? m.content : m.content.map((/** @type {{ text?: string }} */ c) => c.text ?? "").join("");
    results.unshift({ name: names.get(m.tool_call_id), id: m.tool_call_id, text });
  }
  return results;
}

/**
 * The JSON data of a successful tool result text (summary line, newline, compact JSON).
 * @param {string} text
 * @returns {any}
 */
export function dataOf(text) {
  const newline = text.indexOf("\n");
  return JSON.parse(text.slice(newline + 1));
}

/**
 * Starts the server. `script` is a list of steps `(body) => ({calls:
 * [{name, args}]} | {text})`; a request with no tools (Pi's compaction
 * summary) is answered `summary` without using a step.
 * @param {((body: any) => Step)[]} script
 * @param {{ summary?: string }} [options]
 */
export async function startMockModel(script, { summary = "Summary: the session created and worked a task list." } = {}) {
  /** @type {any[]} */
  const requests = [];
  let step = 0;
  let callId = 0;
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (/** @type {string} */ c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw || "{}");
      requests.push(body);
      /** @type {Step} */
      let reply;
      try {
        reply = !body.tools || body.tools.length === 0 ? { text: summary } : step < script.length ? script[step++](body) : { text: "All done." };
      } catch (e) {
        reply = { text: `mock script failed: ${e instanceof Error ? e.message : String(e)}` };
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      /**
       * @param {object} delta
       * @param {string | null} finish
       */
      const chunk = (delta, finish) =>
        res.write(`data: ${JSON.stringify({ id: "mock", object: "chat.completion.chunk", model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
      chunk({ role: "assistant" }, null);
      if ("calls" in reply) {
        reply.calls.forEach((c, index) =>
          chunk({ tool_calls: [{ index, id: `call_${++callId}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } }] }, null),
        );
        chunk({}, "tool_calls");
      } else {
        chunk({ content: reply.text }, null);
        chunk({}, "stop");
      }
      res.write(`data: ${JSON.stringify({ id: "mock", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** How many steps were used. */
    get steps() {
      return step;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// The MCP server's stdio transport, with the native server's bounds
// (host-shim/tasklists/src/mcp/transport.rs and pending.rs). The SDK's own
// `StdioServerTransport` buffers a line of any length up to 10 MB and then
// closes the connection, and takes stdin as fast as it comes; this one
// never buffers more than a line's limit (a longer line is answered
// `-32600` under its id and skipped), answers every other line that is no
// message as the native server does (mcp-decode.ts; the SDK's transport
// answers none), and stops reading stdin while too much is held for the
// client: tool calls queued or running (every call counts, whatever its
// id) and answers not yet written to stdout.

import { type JSONRPCMessage, type Transport, serializeMessage } from "@modelcontextprotocol/server";
import type { Readable, Writable } from "node:stream";
import { type Decoded, INVALID_REQUEST, decode, refuse, topLevelId, trailingId } from "./mcp-decode.js";

/** The longest message accepted, as on the native server (rmcp's limit). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** What the server may hold for its client, in bytes, as on the native server. */
export const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

/** What a call costs beyond its own bytes while it is held, as on the native server. */
export const REQUEST_OVERHEAD = 6 * 1024;

/** How much of each end of an oversized line is kept to find its id. */
const END_BYTES = 4096;

/**
 * What is held for the client: the tool calls queued or running, each
 * counted with its arguments' bytes plus {@link REQUEST_OVERHEAD}, and the
 * answers stdout has not written yet (its `writableLength`).
 */
export class Budget {
  #calls = 0;
  #stdout: Writable;
  #waiters: (() => void)[] = [];
  /** Calls pass one after the other, so they reach the host in the order they came. */
  #turn: Promise<void> = Promise.resolve();

  constructor(stdout: Writable) {
    this.#stdout = stdout;
  }

  /** Whether the reader must wait. */
  full(): boolean {
    return this.#calls + this.#stdout.writableLength >= MAX_BUFFERED_BYTES;
  }

  /**
   * Runs a call of `bytes`, counted until it settles. It starts only once
   * the calls before it have started and while fewer than
   * {@link MAX_BUFFERED_BYTES} of answers wait for stdout (no new answers
   * are made for a client that does not read them).
   */
  async call<T>(bytes: number, work: () => Promise<T>): Promise<T> {
    const cost = bytes + REQUEST_OVERHEAD;
    this.#calls += cost;
    try {
      const turn = this.#turn.then(() => this.#until(() => this.#stdout.writableLength < MAX_BUFFERED_BYTES));
      this.#turn = turn;
      await turn;
      return await work();
    } finally {
      this.#calls -= cost;
      this.changed();
    }
  }

  /** Resolves once the reader may take more input. */
  room(): Promise<void> {
    return this.#until(() => !this.full());
  }

  /** Something was given back (a call ended, stdout wrote): wakes the waiters to look again. */
  changed(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  async #until(ready: () => boolean): Promise<void> {
    while (!ready()) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}

/** A line over the limit being skipped: its length so far and both ends. */
interface Skipping {
  bytes: number;
  head: Buffer;
  tail: Buffer;
}

/**
 * Newline-delimited JSON-RPC on `stdin`/`stdout`, bounded by `budget`.
 * Unlike the SDK's transport it does not close at the end of stdin:
 * {@link ended} resolves, and the server closes it once every request
 * received is answered.
 */
export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Resolves when stdin has ended (or failed). */
  readonly ended: Promise<void>;

  #stdin: Readable;
  #stdout: Writable;
  #budget: Budget;
  #line: Buffer[] = [];
  #lineBytes = 0;
  #skipping: Skipping | null = null;
  #closed = false;
  #end!: () => void;
  #warn: (message: string) => void;

  /** `warn` reports what was refused or ignored (the native server logs it to stderr too). */
  constructor(stdin: Readable, stdout: Writable, budget: Budget, warn: (message: string) => void = () => {}) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#budget = budget;
    this.#warn = warn;
    this.ended = new Promise((resolve) => (this.#end = resolve));
  }

  async start(): Promise<void> {
    this.#stdin.on("data", this.#ondata);
    this.#stdin.once("end", this.#onend);
    this.#stdin.once("close", this.#onend);
    this.#stdin.on("error", this.#onstdinerror);
    this.#stdout.on("error", this.#onstdouterror);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("the stdio transport is closed");
    await this.#write(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off("data", this.#ondata);
    this.#stdin.off("end", this.#onend);
    this.#stdin.off("close", this.#onend);
    this.#stdin.off("error", this.#onstdinerror);
    this.#stdin.pause();
    this.#line = [];
    this.#end();
    this.onclose?.();
  }

  /** Writes a line; resolves once stdout has taken it, and gives its bytes back to the budget. */
  #write(line: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#stdout.write(line, (error) => {
        this.#budget.changed();
        if (error) reject(error);
        else resolve();
      });
    });
  }

  #ondata = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.#take(chunk.subarray(start, end));
      if (newline === -1) break;
      this.#finishLine();
      start = newline + 1;
    }
    // Backpressure: the calls this chunk started are counted once their
    // handlers ran (microtasks, before `setImmediate`); while too much is
    // held, stdin is left unread (the client's writes block, not our memory).
    this.#stdin.pause();
    setImmediate(() => {
      void this.#budget.room().then(() => {
        if (!this.#closed) this.#stdin.resume();
      });
    });
  };

  #onend = (): void => {
    if (this.#lineBytes > 0 || this.#skipping) this.#finishLine();
    this.#end();
  };

  #onstdinerror = (error: Error): void => {
    this.onerror?.(error);
    this.#end();
  };

  #onstdouterror = (error: Error): void => {
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };

  /** Adds a piece of the current line, switching to skipping it once it passes the limit. */
  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    const skipping = this.#skipping;
    if (skipping) {
      skipping.bytes += piece.length;
      skipping.tail = lastBytes(Buffer.concat([skipping.tail, lastBytes(piece, END_BYTES)]), END_BYTES);
      return;
    }
    // Copied: a chunk's buffer would otherwise stay alive for a small piece.
    this.#line.push(Buffer.from(piece));
    this.#lineBytes += piece.length;
    if (this.#lineBytes > MAX_LINE_BYTES) {
      const line = Buffer.concat(this.#line);
      this.#skipping = { bytes: line.length, head: Buffer.from(line.subarray(0, END_BYTES)), tail: Buffer.from(lastBytes(line, END_BYTES)) };
      this.#line = [];
      this.#lineBytes = 0;
    }
  }

  /** A whole line arrived: passes its message on, or answers why not (see mcp-decode.ts). */
  #finishLine(): void {
    const skipped = this.#skipping;
    this.#skipping = null;
    const decoded = skipped ? oversized(skipped) : decode(Buffer.concat(this.#line));
    this.#line = [];
    this.#lineBytes = 0;
    switch (decoded.kind) {
      case "message":
        this.onmessage?.(decoded.message);
        return;
      case "skip":
        if (decoded.why) this.#warn(decoded.why);
        return;
      case "refuse":
        this.#warn(`refused an incoming message: ${decoded.why}`);
        this.#write(decoded.answer + "\n").catch((error: Error) => this.onerror?.(error));
        return;
    }
  }
}

/** The answer to a line over the limit, under its id when either end shows it. */
function oversized(skipped: Skipping): Decoded {
  const mib = Math.ceil(skipped.bytes / (1024 * 1024));
  return refuse(
    topLevelId(skipped.head) ?? trailingId(skipped.tail),
    INVALID_REQUEST,
    `the message is ${mib} MiB, over the limit of ${MAX_LINE_BYTES / (1024 * 1024)} MiB; split the work into smaller calls`,
  );
}

/** The last `n` bytes of `buffer` (a view). */
function lastBytes(buffer: Buffer, n: number): Buffer {
  return buffer.length <= n ? buffer : buffer.subarray(buffer.length - n);
}

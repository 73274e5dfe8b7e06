// The deny-all WASI the component runs in, written here instead of taking
// jco's preview2-shim, which is not a sandbox (it hands the guest
// `process.env`, lets it exit the process and writes to its stdio). This
// mirrors the wasmtime host's `sandbox.rs`: what `wasm32-wasip2` std
// imports is satisfied, with nothing behind it:
//
// - no environment, no arguments, no stdin, no terminal;
// - `exit` traps the call instead of ending the process;
// - stdout is a sink; stderr is captured up to a bound, because Rust writes
//   its panic message there just before trapping, and the host quotes it;
// - randomness comes from the platform's CSPRNG (ids are random).
//
// The only real capabilities are the `store` and the `clock`.

import { randomBytes } from "node:crypto";

/** The bounded capture of the component's stderr. */
export class StderrCapture {
  #chunks: Uint8Array[] = [];
  #kept = 0;
  readonly #limit: number;

  constructor(limitBytes: number) {
    this.#limit = limitBytes;
  }

  /** Keeps what fits under the bound; the rest is dropped. */
  write(bytes: Uint8Array): void {
    const room = this.#limit - this.#kept;
    if (room <= 0) return;
    const kept = bytes.subarray(0, room).slice();
    this.#chunks.push(kept);
    this.#kept += kept.length;
  }

  /** Whether anything was written since the last `clear`. */
  get written(): boolean {
    return this.#kept > 0;
  }

  /** What was written, as text. */
  text(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }

  /** Forgets what was written (a fresh instance starts clean). */
  clear(): void {
    this.#chunks = [];
    this.#kept = 0;
  }
}

/** Raised when the component asks to exit: it traps the call. */
export class ExitCalled extends Error {
  constructor() {
    super("the component called exit, which the sandbox does not allow");
    this.name = "ExitCalled";
  }
}

/** Random bytes drawn from the CSPRNG a page at a time: one system call
 * per 512 values instead of one per value (the component asks for a few
 * per call, for ids and claim tokens). */
const POOL_BYTES = 4096;
let pool = randomBytes(POOL_BYTES);
let poolAt = 0;

function randomU64(): bigint {
  if (poolAt + 8 > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    poolAt = 0;
  }
  const value = pool.readBigUInt64LE(poolAt);
  poolAt += 8;
  return value;
}

/** The WASI imports of one instance, writing stderr into `stderr`. */
export function denyAllWasi(stderr: StderrCapture): Record<string, Record<string, unknown>> {
  class Pollable {
    /** Every stream is always ready: nothing ever waits. */
    block(): void {}
  }
  class InputStream {}
  class OutputStream {
    readonly #sink: ((bytes: Uint8Array) => void) | null;
    constructor(sink: ((bytes: Uint8Array) => void) | null) {
      this.#sink = sink;
    }
    checkWrite(): bigint {
      return 1n << 20n;
    }
    write(contents: Uint8Array): void {
      this.#sink?.(contents);
    }
    blockingFlush(): void {}
    subscribe(): Pollable {
      return new Pollable();
    }
  }
  class TerminalInput {}
  class TerminalOutput {}
  class WasiError {}
  const stdout = new OutputStream(null);
  const stderrStream = new OutputStream((bytes) => stderr.write(bytes));
  return {
    "wasi:cli/environment": { getEnvironment: () => [] },
    "wasi:cli/exit": {
      exit: () => {
        throw new ExitCalled();
      },
    },
    "wasi:cli/stdin": { getStdin: () => new InputStream() },
    "wasi:cli/stdout": { getStdout: () => stdout },
    "wasi:cli/stderr": { getStderr: () => stderrStream },
    "wasi:cli/terminal-input": { TerminalInput },
    "wasi:cli/terminal-output": { TerminalOutput },
    "wasi:cli/terminal-stdin": { getTerminalStdin: () => undefined },
    "wasi:cli/terminal-stdout": { getTerminalStdout: () => undefined },
    "wasi:cli/terminal-stderr": { getTerminalStderr: () => undefined },
    "wasi:io/error": { Error: WasiError },
    "wasi:io/poll": { Pollable },
    "wasi:io/streams": { InputStream, OutputStream },
    "wasi:random/random": { getRandomU64: randomU64 },
    "wasi:random/insecure-seed": { insecureSeed: () => [randomU64(), randomU64()] },
  };
}

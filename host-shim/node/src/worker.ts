// The worker thread that runs the component: it owns the instance and the
// store connection, so a busy wait or a long statement never blocks the
// caller's event loop, and the host can stop a runaway call by
// terminating this thread (V8 has neither fuel nor epochs for wasm).

import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { HostError } from "./errors.js";
import { REQUESTS, RESPONSES, type Request, type Response, type WorkerStart, awaitCount, signal } from "./protocol.js";
import { Runner } from "./runner.js";

/** How long the worker spins for the next request after an answer, in milliseconds (a caller's next call often comes that soon). */
const IDLE_SPIN_MS = 0.1;

/**
 * How long the worker sleeps waiting for a request before it lets its
 * event loop run, in milliseconds: the loop only sends on what the worker
 * printed beyond a first write, and every turn wakes an idle host.
 */
const IDLE_WAIT_MS = 5000;

// What this thread prints goes to stderr: the host never reads the
// worker's stdout, and the process's may carry a protocol (MCP).
process.stdout.write = process.stderr.write.bind(process.stderr);

const port = parentPort;
if (!port) throw new Error("worker.js runs as a worker thread of a NodeHost");

try {
  // What the host started this worker with (host.ts, #start).
  const start: WorkerStart = workerData;
  const runner = await Runner.load(start);
  port.postMessage({ ready: true });
  // The worker waits for a request and answers it without its event loop
  // (protocol.ts); it goes back to that loop only after IDLE_WAIT_MS
  // without a request, so its own output (stdout, stderr) is sent on. A
  // host stops it by terminating it, which interrupts any wait.
  let seen = 0;
  const serve = () => {
    // Spinning pays only right after an answer, when the caller's next
    // call may be on its way.
    let spinMs = 0;
    while (awaitCount(start.counts, REQUESTS, seen + 1, spinMs, IDLE_WAIT_MS)) {
      spinMs = IDLE_SPIN_MS;
      seen = Atomics.load(start.counts, REQUESTS);
      for (let got = receiveMessageOnPort(start.port); got; got = receiveMessageOnPort(start.port)) {
        const request: Request = got.message;
        const result = runner.run(request.call, request.timeLimitMs);
        const response: Response = result.ok
          ? { id: request.id, ok: true, value: result.value }
          : { id: request.id, ok: false, kind: result.kind, writes: result.writes };
        start.port.postMessage(response);
        signal(start.counts, RESPONSES);
      }
    }
    setImmediate(serve);
  };
  serve();
} catch (e) {
  const code = e instanceof HostError ? e.code : "worker";
  port.postMessage({ fatal: { code, message: e instanceof Error ? e.message : String(e) } });
}

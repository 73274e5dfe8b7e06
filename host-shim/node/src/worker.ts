// The worker thread that runs the component: it owns the instance and the
// store connection, so a busy wait or a long statement never blocks the
// caller's event loop, and the host can stop a runaway call by
// terminating this thread (V8 has neither fuel nor epochs for wasm).

import { parentPort, workerData } from "node:worker_threads";
import { HostError } from "./errors.js";
import type { Request, Response, WorkerStart } from "./protocol.js";
import { Runner } from "./runner.js";

const port = parentPort;
if (!port) throw new Error("worker.js runs as a worker thread of a NodeHost");

try {
  // What the host started this worker with (host.ts, #start).
  const start: WorkerStart = workerData;
  const runner = await Runner.load(start);
  port.on("message", (request: Request) => {
    const result = runner.run(request.call, request.timeLimitMs);
    const response: Response = result.ok
      ? { id: request.id, ok: true, value: result.value }
      : { id: request.id, ok: false, kind: result.kind, writes: result.writes };
    port.postMessage(response);
  });
  port.postMessage({ ready: true });
} catch (e) {
  const code = e instanceof HostError ? e.code : "worker";
  port.postMessage({ fatal: { code, message: e instanceof Error ? e.message : String(e) } });
}

// Checking the options a NodeHost is opened with, before anything starts:
// a bad value is a typed error naming the option, never a timer that
// fires at once (Node caps timers at 2^31-1 ms and turns anything else
// into 1 ms), a BigInt conversion that throws mid-call, or a panic in the
// native store.

import { HostError } from "./errors.js";

/** The longest delay a Node timer keeps (2^31-1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The call time limit to use: `value` when it is a whole number of
 * milliseconds from 1 to {@link MAX_TIMER_MS}, `fallback` when it is
 * undefined; anything else throws a {@link HostError} `invalid-option`.
 */
export function callTimeoutMs(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_TIMER_MS) return value;
  const shown = typeof value === "string" ? JSON.stringify(value) : String(value);
  throw new HostError("invalid-option", `callTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, not ${shown}`);
}

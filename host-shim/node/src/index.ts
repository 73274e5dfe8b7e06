// The Node host library: the tasklists component, transpiled by jco, run
// in a worker thread with a deny-all WASI, a per-call deadline and a
// memory cap, its store and clock served by the native host shim addon.
// The host the Pi package and the Node MCP server use.

export { NodeHost, type HostOptions, type LoadTimes } from "./host.js";
export { CHECK_LIMIT_MS, type DataVersion } from "./change-check.js";
export { HostError, type HostErrorCode } from "./errors.js";
export { BUILD_COMMAND } from "./addon.js";
export type * from "./types.js";

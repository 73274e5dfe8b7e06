// The session's Node host: opened once per Pi session, closed with it, and
// opened again at most once after it failed. Every problem is told to the
// user once, in the host's own words; nothing loops silently.

import type { DataVersion, HostError, NodeHost } from "@tasklists/node-host";

type HostModule = typeof import("@tasklists/node-host");

/** How the component tells the user about a failure of its own (once each). */
export type Notify = (message: string, type: "warning" | "error") => void;

function isHostError(e: unknown): e is HostError {
  return e instanceof Error && e.name === "HostError" && typeof (e as HostError).code === "string";
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The tasklists component of one session, behind the Node host. */
export class Component {
  readonly #module: HostModule;
  readonly #notify: Notify;
  #host: NodeHost | null;
  /** Why the component is unavailable, once it is. */
  #down: string | null = null;
  #restarted = false;
  #reopening: Promise<NodeHost | null> | null = null;

  private constructor(module: HostModule, host: NodeHost, notify: Notify) {
    this.#module = module;
    this.#host = host;
    this.#notify = notify;
  }

  /**
   * Loads the Node host library and opens the component on the database
   * `TASKLISTS_DB` names (else the host's default). A missing build
   * (`not-built`: addon or transpiled component absent, or built for
   * another Node ABI) or any other failure is one notice, and `null`.
   */
  static async open(notify: Notify): Promise<Component | null> {
    let module: HostModule;
    try {
      module = await import("@tasklists/node-host");
    } catch (e) {
      notify(`tasklists: the Node host library could not be loaded (${message(e)}); build it with: bash scripts/pi-install`, "error");
      return null;
    }
    try {
      const host = await module.NodeHost.open({ db: process.env.TASKLISTS_DB || undefined });
      return new Component(module, host, notify);
    } catch (e) {
      notify(isHostError(e) ? `tasklists: ${e.message}` : `tasklists: ${message(e)}`, "error");
      return null;
    }
  }

  /**
   * The database's change check (see `NodeHost.dataVersion`): asynchronous
   * and bounded, it never waits on the store on Pi's thread. While the
   * component is down or reopening: no database to watch.
   */
  async dataVersion(): Promise<DataVersion> {
    return (await this.#host?.dataVersion()) ?? { reachable: true, version: null };
  }

  /**
   * Runs `job` on the host. A host failure (a trapped renderer, a worker
   * that will not start) reopens the host once, with a notice, and runs
   * `job` again; a second failure leaves the component down for the rest
   * of the session, with one more notice. Rejects while down.
   */
  async use<T>(job: (host: NodeHost) => Promise<T>): Promise<T> {
    for (;;) {
      const host = this.#host ?? (await this.#reopening);
      if (!host) throw new Error(this.#down ?? "tasklists: the component is closed");
      try {
        return await job(host);
      } catch (e) {
        if (!isHostError(e)) throw e;
        // Queued on a host closed for a reopening: run on the new one.
        if (e.code === "closed" && host !== this.#host && !this.#down) continue;
        if (e.code === "closed") throw e;
        // Bounded: once started again, the next failure leaves it down.
        if (!(await this.#reopen(host, e))) throw new Error(this.#down ?? e.message);
      }
    }
  }

  async #reopen(failed: NodeHost, error: HostError): Promise<NodeHost | null> {
    if (this.#host !== failed) return this.#reopening ?? this.#host;
    this.#host = null;
    this.#reopening = (async () => {
      await failed.close().catch(() => {});
      if (this.#restarted) {
        this.#down = `tasklists: ${error.message}; the component failed again and stays stopped for this session (/reload starts it again)`;
        this.#notify(this.#down, "error");
        return null;
      }
      this.#restarted = true;
      this.#notify(`tasklists: ${error.message}; starting the component again (once)`, "warning");
      try {
        this.#host = await this.#module.NodeHost.open({ db: process.env.TASKLISTS_DB || undefined });
        return this.#host;
      } catch (e) {
        this.#down = `tasklists: ${message(e)}; the component stays stopped for this session (/reload starts it again)`;
        this.#notify(this.#down, "error");
        return null;
      }
    })();
    const host = await this.#reopening;
    this.#reopening = null;
    return host;
  }

  /** Closes the host (after the calls already made). */
  async close(): Promise<void> {
    const host = this.#host;
    this.#host = null;
    this.#down = "tasklists: the session ended";
    await host?.close();
  }
}

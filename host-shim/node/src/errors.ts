// What the Node host itself can fail with. A tool call never rejects with
// these for something the component can word (a refusal, a trap, a
// timeout): those come back as the component's reply.

/** Why the host could not do what it was asked. */
export type HostErrorCode =
  /** The addon or the transpiled component is missing or unusable. */
  | "not-built"
  /** A catalogue, renderer or view call trapped, ran out of time or memory (the message is the component's words for why). */
  | "trapped"
  /** The host was closed. */
  | "closed"
  /** The worker could not start or died outside a call. */
  | "worker"
  /** An option the host was opened with is out of range (it names the option). */
  | "invalid-option";

/** A failure of the Node host (not of a tool call). */
export class HostError extends Error {
  /** What kind of failure it is. */
  readonly code: HostErrorCode;

  constructor(code: HostErrorCode, message: string) {
    super(message);
    this.name = "HostError";
    this.code = code;
  }
}

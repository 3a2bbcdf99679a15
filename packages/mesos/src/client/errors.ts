/**
 * Errors of the scheduler client are values with a kind and the facts (the
 * HTTP status and the master's own message); they are turned into words only
 * where they reach a person.
 */

export type MesosErrorKind =
  /** 400: malformed or invalid call, unknown framework, wrong Mesos-Stream-Id. */
  | "bad_request"
  | "unauthorized"
  /** 403: the framework is not (or no longer) subscribed. */
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "not_acceptable"
  | "unsupported_media_type"
  /** 503: no leading master yet, or it is recovering: retry later. */
  | "service_unavailable"
  | "server_error"
  | "unexpected_status"
  /** A call made while no subscription is open (the master would answer 403). */
  | "not_subscribed"
  | "network"
  | "timeout"
  | "too_many_redirects"
  /** The master broke the protocol (no Mesos-Stream-Id, bad RecordIO, no SUBSCRIBED first). */
  | "protocol"
  /** The master sent an ERROR event: the framework must not blindly re-subscribe. */
  | "framework_error"
  /** Disconnected longer than framework_info.failover_timeout: the master killed our tasks. */
  | "failover_timeout_exceeded"
  | "stopped";

export interface MesosErrorFacts {
  status?: number;
  /** The master's message (the body of a 4xx/5xx, or an ERROR event's message). */
  masterMessage?: string;
  url?: string;
  callType?: string;
  cause?: unknown;
}

export class MesosError extends Error {
  override readonly name = "MesosError";
  readonly kind: MesosErrorKind;
  readonly status: number | undefined;
  readonly masterMessage: string | undefined;
  readonly url: string | undefined;
  readonly callType: string | undefined;

  constructor(kind: MesosErrorKind, facts: MesosErrorFacts = {}) {
    super(describe(kind, facts), facts.cause !== undefined ? { cause: facts.cause } : undefined);
    this.kind = kind;
    this.status = facts.status;
    this.masterMessage = facts.masterMessage;
    this.url = facts.url;
    this.callType = facts.callType;
  }

  /** Worth retrying later with the same request (the master may come back or be elected). */
  get retryable(): boolean {
    return (
      this.kind === "service_unavailable" ||
      this.kind === "server_error" ||
      this.kind === "network" ||
      this.kind === "timeout"
    );
  }
}

export function kindForStatus(status: number): MesosErrorKind {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 406:
      return "not_acceptable";
    case 415:
      return "unsupported_media_type";
    case 503:
      return "service_unavailable";
    default:
      return status >= 500 ? "server_error" : "unexpected_status";
  }
}

function describe(kind: MesosErrorKind, f: MesosErrorFacts): string {
  const what = f.callType !== undefined ? `${f.callType} call` : "request";
  const where = f.url !== undefined ? ` to ${f.url}` : "";
  const status = f.status !== undefined ? ` (HTTP ${f.status})` : "";
  const said = f.masterMessage ? `: ${f.masterMessage}` : "";
  const cause = f.cause instanceof Error ? `: ${f.cause.message}` : "";
  return `Mesos ${what}${where} failed, ${kind}${status}${said}${cause}`;
}

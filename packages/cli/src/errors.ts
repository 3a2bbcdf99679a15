import type { ApiIssue } from "@peloton/api";
import { TRPCClientError } from "@trpc/client";

/** A failure the CLI reports as one line, with the exit code it ends with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

function networkCause(err: unknown): string | null {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: string }).code;
    if (code === "ECONNREFUSED") return "connection refused";
    if (code === "ENOTFOUND") return "unknown host";
    if (code === "ECONNRESET" || code === "EPIPE") return "connection reset";
    if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return "timed out";
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export const NOT_SIGNED_IN = "not signed in: run `peloton login --user NAME` or set PELOTON_TOKEN";
export const TOKEN_REFUSED =
  "the API refused your token (revoked, expired, or its user disabled): run `peloton login --user NAME` or set PELOTON_TOKEN";

/** Turns any error into the one line the CLI prints; `hasToken`: whether one was sent. */
export function describeError(err: unknown, baseUrl: string, hasToken = false): string {
  if (err instanceof CliError) return err.message;
  if (err instanceof TRPCClientError && err.data?.httpStatus === 401)
    return hasToken ? TOKEN_REFUSED : NOT_SIGNED_IN;
  const net = networkCause(err);
  if (net)
    return `cannot reach the Peloton API at ${baseUrl} (${net}): is the console running? (set PELOTON_URL)`;
  if (err instanceof TRPCClientError) {
    const issues = (err.data as { issues?: ApiIssue[] | null } | undefined)?.issues;
    if (issues?.length) return issues.map(describeIssue).join("; ");
    // No tRPC error at all (a proxy's page, a cut connection): never the parser's words.
    if (err.data === undefined) return unexpectedAnswer(err, baseUrl);
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

function unexpectedAnswer(err: TRPCClientError<never>, baseUrl: string): string {
  const status = (err.meta as { response?: { status?: number } } | undefined)?.response?.status;
  return `the Peloton API at ${baseUrl} gave an answer that is not one of its own${status ? ` (HTTP ${status})` : ""}; try again, or see the server's log`;
}

/** An issue of a file (a job's YAML): where it is written, as `field (line N)`. */
type FileIssue = ApiIssue & { line?: number };

/** Whether an error is about a file the user sent (its issues carry lines). */
export function isFileError(err: unknown): boolean {
  if (!(err instanceof TRPCClientError)) return false;
  const issues = (err.data as { issues?: FileIssue[] | null } | undefined)?.issues;
  return !!issues?.some((i) => i.line !== undefined);
}

/**
 * A problem in a file names its field and line; the engine's rule errors
 * (upper-case codes) already name the pool, the kind and the numbers; input
 * errors (zod's codes) get the field they concern.
 */
function describeIssue(issue: FileIssue): string {
  if (issue.line !== undefined)
    return `${issue.field || "(file)"} (line ${issue.line}): ${issue.message}`;
  const selfDescribing = issue.code === issue.code.toUpperCase();
  return selfDescribing || !issue.field ? issue.message : `${issue.field}: ${issue.message}`;
}

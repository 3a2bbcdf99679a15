/**
 * Structured, field-level problems: what every API error carries (in
 * `error.data.issues`) so that a form can place each message beside its
 * input and the CLI can print them. Fields are named as the pool form and
 * the engine name them: `name`, `resources.cpu.reservation`, `path`.
 */
import { RESOURCE_KINDS } from "@peloton/engine";
import { ZodError } from "zod";

export interface ApiIssue {
  /** The input it concerns; null for a problem of the request as a whole. */
  field: string | null;
  /** A code from a closed set (the engine's rule codes, zod's issue codes, CONFLICT). */
  code: string;
  message: string;
}

/** The cause of a TRPCError whose issues the error formatter passes on. */
export class IssuesError extends Error {
  override readonly name = "IssuesError";
  constructor(readonly issues: ApiIssue[]) {
    super(issues.map((i) => i.message).join("; "));
  }
}

type Segment = string | number;

/**
 * A zod path as a form field. The pool configuration sits under `config` in
 * the inputs and at the top of the form, so that prefix goes; a resource entry
 * is named by its kind when the input says which (`resources.0.limit` →
 * `resources.cpu.limit`), else by its position (`resources[0].limit`).
 */
export function fieldOfPath(path: readonly Segment[], input: unknown): string | null {
  if (path.length === 0) return null;
  const inConfig = path[0] === "config";
  const rest = inConfig ? path.slice(1) : path;
  const config = inConfig ? (input as { config?: unknown } | undefined)?.config : input;
  if (rest[0] === "resources" && typeof rest[1] === "number") {
    const entries = (config as { resources?: unknown } | undefined)?.resources;
    const kind = Array.isArray(entries)
      ? (entries[rest[1]] as { kind?: unknown } | undefined)?.kind
      : undefined;
    const tail = rest.slice(2).map(String);
    if (typeof kind === "string" && (RESOURCE_KINDS as readonly string[]).includes(kind))
      return ["resources", kind, ...tail].join(".");
    return [`resources[${rest[1]}]`, ...tail].join(".");
  }
  // The configuration itself (not an object, say): its own name.
  return rest.map(String).join(".") || (inConfig ? "config" : null);
}

export function zodIssues(error: ZodError, input: unknown): ApiIssue[] {
  return error.issues.map((issue) => ({
    field: fieldOfPath(
      issue.path.filter((p): p is Segment => typeof p !== "symbol"),
      input,
    ),
    code: issue.code,
    message: issue.message,
  }));
}

/** The issues an error carries to clients (the error formatter's `data.issues`), or null. */
export function issuesOf(cause: unknown, input: unknown): ApiIssue[] | null {
  if (cause instanceof ZodError) return zodIssues(cause, input);
  if (cause instanceof IssuesError) return cause.issues;
  return null;
}

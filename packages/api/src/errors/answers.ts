/**
 * Every failure a procedure throws becomes an answer with a sentence, once,
 * here: tRPC's own errors pass as they are; a database fault the user caused
 * becomes 4xx, an outage 503; anything else is a bug, a 500 whose message
 * names only the request id (the cause goes to the server log under it).
 */
import { MAX_REPORTED_ISSUES } from "@peloton/engine";
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { type ApiIssue, IssuesError, zodIssues } from "../issues.ts";
import { classifyDatabaseError, UNAVAILABLE_MESSAGE } from "./database.ts";

export const TIMEOUT_MESSAGE = "the request took too long and was stopped; try again shortly";

function withIssue(
  code: TRPCError["code"],
  field: string | null,
  issueCode: string,
  message: string,
  cause: unknown,
): TRPCError {
  const error = new TRPCError({
    code,
    message,
    cause: new IssuesError([{ field, code: issueCode, message }]),
  });
  // The original stays reachable for the server log.
  Object.defineProperty(error, "original", { value: cause, enumerable: false });
  return error;
}

/** Issues as the one line an answer's message is: "field: message; …; and 3 more". */
export function sentence(issues: readonly ApiIssue[]): string {
  const shown = issues
    .slice(0, MAX_REPORTED_ISSUES)
    .map((i) => (i.field ? `${i.field}: ${i.message}` : i.message));
  const more = issues.length - shown.length;
  return `${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}

/**
 * The answer for an error a procedure ended with: input errors get their
 * sentence as the message (zod's own is JSON); a database error its 4xx/503.
 */
export function answerFor(error: TRPCError, rawInput?: unknown): TRPCError {
  if (error.code === "BAD_REQUEST" && error.cause instanceof ZodError)
    return new TRPCError({
      code: "BAD_REQUEST",
      message: sentence(zodIssues(error.cause, rawInput)),
      cause: error.cause,
    });
  if (error.code !== "INTERNAL_SERVER_ERROR") return error;
  const cause = error.cause;
  if (cause instanceof ZodError || cause instanceof IssuesError) return error;
  const fault = classifyDatabaseError(cause);
  if (fault === null) return error;
  switch (fault.kind) {
    case "unavailable":
      return withIssue(
        "SERVICE_UNAVAILABLE",
        null,
        "DATABASE_UNAVAILABLE",
        UNAVAILABLE_MESSAGE,
        cause,
      );
    case "timeout":
      return withIssue("TIMEOUT", null, "TIMEOUT", TIMEOUT_MESSAGE, cause);
    case "conflict":
      return withIssue("CONFLICT", fault.field, "CONFLICT", fault.message, cause);
    case "invalid":
      return withIssue("BAD_REQUEST", fault.field, "INVALID_VALUE", fault.message, cause);
  }
}

/** The original error behind an answer (for the log). */
export function originalOf(error: TRPCError): unknown {
  return (error as TRPCError & { original?: unknown }).original ?? error.cause ?? error;
}

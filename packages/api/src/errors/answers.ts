/**
 * Every failure a procedure throws becomes an answer with a sentence, once,
 * here: tRPC's own errors pass as they are; a database fault the user caused
 * becomes 4xx, an outage 503; anything else is a bug, a 500 whose message
 * names only the request id (the cause goes to the server log under it).
 */
import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { IssuesError } from "../issues.ts";
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

/** The answer for an error a procedure ended with (a TRPCError whose cause may be a database error). */
export function answerFor(error: TRPCError): TRPCError {
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

/**
 * The identity service's refusals as API errors: a duplicate is a 409, an
 * unknown name a 404, a rule about people (the last admin, yourself) a 409,
 * each with the issue on the field it is about.
 */
import type { IdentityFailure, IdentityResult } from "@peloton/scheduler";
import { TRPCError } from "@trpc/server";
import { IssuesError } from "../issues.ts";

const CODES = {
  duplicate: { trpc: "CONFLICT", issue: "DUPLICATE" },
  not_found: { trpc: "NOT_FOUND", issue: "NOT_FOUND" },
  conflict: { trpc: "CONFLICT", issue: "CONFLICT" },
} as const satisfies Record<IdentityFailure["kind"], { trpc: TRPCError["code"]; issue: string }>;

export function identityError(failure: IdentityFailure): TRPCError {
  const code = CODES[failure.kind];
  return new TRPCError({
    code: code.trpc,
    message: failure.message,
    cause: new IssuesError([{ field: failure.field, code: code.issue, message: failure.message }]),
  });
}

/** The value of an accepted change, or the refusal thrown as its API error. */
export function unwrap<T>(result: IdentityResult<T>): T {
  if (!result.ok) throw identityError(result.failure);
  return result.value;
}

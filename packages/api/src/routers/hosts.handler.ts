/**
 * The hosts router's edge: a refusal about the host named in the input,
 * worded once (its message, and the issue on `hostname`).
 */
import { TRPCError } from "@trpc/server";
import { IssuesError } from "../issues.ts";

export function hostError(code: TRPCError["code"], issueCode: string, message: string): TRPCError {
  return new TRPCError({
    code,
    message,
    cause: new IssuesError([{ field: "hostname", code: issueCode, message }]),
  });
}

export function hostNotFound(hostname: string): TRPCError {
  return hostError("NOT_FOUND", "HOST_NOT_FOUND", `host ${hostname} does not exist`);
}

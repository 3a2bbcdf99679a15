/**
 * The router names a job's fields as v0's JobConfig spells them
 * (`defaultConfig.resource.cpuLimit`); a v1alpha client wrote a JobSpec
 * (`spec.defaultSpec.containers[0].resource.cpuLimit`). These turn one
 * into the other, so a refusal names the field as the request has it.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { answerFor, issuesOf } from "@peloton/api";
import { TRPCError } from "@trpc/server";
import { statusOf } from "../calls/status.ts";

/** TaskConfig fields that live in a PodSpec's (only) container. */
const CONTAINER: Record<string, string> = {
  name: "name",
  resource: "resource",
  container: "container",
  command: "command",
  executor: "executor",
  ports: "ports",
  healthCheck: "livenessCheck",
};

function podField(path: string[]): string[] {
  const [head, ...rest] = path;
  if (head === undefined) return [];
  const inContainer = CONTAINER[head];
  if (inContainer) return ["containers[0]", inContainer, ...rest];
  if (head === "volume" && rest[0]?.toLowerCase() === "sizemb") return ["volume", "sizeMb"];
  return path;
}

/** A v0 JobConfig field path as the JobSpec's. */
export function specField(path: string): string {
  const [head, ...rest] = path.split(".");
  switch (head?.toLowerCase()) {
    case "defaultconfig":
      return ["defaultSpec", ...podField(rest)].join(".");
    case "instanceconfig":
      return ["instanceSpec", ...rest.slice(0, 1), ...podField(rest.slice(1))].join(".");
    case "respoolid":
      return ["respoolId", ...rest].join(".");
    default:
      return path;
  }
}

/** `error` as a gRPC status whose field names went through `rename`. */
export function renamedStatus(error: unknown, rename: (field: string) => string): ConnectError {
  const status = statusOf(error);
  if (!(error instanceof TRPCError) || status.code === Code.Internal) return status;
  const issues = issuesOf(answerFor(error).cause, undefined) ?? [];
  if (issues.length === 0) return status;
  const message = issues
    .map((i) => (i.field ? `${rename(i.field)}: ${i.message}` : i.message))
    .join("; ");
  return new ConnectError(message, status.code, undefined, undefined, error);
}

/** Runs `call`, its refusals naming fields through `rename`. */
export async function naming<T>(rename: (field: string) => string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw renamedStatus(error, rename);
  }
}

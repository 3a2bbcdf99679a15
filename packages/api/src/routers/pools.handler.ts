/**
 * The pools router's edge: the respool service's results turned into API
 * outputs, and its failures into tRPC errors with field-level issues, worded
 * once here (STYLE.md: errors are values, turned into words at each edge).
 */
import {
  describeValidationError,
  type PoolValidationCode,
  type PoolValidationError,
} from "@peloton/engine";
import type { PoolFailure, PoolMutation, RespoolService } from "@peloton/scheduler/respool";
import { TRPCError } from "@trpc/server";
import type { Context } from "../context.ts";
import { type ApiIssue, IssuesError } from "../issues.ts";

export function respool(ctx: Context): RespoolService {
  return ctx.scheduler.pools;
}

/** Rules whose error names no configuration field: the input they concern. */
const RULE_FIELDS: Partial<Record<PoolValidationCode, string>> = {
  INVALID_PATH: "path",
  POOL_NOT_FOUND: "path",
  ROOT_IMMUTABLE: "path",
  PARENT_NOT_FOUND: "path",
  PARENT_IS_SELF: "parent",
  PARENT_IS_DESCENDANT: "parent",
  PARENT_HAS_JOBS: "path",
};

/**
 * Each broken rule on the form field it concerns (`resources.cpu.reservation`,
 * `name`, `path`); null for the pool as a whole (a delete of a busy pool).
 */
export function ruleIssues(errors: readonly PoolValidationError[]): ApiIssue[] {
  return errors.map((e) => ({
    field: "field" in e ? e.field : (RULE_FIELDS[e.code] ?? null),
    code: e.code,
    message: describeValidationError(e),
  }));
}

function conflictMessage(f: Extract<PoolFailure, { kind: "conflict" }>): string {
  return f.actualVersion === null
    ? `pool ${f.path} no longer exists (you edited version ${f.expectedVersion})`
    : `pool ${f.path} was changed by someone else: you edited version ${f.expectedVersion}, it is now at version ${f.actualVersion}; reload it and make your change again`;
}

export function failureError(failure: PoolFailure): TRPCError {
  if (failure.kind === "conflict") {
    const message = conflictMessage(failure);
    return new TRPCError({
      code: "CONFLICT",
      message,
      cause: new IssuesError([{ field: "version", code: "CONFLICT", message }]),
    });
  }
  const issues = ruleIssues(failure.errors);
  const codes = new Set(failure.errors.map((e) => e.code));
  const code = codes.has("POOL_NOT_FOUND")
    ? "NOT_FOUND"
    : codes.has("BUSY") || codes.has("NOT_LEAF") || codes.has("PARENT_HAS_JOBS")
      ? "PRECONDITION_FAILED"
      : "BAD_REQUEST";
  return new TRPCError({
    code,
    message: issues.map((i) => i.message).join("; "),
    cause: new IssuesError(issues),
  });
}

/** What a successful change returns: the pool's identity and version, and whose entitlement moved. */
export function mutationOutput(result: PoolMutation) {
  if (!result.ok) throw failureError(result.failure);
  const { pool, moves } = result;
  return { id: pool.id, path: pool.path, version: pool.version, moves };
}

export function notFound(path: string): TRPCError {
  const message = `${path}: no such pool`;
  return new TRPCError({
    code: "NOT_FOUND",
    message,
    cause: new IssuesError([{ field: "path", code: "POOL_NOT_FOUND", message }]),
  });
}

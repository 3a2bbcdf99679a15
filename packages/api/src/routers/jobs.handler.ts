/**
 * The jobs router's edge: Peloton YAML decoded with the engine's schema,
 * the job manager's results turned into outputs, and its failures into tRPC
 * errors whose issues name the field and, for YAML, the line (worded once
 * here: STYLE.md, errors are values turned into words at each edge).
 */
import {
  describeNeverFit,
  formatCount,
  isResolvableWaitingReason,
  jobConfigSchema,
  MAX_REPORTED_ISSUES,
  type NeverFitCause,
} from "@peloton/engine";
import type { CreateJobFailure, JobAction, JobActionFailure } from "@peloton/scheduler";
import type { JobRecord, ReadOnlyGateway } from "@peloton/storage";
import { TRPCError } from "@trpc/server";
import { actingOf, type SignedInContext } from "../auth/authorize.ts";
import { ConfigError, decodePelotonYaml } from "../config/peloton-yaml.ts";
import { type ApiIssue, IssuesError } from "../issues.ts";
import { updateFailureError } from "./updates.handler.ts";

/** An issue in a job file: the field in the file's own spelling and where it is written. */
export interface ConfigApiIssue extends ApiIssue {
  line?: number;
  column?: number;
}

function badConfig(all: ConfigApiIssue[]): TRPCError {
  // A file can break one rule once per instance: the first problems, and how many more.
  const rest = all.length - MAX_REPORTED_ISSUES;
  const issues: ConfigApiIssue[] =
    rest > 0
      ? [
          ...all.slice(0, MAX_REPORTED_ISSUES),
          { field: null, code: "MORE_PROBLEMS", message: `and ${formatCount(rest)} more problems` },
        ]
      : all;
  const words = issues.map(
    (i) => `${i.field ?? "(file)"}${i.line ? ` (line ${i.line})` : ""}: ${i.message}`,
  );
  return new TRPCError({
    code: "BAD_REQUEST",
    message: `the job config is not valid: ${words.join("; ")}`,
    cause: new IssuesError(issues),
  });
}

function failureError(
  f: CreateJobFailure,
  positionOf: (field: string) => { field: string; line?: number; column?: number },
): TRPCError {
  switch (f.kind) {
    case "invalid":
      return badConfig(
        f.problems.map((p) => ({ code: p.code, message: p.message, ...positionOf(p.field) })),
      );
    case "no_pool":
      return badConfig([
        {
          field: "respoolId",
          code: "POOL_MISSING",
          message: "name the pool: give one with the request, or respoolId in the file",
        },
      ]);
    case "pool_not_found": {
      const message = `${f.path}: no such pool`;
      return new TRPCError({
        code: "NOT_FOUND",
        message,
        cause: new IssuesError([{ field: "pool", code: "POOL_NOT_FOUND", message }]),
      });
    }
    case "pool_not_leaf": {
      const message = `${f.path} has child pools; jobs are submitted to leaf pools only`;
      return new TRPCError({
        code: "BAD_REQUEST",
        message,
        cause: new IssuesError([{ field: "pool", code: "POOL_NOT_LEAF", message }]),
      });
    }
    case "never_fits":
      return neverFitsError(f, positionOf);
  }
}

/**
 * A gang that could never run: "instance 0 can never run in pool /a: a task
 * needs 16 cpu cores, and the largest host (of 2) has 8 cpu cores". The
 * field is the gang's size for a gang, the task's resources otherwise.
 */
function neverFitsError(
  f: { path: string; instances: readonly number[]; cause: NeverFitCause },
  positionOf: (field: string) => { field: string; line?: number; column?: number } = (field) => ({
    field,
  }),
): TRPCError {
  const gang = f.instances.length > 1;
  const which = gang
    ? `instances ${f.instances[0]}–${f.instances.at(-1)} (a gang: sla.minimumRunningInstances start together)`
    : `instance ${f.instances[0]}`;
  const message = `${which} can never run in pool ${f.path}: ${describeNeverFit(f.cause)}`;
  const field = gang ? "sla.minimumRunningInstances" : "defaultConfig.resource";
  return new TRPCError({
    code: "BAD_REQUEST",
    message,
    cause: new IssuesError([{ code: "CAN_NEVER_FIT", message, ...positionOf(field) }]),
  });
}

type DecodedJob = ReturnType<typeof decodePelotonYaml<typeof jobConfigSchema>>;

/**
 * Decoded once per request: the access check needs the file's pool
 * (`respoolId`) before the mutation runs, and the mutation needs the same
 * decoded config. Keyed by the parsed input object, which tRPC hands to the
 * middleware and the resolver alike.
 */
const decodedJobs = new WeakMap<object, DecodedJob>();

/** The job file decoded with the engine's schema, or the 400 naming each bad field and line. */
export function decodeJobYaml(input: { yaml: string }): DecodedJob {
  const known = decodedJobs.get(input);
  if (known) return known;
  let decoded: DecodedJob;
  try {
    decoded = decodePelotonYaml(input.yaml, jobConfigSchema);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    throw badConfig(
      err.issues.map((i) => ({
        field: i.field || null,
        code: i.field ? "INVALID_FIELD" : "INVALID_YAML",
        message: i.message,
        ...(i.line !== undefined ? { line: i.line } : {}),
        ...(i.column !== undefined ? { column: i.column } : {}),
      })),
    );
  }
  decodedJobs.set(input, decoded);
  return decoded;
}

/**
 * The pool a submission goes to (the request's, else the file's
 * `respoolId`); the same "name the pool" error as the create when neither.
 */
export function submissionPool(input: { pool?: string | undefined; yaml: string }): string {
  const decoded = decodeJobYaml(input);
  const path = input.pool ?? decoded.value.respoolId?.value;
  if (!path) throw failureError({ kind: "no_pool" }, decoded.positionOf);
  return path;
}

/** The create's "no such pool", for the access check that reads the pool first. */
export function submissionPoolNotFound(path: string): TRPCError {
  return failureError({ kind: "pool_not_found", path }, (field) => ({ field }));
}

/** `jobs.create`: decode, check, store; nothing is stored when anything is wrong. */
export async function createFromYaml(
  ctx: SignedInContext,
  input: { pool?: string | undefined; yaml: string },
) {
  const decoded = decodeJobYaml(input);
  const result = await ctx.scheduler.jobs.create({
    config: decoded.value,
    configYaml: input.yaml,
    poolPath: input.pool,
    acting: actingOf(ctx),
  });
  if (!result.ok) throw failureError(result.failure, decoded.positionOf);
  return { id: result.jobId, instances: result.instances, pool: result.poolPath };
}

export function jobNotFound(id: string): TRPCError {
  const message = `job ${id} does not exist`;
  return new TRPCError({
    code: "NOT_FOUND",
    message,
    cause: new IssuesError([{ field: "id", code: "JOB_NOT_FOUND", message }]),
  });
}

export function configVersionNotFound(id: string, version: number): TRPCError {
  const message = `job ${id} has no config version ${version}`;
  return new TRPCError({
    code: "NOT_FOUND",
    message,
    cause: new IssuesError([{ field: "version", code: "CONFIG_VERSION_NOT_FOUND", message }]),
  });
}

function actionError(f: JobActionFailure): TRPCError {
  const issue = (
    code: TRPCError["code"],
    field: string | null,
    issueCode: string,
    message: string,
  ) =>
    new TRPCError({ code, message, cause: new IssuesError([{ field, code: issueCode, message }]) });
  switch (f.kind) {
    case "not_found":
      return jobNotFound(f.jobId);
    case "conflict":
      return issue(
        "CONFLICT",
        "version",
        "CONFLICT",
        `job ${f.jobId} was changed by someone else: you acted on version ${f.expectedVersion}, it is now at version ${f.actualVersion}; reload it and try again`,
      );
    case "deleted":
      return issue(
        "PRECONDITION_FAILED",
        null,
        "JOB_DELETED",
        `cannot ${f.action} job ${f.jobId}: it is being deleted`,
      );
    case "no_such_instances":
      return issue(
        "BAD_REQUEST",
        "instances",
        "NO_SUCH_INSTANCES",
        `job ${f.jobId} has no instance ${f.instances.join(", ")} (it has ${f.instanceCount}: 0 to ${f.instanceCount - 1})`,
      );
    case "daemon_scale":
      return issue(
        "BAD_REQUEST",
        "instanceCount",
        "DAEMON_SCALE",
        "a DAEMON job runs one instance on each eligible host; its instance count follows the hosts",
      );
    case "never_fits":
      return neverFitsError(f);
  }
}

/** Runs a job action as the caller; the job's new version and the instances whose intent changed. */
export async function act(
  ctx: SignedInContext,
  jobId: string,
  action: JobAction,
  expectedVersion?: number,
) {
  const result = await ctx.scheduler.jobs.act(jobId, action, actingOf(ctx), expectedVersion);
  if (!result.ok) throw actionError(result.failure);
  return {
    id: result.jobId,
    version: result.version,
    goalState: result.goalState,
    instances: result.instances,
  };
}

const ROLLING_KIND = { stop: "STOP", start: "START", restart: "RESTART" } as const;

/**
 * `jobs.stop|start|restart`: at once without a batch size; with one, through
 * an update of kind STOP/START/RESTART that moves `batchSize` instances at a
 * time (Peloton's RestartConfig and friends); its id is in the answer.
 */
export async function actRolling(
  ctx: SignedInContext,
  input: { id: string; version?: number | undefined; batchSize?: number | undefined },
  kind: keyof typeof ROLLING_KIND,
) {
  if (input.batchSize === undefined)
    return { ...(await act(ctx, input.id, { kind }, input.version)), updateId: null };
  const job = await ctx.gateway.jobs.get(input.id);
  if (job === null) throw jobNotFound(input.id);
  if (input.version !== undefined && input.version !== job.version)
    throw actionError({
      kind: "conflict",
      jobId: input.id,
      expectedVersion: input.version,
      actualVersion: job.version,
    });
  const result = await ctx.scheduler.updates.create({
    jobId: input.id,
    kind: ROLLING_KIND[kind],
    options: { ...ROLLING_DEFAULTS, batchSize: input.batchSize },
    acting: actingOf(ctx),
  });
  if (!result.ok) throw updateFailureError(result.failure);
  const now = await ctx.gateway.jobs.get(input.id);
  return {
    id: input.id,
    version: now?.version ?? job.version,
    goalState: now?.goalState ?? job.goalState,
    instances: result.update.instancesUpdated,
    updateId: result.update.id,
  };
}

/** Peloton's UpdateConfig defaults for a rolling action: only the batch size is given. */
const ROLLING_DEFAULTS = {
  batchSize: 1,
  batchPercentage: 0,
  stopBeforeUpdate: false,
  startPaused: false,
  rollbackOnFailure: false,
  maxInstanceAttempts: 0,
  maxFailureInstances: 0,
  inPlace: false,
  startTasks: false,
};

/** Why a job's first waiting instance waits, as the scheduler wrote it on the row. */
export interface FirstWaiting {
  reason: string | null;
  message: string | null;
  /** false when only the hosts or pools changing can end the wait (CAN_NEVER_FIT, CAN_NEVER_PLACE). */
  resolvable: boolean;
}

/**
 * A page of jobs with why each one's first waiting instance waits (null for
 * a job with none waiting, and for every job when `include` is false). Only
 * jobs whose counts show a waiting instance are looked up.
 */
export async function withFirstWaiting<J extends JobRecord>(
  ctx: { gateway: ReadOnlyGateway },
  jobs: readonly J[],
  include: boolean,
): Promise<(J & { firstWaiting: FirstWaiting | null })[]> {
  const ids = include ? jobs.filter((j) => (j.taskStats.PENDING ?? 0) > 0).map((j) => j.id) : [];
  const first = new Map(
    (await ctx.gateway.taskReads.firstWaiting(ids)).map((w) => [
      w.jobId,
      { reason: w.reason, message: w.message, resolvable: isResolvableWaitingReason(w.reason) },
    ]),
  );
  return jobs.map((j) => ({ ...j, firstWaiting: first.get(j.id) ?? null }));
}

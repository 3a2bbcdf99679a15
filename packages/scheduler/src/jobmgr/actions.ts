/**
 * What users do to jobs and their instances (Peloton's StopJob, StartJob,
 * RestartJob, DeleteJob, and UpdateJob's instance count; StopTasks,
 * StartTasks, RestartTasks on instance ranges). Each action writes intent
 * only — goal states, desired runs, the instance count, new instances —
 * with the job's intent version bumped, the audit row and the
 * announcement, in one transaction. The leader's job manager notices the
 * version move and drives the tasks there.
 */

import {
  coversEveryInstance,
  describeMaxRunningHold,
  type GoalState,
  type JobConfig,
  type TaskState,
  TERMINAL_TASK_STATES,
} from "@peloton/engine";
import type {
  InstanceRange,
  JobDetailRecord,
  Repositories,
  StorageGateway,
  TaskChange,
} from "@peloton/storage";
import type { Acting } from "../common/acting.ts";
import { EVENT_SOURCES } from "../taskwriter/event-sources.ts";
import { firstImpossibleGang, type ImpossibleGang } from "./impossible-gangs.ts";
import { defaultGoalState, NEW_RUN_COLUMNS, newTasksFor } from "./new-tasks.ts";

/**
 * Which instances an action concerns: absent = the job itself (its goal
 * changes too), "all" = every instance, or ranges. The job's goal stays,
 * except for a stop that covers every instance (Peloton's StopTasks).
 */
export type ActionInstances = readonly InstanceRange[] | "all" | undefined;

export type JobAction =
  | { kind: "stop"; instances?: ActionInstances }
  | { kind: "start"; instances?: ActionInstances }
  | { kind: "restart"; instances?: ActionInstances }
  | { kind: "delete" }
  | { kind: "scale"; instanceCount: number };

export type JobActionFailure =
  | { kind: "not_found"; jobId: string }
  | { kind: "conflict"; jobId: string; expectedVersion: number; actualVersion: number }
  | { kind: "deleted"; jobId: string; action: JobAction["kind"] }
  | { kind: "no_such_instances"; jobId: string; instances: number[]; instanceCount: number }
  | { kind: "daemon_scale"; jobId: string }
  /** Scaling up would add a gang that could never run (impossible-gangs.ts). */
  | ({ kind: "never_fits"; jobId: string; path: string } & ImpossibleGang);

export type JobActionResult =
  | { ok: true; jobId: string; version: number; goalState: GoalState; instances: number[] }
  | { ok: false; failure: JobActionFailure };

/** Ended runs a start replaces (a batch task that succeeded stays done). */
const ENDED_FOR_START: Record<"batch" | "other", readonly TaskState[]> = {
  batch: TERMINAL_TASK_STATES.filter((s) => s !== "SUCCEEDED"),
  other: TERMINAL_TASK_STATES,
};

export async function actOnJob(
  gateway: StorageGateway,
  jobId: string,
  action: JobAction,
  acting: Acting,
  expectedVersion?: number,
): Promise<JobActionResult> {
  return gateway.transaction(async (tx) => {
    const job = await tx.jobs.getDetail(jobId);
    if (job === null) return fail({ kind: "not_found", jobId });
    if (expectedVersion !== undefined && expectedVersion !== job.version)
      return fail({ kind: "conflict", jobId, expectedVersion, actualVersion: job.version });
    if (job.goalState === "DELETED" && action.kind !== "delete" && action.kind !== "stop")
      return fail({ kind: "deleted", jobId, action: action.kind });
    const missing = await missingInstances(tx, job, action);
    if (missing.length > 0)
      return fail({
        kind: "no_such_instances",
        jobId,
        instances: missing,
        instanceCount: job.instanceCount,
      });
    if (action.kind === "scale" && job.type === "DAEMON")
      return fail({ kind: "daemon_scale", jobId });
    if (action.kind === "scale") {
      const impossible = await addedImpossibleGang(tx, job, action.instanceCount);
      if (impossible) return fail({ kind: "never_fits", jobId, ...impossible });
    }

    const applied = await applyIntent(tx, job, action, acting.login);
    const version = await tx.jobs.writeIntent(jobId, job.version, applied.job);
    if (version === null) {
      const now = await tx.jobs.get(jobId);
      return fail({
        kind: "conflict",
        jobId,
        expectedVersion: job.version,
        actualVersion: now?.version ?? job.version,
      });
    }
    const goalState = applied.job.goalState ?? job.goalState;
    await tx.audit.record({
      actor: acting.login,
      via: acting.via,
      action: `job.${action.kind}`,
      targetType: "job",
      targetId: jobId,
      before: { goalState: job.goalState, instanceCount: job.instanceCount },
      after: {
        goalState,
        instanceCount: applied.job.instanceCount ?? job.instanceCount,
        ...("instances" in action && action.instances !== undefined
          ? { instances: action.instances }
          : {}),
      },
    });
    await tx.changes.announce(
      { topic: "jobs", keys: [jobId] },
      { topic: "tasks", keys: applied.instances.map((i) => `${jobId}/${i}`) },
    );
    return { ok: true, jobId, version: version.version, goalState, instances: applied.instances };
  });
}

/** The first gang the added instances would form that could never run in the job's pool. */
async function addedImpossibleGang(
  tx: Repositories,
  job: JobDetailRecord,
  count: number,
): Promise<(ImpossibleGang & { path: string }) | null> {
  if (count <= job.instanceCount) return null;
  const pools = await tx.pools.listAll();
  const pool = pools.find((p) => p.id === job.poolId);
  if (!pool) return null;
  const added = Array.from({ length: count - job.instanceCount }, (_, i) => job.instanceCount + i);
  const impossible = await firstImpossibleGang(tx, job.config as JobConfig, pool, pools, added);
  return impossible && { ...impossible, path: pool.path };
}

function fail(failure: JobActionFailure): JobActionResult {
  return { ok: false, failure };
}

async function missingInstances(
  tx: Repositories,
  job: JobDetailRecord,
  action: JobAction,
): Promise<number[]> {
  if (!("instances" in action) || action.instances === undefined || action.instances === "all")
    return [];
  const existing = new Set(
    (await tx.taskIntents.existing({ jobId: job.id, instances: action.instances })).map(
      (t) => t.instanceId,
    ),
  );
  // The first few missing instances name the problem; a range far past the job's end stops early.
  const missing: number[] = [];
  for (const r of action.instances)
    for (let i = r.from; i <= r.to && missing.length < 10; i++)
      if (!existing.has(i)) missing.push(i);
  return missing;
}

interface AppliedIntent {
  job: { goalState?: GoalState; instanceCount?: number };
  /** Instances whose intent changed. */
  instances: number[];
}

async function applyIntent(
  tx: Repositories,
  job: JobDetailRecord,
  action: JobAction,
  actor: string,
): Promise<AppliedIntent> {
  const config = job.config as JobConfig;
  const running = defaultGoalState(config);
  const scope = "instances" in action ? action.instances : undefined;
  const wholeJob = scope === undefined;
  const q = { jobId: job.id, instances: scope === "all" ? undefined : scope };
  switch (action.kind) {
    case "stop":
      // Peloton's StopTasks: a stop of every instance stops the job too.
      return {
        job:
          wholeJob || coversEveryInstance(scope, job.instanceCount) ? { goalState: "KILLED" } : {},
        instances: await tx.taskIntents.setGoal(q, "KILLED"),
      };
    case "start":
      return {
        job: wholeJob ? { goalState: running } : {},
        instances: await tx.taskIntents.setGoal(q, running, {
          newRunIn: ENDED_FOR_START[job.type === "BATCH" ? "batch" : "other"],
        }),
      };
    case "restart":
      return {
        job: wholeJob ? { goalState: running } : {},
        instances: await tx.taskIntents.setGoal(q, running, { replaceRun: true, restartBy: actor }),
      };
    case "delete":
      return {
        job: { goalState: "DELETED" },
        instances: await tx.taskIntents.setGoal({ jobId: job.id }, "DELETED"),
      };
    case "scale":
      return scale(tx, job, config, action.instanceCount, actor);
  }
}

/**
 * More instances: the ones the job had before (scaled down earlier) come
 * back as new runs — re-queued at once when already DELETED, replaced after
 * their kill otherwise — and the others are created PENDING. Fewer: the
 * instances from the new count up are killed and deleted.
 */
async function scale(
  tx: Repositories,
  job: JobDetailRecord,
  config: JobConfig,
  count: number,
  actor: string,
): Promise<AppliedIntent> {
  const current = job.instanceCount;
  if (count < current) {
    const removed = await tx.taskIntents.setGoal(
      { jobId: job.id, instances: [{ from: count, to: current - 1 }] },
      "DELETED",
    );
    return { job: { instanceCount: count }, instances: removed };
  }
  if (count === current) return { job: {}, instances: [] };
  const added = { jobId: job.id, instances: [{ from: current, to: count - 1 }] };
  const existing = await tx.taskIntents.existing(added);
  const goal = defaultGoalState(config);
  const addedBy = `instance added by ${actor} (scaled from ${current} to ${count})`;
  const message = `${addedBy}; queued for admission`;
  const reused = await tx.taskIntents.setGoal(added, goal, { replaceRun: true, revive: true });
  const requeued = await requeueDeleted(tx, job.id, existing, message);
  const have = new Set(existing.map((t) => t.instanceId));
  const fresh: number[] = [];
  for (let i = current; i < count; i++) if (!have.has(i)) fresh.push(i);
  if (fresh.length > 0) {
    // With sla.maximumRunningInstances the job manager queues them as the job has room.
    const capped = config.sla.maximumRunningInstances > 0;
    await tx.tasks.insertMany(
      newTasksFor(job.id, config, fresh, undefined, capped ? 0 : undefined, job.configVersion),
    );
    await tx.tasks.recordCreated(job.id, fresh, {
      source: EVENT_SOURCES.user,
      reason: "SCALED_UP",
      message: capped
        ? `${addedBy}; ${describeMaxRunningHold(config.sla.maximumRunningInstances)}`
        : message,
    });
    await tx.jobs.addTaskCounts([
      { jobId: job.id, state: capped ? "INITIALIZED" : "PENDING", delta: fresh.length },
    ]);
  }
  return {
    job: { instanceCount: count },
    instances: [...new Set([...reused, ...requeued, ...fresh])].sort((a, b) => a - b),
  };
}

/** DELETED is final for a run: an instance scaled up again starts a new run at PENDING. */
export async function requeueDeleted(
  tx: Repositories,
  jobId: string,
  tasks: readonly { instanceId: number; taskId: string; state: TaskState; runId: number }[],
  message: string,
): Promise<number[]> {
  const now = new Date();
  const changes: TaskChange[] = tasks
    .filter((t) => t.state === "DELETED")
    .map((t) => ({
      taskId: t.taskId,
      jobId,
      instanceId: t.instanceId,
      expect: { state: t.state, runId: t.runId },
      state: "PENDING",
      reason: "SCALED_UP",
      message,
      set: { ...NEW_RUN_COLUMNS, runId: t.runId + 1, queuedAt: now },
      events: [
        {
          runId: t.runId + 1,
          clusterTaskId: null,
          previousState: null,
          state: "PENDING",
          source: EVENT_SOURCES.user,
          reason: "SCALED_UP",
          message,
          hostname: null,
          agentId: null,
          at: now,
        },
      ],
    }));
  if (changes.length === 0) return [];
  const outcome = await tx.taskChanges.apply(changes);
  await tx.jobs.addTaskCounts(outcome.countDeltas);
  return outcome.applied.map((c) => c.instanceId);
}

/**
 * The updates router's edge: the workflow's refusals worded for the field and
 * rule they break (nothing was changed), and an update row as `UpdateView`
 * (the counts Peloton's `update get` prints, the batches the Updates tab
 * draws).
 */
import { effectiveBatchSize, updateBatches } from "@peloton/engine";
import type { UpdateFailure } from "@peloton/scheduler";
import type { JobUpdateRecord } from "@peloton/storage";
import { TRPCError } from "@trpc/server";
import { IssuesError } from "../issues.ts";
import type { UpdateView } from "../schemas/updates.ts";
import { jobNotFound } from "./jobs.handler.ts";

function issue(code: TRPCError["code"], field: string | null, issueCode: string, message: string) {
  return new TRPCError({
    code,
    message,
    cause: new IssuesError([{ field, code: issueCode, message }]),
  });
}

export function updateNotFound(id: string): TRPCError {
  return issue("NOT_FOUND", "id", "UPDATE_NOT_FOUND", `update ${id} does not exist`);
}

export function updateFailureError(f: UpdateFailure): TRPCError {
  switch (f.kind) {
    case "job_not_found":
      return jobNotFound(f.jobId);
    case "update_not_found":
      return updateNotFound(f.updateId);
    case "job_deleted":
      return issue(
        "PRECONDITION_FAILED",
        "jobId",
        "JOB_DELETED",
        `job ${f.jobId} is being deleted`,
      );
    case "batch_job":
      return issue(
        "BAD_REQUEST",
        "jobId",
        "update.batch_job",
        `job ${f.jobId} is a BATCH job: only SERVICE, STATEFUL and DAEMON jobs are updated (as Peloton); submit a new batch job instead`,
      );
    case "type_change":
      return issue(
        "BAD_REQUEST",
        "type",
        "update.type_change",
        `an update cannot change the job's type from ${f.from} to ${f.to}`,
      );
    case "invalid_config": {
      const words = f.problems.slice(0, 5).map((p) => `${p.field}: ${p.message}`);
      return new TRPCError({
        code: "BAD_REQUEST",
        message: `the job config is not valid: ${words.join("; ")}`,
        cause: new IssuesError(
          f.problems.map((p) => ({ field: p.field, code: p.code, message: p.message })),
        ),
      });
    }
    case "invalid_option":
      return issue("BAD_REQUEST", f.field, "update.invalid_option", `${f.field}: ${f.message}`);
    case "version_mismatch":
      return issue(
        "CONFLICT",
        "configVersion",
        "update.version_mismatch",
        `job ${f.jobId} is at config version ${f.current}, not ${f.given}: someone changed it since; reload and try again`,
      );
    case "active_update":
      return issue(
        "CONFLICT",
        "override",
        "update.active",
        `job ${f.jobId} already has update ${f.updateId} (${f.state}); one active update per job: wait, abort it, or override it (-o)`,
      );
    case "finished":
      return issue(
        "PRECONDITION_FAILED",
        "id",
        "update.finished",
        `cannot ${f.action} update ${f.updateId}: it is ${f.state}, finished`,
      );
    case "wrong_state":
      return issue(
        "PRECONDITION_FAILED",
        "id",
        "update.wrong_state",
        `cannot ${f.action} update ${f.updateId} while it is ${f.state}`,
      );
    case "not_rollbackable":
      return issue(
        "PRECONDITION_FAILED",
        "id",
        "update.not_rollbackable",
        `update ${f.updateId} is a rolling restart, start or stop: there is no earlier config to roll back to`,
      );
    case "conflict":
      return issue(
        "CONFLICT",
        "id",
        "CONFLICT",
        `update ${f.updateId} was changed at the same time; reload it and try again`,
      );
  }
}

/** The instances in the order the workflow takes them (added, changed, removed). */
function orderOf(u: JobUpdateRecord): number[] {
  return [...u.instancesAdded, ...u.instancesUpdated, ...u.instancesRemoved];
}

export function updateView(u: JobUpdateRecord, jobName: string): UpdateView {
  const order = orderOf(u);
  const batch = effectiveBatchSize(u.options, Math.max(u.fromInstanceCount, u.toInstanceCount));
  const done = u.instancesDone.length;
  const failed = u.instancesFailed.length;
  return {
    id: u.id,
    jobId: u.jobId,
    jobName,
    kind: u.kind,
    state: u.state,
    previousState: u.previousState,
    options: u.options,
    fromVersion: u.fromConfigVersion,
    toVersion: u.toConfigVersion,
    instancesTotal: order.length,
    numTasksDone: done,
    numTasksRemaining: Math.max(0, order.length - done - failed),
    numTasksFailed: failed,
    instancesCurrent: u.instancesCurrent,
    instancesDone: u.instancesDone,
    instancesFailed: u.instancesFailed,
    batches: updateBatches(order, batch, {
      done: u.instancesDone,
      failed: u.instancesFailed,
      current: u.instancesCurrent,
    }),
    actor: u.actor,
    message: u.message,
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
    completedAt: u.completedAt,
    version: u.version,
  };
}

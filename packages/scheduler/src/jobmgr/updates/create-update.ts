/**
 * Starting an update (Peloton's CreateUpdate, and the rolling restart, start
 * and stop of RestartJob / StartJob / StopJob with a batch size). Everything
 * is checked before anything is written; then, in one transaction: an
 * override's abort, the new config version (for a new config), the job's
 * config moved to it, the instances whose launch does not change moved at
 * once, the update row, its first history row, the audit row and the
 * announcement. The leader's workflow loop takes it from there.
 */
import {
  type JobConfig,
  jobKind,
  type UpdateKind,
  type UpdateOptions,
  validateJobConfig,
} from "@peloton/engine";
import type {
  JobDetailRecord,
  JobUpdateRecord,
  Repositories,
  StorageGateway,
} from "@peloton/storage";
import type { Acting } from "../../common/acting.ts";
import { refuse, type UpdateFailure, type UpdateResult } from "./failures.ts";
import { recordUpdateChange } from "./record-change.ts";
import { type NewUpdateSets, newUpdateSets } from "./update-sets.ts";

export interface UpdateRequest {
  jobId: string;
  kind: UpdateKind;
  /** The new config (UPDATE only) as parsed and as written. */
  config?: { value: JobConfig; yaml: string } | undefined;
  options: UpdateOptions;
  /** Peloton's -c: the job's config version the caller saw. */
  configVersion?: number | undefined;
  /** Peloton's -o: abort the job's active update instead of refusing. */
  override?: boolean | undefined;
  acting: Acting;
}

export async function createUpdate(
  gateway: StorageGateway,
  req: UpdateRequest,
): Promise<UpdateResult> {
  if (req.kind === "UPDATE") {
    if (!req.config)
      return refuse({ kind: "invalid_option", field: "yaml", message: "an update needs a config" });
    const problems = validateJobConfig(req.config.value);
    if (problems.length > 0) return refuse({ kind: "invalid_config", problems });
  }
  return gateway.transaction(async (tx) => {
    const job = await tx.jobs.getDetail(req.jobId);
    if (job === null) return refuse({ kind: "job_not_found", jobId: req.jobId });
    const active = await tx.updates.activeForJob(job.id);
    const refused = check(job, active, req);
    if (refused) return refuse(refused);
    if (active && !(await abortForOverride(tx, active, req.acting)))
      return refuse({ kind: "conflict", updateId: active.id });

    const current = job.config as JobConfig;
    const newConfig = req.kind === "UPDATE" ? req.config : undefined;
    const toCount = targetInstanceCount(job, req);
    const sets = newUpdateSets(
      req.kind,
      { config: current, instanceCount: job.instanceCount },
      { config: newConfig?.value ?? current, instanceCount: toCount },
    );
    const toVersion = newConfig ? (await tx.configVersions.latest(job.id)) + 1 : job.configVersion;
    if (newConfig) {
      await tx.configVersions.insert({
        jobId: job.id,
        version: toVersion,
        configYaml: newConfig.yaml,
        config: newConfig.value,
        createdBy: req.acting.login,
      });
      await tx.jobs.setConfig(job.id, {
        version: toVersion,
        configYaml: newConfig.yaml,
        config: newConfig.value,
      });
      await tx.updateInstances.moveWithoutRestart(job.id, sets.unchanged, toVersion);
    }
    // Starting instances (or a new config with startTasks) makes the job's goal RUNNING
    // again; a rolling stop leaves the job stopped, as Peloton's StopJob does.
    const goal =
      req.kind === "START" || (newConfig && req.options.startTasks)
        ? "RUNNING"
        : req.kind === "STOP"
          ? "KILLED"
          : null;
    if (goal !== null) {
      const now = await tx.jobs.get(job.id);
      if (now) await tx.jobs.writeIntent(job.id, now.version, { goalState: goal });
    }

    const message = describeCreated(req.kind, job.configVersion, toVersion, sets);
    const update = await tx.updates.create({
      jobId: job.id,
      kind: req.kind,
      fromConfigVersion: job.configVersion,
      toConfigVersion: toVersion,
      options: req.options,
      fromInstanceCount: job.instanceCount,
      toInstanceCount: toCount,
      instancesAdded: sets.added,
      instancesUpdated: sets.updated,
      instancesRemoved: sets.removed,
      actor: req.acting.login,
      message,
    });
    await recordUpdateChange(tx, update, {
      before: null,
      message: `${message} (by ${req.acting.login})`,
      acting: req.acting,
      action: `update.create`,
    });
    return { ok: true, update, ...(active ? { overridden: active.id } : {}) };
  });
}

/** A DAEMON job's instances follow its hosts, not the file's instanceCount. */
export function targetInstanceCount(
  job: JobDetailRecord,
  req: Pick<UpdateRequest, "kind" | "config">,
): number {
  if (req.kind !== "UPDATE" || !req.config || job.type === "DAEMON") return job.instanceCount;
  return req.config.value.instanceCount;
}

/**
 * The rules on the job and the new config alone (not the update's options):
 * the ones a preview of the update (update-diff.ts) must pass too.
 */
export function checkTarget(
  job: JobDetailRecord,
  req: Pick<UpdateRequest, "config" | "configVersion">,
): UpdateFailure | null {
  if (job.goalState === "DELETED") return { kind: "job_deleted", jobId: job.id };
  if (job.type === "BATCH") return { kind: "batch_job", jobId: job.id };
  if (req.config) {
    const to = jobKind(req.config.value);
    if (to !== job.type) return { kind: "type_change", jobId: job.id, from: job.type, to };
  }
  if (req.configVersion !== undefined && req.configVersion !== job.configVersion)
    return {
      kind: "version_mismatch",
      jobId: job.id,
      given: req.configVersion,
      current: job.configVersion,
    };
  return null;
}

/** Every rule a new update must pass, in the order a user fixes them. */
function check(
  job: JobDetailRecord,
  active: JobUpdateRecord | null,
  req: UpdateRequest,
): UpdateFailure | null {
  const target = checkTarget(job, req);
  if (target) return target;
  const o = req.options;
  if (o.batchSize === 0 && o.batchPercentage === 0)
    return {
      kind: "invalid_option",
      field: "options.batchSize",
      message: "a batch size of 0 needs a batchPercentage: give one of them above 0",
    };
  const instances = targetInstanceCount(job, req);
  if (o.maxFailureInstances > instances)
    return {
      kind: "invalid_option",
      field: "options.maxFailureInstances",
      message: `maxFailureInstances ${o.maxFailureInstances} is above the job's ${instances} instances`,
    };
  if (active && !req.override)
    return { kind: "active_update", jobId: job.id, updateId: active.id, state: active.state };
  return null;
}

/** Peloton's -o: the update in the way ends ABORTED, in the new one's transaction. */
async function abortForOverride(
  tx: Repositories,
  active: JobUpdateRecord,
  acting: Acting,
): Promise<boolean> {
  const aborted = await tx.updates.write(active.id, active.version, {
    state: "ABORTED",
    previousState: active.state,
    completedAt: new Date(),
    message: `aborted by ${acting.login}: a new update overrides it`,
  });
  if (!aborted) return false;
  await recordUpdateChange(tx, aborted, {
    before: active.state,
    message: aborted.message ?? "aborted",
    acting,
    action: "update.abort",
  });
  return true;
}

function describeCreated(kind: UpdateKind, from: number, to: number, sets: NewUpdateSets): string {
  switch (kind) {
    case "UPDATE":
      return (
        `update from config version ${from} to ${to}: ${sets.updated.length} instances to restart, ` +
        `${sets.added.length} to add, ${sets.removed.length} to remove, ` +
        `${sets.unchanged.length} unchanged (moved without a restart)`
      );
    case "RESTART":
      return `rolling restart of ${sets.updated.length} instances`;
    case "START":
      return `rolling start of ${sets.updated.length} instances`;
    case "STOP":
      return `rolling stop of ${sets.updated.length} instances`;
  }
}

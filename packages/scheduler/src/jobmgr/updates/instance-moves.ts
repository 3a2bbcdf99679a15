/**
 * Starting the instances the planner picked (Peloton's processUpdate): each
 * one moved toward the target config version by what the update does to it.
 *
 *   changed instance        desired version := target, a new run (a restart
 *                           the update asks for: not a failure), new resources
 *   unchanged / kept stopped config version := target, run kept
 *   added                   a new task row at the target (or a removed one revived)
 *   removed                 goal DELETED: killed, then marked deleted
 *   rolling restart         a new run at the same version
 *   rolling start / stop    goal RUNNING (ended runs replaced) / goal KILLED
 */
import {
  instanceConfigChanged,
  JOB_UPDATE_REASON,
  type JobConfig,
  TERMINAL_TASK_STATES,
  taskConfigFor,
  taskResources,
} from "@peloton/engine";
import type { InstanceResources, JobUpdateRecord, Repositories } from "@peloton/storage";
import { EVENT_SOURCES } from "../../taskwriter/event-sources.ts";
import { requeueDeleted } from "../actions.ts";
import { newTasksFor } from "../new-tasks.ts";

export interface InstanceStarts {
  added: readonly number[];
  updated: readonly number[];
  removed: readonly number[];
}

const ranges = (instances: readonly number[]) => instances.map((i) => ({ from: i, to: i }));

export async function startInstances(
  tx: Repositories,
  update: JobUpdateRecord,
  target: { version: number; config: JobConfig },
  starts: InstanceStarts,
): Promise<void> {
  const jobId = update.jobId;
  const restartBy = `update ${update.id.slice(0, 8)} (${update.actor})`;
  const q = (instances: readonly number[]) => ({ jobId, instances: ranges(instances) });
  if (starts.updated.length > 0) {
    switch (update.kind) {
      case "STOP":
        await tx.taskIntents.setGoal(q(starts.updated), "KILLED");
        break;
      case "START":
        await tx.taskIntents.setGoal(q(starts.updated), "RUNNING", {
          newRunIn: TERMINAL_TASK_STATES,
        });
        break;
      case "RESTART":
        await tx.updateInstances.moveWithRestart(
          jobId,
          resourcesOf(target.config, starts.updated),
          {
            version: target.version,
            restartBy,
            goal: "RUNNING",
            preferCurrentHost: update.options.inPlace,
            restartReason: null,
          },
        );
        break;
      case "UPDATE":
        await moveUpdated(tx, update, target, starts.updated, restartBy);
        break;
    }
  }
  if (starts.added.length > 0) await addInstances(tx, update, target, starts.added);
  if (starts.removed.length > 0) await tx.taskIntents.setGoal(q(starts.removed), "DELETED");
}

/** A new config: restart only the instances whose launch changes (and not those kept stopped). */
async function moveUpdated(
  tx: Repositories,
  update: JobUpdateRecord,
  target: { version: number; config: JobConfig },
  instances: readonly number[],
  restartBy: string,
): Promise<void> {
  const rows = await tx.updateInstances.rows(update.jobId, instances);
  const configs = new Map<number, JobConfig | null>();
  const configOf = async (version: number) => {
    if (!configs.has(version))
      configs.set(
        version,
        ((await tx.configVersions.get(update.jobId, version))?.config as JobConfig) ?? null,
      );
    return configs.get(version) ?? null;
  };
  const restart: number[] = [];
  const keep: number[] = [];
  for (const row of rows) {
    const stopped = row.goalState === "KILLED" || row.goalState === "DELETED";
    if (stopped && !update.options.startTasks) {
      keep.push(row.instanceId);
      continue;
    }
    const from = await configOf(row.desiredConfigVersion);
    const changed = from === null || instanceConfigChanged(from, target.config, row.instanceId);
    (changed || stopped ? restart : keep).push(row.instanceId);
  }
  await tx.updateInstances.moveWithoutRestart(update.jobId, keep, target.version);
  await tx.updateInstances.moveWithRestart(update.jobId, resourcesOf(target.config, restart), {
    version: target.version,
    restartBy,
    goal: "RUNNING",
    preferCurrentHost: update.options.inPlace,
    // Peloton's KILLED_FOR_UPDATE on the replaced run's end.
    restartReason: JOB_UPDATE_REASON,
  });
}

/** New instances at the target; ones the job had before (scaled down, removed) come back. */
async function addInstances(
  tx: Repositories,
  update: JobUpdateRecord,
  target: { version: number; config: JobConfig },
  instances: readonly number[],
): Promise<void> {
  const jobId = update.jobId;
  const existing = await tx.taskIntents.existing({ jobId, instances: ranges(instances) });
  const message = `instance added by update ${update.id.slice(0, 8)} (${update.actor}) at config version ${target.version}; queued for admission`;
  if (existing.length > 0) {
    const old = existing.map((t) => t.instanceId);
    await tx.updateInstances.moveWithoutRestart(jobId, old, target.version);
    await tx.updateInstances.moveWithRestart(jobId, resourcesOf(target.config, old), {
      version: target.version,
      restartBy: `update ${update.id.slice(0, 8)} (${update.actor})`,
      goal: "RUNNING",
      preferCurrentHost: false,
      restartReason: JOB_UPDATE_REASON,
    });
    // A DELETED run is final: it comes back as a new run queued at once.
    await requeueDeleted(tx, jobId, existing, message);
  }
  const have = new Set(existing.map((t) => t.instanceId));
  const fresh = instances.filter((i) => !have.has(i));
  if (fresh.length === 0) return;
  await tx.tasks.insertMany(
    newTasksFor(jobId, target.config, fresh, undefined, undefined, target.version),
  );
  await tx.tasks.recordCreated(jobId, fresh, {
    source: EVENT_SOURCES.jobManager,
    reason: "UPDATE_ADDED",
    message,
  });
  await tx.jobs.addTaskCounts([{ jobId, state: "PENDING", delta: fresh.length }]);
}

function resourcesOf(config: JobConfig, instances: readonly number[]): InstanceResources[] {
  return instances.map((instanceId) => {
    const r = taskResources(taskConfigFor(config, instanceId));
    return { instanceId, cpu: r.cpu, memMb: r.memory, diskMb: r.disk, gpu: r.gpu };
  });
}

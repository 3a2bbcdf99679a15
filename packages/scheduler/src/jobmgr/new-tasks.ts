/**
 * The task rows of new instances: each instance's merged config read for
 * what the scheduler keeps on the row (resources, priority, preemptible,
 * revocable, controller), so admission and placement never parse configs
 * for the common case.
 */
import {
  type GoalState,
  type JobConfig,
  jobKind,
  taskConfigFor,
  taskPreemptible,
  taskResources,
  taskRevocable,
} from "@peloton/engine";
import type { NewTask, TaskColumnWrites } from "@peloton/storage";

/**
 * What a new run of an instance starts from: no cluster task id, no host,
 * ports or times of the run before it (the previous host is kept apart, for
 * placement to prefer).
 */
export const NEW_RUN_COLUMNS: TaskColumnWrites = {
  clusterTaskId: null,
  hostname: null,
  agentId: null,
  ports: {},
  startedAt: null,
  finishedAt: null,
  notBefore: null,
};

/** Where a job's tasks are driven: batch work to completion, everything else kept running. */
export function defaultGoalState(config: JobConfig): GoalState {
  return jobKind(config) === "BATCH" ? "SUCCEEDED" : "RUNNING";
}

/**
 * How many of a new job's instances are queued at once: all of them, or no
 * more than its sla.maximumRunningInstances; the others start INITIALIZED
 * and the job manager queues them as instances end (running-instance-room.ts).
 */
export function queuedAtCreate(config: JobConfig, instances: number): number {
  const max = config.sla.maximumRunningInstances;
  return max > 0 ? Math.min(max, instances) : instances;
}

export function newTasksFor(
  jobId: string,
  config: JobConfig,
  instances: readonly number[],
  pinnedHosts?: ReadonlyMap<number, string>,
  /** Only the first this many are PENDING, the rest INITIALIZED; all when left out. */
  queued = instances.length,
  /** The job config version the instances run (the job's current one). */
  configVersion = 1,
): NewTask[] {
  const goalState = defaultGoalState(config);
  return instances.map((instanceId, i) => {
    const task = taskConfigFor(config, instanceId);
    const r = taskResources(task);
    return {
      jobId,
      instanceId,
      state: i < queued ? "PENDING" : "INITIALIZED",
      goalState,
      priority: config.sla.priority,
      preemptible: taskPreemptible(config, task),
      revocable: taskRevocable(config, task),
      controller: task.controller === true,
      pinnedHost: pinnedHosts?.get(instanceId) ?? null,
      cpu: r.cpu,
      memMb: r.memory,
      diskMb: r.disk,
      gpu: r.gpu,
      configVersion,
    };
  });
}

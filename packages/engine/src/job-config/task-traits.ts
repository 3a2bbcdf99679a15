/**
 * What the scheduler reads off a job config and one task's merged config:
 * the resources it asks for, what kind of job it is, and whether a task may
 * be preempted or run on revocable (slack) resources.
 */
import type { Resources } from "../resources/resources.ts";
import type { JobType } from "../vocabulary/job-states.ts";
import type { JobConfig } from "./schema/job-config.ts";
import type { TaskConfig } from "./schema/task-config.ts";

/** A task's request in engine units: cpu cores, gpu devices, memory and disk in MB. */
export function taskResources(task: TaskConfig): Resources {
  const r = task.resource;
  return {
    cpu: r?.cpuLimit ?? 0,
    gpu: r?.gpuLimit ?? 0,
    memory: r?.memLimitMb ?? 0,
    disk: r?.diskLimitMb ?? 0,
  };
}

/**
 * The job's kind. In Peloton a stateful job is a SERVICE whose tasks have a
 * persistent `volume` (its resmgr `getTaskType`); we also accept the type
 * STATEFUL (3) for the same thing (peloton-semantics.md §3).
 */
export function jobKind(config: JobConfig): JobType {
  if (config.type !== "SERVICE") return config.type;
  return hasVolume(config) ? "STATEFUL" : "SERVICE";
}

function hasVolume(config: JobConfig): boolean {
  if (config.defaultConfig.volume !== undefined) return true;
  return Object.values(config.instanceConfig).some((o) => o.volume !== undefined);
}

/**
 * Whether a task may be preempted: its `preemptionPolicy.type` when set, else
 * the job's `sla.preemptible` (Peloton's `ConvertTaskToResMgrTask`).
 */
export function taskPreemptible(config: JobConfig, task: TaskConfig): boolean {
  const type = task.preemptionPolicy?.type;
  return type === undefined ? config.sla.preemptible : type === "PREEMPTIBLE";
}

/** Whether a task runs on revocable resources: its own `revocable`, else the job's. */
export function taskRevocable(config: JobConfig, task: TaskConfig): boolean {
  return task.revocable ?? config.sla.revocable;
}

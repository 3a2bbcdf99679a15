/**
 * Gangs: the tasks a job asks to be admitted and placed together
 * (peloton-semantics.md §3, "Admission"). Peloton's jobmgr forms them in
 * `ConvertToResMgrGangs` (pkg/jobmgr/task/util.go): with
 * `sla.minimumRunningInstances` = m > 1, the instances below m that are being
 * started form one gang, placed first; every other instance is a gang of one.
 * Revocable tasks and SERVICE jobs never form multi-task gangs there; our
 * STATEFUL is Peloton's SERVICE, and validation refuses gangs for DAEMON, so
 * only BATCH jobs gang.
 */
import type { TaskShape } from "../admission/input.ts";
import { addResources, type Resources, zeroResources } from "../resources/resources.ts";
import { taskConfigFor } from "./merge.ts";
import type { JobConfig } from "./schema/job-config.ts";
import { taskPreemptible, taskResources, taskRevocable } from "./task-traits.ts";

export interface JobGang {
  /** Instance numbers, ascending within a multi-task gang. */
  readonly instances: readonly number[];
  /** The sum of the tasks' requests. */
  readonly resources: Resources;
  /** Validation keeps a gang's tasks alike (Peloton: "a gang is homogeneous"). */
  readonly preemptible: boolean;
  readonly revocable: boolean;
  /** A gang of one controller task (Peloton's `isController`: only single-task gangs). */
  readonly controller: boolean;
  /** What its tasks ask of one host each, each distinct shape once (usually one). */
  readonly shapes: readonly TaskShape[];
}

/** The gangs for starting `instances` of the job, multi-task gang first, then the rest in the given order. */
export function gangsOf(config: JobConfig, instances: readonly number[]): JobGang[] {
  const m = config.sla.minimumRunningInstances;
  const gangable = config.type === "BATCH" && m > 1;
  const together: number[] = [];
  const singles: JobGang[] = [];
  for (const instance of instances) {
    const task = taskConfigFor(config, instance);
    if (gangable && instance < m && !taskRevocable(config, task)) together.push(instance);
    else singles.push(gangOf(config, [instance]));
  }
  if (together.length === 0) return singles;
  together.sort((a, b) => a - b);
  return [gangOf(config, together), ...singles];
}

function gangOf(config: JobConfig, instances: readonly number[]): JobGang {
  let resources = zeroResources();
  const shapes = new Map<string, TaskShape>();
  for (const i of instances) {
    const task = taskConfigFor(config, i);
    const own = taskResources(task);
    resources = addResources(resources, own);
    const ports = task.ports?.length ?? 0;
    const key = `${own.cpu} ${own.gpu} ${own.memory} ${own.disk} ${ports}`;
    if (!shapes.has(key)) shapes.set(key, { resources: own, ports });
  }
  const first = taskConfigFor(config, instances[0]!);
  return {
    instances,
    resources,
    shapes: [...shapes.values()],
    preemptible: taskPreemptible(config, first),
    revocable: taskRevocable(config, first),
    controller: instances.length === 1 && first.controller === true,
  };
}

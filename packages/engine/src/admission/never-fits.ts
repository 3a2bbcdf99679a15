/**
 * Whether a gang could ever be admitted and placed, whatever runs now: the
 * bounds that only a change of the cluster or the pools moves. A gang that
 * could never fit would otherwise stop its queue for good (admission never
 * overtakes), so admission sets it aside with this reason, and the job
 * manager refuses such a job at submit (issue 14: "a gang that can never be
 * placed does not block its pool"). Peloton has no such check; its gang
 * waits at the head of the queue until someone deletes the job.
 *
 * In order: one task above every host; the gang above the cluster's
 * capacity; above the pool's limit; non-preemptible and above the pool's
 * reservation. Constraints, GPU-only hosts and ports' exact numbers are left
 * to placement: they depend on what the hosts say and run, not on their size.
 */
import { RESOURCE_KINDS } from "../resources/kinds.ts";
import { amountLessOrEqual, type Resources } from "../resources/resources.ts";
import { firstKindOver } from "./checks.ts";
import type { ClusterShape, HostShape, TaskShape } from "./input.ts";
import type { NeverFitCause } from "./reasons.ts";

/** What the check reads of a gang (an admission gang, or a job's gang at submit). */
export interface GangNeeds {
  readonly resources: Resources;
  readonly tasks?: number;
  readonly preemptible: boolean;
  readonly revocable: boolean;
  readonly shapes?: readonly TaskShape[];
}

/** What the check reads of the pool and the cluster; each bound left out is not judged. */
export interface NeverFitBounds {
  readonly limit?: Resources;
  readonly reservation?: Resources;
  readonly cluster?: ClusterShape;
}

const ZERO: Resources = { cpu: 0, gpu: 0, memory: 0, disk: 0 };

export function whyNeverFits(gang: GangNeeds, bounds: NeverFitBounds): NeverFitCause | null {
  const cluster = bounds.cluster;
  const tasks = gang.tasks ?? 1;
  if (cluster && cluster.hosts.length > 0) {
    for (const task of gang.shapes ?? []) {
      const cause = taskAboveEveryHost(task, cluster.hosts);
      if (cause) return cause;
    }
    const kind = firstKindOver(ZERO, gang.resources, cluster.capacity);
    if (kind)
      return {
        code: "GANG_EXCEEDS_CLUSTER",
        kind,
        gang: gang.resources[kind],
        gangTasks: tasks,
        capacity: cluster.capacity[kind],
      };
  }
  // Revocable work runs on slack, which no limit caps (peloton-semantics.md §1).
  if (bounds.limit && !gang.revocable) {
    const kind = firstKindOver(ZERO, gang.resources, bounds.limit);
    if (kind)
      return {
        code: "GANG_EXCEEDS_POOL_LIMIT",
        kind,
        gang: gang.resources[kind],
        gangTasks: tasks,
        limit: bounds.limit[kind],
      };
  }
  // The reservation admitter's bound (checks.ts), with nothing else held.
  if (bounds.reservation && !gang.preemptible && !gang.revocable) {
    const kind = firstKindOver(ZERO, gang.resources, bounds.reservation);
    if (kind)
      return {
        code: "GANG_EXCEEDS_RESERVATION",
        kind,
        gang: gang.resources[kind],
        gangTasks: tasks,
        reservation: bounds.reservation[kind],
      };
  }
  return null;
}

/** A host could hold the task when empty: every kind and the port count (kinds with ε slack). */
export function hostHolds(host: HostShape, task: TaskShape): boolean {
  return (
    task.ports <= host.ports &&
    amountLessOrEqual(task.resources.cpu, host.resources.cpu) &&
    amountLessOrEqual(task.resources.gpu, host.resources.gpu) &&
    amountLessOrEqual(task.resources.memory, host.resources.memory) &&
    amountLessOrEqual(task.resources.disk, host.resources.disk)
  );
}

function taskAboveEveryHost(task: TaskShape, hosts: readonly HostShape[]): NeverFitCause | null {
  if (hosts.some((h) => hostHolds(h, task))) return null;
  const count = hosts.reduce((n, h) => n + h.hosts, 0);
  const shape = { resources: task.resources, ports: task.ports };
  for (const kind of RESOURCE_KINDS) {
    const largest = Math.max(...hosts.map((h) => h.resources[kind]));
    if (!amountLessOrEqual(task.resources[kind], largest))
      return {
        code: "TASK_EXCEEDS_EVERY_HOST",
        task: shape,
        kind,
        need: task.resources[kind],
        largest,
        hosts: count,
      };
  }
  const largestPorts = Math.max(...hosts.map((h) => h.ports));
  if (task.ports > largestPorts)
    return {
      code: "TASK_EXCEEDS_EVERY_HOST",
      task: shape,
      kind: "ports",
      need: task.ports,
      largest: largestPorts,
      hosts: count,
    };
  return {
    code: "TASK_EXCEEDS_EVERY_HOST",
    task: shape,
    kind: null,
    need: 0,
    largest: 0,
    hosts: count,
  };
}

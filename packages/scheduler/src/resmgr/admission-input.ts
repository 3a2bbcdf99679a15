/**
 * Admission's snapshot from stored rows (pure): each leaf pool's numbers and
 * what its admitted tasks hold, and its waiting gangs — a job's PENDING
 * tasks grouped the engine's way (`gangsOf`: the first
 * `minimumRunningInstances` of a batch job together, every other task alone),
 * in arrival order (when the first of the gang entered PENDING).
 */
import {
  type AdmissionGang,
  type AdmissionInput,
  type ClusterShape,
  gangsOf,
  type JobConfig,
  zeroResources,
} from "@peloton/engine";
import type { PendingTaskRow, PoolHeld } from "@peloton/storage";
import type { LeafPoolNumbers } from "./pool-entitlements.ts";

/** What forming gangs reads of a waiting task (the admission loop hands whole rows). */
export type QueuedTask = Pick<
  PendingTaskRow,
  "taskId" | "jobId" | "instanceId" | "poolId" | "priority" | "queuedAt"
>;

export interface GangMembers<T extends QueuedTask = PendingTaskRow> {
  gang: AdmissionGang;
  tasks: T[];
}

export interface AdmissionSnapshot<T extends QueuedTask = PendingTaskRow> {
  input: AdmissionInput;
  /** Gang id → its tasks, to turn the decisions into task changes. */
  members: Map<string, GangMembers<T>>;
  /** Pending tasks whose job has no leaf pool entitlement (a pool that gained children). */
  stranded: T[];
}

export function admissionSnapshot<T extends QueuedTask>(
  pending: readonly T[],
  pools: ReadonlyMap<string, LeafPoolNumbers>,
  held: readonly PoolHeld[],
  configs: ReadonlyMap<string, JobConfig>,
  cluster?: ClusterShape,
): AdmissionSnapshot<T> {
  const members = new Map<string, GangMembers<T>>();
  const gangsByPool = new Map<string, AdmissionGang[]>();
  const stranded: T[] = [];
  for (const tasks of groupBy(pending, (t) => t.jobId).values()) {
    const first = tasks[0]!;
    const config = configs.get(first.jobId);
    if (!pools.has(first.poolId) || !config) {
      stranded.push(...tasks);
      continue;
    }
    const byInstance = new Map(tasks.map((t) => [t.instanceId, t]));
    for (const g of gangsOf(
      config,
      tasks.map((t) => t.instanceId),
    )) {
      const gangTasks = g.instances.map((i) => byInstance.get(i)!);
      const id =
        g.instances.length === 1
          ? `${first.jobId}/${g.instances[0]}`
          : `${first.jobId}/${g.instances[0]}-${g.instances.at(-1)}`;
      const gang: AdmissionGang = {
        id,
        priority: first.priority,
        seq: Math.min(...gangTasks.map((t) => t.queuedAt.getTime())),
        resources: g.resources,
        tasks: gangTasks.length,
        preemptible: g.preemptible,
        revocable: g.revocable,
        controller: g.controller,
        shapes: g.shapes,
      };
      members.set(id, { gang, tasks: gangTasks });
      const list = gangsByPool.get(first.poolId) ?? [];
      list.push(gang);
      gangsByPool.set(first.poolId, list);
    }
  }
  const heldByPool = new Map(held.map((h) => [h.poolId, h]));
  const input: AdmissionInput = {
    ...(cluster ? { cluster } : {}),
    pools: [...gangsByPool].map(([poolId, gangs]) => {
      const p = pools.get(poolId)!;
      const h = heldByPool.get(poolId);
      return {
        path: p.path,
        nonSlackEntitlement: p.nonSlackEntitlement,
        slackEntitlement: p.slackEntitlement,
        reservation: p.reservation,
        controllerLimitPercent: p.controllerLimitPercent,
        limit: p.limit,
        allocation: {
          nonRevocable: h?.nonRevocable ?? zeroResources(),
          slack: h?.slack ?? zeroResources(),
          controller: h?.controller ?? zeroResources(),
          nonPreemptible: h?.nonPreemptible ?? zeroResources(),
        },
        gangs,
      };
    }),
  };
  return { input, members, stranded };
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

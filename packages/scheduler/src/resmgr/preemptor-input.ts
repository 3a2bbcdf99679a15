/**
 * The preemptor's snapshot from stored rows (pure): one read of every task
 * that waits or holds resources becomes
 *
 *   usage per pool ────────────▶ the entitlement calculator (as admission
 *                                 counts it: PENDING is demand, the
 *                                 allocating states allocation)
 *   leaf pools' numbers ───────▶ the engine's pools, with what kills in
 *                                 flight give back taken off their allocation,
 *                                 and what admitted tasks wait a host for
 *   READY / PLACING / RUNNING ─▶ the candidates
 *   PENDING, as admission's gangs, in its drain order ─▶ the waiting gangs
 *   jobs whose SLA caps how many instances may be down ─▶ their budgets
 *
 * and keeps, beside the engine's input, what a decision's row needs that the
 * engine does not carry (job names, instances, runs, pool ids, where a kill
 * goes).
 */
import {
  ADMISSION_QUEUES,
  buildQueues,
  CANDIDATE_STATES,
  type JobAvailability,
  type JobConfig,
  type PendingGang,
  type PreemptionInput,
  type PreemptionPool,
  type PreemptionTask,
  type Resources,
  subtractResources,
} from "@peloton/engine";
import type { JobAvailabilityRow, PoolUsage, PreemptorTaskRow, TaskState } from "@peloton/storage";
import { admissionSnapshot } from "./admission-input.ts";
import type { LeafPoolNumbers } from "./pool-entitlements.ts";

/**
 * Tasks on their way out: their kill is sent (a preemption's, or a user's
 * stop) and what they hold comes back when it lands. Counting it again would
 * preempt a second victim for the same excess while the first one dies.
 */
export const LEAVING_STATES: readonly TaskState[] = ["PREEMPTING", "KILLING"];

/** What the engine decides on, without the state the loop carries between periods. */
export type PreemptorInput = Omit<PreemptionInput, "overAllocationCounts" | "sustainedCount">;

export interface PreemptorSnapshot {
  readonly input: PreemptorInput;
  /** Every task read, by id: a victim's facts, a gang's first task, where a kill goes. */
  readonly tasks: ReadonlyMap<string, PreemptorTaskRow>;
  /** Leaf and inner pools' ids by path (the beneficiary's pool id). */
  readonly poolIds: ReadonlyMap<string, string>;
}

const zero = (): Record<keyof Resources, number> => ({ cpu: 0, gpu: 0, memory: 0, disk: 0 });

function addInto(into: Record<keyof Resources, number>, r: Resources): void {
  into.cpu += r.cpu;
  into.gpu += r.gpu;
  into.memory += r.memory;
  into.disk += r.disk;
}

/** Per pool, its demand and allocation (what `tasks.usageByPool` computes in SQL). */
export function usageOf(rows: readonly PreemptorTaskRow[]): PoolUsage[] {
  const byPool = new Map<string, PoolUsage>();
  for (const r of rows) {
    let u = byPool.get(r.poolId);
    if (!u) {
      u = {
        poolId: r.poolId,
        demand: zero(),
        allocation: zero(),
        slackDemand: zero(),
        slackAllocation: zero(),
      };
      byPool.set(r.poolId, u);
    }
    const waiting = r.state === "PENDING";
    addInto(
      waiting
        ? r.revocable
          ? u.slackDemand
          : u.demand
        : r.revocable
          ? u.slackAllocation
          : u.allocation,
      r.resources,
    );
  }
  return [...byPool.values()];
}

/** Admitted, not on a host yet: part of the allocation, waiting for room. */
export const UNPLACED_STATES: readonly TaskState[] = ["READY", "PLACING", "PLACED"];

interface PoolExtras {
  leaving: Record<keyof Resources, number>;
  slackLeaving: Record<keyof Resources, number>;
  unplaced: Record<keyof Resources, number>;
  slackUnplaced: Record<keyof Resources, number>;
}

/**
 * The leaf pools as the engine takes them (from `preemptionPoolsOf`), with
 * what leaving tasks hold taken off their allocation, and what their
 * admitted tasks still wait a host for (`unplaced`: such a pool benefits from
 * a preemption though admission already brought it up to its entitlement).
 */
export function enginePools(
  pools: readonly PreemptionPool[],
  rows: readonly PreemptorTaskRow[],
  pathOf: ReadonlyMap<string, string>,
): PreemptionPool[] {
  const extras = new Map<string, PoolExtras>();
  for (const r of rows) {
    const leaving = LEAVING_STATES.includes(r.state);
    if (!leaving && !UNPLACED_STATES.includes(r.state)) continue;
    const path = pathOf.get(r.poolId);
    if (path === undefined) continue;
    let e = extras.get(path);
    if (!e) {
      e = { leaving: zero(), slackLeaving: zero(), unplaced: zero(), slackUnplaced: zero() };
      extras.set(path, e);
    }
    if (leaving) addInto(r.revocable ? e.slackLeaving : e.leaving, r.resources);
    else addInto(r.revocable ? e.slackUnplaced : e.unplaced, r.resources);
  }
  return pools.map((p) => {
    const e = extras.get(p.path);
    if (!e) return p;
    return {
      ...p,
      allocation: subtractResources(p.allocation, e.leaving),
      slackAllocation: subtractResources(p.slackAllocation, e.slackLeaving),
      unplaced: e.unplaced,
      slackUnplaced: e.slackUnplaced,
    };
  });
}

/** A job's budget when its SLA sets one (`maximumUnavailableInstances` 0 means no limit). */
export function availabilityOf(
  configs: ReadonlyMap<string, JobConfig>,
  rows: readonly JobAvailabilityRow[],
): Record<string, JobAvailability> {
  const out: Record<string, JobAvailability> = {};
  for (const r of rows) {
    const max = configs.get(r.jobId)?.sla.maximumUnavailableInstances ?? 0;
    if (max <= 0) continue;
    out[r.jobId] = {
      maximumUnavailableInstances: max,
      unavailableInstances: Math.max(0, r.instanceCount - r.running),
    };
  }
  return out;
}

/** The jobs whose budget must be read: those with running candidates and an SLA limit. */
export function jobsWithBudgets(
  rows: readonly PreemptorTaskRow[],
  configs: ReadonlyMap<string, JobConfig>,
): string[] {
  const out = new Set<string>();
  for (const r of rows) {
    if (r.state !== "RUNNING" || !r.preemptible || out.has(r.jobId)) continue;
    if ((configs.get(r.jobId)?.sla.maximumUnavailableInstances ?? 0) > 0) out.add(r.jobId);
  }
  return [...out];
}

const isCandidateState = (s: TaskState) => (CANDIDATE_STATES as readonly string[]).includes(s);

export interface SnapshotParts {
  readonly rows: readonly PreemptorTaskRow[];
  /** The leaf pools with their entitlements and usage (`preemptionPoolsOf` on the calculation). */
  readonly pools: readonly PreemptionPool[];
  /** Leaf pools by id (admission's numbers: path, entitlements). */
  readonly leaves: ReadonlyMap<string, LeafPoolNumbers>;
  /** Every stored pool's id by path. */
  readonly poolIds: ReadonlyMap<string, string>;
  readonly configs: ReadonlyMap<string, JobConfig>;
  readonly availability: Readonly<Record<string, JobAvailability>>;
}

export function preemptorSnapshot(parts: SnapshotParts): PreemptorSnapshot {
  const pathOf = new Map<string, string>();
  for (const [id, leaf] of parts.leaves) pathOf.set(id, leaf.path);
  const tasks = new Map<string, PreemptorTaskRow>();
  const candidates: PreemptionTask[] = [];
  const pending: PreemptorTaskRow[] = [];
  for (const r of parts.rows) {
    tasks.set(r.taskId, r);
    if (r.state === "PENDING") {
      pending.push(r);
      continue;
    }
    const pool = pathOf.get(r.poolId);
    // A task of a pool that is no longer a leaf has no entitlement of its own to exceed.
    if (pool === undefined || !isCandidateState(r.state)) continue;
    candidates.push({
      taskId: r.taskId,
      jobId: r.jobId,
      pool,
      state: r.state,
      priority: r.priority,
      preemptible: r.preemptible,
      revocable: r.revocable,
      resources: r.resources,
      ...(r.startedAt ? { startedAt: r.startedAt.getTime() } : {}),
    });
  }
  return {
    input: {
      pools: enginePools(parts.pools, parts.rows, pathOf),
      tasks: candidates,
      jobs: parts.availability,
      waiting: waitingGangs(pending, parts.leaves, parts.configs),
    },
    tasks,
    poolIds: parts.poolIds,
  };
}

/**
 * PENDING tasks as admission forms its gangs, each pool's in the order its
 * queues are drained (non-preemptible, controller, revocable, pending; by
 * priority, then arrival): the order intra-pool preemption serves them in.
 */
export function waitingGangs(
  pending: readonly PreemptorTaskRow[],
  leaves: ReadonlyMap<string, LeafPoolNumbers>,
  configs: ReadonlyMap<string, JobConfig>,
): PendingGang[] {
  if (pending.length === 0) return [];
  const snapshot = admissionSnapshot(pending, leaves, [], configs);
  const out: PendingGang[] = [];
  for (const pool of snapshot.input.pools) {
    const queues = buildQueues(pool.gangs);
    for (const q of ADMISSION_QUEUES) {
      for (const gang of queues[q]) {
        const members = snapshot.members.get(gang.id)?.tasks ?? [];
        out.push({
          gangId: gang.id,
          pool: pool.path,
          priority: gang.priority,
          revocable: gang.revocable,
          resources: gang.resources,
          taskIds: members.map((t) => t.taskId),
        });
      }
    }
  }
  return out;
}

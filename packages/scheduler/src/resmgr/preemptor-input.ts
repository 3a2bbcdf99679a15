/**
 * The preemptor's snapshot from stored rows (pure). The reads are made in
 * one snapshot transaction (preemptor-loop.ts), in two steps, so that a quiet
 * cluster costs a few aggregate rows per pool and a busy one only the tasks
 * of the pools a decision may take from:
 *
 *   usage per pool and state ─▶ pool usage ─▶ the entitlement calculator (as
 *                               admission counts it: PENDING is demand, the
 *                               allocating states allocation)
 *                             ─▶ the engine's pools: allocation less what
 *                               kills in flight give back, and what admitted
 *                               tasks wait a host for
 *   (the tasks admitted in the leader's memory, rows still PENDING, moved from
 *   PENDING to READY: allocation waiting for a host, not demand)
 *   PENDING tasks ────────────▶ waiting gangs, as admission forms and drains them
 *   the pools to read (poolsToRead): due ones, and those where a waiting gang
 *     outranks a preemptible task ─▶ their READY / PLACING / RUNNING tasks:
 *     the candidates
 *   jobs whose SLA caps how many instances may be down ─▶ their budgets
 *
 * Beside the engine's input it keeps what a decision's row needs that the
 * engine does not carry (job names, instances, runs, pool ids, where a kill
 * goes).
 */
import {
  ADMISSION_QUEUES,
  buildQueues,
  CANDIDATE_STATES,
  type ClusterShape,
  isStoppingTaskState,
  type JobAvailability,
  type JobConfig,
  type PendingGang,
  type PreemptionInput,
  type PreemptionPool,
  type PreemptionTask,
  type Resources,
  subtractResources,
  type TaskState,
  UNPLACED_TASK_STATES,
  whyNeverFits,
} from "@peloton/engine";
import type {
  JobAvailabilityRow,
  PoolStateUsage,
  PoolUsage,
  PreemptorTaskRow,
} from "@peloton/storage";
import { admissionSnapshot } from "./admission-input.ts";
import type { AdmittedTask } from "./admitted-tasks.ts";
import type { LeafPoolNumbers } from "./pool-entitlements.ts";

const isCandidateState = (s: TaskState) => (CANDIDATE_STATES as readonly string[]).includes(s);
/** Admitted, not on a host yet: part of the allocation, waiting for room. */
const isUnplacedState = (s: TaskState) => (UNPLACED_TASK_STATES as readonly string[]).includes(s);

/** What the engine decides on, without the state the loop carries between periods. */
export type PreemptorInput = Omit<PreemptionInput, "overAllocationCounts" | "sustainedCount">;

export interface PreemptorSnapshot {
  readonly input: PreemptorInput;
  /** The tasks read (candidates and PENDING), by id: a victim's facts, a gang's first task. */
  readonly tasks: ReadonlyMap<string, PreemptorTaskRow>;
  /** Pool ids by path (the beneficiary's pool id). */
  readonly poolIds: ReadonlyMap<string, string>;
}

type Amounts = Record<keyof Resources, number>;
const zero = (): Amounts => ({ cpu: 0, gpu: 0, memory: 0, disk: 0 });

function addInto(into: Amounts, r: Resources): void {
  into.cpu += r.cpu;
  into.gpu += r.gpu;
  into.memory += r.memory;
  into.disk += r.disk;
}

/**
 * The usage read, with the tasks admitted in the leader's memory (their rows
 * still PENDING) counted READY, as they were when admission wrote them: they
 * hold their pool's allocation while they wait for a host, and no preemption
 * is sought for them.
 */
export function withAdmittedInMemory(
  usage: readonly PoolStateUsage[],
  admitted: readonly AdmittedTask[],
): PoolStateUsage[] {
  if (admitted.length === 0) return [...usage];
  const rows = new Map(
    usage.map((u) => [
      `${u.poolId} ${u.state} ${u.revocable}`,
      { ...u, resources: { ...u.resources } },
    ]),
  );
  const row = (poolId: string, state: TaskState, revocable: boolean): PoolStateUsage => {
    const key = `${poolId} ${state} ${revocable}`;
    let r = rows.get(key);
    if (!r) {
      r = { poolId, state, revocable, tasks: 0, resources: zero(), minPreemptiblePriority: null };
      rows.set(key, r);
    }
    return r;
  };
  for (const { row: t } of admitted) {
    const pending = row(t.poolId, "PENDING", t.revocable);
    pending.tasks--;
    pending.resources = subtractResources(pending.resources, t.resources);
    const ready = row(t.poolId, "READY", t.revocable);
    ready.tasks++;
    addInto(ready.resources, t.resources);
    if (t.preemptible)
      ready.minPreemptiblePriority = Math.min(
        ready.minPreemptiblePriority ?? t.priority,
        t.priority,
      );
  }
  return [...rows.values()].filter((u) => u.tasks > 0);
}

/** Per pool, its demand and allocation (what `tasks.usageByPool` computes). */
export function usageOf(rows: readonly PoolStateUsage[]): PoolUsage[] {
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

interface PoolExtras {
  leaving: Amounts;
  slackLeaving: Amounts;
  unplaced: Amounts;
  slackUnplaced: Amounts;
}

/**
 * The leaf pools as the engine takes them (from `preemptionPoolsOf`), with
 * what leaving tasks hold taken off their allocation, and what their
 * admitted tasks still wait a host for (`unplaced`: such a pool benefits from
 * a preemption though admission already brought it up to its entitlement).
 */
export function enginePools(
  pools: readonly PreemptionPool[],
  usage: readonly PoolStateUsage[],
  pathOf: ReadonlyMap<string, string>,
): PreemptionPool[] {
  const extras = new Map<string, PoolExtras>();
  for (const r of usage) {
    // Tasks on their way out (isStoppingTaskState): their kill is sent (a
    // preemption's, or a user's stop) and what they hold comes back when it
    // lands. Counting it again would preempt a second victim for the same
    // excess while the first one dies.
    const leaving = isStoppingTaskState(r.state);
    if (!leaving && !isUnplacedState(r.state)) continue;
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

/**
 * PENDING tasks as admission forms its gangs, each pool's in the order its
 * queues are drained (non-preemptible, controller, revocable, pending; by
 * priority, then arrival): the order intra-pool preemption serves them in.
 * A gang admission sets aside as never fitting is left out: killing for it
 * would free room it can never use.
 */
export function waitingGangs(
  pending: readonly PreemptorTaskRow[],
  leaves: ReadonlyMap<string, LeafPoolNumbers>,
  configs: ReadonlyMap<string, JobConfig>,
  cluster?: ClusterShape,
): PendingGang[] {
  if (pending.length === 0) return [];
  const snapshot = admissionSnapshot(pending, leaves, [], configs);
  const out: PendingGang[] = [];
  for (const pool of snapshot.input.pools) {
    const queues = buildQueues(pool.gangs);
    const bounds = { limit: pool.limit, reservation: pool.reservation, cluster };
    for (const q of ADMISSION_QUEUES) {
      for (const gang of queues[q]) {
        if (whyNeverFits(gang, bounds) !== null) continue;
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

/**
 * The pools whose candidates the engine may need, by id: those due this
 * period (inter-pool), and those where a waiting gang outranks one of the
 * pool's preemptible candidates of its class (intra-pool; a pool whose
 * gangs all rank at or below its candidates can give them nothing).
 */
export function poolsToRead(args: {
  due: readonly string[];
  waiting: readonly PendingGang[];
  usage: readonly PoolStateUsage[];
  poolIds: ReadonlyMap<string, string>;
  pathOf: ReadonlyMap<string, string>;
}): string[] {
  const out = new Set<string>();
  for (const path of args.due) {
    const id = args.poolIds.get(path);
    if (id !== undefined) out.add(id);
  }
  // The lowest priority a preemption could take, per pool path and class.
  const lowest = new Map<string, number>();
  for (const r of args.usage) {
    if (r.minPreemptiblePriority === null || !isCandidateState(r.state)) continue;
    const path = args.pathOf.get(r.poolId);
    if (path === undefined) continue;
    const key = `${r.revocable} ${path}`;
    lowest.set(key, Math.min(lowest.get(key) ?? Infinity, r.minPreemptiblePriority));
  }
  for (const g of args.waiting) {
    const floor = lowest.get(`${g.revocable} ${g.pool}`);
    const id = args.poolIds.get(g.pool);
    if (floor !== undefined && g.priority > floor && id !== undefined) out.add(id);
  }
  return [...out];
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

/** The jobs whose budget must be read: those with running preemptible tasks and an SLA limit. */
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

export interface SnapshotParts {
  /** The engine's pools (`enginePools`). */
  readonly pools: readonly PreemptionPool[];
  readonly waiting: readonly PendingGang[];
  /** The READY / PLACING / RUNNING tasks of the pools read. */
  readonly candidates: readonly PreemptorTaskRow[];
  readonly pending: readonly PreemptorTaskRow[];
  /** Leaf pool paths by id. */
  readonly pathOf: ReadonlyMap<string, string>;
  /** Pool ids by path. */
  readonly poolIds: ReadonlyMap<string, string>;
  readonly availability: Readonly<Record<string, JobAvailability>>;
}

export function preemptorSnapshot(parts: SnapshotParts): PreemptorSnapshot {
  const tasks = new Map<string, PreemptorTaskRow>();
  for (const r of parts.pending) tasks.set(r.taskId, r);
  const candidates: PreemptionTask[] = [];
  for (const r of parts.candidates) {
    tasks.set(r.taskId, r);
    const pool = parts.pathOf.get(r.poolId);
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
      pools: parts.pools,
      tasks: candidates,
      jobs: parts.availability,
      waiting: parts.waiting,
    },
    tasks,
    poolIds: parts.poolIds,
  };
}

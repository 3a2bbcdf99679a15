/**
 * One preemption cycle on stored data, by hand (for the API and CLI tests'
 * small history, made without a cluster): pools and usage from the storage
 * gateway, entitlements and decisions from the engine, rows worded as the
 * preemptor words them (`rowOf`), recorded with `recordMany` and the jobs'
 * task counts in one transaction. No number
 * is invented: they are the engine's on that data. The running system's
 * preemptor is scheduler's `src/resmgr/preemptor-loop.ts` (its test/preemptor.int.test.ts).
 */

import {
  buildPoolTree,
  calculateEntitlement,
  decidePreemptions,
  entitlementInputFromTree,
  type PendingGang,
  type PoolUsageInput,
  type PreemptionDecision,
  type PreemptionTask,
  preemptionPoolsOf,
  type Resources,
  type TaskState,
} from "@peloton/engine";
import { preemptorRowOf as rowOf } from "@peloton/scheduler";
import type { NewPreemption, PreemptionRecordOutcome, StorageGateway } from "@peloton/storage";
import pg from "pg";

/** A task as the cycle reads it (one row per instance: its current run). */
export interface CycleTask {
  id: string;
  jobId: string;
  jobName: string;
  instanceId: number;
  runId: number;
  state: TaskState;
  priority: number;
  preemptible: boolean;
  revocable: boolean;
  resources: Resources;
  poolId: string;
  poolPath: string;
  startedAt: Date | null;
}

/** Every task with its job and pool, read behind the gateway (test support only reads). */
export async function readCycleTasks(databaseUrl: string): Promise<CycleTask[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{
      id: string;
      job_id: string;
      job_name: string;
      instance_id: number;
      run_id: number;
      state: TaskState;
      priority: number;
      preemptible: boolean;
      revocable: boolean;
      cpu: number;
      gpu: number;
      mem_mb: number;
      disk_mb: number;
      pool_id: string;
      pool_path: string;
      started_at: Date | null;
    }>(`SELECT t.id::text, t.job_id::text, j.name AS job_name, t.instance_id, t.run_id,
               t.state::text AS state, t.priority, t.preemptible, t.revocable, t.cpu, t.gpu,
               t.mem_mb, t.disk_mb, p.id::text AS pool_id, p.path AS pool_path, t.started_at
        FROM tasks t JOIN jobs j ON j.id = t.job_id JOIN resource_pools p ON p.id = j.pool_id
        ORDER BY j.created_at, t.instance_id`);
    return rows.map((r) => ({
      id: r.id,
      jobId: r.job_id,
      jobName: r.job_name,
      instanceId: r.instance_id,
      runId: r.run_id,
      state: r.state,
      priority: r.priority,
      preemptible: r.preemptible,
      revocable: r.revocable,
      resources: { cpu: r.cpu, gpu: r.gpu, memory: r.mem_mb, disk: r.disk_mb },
      poolId: r.pool_id,
      poolPath: r.pool_path,
      startedAt: r.started_at,
    }));
  } finally {
    await client.end();
  }
}

export interface CycleOutcome {
  decisions: readonly PreemptionDecision[];
  rows: NewPreemption[];
  outcome: PreemptionRecordOutcome;
}

/**
 * Decides one cycle (by default sustained count 1: every over-allocated pool
 * is due; every PENDING task waits as a gang of one, by priority then
 * instance) and records its victims at `at`.
 */
export async function recordPreemptionCycle(
  gateway: StorageGateway,
  tasks: readonly CycleTask[],
  opts: { capacity: Partial<Resources>; at: Date; sustainedCount?: number },
): Promise<CycleOutcome> {
  const stored = await gateway.pools.listAll();
  const root = stored.find((p) => p.path === "/");
  const records = stored
    .filter((p) => p !== root)
    .map((p) => (p.parentId === root?.id ? { ...p, parentId: null } : p));
  const built = buildPoolTree(records);
  if (!built.ok) throw new Error(`pool tree: ${JSON.stringify(built.errors)}`);
  const pathOf = new Map(records.map((p) => [p.id, p.path]));
  const usage = new Map<string, PoolUsageInput>();
  for (const u of await gateway.tasks.usageByPool()) usage.set(pathOf.get(u.poolId)!, u);
  const entitlement = calculateEntitlement(
    entitlementInputFromTree(built.tree, { capacity: opts.capacity }, usage),
  );
  if (!entitlement.ok) throw new Error(`entitlement: ${JSON.stringify(entitlement.error)}`);

  const engineTasks: PreemptionTask[] = tasks.map((t) => ({
    taskId: t.id,
    jobId: t.jobId,
    pool: t.poolPath,
    state: t.state,
    priority: t.priority,
    preemptible: t.preemptible,
    revocable: t.revocable,
    resources: t.resources,
    ...(t.startedAt ? { startedAt: t.startedAt.getTime() } : {}),
  }));
  const waiting: PendingGang[] = tasks
    .filter((t) => t.state === "PENDING")
    .sort((a, b) => b.priority - a.priority || a.instanceId - b.instanceId)
    .map((t) => ({
      gangId: t.id,
      pool: t.poolPath,
      priority: t.priority,
      revocable: t.revocable,
      resources: t.resources,
      taskIds: [t.id],
    }));
  const result = decidePreemptions({
    pools: preemptionPoolsOf(entitlement.result),
    tasks: engineTasks,
    jobs: {},
    overAllocationCounts: {},
    sustainedCount: opts.sustainedCount ?? 1,
    waiting,
  });
  if (!result.ok) throw new Error(`preemption input: ${JSON.stringify(result.errors)}`);

  const poolIds = new Map(records.map((p) => [p.path, p.id]));
  const facts = new Map(
    tasks.map((t) => [
      t.id,
      {
        taskId: t.id,
        jobId: t.jobId,
        jobName: t.jobName,
        instanceId: t.instanceId,
        runId: t.runId,
        poolId: t.poolId,
      },
    ]),
  );
  const rows = result.decisions.map((d) => rowOf(d, facts, poolIds, opts.at));
  // As the preemptor records them: the rows and the jobs' task counts together.
  const outcome = await gateway.transaction(async (tx) => {
    const recorded = await tx.preemptions.recordMany(rows);
    await tx.jobs.addTaskCounts(recorded.countDeltas);
    return recorded;
  });
  return { decisions: result.decisions, rows, outcome };
}

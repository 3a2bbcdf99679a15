/**
 * What the resource manager reads for admission: the tasks waiting in the
 * pools' queues, and what admitted tasks hold per pool (in the four ways the
 * admission checks count it).
 */
import { ALLOCATING_TASK_STATES, type ResourceKind, type TaskState } from "@peloton/engine";
import { directRows } from "../direct-rows.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { TASK_USAGE } from "./task-usage.ts";

export type KindAmounts = Record<ResourceKind, number>;

/** A PENDING task with what admission needs of it. */
export interface PendingTaskRow {
  taskId: string;
  jobId: string;
  instanceId: number;
  runId: number;
  poolId: string;
  priority: number;
  preemptible: boolean;
  revocable: boolean;
  controller: boolean;
  resources: KindAmounts;
  /** When the run entered PENDING: its place in the queue. */
  queuedAt: Date;
  reason: string | null;
  message: string | null;
}

/** Per pool, what its admitted tasks hold (Peloton's allocation types). */
export interface PoolHeld {
  poolId: string;
  nonRevocable: KindAmounts;
  slack: KindAmounts;
  controller: KindAmounts;
  nonPreemptible: KindAmounts;
}

const zero = (): KindAmounts => ({ cpu: 0, gpu: 0, memory: 0, disk: 0 });

/** A task's kind of holding: which of the four sums its resources go into. */
export interface HeldKind {
  revocable: boolean;
  controller: boolean;
  preemptible: boolean;
}

/** Adds what a task (or a group of like tasks) holds to its pool's sums, as admission counts them. */
export function addHeld(
  byPool: Map<string, PoolHeld>,
  poolId: string,
  kind: HeldKind,
  amounts: KindAmounts,
): void {
  let held = byPool.get(poolId);
  if (!held) {
    held = {
      poolId,
      nonRevocable: zero(),
      slack: zero(),
      controller: zero(),
      nonPreemptible: zero(),
    };
    byPool.set(poolId, held);
  }
  addInto(kind.revocable ? held.slack : held.nonRevocable, amounts);
  if (kind.controller) addInto(held.controller, amounts);
  if (!kind.preemptible) addInto(held.nonPreemptible, amounts);
}

function addInto(into: KindAmounts, r: KindAmounts): void {
  into.cpu += r.cpu;
  into.gpu += r.gpu;
  into.memory += r.memory;
  into.disk += r.disk;
}

export function admissionReadsRepository(db: DbOrTx) {
  return {
    /** Every PENDING task, oldest in its queue first. */
    async pending(): Promise<PendingTaskRow[]> {
      // 10,000 rows for a big job's round: past Prisma's raw-result mapping (direct-rows.ts).
      const rows = await directRows<{
        task_id: string;
        job_id: string;
        instance_id: number;
        run_id: number;
        pool_id: string;
        priority: number;
        preemptible: boolean;
        revocable: boolean;
        controller: boolean;
        cpu: number;
        gpu: number;
        mem: number;
        disk: number;
        queued_at: Date;
        reason: string | null;
        message: string | null;
      }>(
        db,
        Prisma.sql`
        SELECT t.id::text AS task_id, t.job_id::text AS job_id, t.instance_id, t.run_id,
               j.pool_id::text AS pool_id, t.priority, t.preemptible, t.revocable, t.controller,
               t.cpu, t.gpu, t.mem_mb AS mem, t.disk_mb AS disk,
               coalesce(t.queued_at, t.created_at) AS queued_at, t.reason, t.message
        FROM tasks t JOIN jobs j ON j.id = t.job_id
        WHERE t.state = 'PENDING'
        ORDER BY coalesce(t.queued_at, t.created_at), t.job_id, t.instance_id`,
      );
      return rows.map((r) => ({
        taskId: r.task_id,
        jobId: r.job_id,
        instanceId: r.instance_id,
        runId: r.run_id,
        poolId: r.pool_id,
        priority: r.priority,
        preemptible: r.preemptible,
        revocable: r.revocable,
        controller: r.controller,
        resources: { cpu: r.cpu, gpu: r.gpu, memory: r.mem, disk: r.disk },
        queuedAt: r.queued_at,
        reason: r.reason,
        message: r.message,
      }));
    },

    /**
     * The ids of the PENDING tasks only: admission is woken by every commit,
     * and while placement holds a big job's admitted tasks (their rows still
     * PENDING) this tells it there is nothing new without reading them whole.
     */
    async pendingIds(): Promise<string[]> {
      const rows = await directRows<{ id: string }>(
        db,
        Prisma.sql`SELECT id::text AS id FROM tasks WHERE state = 'PENDING'`,
      );
      return rows.map((r) => r.id);
    },

    /** READY rows: admitted tasks an older leader wrote (admissions now wait in memory). */
    async readyRows(): Promise<
      { taskId: string; jobId: string; instanceId: number; runId: number }[]
    > {
      return db.$queryRaw`
        SELECT id::text AS "taskId", job_id::text AS "jobId", instance_id AS "instanceId",
               run_id AS "runId"
        FROM tasks WHERE state = 'READY'`;
    },

    /**
     * What admitted tasks (READY through running, until their kill lands)
     * hold, per pool (from `task_usage`, not a scan of the tasks).
     */
    async heldByPool(): Promise<PoolHeld[]> {
      const rows = await db.$queryRaw<
        {
          pool_id: string;
          revocable: boolean;
          controller: boolean;
          preemptible: boolean;
          cpu: number;
          gpu: number;
          mem: number;
          disk: number;
        }[]
      >`
        SELECT j.pool_id::text AS pool_id, u.revocable, u.controller, u.preemptible,
               sum(u.cpu)::float8 AS cpu, sum(u.gpu)::float8 AS gpu,
               sum(u.mem)::float8 AS mem, sum(u.disk)::float8 AS disk
        FROM ${TASK_USAGE} u JOIN jobs j ON j.id = u.job_id
        WHERE u.state::text = ANY(${[...ALLOCATING_TASK_STATES] as TaskState[]}::text[])
        GROUP BY 1, 2, 3, 4`;
      const byPool = new Map<string, PoolHeld>();
      for (const r of rows)
        addHeld(byPool, r.pool_id, r, { cpu: r.cpu, gpu: r.gpu, memory: r.mem, disk: r.disk });
      return [...byPool.values()];
    },
  };
}

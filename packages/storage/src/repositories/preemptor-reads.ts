/**
 * What the preemptor reads each period, inside one snapshot transaction
 * (`gateway.snapshot`: every read sees the same instant, so the pools'
 * numbers and the tasks a kill is decided on agree):
 *
 *   usage()          per pool, revocable or not, and state: what its tasks
 *                    hold or wait for, and the lowest priority of its
 *                    preemptible tasks — a few rows per pool, whatever the
 *                    number of tasks
 *   pending()        the tasks waiting for admission (the waiting gangs)
 *   candidates(ids)  the READY / PLACING / RUNNING tasks of the pools a
 *                    decision may take from, and only those: a quiet cluster
 *                    of 100,000 tasks costs the two reads above
 *
 * and, for the jobs whose SLA limits how many instances may be down, how
 * many run now.
 */
import { ALLOCATING_TASK_STATES, CANDIDATE_STATES, type TaskState } from "@peloton/engine";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import type { KindAmounts } from "./admission-reads.ts";
import { TASK_USAGE } from "./task-usage.ts";

/** A task the preemptor looks at: one waiting in PENDING, or a candidate. */
export interface PreemptorTaskRow {
  taskId: string;
  jobId: string;
  jobName: string;
  instanceId: number;
  runId: number;
  poolId: string;
  state: TaskState;
  priority: number;
  preemptible: boolean;
  revocable: boolean;
  controller: boolean;
  resources: KindAmounts;
  /** When the current run reached RUNNING; null before. */
  startedAt: Date | null;
  /** When the run entered PENDING: its place in its pool's queue. */
  queuedAt: Date;
  /** The run's id in the cluster, and its agent: where a kill goes. */
  clusterTaskId: string | null;
  agentId: string | null;
}

/** What a pool's tasks in one state hold (or wait for), revocable apart. */
export interface PoolStateUsage {
  poolId: string;
  state: TaskState;
  revocable: boolean;
  tasks: number;
  resources: KindAmounts;
  /** The lowest priority of its preemptible tasks; null when none is preemptible. */
  minPreemptiblePriority: number | null;
}

/** A job's instances against those running now (its SLA's availability). */
export interface JobAvailabilityRow {
  jobId: string;
  instanceCount: number;
  running: number;
}

const USAGE_STATES: readonly TaskState[] = ["PENDING", ...ALLOCATING_TASK_STATES];

interface TaskSqlRow {
  task_id: string;
  job_id: string;
  job_name: string;
  instance_id: number;
  run_id: number;
  pool_id: string;
  state: TaskState;
  priority: number;
  preemptible: boolean;
  revocable: boolean;
  controller: boolean;
  cpu: number;
  gpu: number;
  mem: number;
  disk: number;
  started_at: Date | null;
  queued_at: Date;
  mesos_task_id: string | null;
  agent_id: string | null;
}

/** The columns of a TaskSqlRow, from `tasks t JOIN jobs j`. */
const TASK_COLUMNS = Prisma.raw(`
  t.id::text AS task_id, t.job_id::text AS job_id, j.name AS job_name, t.instance_id,
  t.run_id, j.pool_id::text AS pool_id, t.state::text AS state, t.priority,
  t.preemptible, t.revocable, t.controller, t.cpu, t.gpu, t.mem_mb AS mem,
  t.disk_mb AS disk, t.started_at, coalesce(t.queued_at, t.created_at) AS queued_at,
  t.mesos_task_id, t.agent_id`);

const toTask = (r: TaskSqlRow): PreemptorTaskRow => ({
  taskId: r.task_id,
  jobId: r.job_id,
  jobName: r.job_name,
  instanceId: r.instance_id,
  runId: r.run_id,
  poolId: r.pool_id,
  state: r.state,
  priority: r.priority,
  preemptible: r.preemptible,
  revocable: r.revocable,
  controller: r.controller,
  resources: { cpu: r.cpu, gpu: r.gpu, memory: r.mem, disk: r.disk },
  startedAt: r.started_at,
  queuedAt: r.queued_at,
  clusterTaskId: r.mesos_task_id,
  agentId: r.agent_id,
});

export function preemptorReadsRepository(db: DbOrTx) {
  return {
    /**
     * Per pool, revocable or not, and state (PENDING or allocating): sums,
     * counts, lowest priority (from `task_usage`, not a scan of the tasks).
     */
    async usage(): Promise<PoolStateUsage[]> {
      const rows = await db.$queryRaw<
        {
          pool_id: string;
          state: TaskState;
          revocable: boolean;
          tasks: number;
          cpu: number;
          gpu: number;
          mem: number;
          disk: number;
          min_priority: number | null;
        }[]
      >`
        SELECT j.pool_id::text AS pool_id, u.state::text AS state, u.revocable,
               sum(u.tasks)::int AS tasks, sum(u.cpu)::float8 AS cpu, sum(u.gpu)::float8 AS gpu,
               sum(u.mem)::float8 AS mem, sum(u.disk)::float8 AS disk,
               min(u.priority) FILTER (WHERE u.preemptible) AS min_priority
        FROM ${TASK_USAGE} u JOIN jobs j ON j.id = u.job_id
        WHERE u.state::text = ANY(${[...USAGE_STATES]}::text[])
        GROUP BY 1, 2, 3`;
      return rows.map((r) => ({
        poolId: r.pool_id,
        state: r.state,
        revocable: r.revocable,
        tasks: r.tasks,
        resources: { cpu: r.cpu, gpu: r.gpu, memory: r.mem, disk: r.disk },
        minPreemptiblePriority: r.min_priority,
      }));
    },

    /** Every PENDING task. */
    async pending(): Promise<PreemptorTaskRow[]> {
      const rows = await db.$queryRaw<TaskSqlRow[]>`
        SELECT ${TASK_COLUMNS} FROM tasks t JOIN jobs j ON j.id = t.job_id
        WHERE t.state = 'PENDING'`;
      return rows.map(toTask);
    },

    /**
     * The READY, PLACING and RUNNING tasks of these pools, in no order
     * (sorting 100,000 rows costs PostgreSQL more than reading them, and no
     * decision depends on the order).
     */
    async candidates(poolIds: readonly string[]): Promise<PreemptorTaskRow[]> {
      if (poolIds.length === 0) return [];
      const rows = await db.$queryRaw<TaskSqlRow[]>`
        SELECT ${TASK_COLUMNS} FROM tasks t JOIN jobs j ON j.id = t.job_id
        WHERE j.pool_id = ANY(${[...poolIds]}::uuid[])
          AND t.state::text = ANY(${[...CANDIDATE_STATES]}::text[])`;
      return rows.map(toTask);
    },

    /** The jobs' instance counts and how many of their tasks are RUNNING (the job's task counts). */
    async availability(jobIds: readonly string[]): Promise<JobAvailabilityRow[]> {
      if (jobIds.length === 0) return [];
      const rows = await db.$queryRaw<{ id: string; instance_count: number; running: number }[]>`
        SELECT id::text, instance_count, coalesce((task_stats->>'RUNNING')::int, 0) AS running
        FROM jobs WHERE id = ANY(${[...jobIds]}::uuid[])`;
      return rows.map((r) => ({
        jobId: r.id,
        instanceCount: r.instance_count,
        running: r.running,
      }));
    },
  };
}

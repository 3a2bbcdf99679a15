/**
 * What the preemptor reads each period: every task that waits for admission
 * or holds resources, in one statement, so the pools' allocation and demand,
 * the candidates and the waiting gangs all come from the same instant (a
 * kill decided on numbers read a moment apart could take more than needed);
 * and, for the jobs whose SLA limits how many instances may be down, how
 * many run now.
 */
import type { TaskState } from "../records.ts";
import type { DbOrTx } from "../tx.ts";
import type { KindAmounts } from "./admission-reads.ts";
import { ALLOCATING_STATES } from "./allocating-states.ts";

/** A task the preemptor looks at: PENDING, or one of the allocating states. */
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
  reason: string | null;
  message: string | null;
}

/** A job's instances against those running now (its SLA's availability). */
export interface JobAvailabilityRow {
  jobId: string;
  instanceCount: number;
  running: number;
}

const STATES: readonly TaskState[] = ["PENDING", ...ALLOCATING_STATES];

export function preemptorReadsRepository(db: DbOrTx) {
  return {
    /** Every PENDING or allocating task, pool by pool (the engine walks them so). */
    async tasks(): Promise<PreemptorTaskRow[]> {
      const rows = await db.$queryRaw<
        {
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
          reason: string | null;
          message: string | null;
        }[]
      >`
        SELECT t.id::text AS task_id, t.job_id::text AS job_id, j.name AS job_name, t.instance_id,
               t.run_id, j.pool_id::text AS pool_id, t.state::text AS state, t.priority,
               t.preemptible, t.revocable, t.controller, t.cpu, t.gpu, t.mem_mb AS mem,
               t.disk_mb AS disk, t.started_at, coalesce(t.queued_at, t.created_at) AS queued_at,
               t.mesos_task_id, t.agent_id, t.reason, t.message
        FROM tasks t JOIN jobs j ON j.id = t.job_id
        WHERE t.state::text = ANY(${[...STATES]}::text[])
        ORDER BY j.pool_id, t.job_id, t.instance_id`;
      return rows.map((r) => ({
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
        reason: r.reason,
        message: r.message,
      }));
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

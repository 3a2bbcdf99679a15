/**
 * Task rows as the job manager decides on them: what a status update finds
 * by its cluster task id, and the tasks whose state and intent disagree
 * (a goal to reach, a restart asked for, a new run due, a kill to re-send).
 */
import type { GoalState, HealthState, TaskState } from "@peloton/engine";
import { withArrayParameters } from "../direct-parameters.ts";
import { directRows } from "../direct-rows.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";

/** What a goal-state decision reads about a task's current run. */
export interface TaskRunRow {
  taskId: string;
  jobId: string;
  instanceId: number;
  runId: number;
  desiredRun: number;
  state: TaskState;
  goalState: GoalState;
  failureCount: number;
  reason: string | null;
  clusterTaskId: string | null;
  hostname: string | null;
  agentId: string | null;
  notBefore: Date | null;
  updatedAt: Date;
  /** The current run's health; null (or absent) until the run reached RUNNING. */
  health?: HealthState | null;
  /** Who asked for the restart that set the desired run (null: nobody, or not a restart). */
  restartRequestedBy: string | null;
  /** The config version the instance should run: a new run is launched with it. */
  desiredConfigVersion: number;
  /** Why the system asked for that restart ("HOST_MAINTENANCE": evicted); null for an operator's. */
  restartReason: string | null;
}

/** A RUNNING run of a job with `sla.maxRunningTime` (seconds), and when it started running. */
export interface DeadlineRunRow extends TaskRunRow {
  maxRunningTime: number;
  startedAt: Date;
}

const COLUMNS = Prisma.raw(`
  t.id::text AS task_id, t.job_id::text AS job_id, t.instance_id, t.run_id, t.desired_run,
  t.state::text AS state, t.goal_state::text AS goal_state, t.failure_count, t.reason,
  t.mesos_task_id, t.hostname, t.agent_id, t.not_before, t.updated_at, t.restart_requested_by,
  t.desired_config_version,
  t.restart_reason,
  CASE WHEN t.health_run_id = t.run_id THEN t.health::text END AS health`);

interface Row {
  task_id: string;
  job_id: string;
  instance_id: number;
  run_id: number;
  desired_run: number;
  state: TaskState;
  goal_state: GoalState;
  failure_count: number;
  reason: string | null;
  mesos_task_id: string | null;
  hostname: string | null;
  agent_id: string | null;
  not_before: Date | null;
  updated_at: Date;
  health: HealthState | null;
  restart_requested_by: string | null;
  desired_config_version: number;
  restart_reason: string | null;
}

const toRun = (r: Row): TaskRunRow => ({
  taskId: r.task_id,
  jobId: r.job_id,
  instanceId: r.instance_id,
  runId: r.run_id,
  desiredRun: r.desired_run,
  state: r.state,
  goalState: r.goal_state,
  failureCount: r.failure_count,
  reason: r.reason,
  clusterTaskId: r.mesos_task_id,
  hostname: r.hostname,
  agentId: r.agent_id,
  notBefore: r.not_before,
  updatedAt: r.updated_at,
  health: r.health,
  restartRequestedBy: r.restart_requested_by,
  desiredConfigVersion: r.desired_config_version,
  restartReason: r.restart_reason,
});

/**
 * A task whose state and intent disagree and on which the job manager can
 * act now: it should be stopped (not yet ended) or deleted, a restart was
 * asked for, a new run waits to be queued, or a service's run ended. Runs
 * waiting on the cluster (LAUNCHING, a kill sent) are left out: their next
 * status update brings them back to a decision.
 */
const NEEDS_A_DECISION = Prisma.sql`(
  (t.state NOT IN ('LAUNCHING', 'KILLING', 'PREEMPTING') AND (
    (t.goal_state = 'KILLED' AND t.state NOT IN ('SUCCEEDED', 'FAILED', 'KILLED', 'DELETED'))
    OR (t.goal_state = 'DELETED' AND t.state <> 'DELETED')
    OR t.desired_run > t.run_id))
  OR t.state = 'INITIALIZED'
  OR (t.goal_state = 'RUNNING' AND t.state IN ('SUCCEEDED', 'FAILED', 'LOST', 'KILLED')))`;

/**
 * Jobs that may have runs with a deadline: BATCH (the only type the
 * validation lets set sla.maxRunningTime), not ended or deleted, with the limit set.
 */
const LIMITED_JOBS = Prisma.sql`type = 'BATCH' AND goal_state <> 'DELETED'
  AND state NOT IN ('SUCCEEDED', 'FAILED', 'KILLED', 'DELETED')
  AND coalesce((config->'sla'->>'maxRunningTime')::int, 0) > 0`;

export function taskRunsRepository(db: DbOrTx) {
  return {
    /** The current runs these cluster task ids belong to (an id of an older run finds nothing). */
    async byClusterIds(ids: readonly string[]): Promise<TaskRunRow[]> {
      if (ids.length === 0) return [];
      // Every status update batch reads its runs here: past Prisma's raw-result mapping (direct-rows.ts).
      const rows = await withArrayParameters([ids], ([p]) =>
        directRows<Row>(
          db,
          Prisma.sql`SELECT ${COLUMNS} FROM tasks t WHERE t.mesos_task_id = ANY(${p}::text[])`,
        ),
      );
      return rows.map(toRun);
    },

    async byIds(ids: readonly string[]): Promise<TaskRunRow[]> {
      if (ids.length === 0) return [];
      const rows = await withArrayParameters(
        [ids],
        ([p]) => db.$queryRaw<Row[]>`SELECT ${COLUMNS} FROM tasks t WHERE t.id = ANY(${p}::uuid[])`,
      );
      return rows.map(toRun);
    },

    /** The tasks of these jobs that need a goal-state decision (at most `limit`). */
    async needingDecision(jobIds: readonly string[], limit: number): Promise<TaskRunRow[]> {
      if (jobIds.length === 0) return [];
      const rows = await withArrayParameters(
        [jobIds],
        ([p]) => db.$queryRaw<Row[]>`
          SELECT ${COLUMNS} FROM tasks t
          WHERE t.job_id = ANY(${p}::uuid[]) AND ${NEEDS_A_DECISION}
          LIMIT ${limit}`,
      );
      return rows.map(toRun);
    },

    /** New runs whose backoff has passed (or that have none): to be queued. */
    async dueToQueue(now: Date, limit: number): Promise<TaskRunRow[]> {
      const rows = await db.$queryRaw<Row[]>`
        SELECT ${COLUMNS} FROM tasks t
        WHERE t.state = 'INITIALIZED' AND (t.not_before IS NULL OR t.not_before <= ${now})
        LIMIT ${limit}`;
      return rows.map(toRun);
    },

    /**
     * RUNNING runs of jobs with an `sla.maxRunningTime` that have run at
     * least that long at `now` and are not yet being stopped: their deadline
     * passed (Peloton's deadline tracker). Only jobs that set the limit are
     * looked at, their running tasks by the (job, state) index.
     */
    async pastDeadline(now: Date, limit: number): Promise<DeadlineRunRow[]> {
      const rows = await db.$queryRaw<(Row & { max_running_time: number; started_at: Date })[]>`
        WITH limited AS (
          SELECT id, (config->'sla'->>'maxRunningTime')::int AS secs FROM jobs
          WHERE ${LIMITED_JOBS})
        SELECT ${COLUMNS}, l.secs AS max_running_time, t.started_at
        FROM limited l JOIN tasks t ON t.job_id = l.id AND t.state = 'RUNNING'
        WHERE t.goal_state NOT IN ('KILLED', 'DELETED')
          AND t.started_at IS NOT NULL
          AND t.started_at + l.secs * interval '1 second' <= ${now}
        LIMIT ${limit}`;
      return rows.map((r) => ({
        ...toRun(r),
        maxRunningTime: r.max_running_time,
        startedAt: r.started_at,
      }));
    },

    /** When the next RUNNING run of a job with `sla.maxRunningTime` reaches its deadline. */
    async nextDeadline(): Promise<Date | null> {
      const rows = await db.$queryRaw<{ at: Date | null }[]>`
        SELECT min(t.started_at + (j.config->'sla'->>'maxRunningTime')::int * interval '1 second') AS at
        FROM jobs j JOIN tasks t ON t.job_id = j.id AND t.state = 'RUNNING'
        WHERE j.id IN (SELECT id FROM jobs WHERE ${LIMITED_JOBS})
          AND t.goal_state NOT IN ('KILLED', 'DELETED')`;
      return rows[0]?.at ?? null;
    },

    /**
     * Per job, how many of its instances are scheduled: past INITIALIZED and
     * not ended (sla.maximumRunningInstances counts these). Jobs with none are left out.
     */
    async scheduledCounts(jobIds: readonly string[]): Promise<Map<string, number>> {
      if (jobIds.length === 0) return new Map();
      const rows = await withArrayParameters(
        [jobIds],
        ([p]) => db.$queryRaw<{ job_id: string; n: number }[]>`
          SELECT t.job_id::text AS job_id, count(*)::int AS n FROM tasks t
          WHERE t.job_id = ANY(${p}::uuid[])
            AND t.state NOT IN ('INITIALIZED', 'SUCCEEDED', 'FAILED', 'LOST', 'KILLED', 'DELETED', 'UNKNOWN')
          GROUP BY t.job_id`,
      );
      return new Map(rows.map((r) => [r.job_id, r.n]));
    },

    /** When the next new run's backoff ends (null when none waits). */
    async nextNotBefore(): Promise<Date | null> {
      const rows = await db.$queryRaw<{ at: Date | null }[]>`
        SELECT min(not_before) AS at FROM tasks WHERE state = 'INITIALIZED'`;
      return rows[0]?.at ?? null;
    },

    /**
     * Runs stuck in a state that waits for the cluster: a kill not yet
     * confirmed, a launch not yet reported, since before `before`.
     */
    async waitingOnCluster(
      states: readonly TaskState[],
      before: Date,
      limit: number,
    ): Promise<TaskRunRow[]> {
      const rows = await db.$queryRaw<Row[]>`
        SELECT ${COLUMNS} FROM tasks t
        WHERE t.state = ANY(${[...states]}::"TaskState"[]) AND t.updated_at < ${before}
        ORDER BY t.updated_at LIMIT ${limit}`;
      return rows.map(toRun);
    },
  };
}

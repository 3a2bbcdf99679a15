/**
 * Reading tasks for people (API, console, CLI): a job's instances page by
 * page, one instance, why a job's tasks wait (the history is task-history).
 * Every list is keyset-paginated on an index that starts with the job id, so
 * a page of a job with a million tasks costs the same as one of a job with ten.
 */
import type { GoalState, HealthState, TaskState } from "@peloton/engine";
import { directRows } from "../direct-rows.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { cursorValue, decodeKeyset, encodeKeyset, keysetPage } from "./keyset.ts";
import type { Page } from "./pool-history.ts";

/** One instance of a job and its current run. */
export interface TaskRecord {
  id: string;
  jobId: string;
  instanceId: number;
  runId: number;
  desiredRun: number;
  /** The id the cluster knows the current run by; null before its first launch. */
  clusterTaskId: string | null;
  state: TaskState;
  goalState: GoalState;
  hostname: string | null;
  agentId: string | null;
  ports: Record<string, number>;
  /** Why it is in its state: a code from a closed set, and the sentence the console shows. */
  reason: string | null;
  message: string | null;
  /** Runs that ended by the task's own fault (engine `runEndCause`); lost or preempted runs do not count. */
  failureCount: number;
  cpu: number;
  memMb: number;
  diskMb: number;
  gpu: number;
  priority: number;
  preemptible: boolean;
  revocable: boolean;
  controller: boolean;
  pinnedHost: string | null;
  previousHost: string | null;
  notBefore: Date | null;
  queuedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /**
   * The current run's health (Peloton's HealthState); null until the run
   * reached RUNNING (a new run has none yet). With when it last changed and
   * the sentence of its last check result.
   */
  health: HealthState | null;
  healthChangedAt: Date | null;
  healthMessage: string | null;
  /** The job config version the current run was launched with, and the one the instance should run. */
  configVersion: number;
  desiredConfigVersion: number;
}

export const TASK_SORT_KEYS = ["instance", "state", "host", "startedAt"] as const;
export type TaskSortKey = (typeof TASK_SORT_KEYS)[number];

export interface TaskListQuery {
  jobId: string;
  states?: readonly TaskState[];
  hostname?: string;
  /** Instances in [from, to], both included. */
  instanceFrom?: number;
  instanceTo?: number;
  sort?: TaskSortKey;
  order?: "asc" | "desc";
  limit: number;
  cursor?: string | null;
}

/**
 * Sort keys: the expression, its cast for the cursor, whether it can be
 * null, and how the cursor's value is read (an enum as its text).
 */
const SORT_SQL: Record<
  TaskSortKey,
  { expr: string; cast: string; nullable: boolean; read: string }
> = {
  instance: { expr: "t.instance_id", cast: "int", nullable: false, read: "t.instance_id" },
  state: { expr: "t.state", cast: '"TaskState"', nullable: false, read: "t.state::text" },
  host: { expr: "t.hostname", cast: "text", nullable: true, read: "t.hostname" },
  startedAt: { expr: "t.started_at", cast: "timestamptz", nullable: true, read: "t.started_at" },
};

export const TASK_COLUMNS = Prisma.raw(`
  t.id::text, t.job_id::text, t.instance_id, t.run_id, t.desired_run, t.mesos_task_id,
  t.state::text AS state, t.goal_state::text AS goal_state, t.hostname, t.agent_id, t.ports,
  t.reason, t.message, t.failure_count, t.cpu, t.mem_mb, t.disk_mb, t.gpu, t.priority,
  t.preemptible, t.revocable, t.controller, t.pinned_host, t.previous_host, t.not_before,
  t.queued_at, t.created_at, t.updated_at, t.started_at, t.finished_at,
  CASE WHEN t.health_run_id = t.run_id THEN t.health::text END AS health,
  CASE WHEN t.health_run_id = t.run_id THEN t.health_changed_at END AS health_changed_at,
  CASE WHEN t.health_run_id = t.run_id THEN t.health_message END AS health_message,
  t.config_version, t.desired_config_version`);

/**
 * Only what a task's runtime says (state, host, times, why): Peloton's
 * TaskManager.List shows no more, and a 1,000-task page of these 14
 * columns costs PostgreSQL and the parser half what the 35 of
 * TASK_COLUMNS do. The job id is the query's own, not read per row.
 */
const TASK_RUNTIME_COLUMNS = Prisma.raw(`
  t.instance_id, t.mesos_task_id, t.state::text AS state, t.goal_state::text AS goal_state,
  t.hostname, t.ports, t.reason, t.message, t.failure_count, t.created_at, t.updated_at,
  t.started_at, t.finished_at,
  CASE WHEN t.health_run_id = t.run_id THEN t.health::text END AS health`);

/** One instance's runtime: the fields of TaskRecord that TASK_RUNTIME_COLUMNS read. */
export type TaskRuntimeRecord = Pick<
  TaskRecord,
  | "jobId"
  | "instanceId"
  | "clusterTaskId"
  | "state"
  | "goalState"
  | "hostname"
  | "ports"
  | "reason"
  | "message"
  | "failureCount"
  | "createdAt"
  | "updatedAt"
  | "startedAt"
  | "finishedAt"
  | "health"
>;

type TaskRuntimeRow = Pick<
  TaskRow,
  | "instance_id"
  | "mesos_task_id"
  | "state"
  | "goal_state"
  | "hostname"
  | "ports"
  | "reason"
  | "message"
  | "failure_count"
  | "created_at"
  | "updated_at"
  | "started_at"
  | "finished_at"
  | "health"
  | "sort_value"
>;

function toTaskRuntimeRecord(r: TaskRuntimeRow, jobId: string): TaskRuntimeRecord {
  return {
    jobId,
    instanceId: r.instance_id,
    clusterTaskId: r.mesos_task_id,
    state: r.state,
    goalState: r.goal_state,
    hostname: r.hostname,
    ports: r.ports,
    reason: r.reason,
    message: r.message,
    failureCount: r.failure_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    health: r.health,
  };
}

export interface TaskRow {
  id: string;
  job_id: string;
  instance_id: number;
  run_id: number;
  desired_run: number;
  mesos_task_id: string | null;
  state: TaskState;
  goal_state: GoalState;
  hostname: string | null;
  agent_id: string | null;
  ports: Record<string, number>;
  reason: string | null;
  message: string | null;
  failure_count: number;
  cpu: number;
  mem_mb: number;
  disk_mb: number;
  gpu: number;
  priority: number;
  preemptible: boolean;
  revocable: boolean;
  controller: boolean;
  pinned_host: string | null;
  previous_host: string | null;
  not_before: Date | null;
  queued_at: Date | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  health: HealthState | null;
  health_changed_at: Date | null;
  health_message: string | null;
  config_version: number;
  desired_config_version: number;
  sort_value?: unknown;
}

export function toTaskRecord(r: TaskRow): TaskRecord {
  return {
    id: r.id,
    jobId: r.job_id,
    instanceId: r.instance_id,
    runId: r.run_id,
    desiredRun: r.desired_run,
    clusterTaskId: r.mesos_task_id,
    state: r.state,
    goalState: r.goal_state,
    hostname: r.hostname,
    agentId: r.agent_id,
    ports: r.ports,
    reason: r.reason,
    message: r.message,
    failureCount: r.failure_count,
    cpu: r.cpu,
    memMb: r.mem_mb,
    diskMb: r.disk_mb,
    gpu: r.gpu,
    priority: r.priority,
    preemptible: r.preemptible,
    revocable: r.revocable,
    controller: r.controller,
    pinnedHost: r.pinned_host,
    previousHost: r.previous_host,
    notBefore: r.not_before,
    queuedAt: r.queued_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    health: r.health,
    healthChangedAt: r.health_changed_at,
    healthMessage: r.health_message,
    configVersion: r.config_version,
    desiredConfigVersion: r.desired_config_version,
  };
}

/**
 * The keyset condition after the cursor row. PostgreSQL sorts nulls last in
 * ascending order and first in descending order (as the indexes store them),
 * so a nullable key needs the null group handled on its own.
 */
function afterCursor(
  sort: { expr: string; cast: string; nullable: boolean },
  desc: boolean,
  cursor: { v: string | number | null; k: string | number },
): Prisma.Sql {
  const cmp = Prisma.raw(desc ? "<" : ">");
  const expr = Prisma.raw(sort.expr);
  const instance = Number(cursor.k);
  if (cursor.v === null) {
    // Within the null group only the instance orders; past it (descending), every non-null row.
    const rest = Prisma.sql`(${expr} IS NULL AND t.instance_id ${cmp} ${instance})`;
    return desc ? Prisma.sql`(${rest} OR ${expr} IS NOT NULL)` : rest;
  }
  const value = Prisma.sql`${cursor.v}::${Prisma.raw(sort.cast)}`;
  const after = Prisma.sql`(${expr}, t.instance_id) ${cmp} (${value}, ${instance})`;
  if (!sort.nullable) return after;
  return desc ? after : Prisma.sql`(${after} OR ${expr} IS NULL)`;
}

export function taskReadsRepository(db: DbOrTx) {
  /** A page of the job's instances as `columns` read them, each row made a record by `toRecord`. */
  async function pageOf<Row extends { instance_id: number; sort_value?: unknown }, R>(
    q: TaskListQuery,
    columns: Prisma.Sql,
    toRecord: (row: Row) => R,
  ): Promise<Page<R>> {
    const sortKey = q.sort ?? "instance";
    const sort = SORT_SQL[sortKey];
    const desc = (q.order ?? "asc") === "desc";
    const where: Prisma.Sql[] = [Prisma.sql`t.job_id = ${q.jobId}::uuid`];
    // One state is an equality, so the (job, state, instance) index also gives the order.
    if (q.states?.length === 1) where.push(Prisma.sql`t.state = ${q.states[0]}::"TaskState"`);
    else if (q.states?.length)
      where.push(Prisma.sql`t.state = ANY(${[...q.states]}::"TaskState"[])`);
    if (q.hostname) where.push(Prisma.sql`t.hostname = ${q.hostname}`);
    if (q.instanceFrom !== undefined) where.push(Prisma.sql`t.instance_id >= ${q.instanceFrom}`);
    if (q.instanceTo !== undefined) where.push(Prisma.sql`t.instance_id <= ${q.instanceTo}`);
    const cursor = decodeKeyset(q.cursor);
    if (cursor) where.push(afterCursor(sort, desc, cursor));
    const dir = desc ? "DESC" : "ASC";
    // The index order (nulls last ascending, first descending), so a page is an index range.
    const order = `${sort.expr} ${dir}, t.instance_id ${dir}`;
    const rows = await directRows<Row>(
      db,
      Prisma.sql`
      SELECT ${columns}, ${Prisma.raw(sort.read)} AS sort_value FROM tasks t
      WHERE ${Prisma.join(where, " AND ")}
      ORDER BY ${Prisma.raw(order)}
      LIMIT ${q.limit + 1}`,
    );
    return keysetPage(rows, q.limit, toRecord, (last) =>
      encodeKeyset({ v: cursorValue(last.sort_value), k: last.instance_id }),
    );
  }

  return {
    /** A page of a job's instances, filtered and sorted on the server. */
    list(q: TaskListQuery): Promise<Page<TaskRecord>> {
      return pageOf(q, TASK_COLUMNS, toTaskRecord);
    },

    /** The same page as `list`, of each instance's runtime only (TASK_RUNTIME_COLUMNS). */
    runtimes(q: TaskListQuery): Promise<Page<TaskRuntimeRecord>> {
      return pageOf(q, TASK_RUNTIME_COLUMNS, (r: TaskRuntimeRow) =>
        toTaskRuntimeRecord(r, q.jobId),
      );
    },

    async get(jobId: string, instanceId: number): Promise<TaskRecord | null> {
      const rows = await directRows<TaskRow>(
        db,
        Prisma.sql`
          SELECT ${TASK_COLUMNS} FROM tasks t
          WHERE t.job_id = ${jobId}::uuid AND t.instance_id = ${instanceId}`,
      );
      return rows[0] ? toTaskRecord(rows[0]) : null;
    },

    /**
     * Why a job's tasks still wait (PENDING or READY), by reason: how many,
     * and the message of the first in line (each task's own says its place).
     */
    async waitingReasons(
      jobId: string,
    ): Promise<{ reason: string | null; message: string | null; tasks: number }[]> {
      return db.$queryRaw`
        SELECT t.reason, (array_agg(t.message ORDER BY t.instance_id))[1] AS message,
               count(*)::int AS tasks
        FROM tasks t WHERE t.job_id = ${jobId}::uuid AND t.state IN ('PENDING', 'READY')
        GROUP BY t.reason ORDER BY count(*) DESC LIMIT 10`;
    },

    /**
     * For a page of jobs, why each one's first waiting instance (the lowest
     * instance id still PENDING) waits: the jobs list's one-line answer. One
     * probe of (job_id, state, instance_id) a job, however many instances
     * wait; the job page groups all of them (waitingReasons). Jobs with none
     * are absent. (READY rows are an older leader's, requeued at election.)
     */
    async firstWaiting(
      jobIds: readonly string[],
    ): Promise<{ jobId: string; reason: string | null; message: string | null }[]> {
      if (jobIds.length === 0) return [];
      return db.$queryRaw`
        SELECT j.id::text AS "jobId", w.reason, w.message
        FROM unnest(${[...jobIds]}::uuid[]) AS j(id)
        CROSS JOIN LATERAL (
          SELECT t.reason, t.message FROM tasks t
          WHERE t.job_id = j.id AND t.state = 'PENDING'
          ORDER BY t.instance_id LIMIT 1
        ) w`;
    },
  };
}

/**
 * An instance's history (the pod history): its runs summed up from their
 * events, and the event timeline itself, keyset-paginated on the event id.
 */
import type { TaskState } from "@peloton/engine";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import type { Page } from "./pool-history.ts";

/** One run of an instance, summed up from its events (the pod history). */
export interface TaskRunRecord {
  runId: number;
  clusterTaskId: string | null;
  /** The last state the run reached. */
  state: TaskState;
  reason: string | null;
  message: string | null;
  hostname: string | null;
  agentId: string | null;
  firstAt: Date;
  lastAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface TaskEventRecord {
  id: string;
  runId: number;
  clusterTaskId: string | null;
  previousState: TaskState | null;
  state: TaskState;
  source: string;
  reason: string | null;
  message: string | null;
  hostname: string | null;
  agentId: string | null;
  at: Date;
}

/**
 * The task row of an instance (one per instance, for good: scaled down and
 * up again, it is the same row), whose events the (task_id, id) index keeps
 * in order.
 */
function instanceTask(jobId: string, instanceId: number): Prisma.Sql {
  return Prisma.sql`SELECT t.id FROM tasks t WHERE t.job_id = ${jobId}::uuid AND t.instance_id = ${instanceId}`;
}

export function taskHistoryRepository(db: DbOrTx) {
  return {
    /** Every run of an instance, newest first, summed up from its events. */
    async runs(jobId: string, instanceId: number): Promise<TaskRunRecord[]> {
      const rows = await db.$queryRaw<
        {
          run_id: number;
          mesos_task_id: string | null;
          state: TaskState;
          reason: string | null;
          message: string | null;
          hostname: string | null;
          agent_id: string | null;
          first_at: Date;
          last_at: Date;
          started_at: Date | null;
          finished_at: Date | null;
        }[]
      >`
        SELECT e.run_id,
               (array_agg(e.mesos_task_id ORDER BY e.id DESC) FILTER (WHERE e.mesos_task_id IS NOT NULL))[1] AS mesos_task_id,
               (array_agg(e.state::text ORDER BY e.id DESC))[1] AS state,
               (array_agg(e.reason ORDER BY e.id DESC))[1] AS reason,
               (array_agg(e.message ORDER BY e.id DESC))[1] AS message,
               (array_agg(e.hostname ORDER BY e.id DESC) FILTER (WHERE e.hostname IS NOT NULL))[1] AS hostname,
               (array_agg(e.agent_id ORDER BY e.id DESC) FILTER (WHERE e.agent_id IS NOT NULL))[1] AS agent_id,
               min(e.at) AS first_at, max(e.at) AS last_at,
               min(e.at) FILTER (WHERE e.state = 'RUNNING') AS started_at,
               max(e.at) FILTER (WHERE e.state IN ('SUCCEEDED', 'FAILED', 'LOST', 'KILLED')) AS finished_at
        FROM task_events e
        WHERE e.task_id = (${instanceTask(jobId, instanceId)})
        GROUP BY e.run_id ORDER BY e.run_id DESC`;
      return rows.map((r) => ({
        runId: r.run_id,
        clusterTaskId: r.mesos_task_id,
        state: r.state,
        reason: r.reason,
        message: r.message,
        hostname: r.hostname,
        agentId: r.agent_id,
        firstAt: r.first_at,
        lastAt: r.last_at,
        startedAt: r.started_at,
        finishedAt: r.finished_at,
      }));
    },

    /** An instance's events in order (oldest first), keyset on the event id; one run or all. */
    async events(q: {
      jobId: string;
      instanceId: number;
      runId?: number;
      limit: number;
      cursor?: string | null;
    }): Promise<Page<TaskEventRecord>> {
      const where: Prisma.Sql[] = [
        Prisma.sql`e.task_id = (${instanceTask(q.jobId, q.instanceId)})`,
      ];
      if (q.runId !== undefined) where.push(Prisma.sql`e.run_id = ${q.runId}`);
      if (q.cursor && /^\d+$/.test(q.cursor)) where.push(Prisma.sql`e.id > ${BigInt(q.cursor)}`);
      const rows = await db.$queryRaw<EventRow[]>`
        SELECT ${EVENT_COLUMNS} FROM task_events e WHERE ${Prisma.join(where, " AND ")}
        ORDER BY e.id LIMIT ${q.limit + 1}`;
      return eventPage(rows, q.limit);
    },

    /**
     * Every instance's events of a job, newest first (the job page's
     * timeline), keyset on the event id; optionally one instance only, and
     * only one reason.
     */
    async jobEvents(q: {
      jobId: string;
      instanceId?: number;
      reason?: string;
      limit: number;
      cursor?: string | null;
    }): Promise<Page<TaskEventRecord & { instanceId: number }>> {
      const where: Prisma.Sql[] =
        q.instanceId === undefined
          ? [Prisma.sql`e.job_id = ${q.jobId}::uuid`]
          : [Prisma.sql`e.task_id = (${instanceTask(q.jobId, q.instanceId)})`];
      if (q.reason !== undefined) where.push(Prisma.sql`e.reason = ${q.reason}`);
      if (q.cursor && /^\d+$/.test(q.cursor)) where.push(Prisma.sql`e.id < ${BigInt(q.cursor)}`);
      const rows = await db.$queryRaw<(EventRow & { instance_id: number })[]>`
        SELECT ${EVENT_COLUMNS}, e.instance_id FROM task_events e
        WHERE ${Prisma.join(where, " AND ")}
        ORDER BY e.id DESC LIMIT ${q.limit + 1}`;
      const page = eventPage(rows, q.limit);
      return {
        items: page.items.map((e, i) => ({ ...e, instanceId: rows[i]!.instance_id })),
        nextCursor: page.nextCursor,
      };
    },
  };
}

interface EventRow {
  id: bigint;
  run_id: number;
  mesos_task_id: string | null;
  previous_state: TaskState | null;
  state: TaskState;
  source: string;
  reason: string | null;
  message: string | null;
  hostname: string | null;
  agent_id: string | null;
  at: Date;
}

const EVENT_COLUMNS = Prisma.raw(`
  e.id, e.run_id, e.mesos_task_id, e.previous_state::text AS previous_state,
  e.state::text AS state, e.source, e.reason, e.message, e.hostname, e.agent_id, e.at`);

/** A page of events from `limit + 1` rows (the extra one says there is a next page). */
function eventPage(rows: readonly EventRow[], limit: number): Page<TaskEventRecord> {
  const items = rows.slice(0, limit).map((r) => ({
    id: r.id.toString(),
    runId: r.run_id,
    clusterTaskId: r.mesos_task_id,
    previousState: r.previous_state,
    state: r.state,
    source: r.source,
    reason: r.reason,
    message: r.message,
    hostname: r.hostname,
    agentId: r.agent_id,
    at: r.at,
  }));
  return { items, nextCursor: rows.length > limit ? (items.at(-1)?.id ?? null) : null };
}

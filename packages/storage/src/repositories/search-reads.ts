/**
 * The command palette's look-ups (console Ctrl-K, `search.query`): each one
 * answers from an index, so a search stays fast with a million task rows —
 * a job by its id prefix (a range of the primary key), by owner (the owner
 * index), by label (the GIN index on labels), a task by its cluster task id
 * (unique), a volume by its id prefix (the primary key). Matching a job's name
 * by a part of it reads the jobs table (thousands of rows, never tasks).
 */
import type { GoalState, JobState, JobType, TaskState, VolumeState } from "@peloton/engine";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { escapeLike } from "./like.ts";

/** A job as the palette shows it, with what its actions need (pool for the policy, version). */
export interface JobHitRecord {
  id: string;
  name: string;
  state: JobState;
  goalState: GoalState;
  type: JobType;
  owner: string;
  instanceCount: number;
  version: number;
  poolPath: string;
}

export interface TaskHitRecord {
  jobId: string;
  jobName: string;
  instanceId: number;
  state: TaskState;
  mesosTaskId: string | null;
  poolPath: string;
}

export interface VolumeHitRecord {
  id: string;
  jobId: string;
  jobName: string;
  instanceId: number;
  hostname: string;
  state: VolumeState;
}

const JOB_FROM =
  Prisma.raw(`SELECT j.id::text AS id, j.name, j.state::text AS state, j.goal_state::text AS "goalState",
  j.type::text AS type, j.owner, j.instance_count AS "instanceCount", j.version, p.path AS "poolPath"
  FROM jobs j JOIN resource_pools p ON p.id = j.pool_id`);

/** The highest code point: `prefix || MAX_CHAR` sorts after every text that starts with `prefix`. */
const MAX_CHAR = "\u{10FFFF}";

export function searchReadsRepository(db: DbOrTx) {
  return {
    /** Jobs whose id lies in [low, high] (both full UUIDs): a prefix as a primary-key range. */
    async jobsByIdRange(low: string, high: string, limit: number): Promise<JobHitRecord[]> {
      return db.$queryRaw<JobHitRecord[]>`${JOB_FROM}
         WHERE j.id BETWEEN ${low}::uuid AND ${high}::uuid AND j.state <> 'DELETED'
         ORDER BY j.id LIMIT ${limit}`;
    },

    /** Jobs whose name contains `text`, case-insensitive, newest first. */
    async jobsByName(text: string, limit: number): Promise<JobHitRecord[]> {
      return db.$queryRaw<JobHitRecord[]>`${JOB_FROM}
         WHERE j.name ILIKE ${`%${escapeLike(text)}%`} AND j.state <> 'DELETED'
         ORDER BY j.created_at DESC, j.id DESC LIMIT ${limit}`;
    },

    /** Jobs of this owner (exact), newest first: the (owner, created_at, id) index. */
    async jobsByOwner(owner: string, limit: number): Promise<JobHitRecord[]> {
      return db.$queryRaw<JobHitRecord[]>`${JOB_FROM}
         WHERE j.owner = ${owner} AND j.state <> 'DELETED'
         ORDER BY j.created_at DESC, j.id DESC LIMIT ${limit}`;
    },

    /** Jobs carrying this label (key and value exact): containment on the GIN index. */
    async jobsByLabel(key: string, value: string, limit: number): Promise<JobHitRecord[]> {
      return db.$queryRaw<JobHitRecord[]>`${JOB_FROM}
         WHERE j.labels @> ${JSON.stringify([{ key, value }])}::jsonb AND j.state <> 'DELETED'
         ORDER BY j.created_at DESC, j.id DESC LIMIT ${limit}`;
    },

    /** The task whose current run has this cluster (Mesos) task id: the unique index. */
    async taskByMesosId(mesosTaskId: string): Promise<TaskHitRecord | null> {
      const rows = await db.$queryRaw<TaskHitRecord[]>`
        SELECT t.job_id::text AS "jobId", j.name AS "jobName", t.instance_id AS "instanceId",
               t.state::text AS state, t.mesos_task_id AS "mesosTaskId", p.path AS "poolPath"
        FROM tasks t JOIN jobs j ON j.id = t.job_id JOIN resource_pools p ON p.id = j.pool_id
        WHERE t.mesos_task_id = ${mesosTaskId}`;
      return rows[0] ?? null;
    },

    /** One instance of a job (an earlier run's cluster task id names it): the (job, instance) key. */
    async taskByInstance(jobId: string, instanceId: number): Promise<TaskHitRecord | null> {
      const rows = await db.$queryRaw<TaskHitRecord[]>`
        SELECT t.job_id::text AS "jobId", j.name AS "jobName", t.instance_id AS "instanceId",
               t.state::text AS state, t.mesos_task_id AS "mesosTaskId", p.path AS "poolPath"
        FROM tasks t JOIN jobs j ON j.id = t.job_id JOIN resource_pools p ON p.id = j.pool_id
        WHERE t.job_id = ${jobId}::uuid AND t.instance_id = ${instanceId}`;
      return rows[0] ?? null;
    },

    /** Volumes whose id starts with `prefix`: a primary-key range, not a scan. */
    async volumesByIdPrefix(prefix: string, limit: number): Promise<VolumeHitRecord[]> {
      return db.$queryRaw<VolumeHitRecord[]>`
        SELECT v.id, v.job_id::text AS "jobId", j.name AS "jobName", v.instance_id AS "instanceId",
               v.hostname, v.state::text AS state
        FROM volumes v JOIN jobs j ON j.id = v.job_id
        WHERE v.id >= ${prefix} AND v.id < ${prefix + MAX_CHAR} AND v.state <> 'DELETED'
        ORDER BY v.id LIMIT ${limit}`;
    },

    /** Names of these jobs (the activity feed and audit log show names, not UUIDs). */
    async jobNames(ids: readonly string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.$queryRaw<{ id: string; name: string }[]>`
        SELECT id::text AS id, name FROM jobs WHERE id = ANY(${[...ids]}::uuid[])`;
      return new Map(rows.map((r) => [r.id, r.name]));
    },
  };
}

export type SearchReadsRepository = ReturnType<typeof searchReadsRepository>;

/**
 * Reading persistent volumes for people (console `/volumes`, the task page):
 * the volumes table joined to its jobs for their names, filtered and sorted
 * on the server, keyset-paginated. Writes (pin, markCreated, markDeleted)
 * stay in volumes.ts, on the scheduler's path.
 */
import type { JobState, VolumeState } from "@peloton/engine";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { decodeCursorJson, encodeCursorJson, keysetPage } from "./keyset.ts";
import { escapeLike } from "./like.ts";
import type { Page } from "./pool-history.ts";

export interface VolumeRecord {
  /** The Mesos persistence id. */
  id: string;
  jobId: string;
  jobName: string;
  jobState: JobState;
  instanceId: number;
  /** The owning instance's task row; null once that task is gone. */
  taskId: string | null;
  hostname: string;
  agentId: string | null;
  sizeMb: number;
  containerPath: string;
  state: VolumeState;
  createdAt: Date;
  updatedAt: Date;
}

export const VOLUME_SORT_KEYS = ["job", "host", "size", "state", "createdAt"] as const;
export type VolumeSortKey = (typeof VOLUME_SORT_KEYS)[number];

export interface VolumeListQuery {
  /** Only these states; none given: every state but DELETED. */
  states?: readonly VolumeState[];
  /** Only volumes on this host (exact). */
  hostname?: string;
  /** Only this job's volumes. */
  jobId?: string;
  /** Part of the volume id or the job name, case-insensitive. */
  text?: string;
  sort?: VolumeSortKey;
  order?: "asc" | "desc";
  limit: number;
  cursor?: string | null;
}

/** What the filters can pick from: hosts and jobs that hold volumes, most volumes first. */
export interface VolumeFacets {
  hosts: { hostname: string; volumes: number }[];
  jobs: { id: string; name: string; volumes: number }[];
}

interface SortColumn {
  expr: string;
  /** The cast a cursor value needs to compare with the column. */
  cast: string;
  /** The row's value as the cursor keeps it (none of these columns is nullable). */
  value: (r: VolumeRow) => string | number;
}

const JOB_NAME: SortColumn = { expr: "j.name", cast: "text", value: (r) => r.job_name };
const INSTANCE: SortColumn = { expr: "v.instance_id", cast: "int", value: (r) => r.instance_id };

/**
 * The columns each sort orders by, before the volume id that breaks the
 * last ties: a job's volumes read in instance order (0, 1, 2 … 10, not the
 * ids' text order), and on one host or of one size, grouped by job.
 * Whitelisted: the expressions are spliced into the query.
 */
const SORT_COLUMNS: Record<VolumeSortKey, readonly SortColumn[]> = {
  job: [JOB_NAME, INSTANCE],
  host: [{ expr: "v.hostname", cast: "text", value: (r) => r.hostname }, JOB_NAME, INSTANCE],
  size: [{ expr: "v.size_mb", cast: "float8", value: (r) => r.size_mb }, JOB_NAME, INSTANCE],
  state: [{ expr: "v.state", cast: '"VolumeState"', value: (r) => r.state }, JOB_NAME, INSTANCE],
  createdAt: [
    { expr: "v.created_at", cast: "timestamptz", value: (r) => r.created_at.toISOString() },
  ],
};

interface VolumeRow {
  id: string;
  job_id: string;
  job_name: string;
  job_state: JobState;
  instance_id: number;
  task_id: string | null;
  hostname: string;
  agent_id: string | null;
  size_mb: number;
  container_path: string;
  state: VolumeState;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = Prisma.raw(`
  v.id, v.job_id::text AS job_id, j.name AS job_name, j.state::text AS job_state, v.instance_id,
  v.task_id::text AS task_id, v.hostname, v.agent_id, v.size_mb, v.container_path,
  v.state::text AS state, v.created_at, v.updated_at`);

const toRecord = (r: VolumeRow): VolumeRecord => ({
  id: r.id,
  jobId: r.job_id,
  jobName: r.job_name,
  jobState: r.job_state,
  instanceId: r.instance_id,
  taskId: r.task_id,
  hostname: r.hostname,
  agentId: r.agent_id,
  sizeMb: r.size_mb,
  containerPath: r.container_path,
  state: r.state,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Where a page ended: the last row's sort values and id. Opaque to clients (base64url JSON). */
interface VolumeCursor {
  v: (string | number)[];
  k: string;
}

/** The cursor, or undefined when it is not one of this sort's (then the list starts over). */
function decodeCursor(text: string, sort: VolumeSortKey): VolumeCursor | undefined {
  const c = decodeCursorJson<VolumeCursor>(text);
  const fits =
    c !== undefined &&
    typeof c.k === "string" &&
    Array.isArray(c.v) &&
    c.v.length === SORT_COLUMNS[sort].length &&
    c.v.every((x) => typeof x === "string" || typeof x === "number");
  return fits ? { v: c.v as (string | number)[], k: c.k as string } : undefined;
}

function filters(q: VolumeListQuery): Prisma.Sql[] {
  const where: Prisma.Sql[] = [Prisma.sql`true`];
  // Destroyed volumes are history: left out unless asked for, as deleted jobs are.
  if (q.states?.length) where.push(Prisma.sql`v.state = ANY(${[...q.states]}::"VolumeState"[])`);
  else where.push(Prisma.sql`v.state <> 'DELETED'`);
  if (q.hostname) where.push(Prisma.sql`v.hostname = ${q.hostname}`);
  if (q.jobId) where.push(Prisma.sql`v.job_id = ${q.jobId}::uuid`);
  if (q.text) {
    const pattern = `%${escapeLike(q.text)}%`;
    where.push(Prisma.sql`(v.id ILIKE ${pattern} OR j.name ILIKE ${pattern})`);
  }
  return where;
}

export function volumeReadsRepository(db: DbOrTx) {
  return {
    /**
     * A page of volumes, keyset-paginated on (sort columns…, id): every
     * column goes the same way, so one row comparison finds where the next
     * page starts, stable while volumes come and go.
     */
    async list(q: VolumeListQuery): Promise<Page<VolumeRecord>> {
      const sort = q.sort ?? "job";
      const columns = SORT_COLUMNS[sort];
      const dir = q.order === "desc" ? "DESC" : "ASC";
      const where = filters(q);
      const cursor = q.cursor ? decodeCursor(q.cursor, sort) : undefined;
      if (cursor) {
        const keys = Prisma.raw([...columns.map((c) => c.expr), "v.id"].join(", "));
        const values = Prisma.join([
          ...columns.map((c, i) => Prisma.sql`${cursor.v[i]}::${Prisma.raw(c.cast)}`),
          Prisma.sql`${cursor.k}::text`,
        ]);
        where.push(Prisma.sql`(${keys}) ${Prisma.raw(dir === "DESC" ? "<" : ">")} (${values})`);
      }
      const order = [...columns.map((c) => c.expr), "v.id"].map((e) => `${e} ${dir}`).join(", ");
      const rows = await db.$queryRaw<VolumeRow[]>`
        SELECT ${COLUMNS} FROM volumes v JOIN jobs j ON j.id = v.job_id
        WHERE ${Prisma.join(where, " AND ")}
        ORDER BY ${Prisma.raw(order)}
        LIMIT ${q.limit + 1}`;
      return keysetPage(rows, q.limit, toRecord, (last) =>
        encodeCursorJson({
          v: columns.map((c) => c.value(last)),
          k: last.id,
        } satisfies VolumeCursor),
      );
    },

    /** The volume of one instance of a stateful job, if it has one yet. */
    async forInstance(jobId: string, instanceId: number): Promise<VolumeRecord | null> {
      const rows = await db.$queryRaw<VolumeRow[]>`
        SELECT ${COLUMNS} FROM volumes v JOIN jobs j ON j.id = v.job_id
        WHERE v.job_id = ${jobId}::uuid AND v.instance_id = ${instanceId}`;
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /** The hosts and jobs that hold volumes, for the filters (the busiest `limit` of each). */
    async facets(limit = 200): Promise<VolumeFacets> {
      const [hosts, jobs] = await Promise.all([
        db.$queryRaw<VolumeFacets["hosts"]>`
          SELECT v.hostname, count(*)::int AS volumes FROM volumes v
          GROUP BY v.hostname ORDER BY 2 DESC, 1 LIMIT ${limit}`,
        db.$queryRaw<VolumeFacets["jobs"]>`
          SELECT j.id::text AS id, j.name, count(*)::int AS volumes
          FROM volumes v JOIN jobs j ON j.id = v.job_id
          GROUP BY j.id, j.name ORDER BY 3 DESC, 2, 1 LIMIT ${limit}`,
      ]);
      return { hosts, jobs };
    },
  };
}

import type { GoalState, JobState, JobType, TaskState } from "@peloton/engine";
import { directRows } from "../direct-rows.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { NewJob, PoolPolicyFacts } from "../records.ts";
import type { DbOrTx } from "../tx.ts";
import { cursorValue, decodeKeyset, encodeKeyset, keysetPage } from "./keyset.ts";
import { escapeLike } from "./like.ts";
import type { Page } from "./pool-history.ts";

/** A job as lists and pages show it (no config). */
export interface JobRecord {
  id: string;
  name: string;
  type: JobType;
  poolId: string;
  poolPath: string;
  owner: string;
  /** The login that submitted it ("" before identity); `owner` is only what the YAML says. */
  submittedBy: string;
  owningTeam: string;
  description: string;
  labels: { key: string; value: string }[];
  priority: number;
  preemptible: boolean;
  revocable: boolean;
  state: JobState;
  goalState: GoalState;
  instanceCount: number;
  /** Tasks per state, kept with every transition. */
  taskStats: Partial<Record<TaskState, number>>;
  /** The intent version: bumped by every user action on the job. */
  version: number;
  configVersion: number;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/** A job with its config as submitted (YAML) and as parsed. */
export interface JobDetailRecord extends JobRecord {
  configYaml: string;
  config: unknown;
}

export const JOB_SORT_KEYS = [
  "createdAt",
  "updatedAt",
  "name",
  "state",
  "priority",
  "instanceCount",
] as const;
export type JobSortKey = (typeof JOB_SORT_KEYS)[number];

export interface JobListQuery {
  /** Only these states; without DELETED in it, deleted jobs are left out. */
  states?: readonly JobState[];
  types?: readonly JobType[];
  poolId?: string;
  owner?: string;
  /** Part of the name, case-insensitive, or the start of the job's id (as the lists show it). */
  text?: string;
  /** Every label must be on the job. */
  labels?: readonly { key: string; value: string }[];
  sort?: JobSortKey;
  order?: "asc" | "desc";
  limit: number;
  cursor?: string | null;
}

/** The job's state as the job manager derived it from its tasks. */
export interface JobStateWrite {
  id: string;
  state: JobState;
  /** Set when the state is terminal, cleared otherwise. */
  completedAt: Date | null;
}

/** What a user action changes on the job row (the task rows change beside it). */
export interface JobIntentWrite {
  goalState?: GoalState;
  instanceCount?: number;
}

/** The job row after a task transition changed its counts: enough to derive its state. */
export interface JobCountsRecord {
  id: string;
  type: JobType;
  state: JobState;
  goalState: GoalState;
  instanceCount: number;
  taskStats: Partial<Record<TaskState, number>>;
}

const SORT_SQL: Record<JobSortKey, { expr: string; cast: string }> = {
  createdAt: { expr: "j.created_at", cast: "timestamptz" },
  updatedAt: { expr: "j.updated_at", cast: "timestamptz" },
  name: { expr: "j.name", cast: "text" },
  state: { expr: "j.state", cast: '"JobState"' },
  priority: { expr: "j.priority", cast: "int" },
  instanceCount: { expr: "j.instance_count", cast: "int" },
};

interface JobRow {
  id: string;
  name: string;
  type: JobType;
  pool_id: string;
  pool_path: string;
  owner: string;
  submitted_by: string;
  owning_team: string;
  description: string;
  labels: { key: string; value: string }[];
  priority: number;
  preemptible: boolean;
  revocable: boolean;
  state: JobState;
  goal_state: GoalState;
  instance_count: number;
  task_stats: Partial<Record<TaskState, number>>;
  version: number;
  config_version: number;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
  sort_value?: unknown;
}

const JOB_COLUMNS = Prisma.raw(`
  j.id::text, j.name, j.type::text AS type, j.pool_id::text, p.path AS pool_path, j.owner,
  j.submitted_by, j.owning_team, coalesce(j.config ->> 'description', '') AS description, j.labels, j.priority,
  j.preemptible, j.revocable, j.state::text AS state, j.goal_state::text AS goal_state,
  j.instance_count, j.task_stats, j.version, j.config_version, j.created_at, j.updated_at,
  j.completed_at`);

function toRecord(r: JobRow): JobRecord {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    poolId: r.pool_id,
    poolPath: r.pool_path,
    owner: r.owner,
    submittedBy: r.submitted_by,
    owningTeam: r.owning_team,
    description: r.description,
    labels: r.labels,
    priority: r.priority,
    preemptible: r.preemptible,
    revocable: r.revocable,
    state: r.state,
    goalState: r.goal_state,
    instanceCount: r.instance_count,
    taskStats: r.task_stats,
    version: r.version,
    configVersion: r.config_version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
  };
}

/** Jobs: the rows users submit and the job manager drives. */
/** A job id, or its start as the lists shorten it ("3f2a9c1e"): hex digits and dashes. */
const ID_PREFIX = /^[0-9a-f][0-9a-f-]{3,35}$/i;

/**
 * The jobs filter takes a name or an id (issue #19 item 6): part of the
 * name, or — when the text can be one — the start of the id.
 */
function jobTextMatch(text: string): Prisma.Sql {
  const name = Prisma.sql`j.name ILIKE ${`%${escapeLike(text)}%`}`;
  if (!ID_PREFIX.test(text)) return name;
  return Prisma.sql`(${name} OR j.id::text LIKE ${`${text.toLowerCase()}%`})`;
}

export function jobsRepository(db: DbOrTx) {
  return {
    async create(input: NewJob): Promise<{ id: string }> {
      return db.job.create({
        data: {
          ...(input.id ? { id: input.id } : {}),
          name: input.name,
          type: input.type,
          poolId: input.poolId,
          owner: input.owner,
          submittedBy: input.submittedBy ?? "",
          owningTeam: input.owningTeam ?? "",
          labels: (input.labels ?? []) as Prisma.InputJsonArray,
          priority: input.priority ?? 0,
          preemptible: input.preemptible ?? true,
          revocable: input.revocable ?? false,
          configYaml: input.configYaml,
          config: input.config as Prisma.InputJsonValue,
          state: input.state ?? "INITIALIZED",
          goalState: input.goalState ?? (input.type === "BATCH" ? "SUCCEEDED" : "RUNNING"),
          instanceCount: input.instanceCount,
          // Version 1 of its configuration, kept with every later version (updates).
          configVersions: {
            create: {
              version: 1,
              configYaml: input.configYaml,
              config: input.config as Prisma.InputJsonValue,
              createdBy: input.submittedBy ?? input.owner,
            },
          },
        },
        select: { id: true },
      });
    },

    async get(id: string): Promise<JobRecord | null> {
      const rows = await directRows<JobRow>(
        db,
        Prisma.sql`
          SELECT ${JOB_COLUMNS} FROM jobs j JOIN resource_pools p ON p.id = j.pool_id
          WHERE j.id = ${id}::uuid`,
        { statement: "jobs.get" },
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /** The facts of the pool a job runs in that the policy decides from; null without the job. */
    async poolFacts(id: string): Promise<PoolPolicyFacts | null> {
      const rows = await db.$queryRaw<PoolPolicyFacts[]>`
        SELECT p.path, p.owning_team AS "owningTeam", p.ldap_groups AS "ldapGroups"
        FROM jobs j JOIN resource_pools p ON p.id = j.pool_id WHERE j.id = ${id}::uuid`;
      return rows[0] ?? null;
    },

    async getDetail(id: string): Promise<JobDetailRecord | null> {
      // Every Peloton API call on a job reads this: directRows spares Prisma's raw-query
      // layer, and the prepared statement PostgreSQL's parsing and planning.
      const rows = await directRows<JobRow & { config_yaml: string; config: unknown }>(
        db,
        Prisma.sql`
          SELECT ${JOB_COLUMNS}, j.config_yaml, j.config
          FROM jobs j JOIN resource_pools p ON p.id = j.pool_id WHERE j.id = ${id}::uuid`,
        { statement: "jobs.getDetail" },
      );
      const r = rows[0];
      return r ? { ...toRecord(r), configYaml: r.config_yaml, config: r.config } : null;
    },

    /** Parsed configs of these jobs with their version (the job manager caches them). */
    async configs(
      ids: readonly string[],
    ): Promise<{ id: string; version: number; config: unknown }[]> {
      if (ids.length === 0) return [];
      return db.$queryRaw`
        SELECT id::text, config_version AS version, config FROM jobs
        WHERE id = ANY(${[...ids]}::uuid[])`;
    },

    /** The config version of each of these jobs (the config caches check theirs against it). */
    async configVersionsOf(ids: readonly string[]): Promise<{ id: string; version: number }[]> {
      if (ids.length === 0) return [];
      return db.$queryRaw`
        SELECT id::text, config_version AS version FROM jobs WHERE id = ANY(${[...ids]}::uuid[])`;
    },

    /**
     * A page of jobs, filtered and sorted on the server, keyset-paginated on
     * (sort value, id). Deleted jobs are left out unless asked for.
     */
    async list(q: JobListQuery): Promise<Page<JobRecord>> {
      const sort = SORT_SQL[q.sort ?? "createdAt"];
      const desc = (q.order ?? "desc") === "desc";
      const where: Prisma.Sql[] = [];
      if (q.states?.length) where.push(Prisma.sql`j.state = ANY(${[...q.states]}::"JobState"[])`);
      else where.push(Prisma.sql`j.state <> 'DELETED'`);
      if (q.types?.length) where.push(Prisma.sql`j.type = ANY(${[...q.types]}::"JobType"[])`);
      if (q.poolId) where.push(Prisma.sql`j.pool_id = ${q.poolId}::uuid`);
      if (q.owner) where.push(Prisma.sql`j.owner = ${q.owner}`);
      if (q.text) where.push(jobTextMatch(q.text));
      if (q.labels?.length) where.push(Prisma.sql`j.labels @> ${JSON.stringify(q.labels)}::jsonb`);
      const cursor = decodeKeyset(q.cursor);
      if (cursor) {
        const cmp = Prisma.raw(desc ? "<" : ">");
        where.push(
          Prisma.sql`(${Prisma.raw(sort.expr)}, j.id) ${cmp} (${cursor.v}::${Prisma.raw(sort.cast)}, ${String(cursor.k)}::uuid)`,
        );
      }
      const dir = desc ? "DESC" : "ASC";
      const rows = await db.$queryRaw<JobRow[]>`
        SELECT ${JOB_COLUMNS}, ${Prisma.raw(sort.expr)} AS sort_value
        FROM jobs j JOIN resource_pools p ON p.id = j.pool_id
        WHERE ${Prisma.join(where, " AND ")}
        ORDER BY ${Prisma.raw(`${sort.expr} ${dir}, j.id ${dir}`)}
        LIMIT ${q.limit + 1}`;
      return keysetPage(rows, q.limit, toRecord, (last) =>
        encodeKeyset({ v: cursorValue(last.sort_value), k: last.id }),
      );
    },

    /**
     * A user's intent on the job: goal state and/or instance count, with the
     * intent version bumped so the job manager re-evaluates the job. Guarded
     * by the version the caller read (null when it changed meanwhile).
     */
    async writeIntent(
      id: string,
      expectedVersion: number,
      intent: JobIntentWrite,
    ): Promise<{ version: number } | null> {
      const rows = await db.$queryRaw<{ version: number }[]>`
        UPDATE jobs SET
          goal_state = coalesce(${intent.goalState ?? null}::"GoalState", goal_state),
          instance_count = coalesce(${intent.instanceCount ?? null}::int, instance_count),
          version = version + 1, updated_at = now()
        WHERE id = ${id}::uuid AND version = ${expectedVersion}
        RETURNING version`;
      return rows[0] ?? null;
    },

    /**
     * Moves the job's intent version without changing anything else: the
     * job manager looks at its tasks again (an update moved some of them).
     */
    async bumpIntent(id: string): Promise<void> {
      await db.$executeRaw`UPDATE jobs SET version = version + 1, updated_at = now() WHERE id = ${id}::uuid`;
    },

    /** The job's configuration becomes `version` (an update's target, or its rollback's). */
    async setConfig(
      id: string,
      c: { version: number; configYaml: string; config: unknown; instanceCount?: number },
    ): Promise<void> {
      await db.$executeRaw`
        UPDATE jobs SET config_version = ${c.version}, config_yaml = ${c.configYaml},
          config = ${JSON.stringify(c.config)}::jsonb,
          instance_count = coalesce(${c.instanceCount ?? null}::int, instance_count),
          version = version + 1, updated_at = now()
        WHERE id = ${id}::uuid`;
    },

    /**
     * Adds per-state deltas to the jobs' task counts (one statement for all
     * jobs) and returns the rows the job state is derived from.
     */
    async addTaskCounts(
      deltas: readonly { jobId: string; state: TaskState; delta: number }[],
    ): Promise<JobCountsRecord[]> {
      const nonZero = deltas.filter((d) => d.delta !== 0);
      if (nonZero.length === 0) return [];
      const jobIds = [...new Set(nonZero.map((d) => d.jobId))];
      const rows = await db.$queryRaw<
        {
          id: string;
          type: JobType;
          state: JobState;
          goal_state: GoalState;
          instance_count: number;
          task_stats: Partial<Record<TaskState, number>>;
        }[]
      >`
        WITH locked AS (
          -- Row locks in id order: two writers adding to the same jobs never deadlock.
          -- NO KEY UPDATE (the UPDATE's own lock) leaves a task insert's foreign-key
          -- check (KEY SHARE) alone: a daemon or scale transaction that inserted
          -- tasks of the job does not wait for a writer that waits for it.
          SELECT id FROM jobs WHERE id = ANY(${jobIds}::uuid[]) ORDER BY id FOR NO KEY UPDATE
        )
        UPDATE jobs j SET task_stats = coalesce((
            SELECT jsonb_object_agg(s.k, s.n) FROM (
              SELECT c.k, sum(c.n)::int AS n FROM (
                SELECT e.key AS k, e.value::int AS n FROM jsonb_each_text(j.task_stats) e
                UNION ALL
                SELECT d.state, d.delta FROM unnest(${nonZero.map((d) => d.jobId)}::uuid[],
                  ${nonZero.map((d) => d.state)}::text[], ${nonZero.map((d) => d.delta)}::int[])
                  AS d(job_id, state, delta)
                WHERE d.job_id = j.id
              ) c GROUP BY c.k HAVING sum(c.n) <> 0
            ) s), '{}'::jsonb),
          updated_at = now()
        WHERE j.id IN (SELECT id FROM locked)
        RETURNING j.id::text, j.type::text AS type, j.state::text AS state,
                  j.goal_state::text AS goal_state, j.instance_count, j.task_stats`;
      return rows.map((r) => ({
        id: r.id,
        type: r.type,
        state: r.state,
        goalState: r.goal_state,
        instanceCount: r.instance_count,
        taskStats: r.task_stats,
      }));
    },

    /** Writes derived job states (one statement). */
    async writeStates(states: readonly JobStateWrite[]): Promise<void> {
      if (states.length === 0) return;
      await db.$executeRaw`
        UPDATE jobs j SET state = u.state::"JobState", completed_at = u.completed_at,
                          updated_at = now()
        FROM unnest(${states.map((s) => s.id)}::uuid[], ${states.map((s) => s.state)}::text[],
                    ${states.map((s) => s.completedAt)}::timestamptz[]) AS u(id, state, completed_at)
        WHERE j.id = u.id`;
    },

    /** Jobs the job manager still drives (not at a final state), with their intent version. */
    async active(): Promise<{ id: string; version: number; type: JobType }[]> {
      return db.$queryRaw`
        SELECT id::text, version, type::text AS type FROM jobs
        WHERE NOT (state = 'DELETED'
                   OR (state IN ('SUCCEEDED', 'FAILED') AND goal_state = 'SUCCEEDED')
                   OR (state = 'KILLED' AND goal_state = 'KILLED'))`;
    },

    /** Intent versions of these jobs (to find the ones a user changed). */
    async versions(ids: readonly string[]): Promise<{ id: string; version: number }[]> {
      if (ids.length === 0) return [];
      return db.$queryRaw`
        SELECT id::text, version FROM jobs WHERE id = ANY(${[...ids]}::uuid[])`;
    },

    async search(
      text: string,
      limit: number,
    ): Promise<{ id: string; name: string; state: JobState; instanceCount: number }[]> {
      return db.$queryRaw`
        SELECT id::text, name, state::text AS state, instance_count AS "instanceCount" FROM jobs
        WHERE state <> 'DELETED' AND (name ILIKE ${`%${escapeLike(text)}%`} OR id::text = ${text})
        ORDER BY created_at DESC LIMIT ${limit}`;
    },

    async countByState(): Promise<Partial<Record<JobState, number>>> {
      const groups = await db.job.groupBy({ by: ["state"], _count: { _all: true } });
      return Object.fromEntries(groups.map((g) => [g.state, g._count._all]));
    },
  };
}

export type JobsRepository = ReturnType<typeof jobsRepository>;

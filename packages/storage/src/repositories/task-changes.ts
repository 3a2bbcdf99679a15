/**
 * Task state changes in bulk: the hot path of the scheduler. One UPDATE moves
 * any number of task rows, each guarded by the state and run the decision was
 * made against (optimistic: a row that moved meanwhile is left alone and
 * reported as missed, so the caller decides again on fresh data and no
 * concurrent change is ever overwritten); one INSERT appends the events of
 * the rows that moved; one UPDATE adds the moves to their jobs' task counts.
 * Run them in one transaction with the job states and the announcement.
 */
import { Prisma } from "../generated/prisma/client.ts";
import type { TaskState } from "../records.ts";
import type { DbOrTx } from "../tx.ts";
import { type CountDelta, countDeltasOf } from "./count-deltas.ts";

/** One row of a task's history (task_events). */
export interface TaskEventWrite {
  runId: number;
  clusterTaskId: string | null;
  previousState: TaskState | null;
  state: TaskState;
  /** JOB_MANAGER, RESOURCE_MANAGER, PLACEMENT, HOST_MANAGER, PREEMPTOR, USER. */
  source: string;
  reason: string | null;
  message: string | null;
  hostname: string | null;
  agentId: string | null;
  at: Date;
}

/** Columns a change may set; a field left out keeps the row's value. */
export interface TaskColumnWrites {
  runId?: number;
  clusterTaskId?: string | null;
  hostname?: string | null;
  agentId?: string | null;
  ports?: Record<string, number>;
  failureCount?: number;
  startedAt?: Date | null;
  finishedAt?: Date | null;
  notBefore?: Date | null;
  queuedAt?: Date | null;
  previousHost?: string | null;
}

/**
 * A task moving from the state (and run) it was seen in to `state`, with the
 * events that explain it (several when one decision passes through states,
 * e.g. a failed run replaced by a new one that is queued at once). A change
 * with `state` equal to the expected one and no events only rewrites the
 * reason and message (why a task still waits).
 */
export interface TaskChange {
  taskId: string;
  jobId: string;
  instanceId: number;
  expect: { state: TaskState; runId: number };
  state: TaskState;
  reason: string | null;
  message: string | null;
  set?: TaskColumnWrites;
  events: readonly TaskEventWrite[];
}

export interface TaskChangesOutcome {
  applied: TaskChange[];
  /** Rows that were no longer in the expected state and run (or are gone). */
  missed: TaskChange[];
  /** Per job and state, how many tasks entered (+) or left (−) it. */
  countDeltas: CountDelta[];
}

/** The optional columns, their SQL type, and how a change gives them. */
const OPTIONAL_COLUMNS: readonly {
  key: keyof TaskColumnWrites;
  column: string;
  type: string;
  encode?: (v: unknown) => unknown;
}[] = [
  { key: "runId", column: "run_id", type: "int" },
  { key: "clusterTaskId", column: "mesos_task_id", type: "text" },
  { key: "hostname", column: "hostname", type: "text" },
  { key: "agentId", column: "agent_id", type: "text" },
  { key: "ports", column: "ports", type: "jsonb", encode: (v) => JSON.stringify(v) },
  { key: "failureCount", column: "failure_count", type: "int" },
  { key: "startedAt", column: "started_at", type: "timestamptz" },
  { key: "finishedAt", column: "finished_at", type: "timestamptz" },
  { key: "notBefore", column: "not_before", type: "timestamptz" },
  { key: "queuedAt", column: "queued_at", type: "timestamptz" },
  { key: "previousHost", column: "previous_host", type: "text" },
];

/** The UPDATE for a list of changes: one array per column, a "given" flag per optional one. */
function updateStatement(changes: readonly TaskChange[]): Prisma.Sql {
  const arrays: Prisma.Sql[] = [
    Prisma.sql`${changes.map((c) => c.taskId)}::uuid[]`,
    Prisma.sql`${changes.map((c) => c.expect.state)}::text[]`,
    Prisma.sql`${changes.map((c) => c.expect.runId)}::int[]`,
    Prisma.sql`${changes.map((c) => c.state)}::text[]`,
    Prisma.sql`${changes.map((c) => c.reason)}::text[]`,
    Prisma.sql`${changes.map((c) => c.message)}::text[]`,
  ];
  const names = ["id", "expect_state", "expect_run", "state", "reason", "message"];
  const sets: string[] = [];
  for (const col of OPTIONAL_COLUMNS) {
    // Columns no change sets stay out of the statement altogether.
    if (!changes.some((c) => c.set !== undefined && col.key in c.set)) continue;
    const given = changes.map((c) => c.set !== undefined && col.key in c.set);
    const values = changes.map((c) => {
      const v = c.set?.[col.key];
      return v === undefined || v === null ? null : col.encode ? col.encode(v) : v;
    });
    const arrayType = col.type === "jsonb" ? "text" : col.type;
    arrays.push(Prisma.sql`${values}::${Prisma.raw(arrayType)}[]`, Prisma.sql`${given}::bool[]`);
    names.push(`v_${col.column}`, `g_${col.column}`);
    const value = col.type === "jsonb" ? `u.v_${col.column}::jsonb` : `u.v_${col.column}`;
    sets.push(`${col.column} = CASE WHEN u.g_${col.column} THEN ${value} ELSE t.${col.column} END`);
  }
  const setSql = Prisma.raw(
    [
      `state = u.state::"TaskState"`,
      "reason = u.reason",
      "message = u.message",
      ...sets,
      "version = t.version + 1",
      "updated_at = now()",
    ].join(", "),
  );
  return Prisma.sql`
    UPDATE tasks t SET ${setSql}
    FROM unnest(${Prisma.join(arrays, ", ")}) AS u(${Prisma.raw(names.join(", "))})
    WHERE t.id = u.id AND t.state = u.expect_state::"TaskState" AND t.run_id = u.expect_run
    RETURNING t.id::text AS id`;
}

async function insertEvents(db: DbOrTx, changes: readonly TaskChange[]): Promise<void> {
  const rows = changes.flatMap((c) => c.events.map((e) => ({ c, e })));
  if (rows.length === 0) return;
  await db.$executeRaw`
    INSERT INTO task_events (task_id, job_id, instance_id, run_id, mesos_task_id, previous_state,
                             state, source, reason, message, hostname, agent_id, at)
    SELECT u.task_id, u.job_id, u.instance_id, u.run_id, u.mesos_task_id,
           u.previous_state::"TaskState", u.state::"TaskState", u.source, u.reason, u.message,
           u.hostname, u.agent_id, u.at
    FROM unnest(${rows.map((r) => r.c.taskId)}::uuid[], ${rows.map((r) => r.c.jobId)}::uuid[],
                ${rows.map((r) => r.c.instanceId)}::int[], ${rows.map((r) => r.e.runId)}::int[],
                ${rows.map((r) => r.e.clusterTaskId)}::text[],
                ${rows.map((r) => r.e.previousState)}::text[], ${rows.map((r) => r.e.state)}::text[],
                ${rows.map((r) => r.e.source)}::text[], ${rows.map((r) => r.e.reason)}::text[],
                ${rows.map((r) => r.e.message)}::text[], ${rows.map((r) => r.e.hostname)}::text[],
                ${rows.map((r) => r.e.agentId)}::text[], ${rows.map((r) => r.e.at)}::timestamptz[])
      AS u(task_id, job_id, instance_id, run_id, mesos_task_id, previous_state, state, source,
           reason, message, hostname, agent_id, at)`;
}

/** Statements per UPDATE: past this many rows a batch is split (parameter arrays stay moderate). */
const CHUNK = 5_000;

export function taskChangesRepository(db: DbOrTx) {
  return {
    /** Applies the changes that still find their row as expected; see the file comment. */
    async apply(changes: readonly TaskChange[]): Promise<TaskChangesOutcome> {
      const applied: TaskChange[] = [];
      const missed: TaskChange[] = [];
      for (let i = 0; i < changes.length; i += CHUNK) {
        const chunk = changes.slice(i, i + CHUNK);
        const rows = await db.$queryRaw<{ id: string }[]>(updateStatement(chunk));
        const moved = new Set(rows.map((r) => r.id));
        for (const c of chunk) (moved.has(c.taskId) ? applied : missed).push(c);
      }
      await insertEvents(db, applied);
      return {
        applied,
        missed,
        countDeltas: countDeltasOf(
          applied.map((c) => ({ jobId: c.jobId, from: c.expect.state, to: c.state })),
        ),
      };
    },
  };
}

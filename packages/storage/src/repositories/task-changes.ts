/**
 * Task state changes in bulk: the hot path of the scheduler. One UPDATE moves
 * any number of task rows, each guarded by the state and run the decision was
 * made against (optimistic: a row that moved meanwhile is left alone and
 * reported as missed, so the caller decides again on fresh data and no
 * concurrent change is ever overwritten) and, in the same statement, appends
 * the events of the rows that moved. The job manager then adds the moves to
 * their jobs' task counts (`countDeltas`) in the same transaction.
 */
import { withBulkJson } from "../bulk-parameters.ts";
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
}[] = [
  { key: "runId", column: "run_id", type: "int" },
  { key: "clusterTaskId", column: "mesos_task_id", type: "text" },
  { key: "hostname", column: "hostname", type: "text" },
  { key: "agentId", column: "agent_id", type: "text" },
  { key: "ports", column: "ports", type: "jsonb" },
  { key: "failureCount", column: "failure_count", type: "int" },
  { key: "startedAt", column: "started_at", type: "timestamptz" },
  { key: "finishedAt", column: "finished_at", type: "timestamptz" },
  { key: "notBefore", column: "not_before", type: "timestamptz" },
  { key: "queuedAt", column: "queued_at", type: "timestamptz" },
  { key: "previousHost", column: "previous_host", type: "text" },
];

const EVENT_COLUMNS = `n int, task_id uuid, job_id uuid, instance_id int, run_id int, mesos_task_id text,
  previous_state "TaskState", state "TaskState", source text, reason text, message text,
  hostname text, agent_id text, at timestamptz`;

/**
 * One statement for a list of changes: the guarded UPDATE of the task rows,
 * then the INSERT of the events of the rows it moved (in the order given),
 * answering the ids it moved. The changes travel as two JSON documents
 * (PostgreSQL's json_to_recordset unpacks them; `withBulkJson` carries them
 * past Prisma): a parameter per batch, not one array per column whose every
 * element the driver would encode.
 */
function applyStatement(changes: readonly TaskChange[]) {
  const optional = OPTIONAL_COLUMNS.filter((col) =>
    // Columns no change sets stay out of the statement altogether.
    changes.some((c) => c.set !== undefined && col.key in c.set),
  );
  const rows = changes.map((c) => {
    const row: Record<string, unknown> = {
      id: c.taskId,
      expect_state: c.expect.state,
      expect_run: c.expect.runId,
      state: c.state,
      reason: c.reason,
      message: c.message,
    };
    for (const col of optional) {
      const given = c.set !== undefined && col.key in c.set;
      row[`g_${col.column}`] = given;
      if (given) row[`v_${col.column}`] = c.set?.[col.key] ?? null;
    }
    return row;
  });
  let n = 0;
  const events = changes.flatMap((c) =>
    c.events.map((e) => ({
      n: n++,
      task_id: c.taskId,
      job_id: c.jobId,
      instance_id: c.instanceId,
      run_id: e.runId,
      mesos_task_id: e.clusterTaskId,
      previous_state: e.previousState,
      state: e.state,
      source: e.source,
      reason: e.reason,
      message: e.message,
      hostname: e.hostname,
      agent_id: e.agentId,
      at: e.at,
    })),
  );
  const columns = [
    `id uuid, expect_state "TaskState", expect_run int, state "TaskState", reason text, message text`,
    ...optional.map((col) => `g_${col.column} bool, v_${col.column} ${col.type}`),
  ].join(", ");
  const sets = [
    "state = u.state",
    "reason = u.reason",
    "message = u.message",
    ...optional.map(
      (col) =>
        `${col.column} = CASE WHEN u.g_${col.column} THEN u.v_${col.column} ELSE t.${col.column} END`,
    ),
    "version = t.version + 1",
    "updated_at = now()",
  ].join(", ");
  const sql = (rowsDoc: Prisma.Sql, eventsDoc: Prisma.Sql) => Prisma.sql`
    WITH moved AS (
      UPDATE tasks t SET ${Prisma.raw(sets)}
      FROM json_to_recordset(${rowsDoc}) AS u(${Prisma.raw(columns)})
      WHERE t.id = u.id AND t.state = u.expect_state AND t.run_id = u.expect_run
      RETURNING t.id
    ), logged AS (
      INSERT INTO task_events (task_id, job_id, instance_id, run_id, mesos_task_id, previous_state,
                               state, source, reason, message, hostname, agent_id, at)
      SELECT e.task_id, e.job_id, e.instance_id, e.run_id, e.mesos_task_id, e.previous_state,
             e.state, e.source, e.reason, e.message, e.hostname, e.agent_id, e.at
      FROM json_to_recordset(${eventsDoc}) AS e(${Prisma.raw(EVENT_COLUMNS)})
      WHERE e.task_id IN (SELECT id FROM moved)
      ORDER BY e.n
    )
    SELECT id::text AS id FROM moved`;
  return { docs: [rows, events] as const, sql };
}

export function taskChangesRepository(db: DbOrTx) {
  return {
    /** Applies the changes that still find their row as expected; see the file comment. */
    async apply(changes: readonly TaskChange[]): Promise<TaskChangesOutcome> {
      const applied: TaskChange[] = [];
      const missed: TaskChange[] = [];
      if (changes.length > 0) {
        const statement = applyStatement(changes);
        const rows = await withBulkJson(statement.docs, ([rowsDoc, eventsDoc]) =>
          db.$queryRaw<{ id: string }[]>(statement.sql(rowsDoc, eventsDoc)),
        );
        const moved = new Set(rows.map((r) => r.id));
        for (const c of changes) (moved.has(c.taskId) ? applied : missed).push(c);
      }
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

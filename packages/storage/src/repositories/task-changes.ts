/**
 * Task state changes in bulk: the hot path of the scheduler. One UPDATE moves
 * any number of task rows, each guarded by the state and run the decision was
 * made against (optimistic: a row that moved meanwhile is left alone and
 * reported as missed, so the caller decides again on fresh data and no
 * concurrent change is ever overwritten) and, in the same statement, appends
 * the events of the rows that moved. The job manager then adds the moves to
 * their jobs' task counts (`countDeltas`) in the same transaction.
 */
import type { GoalState, HealthState, TaskState } from "@peloton/engine";
import { type ArrayElement, arrayLiteral } from "../array-literal.ts";
import { withDirectParameters } from "../direct-parameters.ts";
import { Prisma } from "../generated/prisma/client.ts";
import { preferIndexProbes } from "../planner.ts";
import { timestamptzArray } from "../timestamptz-array.ts";
import type { DbOrTx } from "../tx.ts";
import { type CountDelta, countDeltasOf } from "./count-deltas.ts";
import { lockTasksInIdOrder } from "./task-locks.ts";

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
  /** On the event of a health change: the run's new health. */
  health?: HealthState;
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
  /** The run's health (with the run it belongs to, when it changes). */
  health?: HealthState;
  healthRunId?: number | null;
  healthChangedAt?: Date | null;
  healthMessage?: string | null;
  /** The task's own goal (a run past its sla.maxRunningTime is given KILLED). */
  goalState?: GoalState;
  /** The config version a new run is launched with (its instance's desired one). */
  configVersion?: number;
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
  { key: "health", column: "health", type: '"HealthState"' },
  { key: "healthRunId", column: "health_run_id", type: "int" },
  { key: "healthChangedAt", column: "health_changed_at", type: "timestamptz" },
  { key: "healthMessage", column: "health_message", type: "text" },
  { key: "goalState", column: "goal_state", type: '"GoalState"' },
  { key: "configVersion", column: "config_version", type: "int" },
];

/** One column of a statement's input: its name, its SQL type, a value per row. */
interface InputColumn {
  name: string;
  type: string;
  values: ArrayElement[];
}

/** The columns as `unnest(<arrays>) AS alias(<names>)`, the arrays past Prisma (see direct-parameters.ts). */
function unnestOf(alias: string, columns: readonly InputColumn[], params: readonly Prisma.Sql[]) {
  const arrays = columns.map((col, i) => Prisma.sql`${params[i]}::${Prisma.raw(col.type)}[]`);
  return Prisma.sql`unnest(${Prisma.join(arrays)}) WITH ORDINALITY AS ${Prisma.raw(alias)}(${Prisma.raw(
    [...columns.map((col) => col.name), "n"].join(", "),
  )})`;
}

/** A column's array as the driver sends it: times in binary, the rest as a text literal. */
function parameterOf(col: InputColumn): string | Buffer {
  return col.type === "timestamptz"
    ? timestamptzArray(col.values as (Date | null)[])
    : arrayLiteral(col.values);
}

/**
 * One statement for a list of changes: the guarded UPDATE of the task rows,
 * then the INSERT of the events of the rows it moved (in the order given),
 * answering the positions (1-based) of the changes whose rows it did not
 * move. The changes travel as one array per column, handed to the driver
 * directly (`withDirectParameters`): PostgreSQL reads arrays in half the time
 * it takes to unpack the same rows from JSON. Times go in binary
 * (timestamptz-array.ts), the rest as text literals (array-literal.ts).
 *
 * The ids go once, with the changes: an event names its change by position
 * (`change`), and the task, job and instance it is written with come back
 * from the UPDATE's rows. Every array element is one the scheduler builds
 * and sends; two uuids and an int less per event took a 1,000-change batch
 * (two events each) from 62-85 to 52-63 ms, PostgreSQL's own time the same.
 */
function applyStatement(changes: readonly TaskChange[]) {
  const optional = OPTIONAL_COLUMNS.filter((col) =>
    // Columns no change sets stay out of the statement altogether.
    changes.some((c) => c.set !== undefined && col.key in c.set),
  );
  const rows: InputColumn[] = [
    { name: "id", type: "uuid", values: changes.map((c) => c.taskId) },
    { name: "expect_state", type: '"TaskState"', values: changes.map((c) => c.expect.state) },
    { name: "expect_run", type: "int", values: changes.map((c) => c.expect.runId) },
    { name: "state", type: '"TaskState"', values: changes.map((c) => c.state) },
    { name: "reason", type: "text", values: changes.map((c) => c.reason) },
    { name: "message", type: "text", values: changes.map((c) => c.message) },
    ...optional.flatMap((col) => [
      {
        name: `g_${col.column}`,
        type: "bool",
        values: changes.map((c) => c.set !== undefined && col.key in c.set),
      },
      {
        name: `v_${col.column}`,
        type: col.type,
        values: changes.map((c) => c.set?.[col.key] ?? null),
      },
    ]),
  ];
  const events = changes.flatMap((c, i) => c.events.map((e) => ({ change: i + 1, e })));
  const eventColumns: InputColumn[] = [
    { name: "change", type: "int", values: events.map(({ change }) => change) },
    { name: "run_id", type: "int", values: events.map(({ e }) => e.runId) },
    { name: "mesos_task_id", type: "text", values: events.map(({ e }) => e.clusterTaskId) },
    { name: "previous_state", type: '"TaskState"', values: events.map(({ e }) => e.previousState) },
    { name: "state", type: '"TaskState"', values: events.map(({ e }) => e.state) },
    { name: "source", type: "text", values: events.map(({ e }) => e.source) },
    { name: "reason", type: "text", values: events.map(({ e }) => e.reason) },
    { name: "message", type: "text", values: events.map(({ e }) => e.message) },
    { name: "hostname", type: "text", values: events.map(({ e }) => e.hostname) },
    { name: "agent_id", type: "text", values: events.map(({ e }) => e.agentId) },
    { name: "at", type: "timestamptz", values: events.map(({ e }) => e.at) },
    { name: "health", type: '"HealthState"', values: events.map(({ e }) => e.health ?? null) },
  ];
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
  // params: one per column of `rows`, then one per event column.
  const sql = (params: readonly Prisma.Sql[]) => Prisma.sql`
    WITH moved AS (
      UPDATE tasks t SET ${Prisma.raw(sets)}
      FROM ${unnestOf("u", rows, params)}
      WHERE t.id = u.id AND t.state = u.expect_state AND t.run_id = u.expect_run
      RETURNING t.id, t.job_id, t.instance_id, u.n
    ), logged AS (
      INSERT INTO task_events (task_id, job_id, instance_id, run_id, mesos_task_id, previous_state,
                               state, source, reason, message, hostname, agent_id, at, health)
      SELECT m.id, m.job_id, m.instance_id, e.run_id, e.mesos_task_id, e.previous_state,
             e.state, e.source, e.reason, e.message, e.hostname, e.agent_id, e.at, e.health
      FROM ${unnestOf("e", eventColumns, params.slice(rows.length))}
      JOIN moved m ON m.n = e.change
      ORDER BY e.n
    )
    -- Only the changes whose rows did not move come back (usually none, and
    -- then the condition on the count stops the scan before it starts):
    -- answering every moved row cost the scheduler a result row per change.
    SELECT c.n::int AS n FROM generate_series(1, ${changes.length}::int) AS c(n)
    WHERE (SELECT count(*) FROM moved) < ${changes.length}::int
      AND c.n NOT IN (SELECT n FROM moved)`;
  return { columns: [...rows, ...eventColumns], sql };
}

export function taskChangesRepository(db: DbOrTx) {
  return {
    /** Applies the changes that still find their row as expected; see the file comment. */
    async apply(changes: readonly TaskChange[]): Promise<TaskChangesOutcome> {
      const applied: TaskChange[] = [];
      const missed: TaskChange[] = [];
      if (changes.length > 0) {
        // A batch finds its rows through the primary key, whatever the table's size (planner.ts).
        if (changes.length > 1) await preferIndexProbes(db);
        // Rows locked in id order before the UPDATE meets them in the changes' order (task-locks.ts).
        await lockTasksInIdOrder(
          db,
          changes.map((c) => c.taskId),
        );
        const statement = applyStatement(changes);
        const rows = await withDirectParameters(statement.columns.map(parameterOf), (params) =>
          db.$queryRaw<{ n: number }[]>(statement.sql(params)),
        );
        const stayed = new Set(rows.map((r) => r.n - 1));
        for (const [i, c] of changes.entries()) (stayed.has(i) ? missed : applied).push(c);
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

/**
 * What users ask of tasks, written by the API: a goal state (stop, start,
 * delete) and a desired run (restart: replace the current run). Only these
 * intent columns change here; the leader's job manager moves the tasks.
 */
import type { GoalState, TaskState } from "@peloton/engine";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { lockedTasksWhere } from "./task-locks.ts";

/** Instances from..to, both included. */
export interface InstanceRange {
  from: number;
  to: number;
}

export interface TaskIntentQuery {
  jobId: string;
  /** Every instance of the job when absent. */
  instances?: readonly InstanceRange[] | undefined;
}

function instanceFilter(q: TaskIntentQuery): Prisma.Sql {
  if (!q.instances?.length) return Prisma.sql`TRUE`;
  return Prisma.sql`(${Prisma.join(
    q.instances.map((r) => Prisma.sql`t.instance_id BETWEEN ${r.from} AND ${r.to}`),
    " OR ",
  )})`;
}

export function taskIntentsRepository(db: DbOrTx) {
  return {
    /** The job's tasks within the ranges: instance, row id, state and run. */
    async existing(
      q: TaskIntentQuery,
    ): Promise<{ instanceId: number; taskId: string; state: TaskState; runId: number }[]> {
      const rows = await db.$queryRaw<
        { instance_id: number; id: string; state: TaskState; run_id: number }[]
      >`
        SELECT t.instance_id, t.id::text, t.state::text AS state, t.run_id FROM tasks t
        WHERE t.job_id = ${q.jobId}::uuid AND ${instanceFilter(q)} ORDER BY 1`;
      return rows.map((r) => ({
        instanceId: r.instance_id,
        taskId: r.id,
        state: r.state,
        runId: r.run_id,
      }));
    },

    /**
     * Sets the goal of the selected tasks (those not being deleted, unless
     * `revive`: a scaled-down instance scaled up again); with `newRunIn`,
     * tasks in those states also get a new desired run (their ended run is
     * replaced), with `replaceRun` all of them do. Returns the instances
     * whose intent changed.
     */
    async setGoal(
      q: TaskIntentQuery,
      goal: GoalState,
      opts: {
        newRunIn?: readonly TaskState[];
        replaceRun?: boolean;
        revive?: boolean;
        /** A restart: who asked, kept on the rows given a new desired run. */
        restartBy?: string;
      } = {},
    ): Promise<number[]> {
      const newRunIn = opts.replaceRun ? null : (opts.newRunIn ?? []);
      const bump =
        newRunIn === null
          ? Prisma.sql`TRUE`
          : Prisma.sql`t.state::text = ANY(${[...newRunIn]}::text[])`;
      // The selected rows are locked in id order first (task-locks.ts): a stop of a
      // big job meets the task writer's batches on the same rows without deadlocking.
      const rows = await db.$queryRaw<{ instance_id: number }[]>`
        WITH locked AS ${lockedTasksWhere(Prisma.sql`t.job_id = ${q.jobId}::uuid AND ${instanceFilter(q)}`)}
        UPDATE tasks t SET goal_state = ${goal}::"GoalState",
          desired_run = CASE WHEN ${bump} THEN t.run_id + 1 ELSE t.desired_run END,
          restart_requested_by = CASE WHEN ${bump} THEN ${opts.restartBy ?? null}::text
                                      ELSE t.restart_requested_by END,
          restart_reason = CASE WHEN ${bump} THEN NULL ELSE t.restart_reason END,
          version = t.version + 1, updated_at = now()
        FROM locked l
        WHERE t.id = l.id
          AND (t.goal_state <> 'DELETED' OR ${goal}::"GoalState" = 'DELETED' OR ${opts.revive === true})
          AND (t.goal_state <> ${goal}::"GoalState" OR ${bump})
        RETURNING t.instance_id`;
      return rows.map((r) => r.instance_id).sort((a, b) => a - b);
    },
  };
}

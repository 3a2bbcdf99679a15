/**
 * Writing preemptions: the preemptor's record of each victim, and the job
 * manager's note that a victim came back.
 */
import type { TaskState } from "@peloton/engine";
import type { DbOrTx } from "../../tx.ts";
import { changesRepository } from "../changes.ts";
import { countDeltasOf } from "../count-deltas.ts";
import { lockTasksInIdOrder } from "../task-locks.ts";
import { COUNT_PERIODS } from "./counts.ts";
import { poolKeysOf } from "./filters.ts";
import type { NewPreemption, PreemptionRecordOutcome, RescheduledRun } from "./types.ts";

/** task_events.source of the events recordMany writes. */
export const PREEMPTOR_SOURCE = "PREEMPTOR";
/** The task's reason while and after it is preempted (the lifecycle's PREEMPTED_REASON). */
export const PREEMPTED_REASON = "PREEMPTED";

/**
 * Every pool a preemption was for, closest first: inter-pool, the closest
 * and every pool its numbers name (the ones that waited, or whose demand
 * took the entitlement); intra-pool, the waiting gang's (the victim's own).
 */
export function beneficiaryPoolsOf(r: NewPreemption): string[] {
  const pools = r.beneficiary ? [r.beneficiary.poolPath] : [];
  if (r.kind === "INTER_POOL") pools.push(...r.numbers.beneficiaries.map((b) => b.pool));
  return [...new Set(pools)];
}

/** One array per column, in row order: unnested server-side into one statement. */
function columns(rows: readonly NewPreemption[]) {
  const c = {
    at: [] as Date[],
    kind: [] as string[],
    taskId: [] as string[],
    jobId: [] as string[],
    jobName: [] as string[],
    instanceId: [] as number[],
    runId: [] as number[],
    priority: [] as number[],
    state: [] as string[],
    stateAfter: [] as string[],
    poolId: [] as string[],
    poolPath: [] as string[],
    bPoolId: [] as (string | null)[],
    bPoolPath: [] as (string | null)[],
    bGangId: [] as (string | null)[],
    bTaskId: [] as (string | null)[],
    bJobId: [] as (string | null)[],
    bJobName: [] as (string | null)[],
    bInstanceId: [] as (number | null)[],
    bPriority: [] as (number | null)[],
    bPoolPaths: [] as string[],
    level: [] as (string | null)[],
    reason: [] as string[],
    numbers: [] as string[],
    poolKeys: [] as string[],
  };
  for (const r of rows) {
    const v = r.victim;
    const b = r.beneficiary;
    c.at.push(r.at);
    c.kind.push(r.kind);
    c.taskId.push(v.taskId);
    c.jobId.push(v.jobId);
    c.jobName.push(v.jobName);
    c.instanceId.push(v.instanceId);
    c.runId.push(v.runId);
    c.priority.push(v.priority);
    c.state.push(v.state);
    c.stateAfter.push(v.stateAfter);
    c.poolId.push(v.poolId);
    c.poolPath.push(v.poolPath);
    c.bPoolId.push(b?.poolId ?? null);
    c.bPoolPath.push(b?.poolPath ?? null);
    c.bGangId.push(b?.gangId ?? null);
    c.bTaskId.push(b?.task?.taskId ?? null);
    c.bJobId.push(b?.task?.jobId ?? null);
    c.bJobName.push(b?.task?.jobName ?? null);
    c.bInstanceId.push(b?.task?.instanceId ?? null);
    c.bPriority.push(b?.priority ?? null);
    c.level.push(r.level);
    c.reason.push(r.reason);
    c.numbers.push(JSON.stringify(r.numbers));
    // JSON arrays per row: unnest would flatten a two-dimensional text[].
    const beneficiaryPools = beneficiaryPoolsOf(r);
    c.bPoolPaths.push(JSON.stringify(beneficiaryPools));
    c.poolKeys.push(JSON.stringify(poolKeysOf(v.poolPath, beneficiaryPools)));
  }
  return c;
}

export function preemptionWrites(db: DbOrTx) {
  async function markRescheduledMany(runs: readonly RescheduledRun[]): Promise<number> {
    if (runs.length === 0) return 0;
    const marked = await db.$queryRaw<{ id: string; task_key: string }[]>`
      UPDATE preemptions p
      SET rescheduled_at = r.at, rescheduled_run_id = r.run_id
      FROM unnest(${runs.map((r) => r.taskId)}::uuid[], ${runs.map((r) => r.runId)}::int[],
                  ${runs.map((r) => r.at)}::timestamptz[]) AS r(task_id, run_id, at)
      WHERE p.victim_task_id = r.task_id AND p.rescheduled_at IS NULL AND p.at <= r.at
        AND CASE WHEN p.victim_state_after = 'PENDING' THEN p.victim_run_id <= r.run_id
                 ELSE p.victim_run_id < r.run_id END
      RETURNING p.id::text, p.victim_job_id::text || '/' || p.victim_instance_id AS task_key`;
    if (marked.length > 0) {
      await changesRepository(db).announce(
        { topic: "preemptions", keys: marked.map((m) => m.id) },
        { topic: "tasks", keys: [...new Set(marked.map((m) => m.task_key))] },
      );
    }
    return marked.length;
  }

  return {
    /**
     * Records one decision per victim **and moves the victim into it**, in
     * one statement inside the caller's transaction:
     *
     *   task    RUNNING → PREEMPTING (the kill is to be sent), or READY /
     *           PLACING → PENDING (it held no host yet); reason PREEMPTED,
     *           message the rule in words
     *   event   the task_events row of that move (source PREEMPTOR, reason
     *           PREEMPTED, the same words): "a preemption shows up in the
     *           victim task's events"
     *   row     the preemptions row with the numbers, and its pools'
     *           counts per hour and day
     *
     * The preemption owns the victim's move and its event, and the kill path
     * owns everything after it (sending the kill for PREEMPTING tasks, the
     * cluster's KILLED, the next run or the end per restart policy, each with
     * its own event): so there is exactly one event per transition, and a
     * preemption can never be recorded without its event, nor an event
     * without its preemption.
     *
     * A victim whose task is no longer in the state and run the decision saw
     * (or is not the job's instance the row names) is skipped and returned
     * as stale (decisions are made on a snapshot);
     * callers kill only what was recorded. Refuses to run outside a
     * transaction: the rows belong with the caller's own writes.
     */
    async recordMany(rows: readonly NewPreemption[]): Promise<PreemptionRecordOutcome> {
      // Prisma's transaction client is the one without $connect.
      if ("$connect" in (db as object)) {
        throw new Error(
          "preemptions.recordMany must run inside a transaction (gateway.transaction)",
        );
      }
      if (rows.length === 0) return { recorded: [], stale: [], countDeltas: [] };
      const ids = rows.map((r) => r.victim.taskId);
      if (new Set(ids).size !== ids.length) {
        throw new Error("preemptions.recordMany: a task is a victim at most once per call");
      }
      // Victims locked in id order first, as every bulk task write does (task-locks.ts).
      await lockTasksInIdOrder(db, ids);
      const c = columns(rows);
      const recorded = await db.$queryRaw<{ id: string; task_id: string }[]>`
        WITH u AS (
          SELECT * FROM unnest(
            ${c.at}::timestamptz[], ${c.kind}::text[], ${c.taskId}::uuid[], ${c.jobId}::uuid[],
            ${c.jobName}::text[], ${c.instanceId}::int[], ${c.runId}::int[], ${c.priority}::int[],
            ${c.state}::text[], ${c.stateAfter}::text[], ${c.poolId}::uuid[], ${c.poolPath}::text[],
            ${c.bPoolId}::uuid[], ${c.bPoolPath}::text[], ${c.bGangId}::text[], ${c.bTaskId}::uuid[],
            ${c.bJobId}::uuid[], ${c.bJobName}::text[], ${c.bInstanceId}::int[], ${c.bPriority}::int[],
            ${c.level}::text[], ${c.reason}::text[], ${c.numbers}::text[], ${c.poolKeys}::text[],
            ${c.bPoolPaths}::text[]
          ) WITH ORDINALITY AS u(at, kind, task_id, job_id, job_name, instance_id, run_id, priority,
                                 state, state_after, pool_id, pool_path, b_pool_id, b_pool_path,
                                 b_gang_id, b_task_id, b_job_id, b_job_name, b_instance_id,
                                 b_priority, level, reason, numbers, pool_keys, b_pool_paths, ord)
        ),
        moved AS (
          UPDATE tasks t
          SET state = u.state_after::"TaskState", reason = ${PREEMPTED_REASON}, message = u.reason,
              version = t.version + 1, updated_at = now()
          FROM u
          -- Only the run the decision saw, of the job and instance the row names.
          WHERE t.id = u.task_id AND t.state = u.state::"TaskState" AND t.run_id = u.run_id
            AND t.job_id = u.job_id AND t.instance_id = u.instance_id
          RETURNING t.id, t.mesos_task_id, t.hostname, t.agent_id
        ),
        counted AS (
          -- The per-period counts (counts.ts): out of / into / within each pool.
          INSERT INTO preemption_counts (period_seconds, start, pool, side, n)
          SELECT d.period, to_timestamp(floor(extract(epoch FROM s.at) / d.period) * d.period),
                 s.pool, s.side, count(*)::int
          FROM (
            SELECT u.at, u.pool_path AS pool,
                   CASE WHEN u.kind = 'INTRA_POOL' THEN 'within' ELSE 'out' END AS side
            FROM u JOIN moved m ON m.id = u.task_id
            UNION ALL
            SELECT u.at, b.pool, 'in' FROM u JOIN moved m ON m.id = u.task_id
            CROSS JOIN LATERAL jsonb_array_elements_text(u.b_pool_paths::jsonb) AS b(pool)
            WHERE u.kind = 'INTER_POOL'
          ) s CROSS JOIN (VALUES (${COUNT_PERIODS[0]}::int), (${COUNT_PERIODS[1]}::int)) AS d(period)
          GROUP BY 1, 2, 3, 4
          ON CONFLICT (period_seconds, start, pool, side)
          DO UPDATE SET n = preemption_counts.n + EXCLUDED.n
        ),
        events AS (
          INSERT INTO task_events (task_id, job_id, instance_id, run_id, mesos_task_id,
                                   previous_state, state, source, reason, message, hostname,
                                   agent_id, at)
          SELECT u.task_id, u.job_id, u.instance_id, u.run_id, m.mesos_task_id,
                 u.state::"TaskState", u.state_after::"TaskState", ${PREEMPTOR_SOURCE},
                 ${PREEMPTED_REASON}, u.reason, m.hostname, m.agent_id, u.at
          FROM u JOIN moved m ON m.id = u.task_id
          ORDER BY u.ord
        )
        INSERT INTO preemptions (at, kind, victim_task_id, victim_job_id, victim_job_name,
                                 victim_instance_id, victim_run_id, victim_priority, victim_state,
                                 victim_state_after, victim_pool_id, victim_pool_path,
                                 beneficiary_pool_id, beneficiary_pool_path, beneficiary_gang_id,
                                 beneficiary_task_id, beneficiary_job_id, beneficiary_job_name,
                                 beneficiary_instance_id, beneficiary_priority,
                                 beneficiary_pool_paths, level, reason, numbers, pool_keys)
        SELECT u.at, u.kind::"PreemptionKind", u.task_id, u.job_id, u.job_name, u.instance_id,
               u.run_id, u.priority, u.state::"TaskState", u.state_after::"TaskState", u.pool_id,
               u.pool_path, u.b_pool_id, u.b_pool_path, u.b_gang_id, u.b_task_id, u.b_job_id,
               u.b_job_name, u.b_instance_id, u.b_priority,
               ARRAY(SELECT jsonb_array_elements_text(u.b_pool_paths::jsonb)), u.level, u.reason,
               u.numbers::jsonb,
               ARRAY(SELECT jsonb_array_elements_text(u.pool_keys::jsonb))
        FROM u JOIN moved m ON m.id = u.task_id
        ORDER BY u.ord
        RETURNING id::text, victim_task_id::text AS task_id`;

      const done = new Set(recorded.map((r) => r.task_id));
      const staleRows = rows.filter((r) => !done.has(r.victim.taskId));
      const stale = await staleOutcomes(db, staleRows);

      const written = rows.filter((r) => done.has(r.victim.taskId));
      if (written.length > 0) {
        const pools = new Set<string>();
        for (const r of written) {
          pools.add(r.victim.poolPath);
          for (const pool of beneficiaryPoolsOf(r)) pools.add(pool);
        }
        await changesRepository(db).announce(
          { topic: "preemptions", keys: recorded.map((r) => r.id) },
          { topic: "tasks", keys: written.map((r) => `${r.victim.jobId}/${r.victim.instanceId}`) },
          { topic: "jobs", keys: [...new Set(written.map((r) => r.victim.jobId))] },
          { topic: "pools", keys: [...pools] },
        );
      }
      return {
        recorded: recorded.map((r) => ({ id: r.id, taskId: r.task_id })),
        stale,
        countDeltas: countDeltasOf(
          written.map((r) => ({
            jobId: r.victim.jobId,
            from: r.victim.state,
            to: r.victim.stateAfter,
          })),
        ),
      };
    },

    /**
     * A victim came back: its task `taskId` reached RUNNING in run `runId`
     * at `at`. Marks its earlier preemptions not marked yet: those that sent
     * it back to PENDING in this run or before, and those that killed an
     * earlier run. Returns how many were marked. The job manager calls it in
     * the transaction that records the RUNNING state.
     */
    async markRescheduled(taskId: string, runId: number, at: Date): Promise<number> {
      return markRescheduledMany([{ taskId, runId, at }]);
    },

    /**
     * `markRescheduled` for many runs in one statement: the job manager
     * passes every run a batch of status updates brought to RUNNING, and
     * only the victims among them are marked (an indexed look-up by task).
     */
    markRescheduledMany,
  };
}

async function staleOutcomes(
  db: DbOrTx,
  rows: readonly NewPreemption[],
): Promise<PreemptionRecordOutcome["stale"]> {
  if (rows.length === 0) return [];
  const now = await db.$queryRaw<{ id: string; state: TaskState; run_id: number }[]>`
    SELECT id::text, state::text AS state, run_id FROM tasks
    WHERE id = ANY(${rows.map((r) => r.victim.taskId)}::uuid[])`;
  const byId = new Map(now.map((t) => [t.id, t]));
  return rows.map((r) => {
    const t = byId.get(r.victim.taskId);
    return {
      taskId: r.victim.taskId,
      expected: { state: r.victim.state, runId: r.victim.runId },
      actual: t ? { state: t.state, runId: t.run_id } : null,
    };
  });
}

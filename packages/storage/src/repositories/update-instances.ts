/**
 * The task rows an update reads and moves: each instance's config versions,
 * run and health for the planner, and the two moves — onto a version without
 * a restart (its launch would not change), or onto a version with a new run
 * (a restart the update asks for, which is not a failure).
 */
import type { GoalState, HealthState, TaskState } from "@peloton/engine";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { lockedTasksWhere } from "./task-locks.ts";

export interface UpdateInstanceRow {
  instanceId: number;
  state: TaskState;
  goalState: GoalState;
  runId: number;
  desiredRun: number;
  configVersion: number;
  desiredConfigVersion: number;
  /** The current run's health; null before it ran. */
  health: HealthState | null;
  failureCount: number;
  hostname: string | null;
  startedAt: Date | null;
}

/** A moved instance's resources at its new version (the row carries them for admission). */
export interface InstanceResources {
  instanceId: number;
  cpu: number;
  memMb: number;
  diskMb: number;
  gpu: number;
}

export function updateInstancesRepository(db: DbOrTx) {
  const locked = (jobId: string, instances: readonly number[]) =>
    lockedTasksWhere(
      Prisma.sql`t.job_id = ${jobId}::uuid AND t.instance_id = ANY(${[...instances]}::int[])`,
    );
  return {
    async rows(jobId: string, instances: readonly number[]): Promise<UpdateInstanceRow[]> {
      if (instances.length === 0) return [];
      return db.$queryRaw<UpdateInstanceRow[]>`
        SELECT t.instance_id AS "instanceId", t.state::text AS state,
               t.goal_state::text AS "goalState", t.run_id AS "runId",
               t.desired_run AS "desiredRun", t.config_version AS "configVersion",
               t.desired_config_version AS "desiredConfigVersion",
               CASE WHEN t.health_run_id = t.run_id THEN t.health::text END AS health,
               t.failure_count AS "failureCount", t.hostname, t.started_at AS "startedAt"
        FROM tasks t
        WHERE t.job_id = ${jobId}::uuid AND t.instance_id = ANY(${[...instances]}::int[])`;
    },

    /** Onto `version` with the current run kept (nothing it launches with changes). */
    async moveWithoutRestart(
      jobId: string,
      instances: readonly number[],
      version: number,
    ): Promise<number> {
      if (instances.length === 0) return 0;
      return db.$executeRaw`
        WITH locked AS ${locked(jobId, instances)}
        UPDATE tasks t SET config_version = ${version}, desired_config_version = ${version},
          failure_count = 0, version = t.version + 1, updated_at = now()
        FROM locked l WHERE t.id = l.id`;
    },

    /**
     * Onto `version` with a new run: the current one is replaced (killed first
     * when running) and the new one launched with `version`. `goal` is set on
     * every row; `preferCurrentHost` makes placement prefer where it runs now
     * (inPlace). Failures are counted afresh for the new version.
     */
    async moveWithRestart(
      jobId: string,
      moves: readonly InstanceResources[],
      opts: {
        version: number;
        restartBy: string;
        goal: GoalState;
        preferCurrentHost: boolean;
        /** Why the current run is killed (kept to its end); null: a restart. */
        restartReason: string | null;
      },
    ): Promise<number> {
      if (moves.length === 0) return 0;
      const instances = moves.map((m) => m.instanceId);
      return db.$executeRaw`
        WITH locked AS ${locked(jobId, instances)},
        r AS (SELECT * FROM unnest(${instances}::int[], ${moves.map((m) => m.cpu)}::float8[],
                                   ${moves.map((m) => m.memMb)}::float8[],
                                   ${moves.map((m) => m.diskMb)}::float8[],
                                   ${moves.map((m) => m.gpu)}::float8[])
                AS r(instance_id, cpu, mem_mb, disk_mb, gpu))
        UPDATE tasks t SET desired_config_version = ${opts.version},
          desired_run = t.run_id + 1, restart_requested_by = ${opts.restartBy},
          restart_reason = ${opts.restartReason}::text,
          goal_state = ${opts.goal}::"GoalState", failure_count = 0,
          cpu = r.cpu, mem_mb = r.mem_mb, disk_mb = r.disk_mb, gpu = r.gpu,
          previous_host = CASE WHEN ${opts.preferCurrentHost} THEN coalesce(t.hostname, t.previous_host)
                               ELSE t.previous_host END,
          version = t.version + 1, updated_at = now()
        FROM locked l, r WHERE t.id = l.id AND r.instance_id = t.instance_id`;
    },
  };
}

/**
 * What the placement loop reads: the admitted tasks it took to place, the
 * hosts' states and totals, and what already runs where (per job, for
 * spreading; per task, for TASK label constraints).
 */
import {
  ALLOCATING_TASK_STATES,
  type HostState,
  type ResourceKind,
  type TaskState,
} from "@peloton/engine";
import { withArrayParameters } from "../direct-parameters.ts";
import { directRows } from "../direct-rows.ts";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";

/** An admitted task (its row still PENDING) with what placement needs of it. */
export interface ReadyTaskRow {
  taskId: string;
  jobId: string;
  instanceId: number;
  runId: number;
  /** The job config version this run is launched with. */
  configVersion: number;
  resources: Record<ResourceKind, number>;
  /** A DAEMON instance's host. */
  pinnedHost: string | null;
  previousHost: string | null;
  reason: string | null;
  message: string | null;
  /** A stateful instance's volume, when it has one (created on an earlier run's host). */
  volume: { id: string; hostname: string; state: string } | null;
}

export interface HostFacts {
  hostname: string;
  state: HostState;
  total: Record<ResourceKind, number>;
  attributes: Record<string, string>;
}

/** A task holding resources on a host. */
export interface PlacedTaskRow {
  hostname: string;
  jobId: string;
  instanceId: number;
}

export function placementReadsRepository(db: DbOrTx) {
  return {
    /**
     * These admitted tasks' rows, for those still PENDING (admission keeps
     * READY in the leader's memory; one killed meanwhile is not returned).
     */
    async admitted(taskIds: readonly string[]): Promise<ReadyTaskRow[]> {
      // A round's ids (up to 10,000) past Prisma's parameter round trip, and
      // its rows past Prisma's raw-result mapping (direct-rows.ts).
      const rows = await withArrayParameters([taskIds], ([ids]) =>
        directRows<{
          task_id: string;
          job_id: string;
          instance_id: number;
          run_id: number;
          cpu: number;
          gpu: number;
          mem: number;
          disk: number;
          pinned_host: string | null;
          previous_host: string | null;
          reason: string | null;
          message: string | null;
          volume_id: string | null;
          volume_host: string | null;
          volume_state: string | null;
          config_version: number;
        }>(
          db,
          Prisma.sql`
        SELECT t.id::text AS task_id, t.job_id::text AS job_id, t.instance_id, t.run_id,
               t.config_version, t.cpu, t.gpu, t.mem_mb AS mem, t.disk_mb AS disk, t.pinned_host, t.previous_host,
               t.reason, t.message, v.id AS volume_id, v.hostname AS volume_host,
               v.state::text AS volume_state
        FROM tasks t
        LEFT JOIN volumes v ON v.job_id = t.job_id AND v.instance_id = t.instance_id
                           AND v.state <> 'DELETED'
        WHERE t.id = ANY(${ids}::uuid[]) AND t.state = 'PENDING'`,
        ),
      );
      return rows.map((r) => ({
        taskId: r.task_id,
        jobId: r.job_id,
        instanceId: r.instance_id,
        runId: r.run_id,
        configVersion: r.config_version,
        resources: { cpu: r.cpu, gpu: r.gpu, memory: r.mem, disk: r.disk },
        pinnedHost: r.pinned_host,
        previousHost: r.previous_host,
        reason: r.reason,
        message: r.message,
        volume:
          r.volume_id && r.volume_host
            ? { id: r.volume_id, hostname: r.volume_host, state: r.volume_state ?? "INITIALIZED" }
            : null,
      }));
    },

    async hostFacts(): Promise<HostFacts[]> {
      const rows = await db.$queryRaw<
        {
          hostname: string;
          state: HostState;
          cpu: number;
          gpu: number;
          mem: number;
          disk: number;
          attributes: Record<string, string>;
        }[]
      >`
        SELECT hostname, state::text AS state, cpu, gpu, mem_mb AS mem, disk_mb AS disk, attributes
        FROM hosts`;
      return rows.map((r) => ({
        hostname: r.hostname,
        state: r.state,
        total: { cpu: r.cpu, gpu: r.gpu, memory: r.mem, disk: r.disk },
        attributes: r.attributes,
      }));
    },

    /** How many tasks of these jobs hold resources on each host. */
    async jobTasksOnHosts(
      jobIds: readonly string[],
    ): Promise<{ hostname: string; jobId: string; tasks: number }[]> {
      if (jobIds.length === 0) return [];
      return db.$queryRaw`
        SELECT t.hostname, t.job_id::text AS "jobId", count(*)::int AS tasks FROM tasks t
        WHERE t.job_id = ANY(${[...jobIds]}::uuid[]) AND t.hostname IS NOT NULL
          AND t.state::text = ANY(${[...ALLOCATING_TASK_STATES] as TaskState[]}::text[])
        GROUP BY 1, 2`;
    },

    /** Every task holding resources on a host (their labels count for TASK constraints). */
    async tasksOnHosts(): Promise<PlacedTaskRow[]> {
      return db.$queryRaw`
        SELECT t.hostname, t.job_id::text AS "jobId", t.instance_id AS "instanceId" FROM tasks t
        WHERE t.hostname IS NOT NULL
          AND t.state::text = ANY(${[...ALLOCATING_TASK_STATES] as TaskState[]}::text[])`;
    },
  };
}

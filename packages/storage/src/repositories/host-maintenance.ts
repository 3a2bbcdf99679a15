/**
 * Host maintenance as PostgreSQL keeps it (Peloton's StartMaintenance and
 * CompleteMaintenance): the operator's request sets the host's goal state
 * (DOWN, or UP again), the leader's maintenance loop moves its state towards
 * it (DRAINING → DRAINED → DOWN, or back to UP) and asks tasks to leave
 * (evictions). Every change writes its history row in the same statement
 * batch, so a caller's transaction commits both or neither.
 */
import {
  ALLOCATING_TASK_STATES,
  HOST_MAINTENANCE_REASON,
  type HostState,
  type TaskState,
} from "@peloton/engine";
import { Prisma } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { changesRepository } from "./changes.ts";
import type { HostRecord } from "./hosts.ts";
import { hostsRepository } from "./hosts.ts";
import { decodeKeyset, encodeKeyset, keysetPage } from "./keyset.ts";
import type { Page } from "./pool-history.ts";
import { lockedTasksWhere } from "./task-locks.ts";

/** Kinds of history rows: an operator's request, or a state the host moved to. */
export type MaintenanceEventKind = "START" | "COMPLETE" | "STATE";

export interface MaintenanceEventRecord {
  id: string;
  hostname: string;
  kind: MaintenanceEventKind;
  fromState: HostState | null;
  toState: HostState | null;
  actor: string;
  via: string;
  reason: string;
  at: Date;
}

export interface MaintenanceActor {
  login: string;
  via: string;
}

export type MaintenanceRequestResult =
  | { ok: true; before: HostRecord; after: HostRecord }
  | { ok: false; kind: "not_found" }
  | { ok: false; kind: "invalid_state"; state: HostState; goalState: HostState };

/** A host whose state is not yet its goal: the maintenance loop's work. */
export interface MaintenanceWork {
  hostname: string;
  state: HostState;
  goalState: HostState;
  /** The agent's endpoint ("http://10.0.0.5:5051/slave(1)"): where its machine's IP comes from. */
  agentUrl: string | null;
}

/** A task still on a host in maintenance, with what its job's SLA allows. */
export interface EvictionCandidateRow {
  taskId: string;
  jobId: string;
  jobName: string;
  instanceId: number;
  state: TaskState;
  /** Already asked to leave (a newer desired run), or stopping for good. */
  leaving: boolean;
  /** The job's `sla.maximumUnavailableInstances` (0 = no limit). */
  maximumUnavailableInstances: number;
  /** The job's instances that should run and are not RUNNING now (or are being replaced). */
  unavailableInstances: number;
}

/** A task holding resources on a host now (the host page's task list). */
export interface HostTaskRecord {
  jobId: string;
  jobName: string;
  instanceId: number;
  runId: number;
  state: TaskState;
  reason: string | null;
  message: string | null;
  startedAt: Date | null;
  cpu: number;
  memMb: number;
}

/** Who the loop's own rows name. */
const SYSTEM: MaintenanceActor = { login: "system", via: "maintenance loop" };

const MAINTENANCE_STATES: readonly HostState[] = ["DRAINING", "DRAINED", "DOWN"];

interface EventRow {
  id: bigint;
  hostname: string;
  kind: string;
  from_state: HostState | null;
  to_state: HostState | null;
  actor: string;
  via: string;
  reason: string;
  at: Date;
}

const toEvent = (r: EventRow): MaintenanceEventRecord => ({
  id: String(r.id),
  hostname: r.hostname,
  kind: r.kind as MaintenanceEventKind,
  fromState: r.from_state,
  toState: r.to_state,
  actor: r.actor,
  via: r.via,
  reason: r.reason,
  at: r.at,
});

export function hostMaintenanceRepository(db: DbOrTx) {
  const hosts = hostsRepository(db);
  const announce = (hostname: string) =>
    changesRepository(db).announce({ topic: "hosts", keys: [hostname] });

  const record = (e: {
    hostname: string;
    kind: MaintenanceEventKind;
    from: HostState | null;
    to: HostState | null;
    by: MaintenanceActor;
    reason: string;
  }) => db.$executeRaw`
    INSERT INTO host_maintenance_events (hostname, kind, from_state, to_state, actor, via, reason)
    VALUES (${e.hostname}, ${e.kind}, ${e.from}::"HostState", ${e.to}::"HostState",
            ${e.by.login}, ${e.by.via}, ${e.reason})`;

  return {
    /**
     * Starts maintenance (UP → DRAINING, goal DOWN): nothing new is placed
     * there from now on. Refused, with the host's state, unless it is UP.
     */
    async start(
      hostname: string,
      by: MaintenanceActor,
      reason: string,
    ): Promise<MaintenanceRequestResult> {
      const before = await hosts.get(hostname);
      if (before === null) return { ok: false, kind: "not_found" };
      if (before.state !== "UP" || before.goalState !== "UP") {
        return {
          ok: false,
          kind: "invalid_state",
          state: before.state,
          goalState: before.goalState,
        };
      }
      await db.$executeRaw`
        UPDATE hosts SET state = 'DRAINING', goal_state = 'DOWN', state_reason = ${reason},
                         state_since = now(), updated_at = now()
        WHERE hostname = ${hostname}`;
      await record({ hostname, kind: "START", from: "UP", to: "DRAINING", by, reason });
      await announce(hostname);
      const after = await hosts.get(hostname);
      return { ok: true, before, after: after ?? before };
    },

    /**
     * Completes (or calls off) maintenance: the goal becomes UP; the loop
     * takes the host out of the cluster's maintenance and marks it UP.
     * Refused unless the host is in maintenance (goal DOWN).
     */
    async complete(
      hostname: string,
      by: MaintenanceActor,
      reason: string,
    ): Promise<MaintenanceRequestResult> {
      const before = await hosts.get(hostname);
      if (before === null) return { ok: false, kind: "not_found" };
      if (before.goalState !== "DOWN" || !MAINTENANCE_STATES.includes(before.state)) {
        return {
          ok: false,
          kind: "invalid_state",
          state: before.state,
          goalState: before.goalState,
        };
      }
      await db.$executeRaw`
        UPDATE hosts SET goal_state = 'UP', updated_at = now() WHERE hostname = ${hostname}`;
      await record({ hostname, kind: "COMPLETE", from: before.state, to: null, by, reason });
      await announce(hostname);
      const after = await hosts.get(hostname);
      return { ok: true, before, after: after ?? before };
    },

    /**
     * The loop's step: `from` → `to` while the goal is still `goal` (an
     * operator's request in between wins). True when the host moved; its
     * history row is written with it. Towards DOWN the host keeps the
     * operator's reason as its state reason.
     */
    async transition(
      hostname: string,
      step: { from: HostState; to: HostState; goal: HostState },
      reason: string,
    ): Promise<boolean> {
      const moved = await db.$executeRaw`
        UPDATE hosts SET state = ${step.to}::"HostState",
               -- On the way DOWN the operator's reason stays the host's (issue 19: kept
               -- when it becomes DRAINED); the loop's own sentence is in the history row.
               state_reason = CASE WHEN ${step.goal}::"HostState" = 'DOWN' THEN state_reason
                                   ELSE ${reason} END,
                         state_since = now(), updated_at = now()
        WHERE hostname = ${hostname} AND state = ${step.from}::"HostState"
          AND goal_state = ${step.goal}::"HostState"`;
      if (moved === 0) return false;
      await record({ hostname, kind: "STATE", from: step.from, to: step.to, by: SYSTEM, reason });
      await announce(hostname);
      return true;
    },

    /** Hosts whose state is not their goal (maintenance to start, finish or call off). */
    async work(): Promise<MaintenanceWork[]> {
      const rows = await db.$queryRaw<
        { hostname: string; state: HostState; goal_state: HostState; agent_url: string | null }[]
      >`
        SELECT hostname, state::text AS state, goal_state::text AS goal_state, agent_url
        FROM hosts
        WHERE state <> goal_state AND (goal_state = 'DOWN' OR state::text = ANY(${[...MAINTENANCE_STATES]}::text[]))
        ORDER BY hostname`;
      return rows.map((r) => ({
        hostname: r.hostname,
        state: r.state,
        goalState: r.goal_state,
        agentUrl: r.agent_url,
      }));
    },

    /**
     * The tasks on the host that hold resources there, each with its job's
     * SLA limit and how many of the job's instances are unavailable now.
     */
    async evictionCandidates(hostname: string): Promise<EvictionCandidateRow[]> {
      const rows = await db.$queryRaw<
        {
          id: string;
          job_id: string;
          job_name: string;
          instance_id: number;
          state: TaskState;
          leaving: boolean;
          max_unavailable: number;
          unavailable: number;
        }[]
      >`
        WITH here AS (
          SELECT t.id, t.job_id, t.instance_id, t.state, t.goal_state, t.run_id, t.desired_run
          FROM tasks t
          WHERE t.hostname = ${hostname}
            AND t.state::text = ANY(${[...ALLOCATING_TASK_STATES]}::text[])
        ), budgets AS (
          SELECT j.id AS job_id, j.name,
                 coalesce((j.config -> 'sla' ->> 'maximumUnavailableInstances')::int, 0) AS max_unavailable,
                 (SELECT count(*)::int FROM tasks o
                  WHERE o.job_id = j.id AND o.goal_state NOT IN ('KILLED', 'DELETED')
                    AND o.state <> 'SUCCEEDED'
                    AND (o.state <> 'RUNNING' OR o.desired_run > o.run_id)) AS unavailable
          FROM jobs j WHERE j.id IN (SELECT DISTINCT job_id FROM here)
        )
        SELECT h.id::text, h.job_id::text, b.name AS job_name, h.instance_id,
               h.state::text AS state,
               (h.desired_run > h.run_id OR h.goal_state IN ('KILLED', 'DELETED')) AS leaving,
               b.max_unavailable, b.unavailable
        FROM here h JOIN budgets b ON b.job_id = h.job_id
        ORDER BY b.name, h.instance_id`;
      return rows.map((r) => ({
        taskId: r.id,
        jobId: r.job_id,
        jobName: r.job_name,
        instanceId: r.instance_id,
        state: r.state,
        leaving: r.leaving,
        maximumUnavailableInstances: r.max_unavailable,
        unavailableInstances: r.unavailable,
      }));
    },

    /**
     * Asks these tasks to leave the host: each gets a new desired run (the
     * job manager kills the current one with reason HOST_MAINTENANCE and
     * places the next elsewhere; not a failure). Only tasks still on the
     * host and not already leaving are touched. Returns their job ids.
     */
    async requestEvictions(hostname: string, taskIds: readonly string[]): Promise<string[]> {
      if (taskIds.length === 0) return [];
      const rows = await db.$queryRaw<{ job_id: string }[]>`
        WITH locked AS ${lockedTasksWhere(Prisma.sql`t.id = ANY(${[...taskIds]}::uuid[])`)}
        UPDATE tasks t SET desired_run = t.run_id + 1,
          restart_requested_by = ${`maintenance of ${hostname}`},
          restart_reason = ${HOST_MAINTENANCE_REASON},
          version = t.version + 1, updated_at = now()
        FROM locked l
        WHERE t.id = l.id AND t.hostname = ${hostname} AND t.desired_run <= t.run_id
          AND t.goal_state NOT IN ('KILLED', 'DELETED')
        RETURNING t.job_id::text`;
      const jobs = [...new Set(rows.map((r) => r.job_id))].sort();
      if (jobs.length === 0) return [];
      // The jobs' intent version moves, as for an operator's restart: the job
      // manager decides their tasks again (job rows locked after task rows, in id order).
      await db.$executeRaw`
        WITH locked AS (
          SELECT id FROM jobs WHERE id = ANY(${jobs}::uuid[]) ORDER BY id FOR NO KEY UPDATE
        )
        UPDATE jobs j SET version = j.version + 1, updated_at = now()
        FROM locked l WHERE j.id = l.id`;
      await changesRepository(db).announce({ topic: "jobs", keys: jobs });
      return jobs;
    },

    /**
     * A page of the tasks holding resources on the host now, by job id and
     * instance (keyset on both: a host holds few, and they come and go).
     */
    async tasksOn(
      hostname: string,
      limit: number,
      cursor?: string | null,
    ): Promise<Page<HostTaskRecord>> {
      const k = decodeKeyset(cursor)?.k;
      const m = typeof k === "string" ? /^([0-9a-f-]{36})\/(\d{1,9})$/.exec(k) : null;
      const rows = await db.$queryRaw<
        {
          job_id: string;
          job_name: string;
          instance_id: number;
          run_id: number;
          state: TaskState;
          reason: string | null;
          message: string | null;
          started_at: Date | null;
          cpu: number;
          mem_mb: number;
        }[]
      >`
        SELECT t.job_id::text, j.name AS job_name, t.instance_id, t.run_id, t.state::text AS state,
               t.reason, t.message, t.started_at, t.cpu::float8 AS cpu, t.mem_mb::float8 AS mem_mb
        FROM tasks t JOIN jobs j ON j.id = t.job_id
        WHERE t.hostname = ${hostname}
          AND t.state::text = ANY(${[...ALLOCATING_TASK_STATES]}::text[])
          ${m ? Prisma.sql`AND (t.job_id, t.instance_id) > (${m[1]}::uuid, ${Number(m[2])})` : Prisma.empty}
        ORDER BY t.job_id, t.instance_id LIMIT ${limit + 1}`;
      return keysetPage(
        rows,
        limit,
        (r) => ({
          jobId: r.job_id,
          jobName: r.job_name,
          instanceId: r.instance_id,
          runId: r.run_id,
          state: r.state,
          reason: r.reason,
          message: r.message,
          startedAt: r.started_at,
          cpu: r.cpu,
          memMb: r.mem_mb,
        }),
        (last) => encodeKeyset({ v: null, k: `${last.job_id}/${last.instance_id}` }),
      );
    },

    /** A page of the host's maintenance history, newest first. */
    async history(
      hostname: string,
      limit: number,
      cursor?: string | null,
    ): Promise<Page<MaintenanceEventRecord>> {
      const key = decodeKeyset(cursor)?.k;
      // A cursor that is not one of ours reads from the start.
      const after = key !== undefined && /^\d{1,19}$/.test(String(key)) ? BigInt(key) : null;
      const rows = await db.$queryRaw<EventRow[]>`
        SELECT id, hostname, kind, from_state::text AS from_state, to_state::text AS to_state,
               actor, via, reason, at
        FROM host_maintenance_events
        WHERE hostname = ${hostname}
          ${after !== null ? Prisma.sql`AND id < ${after}` : Prisma.empty}
        ORDER BY id DESC LIMIT ${limit + 1}`;
      return keysetPage(rows, limit, toEvent, (last) =>
        encodeKeyset({ v: null, k: String(last.id) }),
      );
    },
  };
}

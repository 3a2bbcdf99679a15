/**
 * What needs someone's attention now (the overview's "needs attention"):
 * hosts not taking work, crash-looping service instances, runs pending too
 * long and updates that failed. Each read is bounded and answered from an
 * index (hosts (state, hostname), tasks (reason, job_id) and (state,
 * queued_at), job_updates (state)), never a scan of the task table.
 */
import { CRASH_LOOP_REASON, type HostState } from "@peloton/engine";
import type { DbOrTx } from "../tx.ts";

export interface AttentionHostRecord {
  hostname: string;
  state: HostState;
  stateReason: string | null;
  stateSince: Date;
}

export interface AttentionJobRecord {
  jobId: string;
  jobName: string;
  /** Instances concerned (crash-looping, or pending since before the cutoff). */
  instances: number;
  /** The oldest of them: since when it failed or has waited. */
  since: Date | null;
}

export interface FailedUpdateRecord {
  id: string;
  jobId: string;
  jobName: string;
  createdAt: Date;
}

/** At most this many pending runs are grouped by job: a flood of them still reads a bounded slice. */
export const STUCK_PENDING_SCAN = 1000;

export function attentionReadsRepository(db: DbOrTx) {
  return {
    /** Hosts lost by the cluster or in maintenance (DRAINING, DRAINED, DOWN), longest in that state first. */
    async hostsNotUp(limit: number): Promise<AttentionHostRecord[]> {
      return db.$queryRaw<AttentionHostRecord[]>`
        SELECT hostname, state::text AS state, state_reason AS "stateReason",
               state_since AS "stateSince"
        FROM hosts WHERE state IN ('LOST', 'DOWN', 'DRAINING', 'DRAINED')
        ORDER BY state_since, hostname LIMIT ${limit}`;
    },

    /**
     * Service jobs with instances waiting out a crash-loop backoff (their
     * run ended and the next one waits: INITIALIZED with that reason), most
     * instances first.
     */
    async crashLoopingJobs(limit: number): Promise<AttentionJobRecord[]> {
      return db.$queryRaw<AttentionJobRecord[]>`
        SELECT t.job_id::text AS "jobId", j.name AS "jobName", count(*)::int AS instances,
               min(t.updated_at) AS since
        FROM tasks t JOIN jobs j ON j.id = t.job_id
        WHERE t.reason = ${CRASH_LOOP_REASON} AND t.state = 'INITIALIZED'
        GROUP BY t.job_id, j.name
        ORDER BY instances DESC, since LIMIT ${limit}`;
    },

    /**
     * Jobs whose runs have been PENDING since before `cutoff`, the longest
     * waiting first; grouped from the oldest STUCK_PENDING_SCAN such runs.
     */
    async stuckPendingJobs(cutoff: Date, limit: number): Promise<AttentionJobRecord[]> {
      return db.$queryRaw<AttentionJobRecord[]>`
        WITH stuck AS (
          SELECT job_id, queued_at FROM tasks
          WHERE state = 'PENDING' AND queued_at < ${cutoff}
          ORDER BY queued_at LIMIT ${STUCK_PENDING_SCAN})
        SELECT s.job_id::text AS "jobId", j.name AS "jobName", count(*)::int AS instances,
               min(s.queued_at) AS since
        FROM stuck s JOIN jobs j ON j.id = s.job_id
        GROUP BY s.job_id, j.name
        ORDER BY since LIMIT ${limit}`;
    },

    /** Updates that FAILED and are still their job's latest update, newest first. */
    async failedUpdates(limit: number): Promise<FailedUpdateRecord[]> {
      return db.$queryRaw<FailedUpdateRecord[]>`
        SELECT u.id::text AS id, u.job_id::text AS "jobId", j.name AS "jobName",
               u.created_at AS "createdAt"
        FROM job_updates u JOIN jobs j ON j.id = u.job_id
        WHERE u.state = 'FAILED' AND j.state <> 'DELETED'
          AND NOT EXISTS (SELECT 1 FROM job_updates later
                          WHERE later.job_id = u.job_id AND later.created_at > u.created_at)
        ORDER BY u.created_at DESC LIMIT ${limit}`;
    },
  };
}

export type AttentionReadsRepository = ReturnType<typeof attentionReadsRepository>;

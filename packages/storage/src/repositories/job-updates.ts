/**
 * Updates (job_updates) and their history (job_update_events). Every write
 * of an update's row is guarded by its version, so the API's pause and the
 * leader's workflow step never overwrite each other; the caller writes the
 * event and audit rows in the same transaction.
 */
import {
  ACTIVE_UPDATE_STATES,
  RUNNING_UPDATE_STATES,
  type UpdateKind,
  type UpdateOptions,
  type UpdateState,
} from "@peloton/engine";
import type { JobUpdate } from "../generated/prisma/client.ts";
import type { DbOrTx } from "../tx.ts";
import { decodeKeyset, encodeKeyset } from "./keyset.ts";
import type { Page } from "./pool-history.ts";

export interface UpdateInstanceSets {
  instancesAdded: number[];
  instancesUpdated: number[];
  instancesRemoved: number[];
  instancesDone: number[];
  instancesFailed: number[];
  instancesCurrent: number[];
}

export interface JobUpdateRecord extends UpdateInstanceSets {
  id: string;
  jobId: string;
  kind: UpdateKind;
  state: UpdateState;
  previousState: UpdateState | null;
  fromConfigVersion: number;
  toConfigVersion: number;
  options: UpdateOptions;
  fromInstanceCount: number;
  toInstanceCount: number;
  actor: string;
  message: string | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export interface NewJobUpdate extends Partial<UpdateInstanceSets> {
  jobId: string;
  kind: UpdateKind;
  fromConfigVersion: number;
  toConfigVersion: number;
  options: UpdateOptions;
  fromInstanceCount: number;
  toInstanceCount: number;
  actor: string;
  message: string;
}

export type JobUpdateWrite = Partial<UpdateInstanceSets> & {
  state?: UpdateState;
  previousState?: UpdateState | null;
  message?: string;
  completedAt?: Date | null;
};

export interface UpdateEventRecord {
  id: string;
  state: UpdateState;
  message: string;
  actor: string;
  at: Date;
}

function toRecord(r: JobUpdate): JobUpdateRecord {
  return {
    id: r.id,
    jobId: r.jobId,
    kind: r.kind,
    state: r.state,
    previousState: r.previousState,
    fromConfigVersion: r.fromConfigVersion,
    toConfigVersion: r.toConfigVersion,
    options: {
      batchSize: r.batchSize,
      batchPercentage: r.batchPercentage,
      stopBeforeUpdate: r.stopBeforeUpdate,
      startPaused: r.startPaused,
      rollbackOnFailure: r.rollbackOnFailure,
      maxInstanceAttempts: r.maxInstanceAttempts,
      maxFailureInstances: r.maxFailureInstances,
      inPlace: r.inPlace,
      startTasks: r.startTasks,
    },
    instancesAdded: r.instancesAdded,
    instancesUpdated: r.instancesUpdated,
    instancesRemoved: r.instancesRemoved,
    instancesDone: r.instancesDone,
    instancesFailed: r.instancesFailed,
    instancesCurrent: r.instancesCurrent,
    fromInstanceCount: r.fromInstanceCount,
    toInstanceCount: r.toInstanceCount,
    actor: r.actor,
    message: r.message,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    completedAt: r.completedAt,
  };
}

export function jobUpdatesRepository(db: DbOrTx) {
  return {
    async create(u: NewJobUpdate): Promise<JobUpdateRecord> {
      const { options, ...rest } = u;
      return toRecord(await db.jobUpdate.create({ data: { ...rest, ...options } }));
    },

    async get(id: string): Promise<JobUpdateRecord | null> {
      const row = await db.jobUpdate.findUnique({ where: { id } });
      return row ? toRecord(row) : null;
    },

    /** The job's update that is not finished (at most one), if any. */
    async activeForJob(jobId: string): Promise<JobUpdateRecord | null> {
      const row = await db.jobUpdate.findFirst({
        where: { jobId, state: { in: [...ACTIVE_UPDATE_STATES] } },
        orderBy: { createdAt: "desc" },
      });
      return row ? toRecord(row) : null;
    },

    /** Updates the workflow loop drives (not paused, not finished), oldest first. */
    async running(limit = 1_000): Promise<JobUpdateRecord[]> {
      const rows = await db.jobUpdate.findMany({
        where: { state: { in: [...RUNNING_UPDATE_STATES] } },
        orderBy: { createdAt: "asc" },
        take: limit,
      });
      return rows.map(toRecord);
    },

    /** A job's updates, newest first, keyset on (created_at, id). */
    async listForJob(q: {
      jobId: string;
      limit: number;
      cursor?: string | null;
    }): Promise<Page<JobUpdateRecord>> {
      const c = decodeKeyset(q.cursor);
      const after =
        c && typeof c.v === "string" && typeof c.k === "string"
          ? {
              OR: [
                { createdAt: { lt: new Date(c.v) } },
                { createdAt: new Date(c.v), id: { lt: c.k } },
              ],
            }
          : {};
      const rows = await db.jobUpdate.findMany({
        where: { jobId: q.jobId, ...after },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: q.limit + 1,
      });
      const items = rows.slice(0, q.limit).map(toRecord);
      const last = items.at(-1);
      return {
        items,
        nextCursor:
          rows.length > q.limit && last
            ? encodeKeyset({ v: last.createdAt.toISOString(), k: last.id })
            : null,
      };
    },

    /** Writes the update if it is still at `expectedVersion`; null when someone else moved it. */
    async write(
      id: string,
      expectedVersion: number,
      w: JobUpdateWrite,
    ): Promise<JobUpdateRecord | null> {
      const n = await db.jobUpdate.updateMany({
        where: { id, version: expectedVersion },
        data: { ...w, version: { increment: 1 } },
      });
      if (n.count === 0) return null;
      const row = await db.jobUpdate.findUnique({ where: { id } });
      return row ? toRecord(row) : null;
    },

    async recordEvent(e: {
      updateId: string;
      state: UpdateState;
      message: string;
      actor: string;
    }): Promise<void> {
      await db.jobUpdateEvent.create({ data: e });
    },

    /** An update's history, newest first, keyset on the event id. */
    async events(q: {
      updateId: string;
      limit: number;
      cursor?: string | null;
    }): Promise<Page<UpdateEventRecord>> {
      const before = q.cursor && /^\d+$/.test(q.cursor) ? { id: { lt: BigInt(q.cursor) } } : {};
      const rows = await db.jobUpdateEvent.findMany({
        where: { updateId: q.updateId, ...before },
        orderBy: { id: "desc" },
        take: q.limit + 1,
      });
      const items = rows.slice(0, q.limit).map((r) => ({
        id: r.id.toString(),
        state: r.state,
        message: r.message,
        actor: r.actor,
        at: r.at,
      }));
      return {
        items,
        nextCursor: rows.length > q.limit ? (items.at(-1)?.id ?? null) : null,
      };
    },
  };
}

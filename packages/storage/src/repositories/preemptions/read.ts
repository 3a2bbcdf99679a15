/**
 * Reading preemption history: pages newest first by keyset on (at, id), one
 * row, and the export's batches (the same keyset, never OFFSET).
 */

import type { PreemptionKind, TaskState } from "@peloton/engine";
import { Prisma } from "../../generated/prisma/client.ts";
import type { DbOrTx } from "../../tx.ts";
import type { Page } from "../pool-history.ts";
import { afterKeyset, decodeKeyset, encodeKeyset, preemptionWhere } from "./filters.ts";
import type {
  PreemptedState,
  PreemptionFilters,
  PreemptionListQuery,
  PreemptionNumbers,
  PreemptionRecord,
} from "./types.ts";

interface Row {
  id: string;
  at: Date;
  kind: PreemptionKind;
  victim_task_id: string;
  victim_job_id: string;
  victim_job_name: string;
  victim_instance_id: number;
  victim_run_id: number;
  victim_priority: number;
  victim_state: TaskState;
  victim_state_after: PreemptedState;
  victim_pool_id: string;
  victim_pool_path: string;
  beneficiary_pool_id: string | null;
  beneficiary_pool_path: string | null;
  beneficiary_gang_id: string | null;
  beneficiary_task_id: string | null;
  beneficiary_job_id: string | null;
  beneficiary_job_name: string | null;
  beneficiary_instance_id: number | null;
  beneficiary_priority: number | null;
  level: string | null;
  reason: string;
  numbers: PreemptionNumbers;
  rescheduled_at: Date | null;
  rescheduled_run_id: number | null;
  task_state: TaskState | null;
  task_run_id: number | null;
}

/** Every column a reader gets, listed (nothing else leaks), with the victim's task as it is now. */
const SELECT = Prisma.sql`
  SELECT p.id::text, p.at, p.kind::text AS kind, p.victim_task_id::text, p.victim_job_id::text,
         p.victim_job_name, p.victim_instance_id, p.victim_run_id, p.victim_priority,
         p.victim_state::text AS victim_state, p.victim_state_after::text AS victim_state_after,
         p.victim_pool_id::text, p.victim_pool_path, p.beneficiary_pool_id::text,
         p.beneficiary_pool_path, p.beneficiary_gang_id, p.beneficiary_task_id::text,
         p.beneficiary_job_id::text, p.beneficiary_job_name, p.beneficiary_instance_id,
         p.beneficiary_priority, p.level, p.reason, p.numbers, p.rescheduled_at,
         p.rescheduled_run_id, t.state::text AS task_state, t.run_id AS task_run_id
  FROM preemptions p LEFT JOIN tasks t ON t.id = p.victim_task_id`;

function toRecord(r: Row): PreemptionRecord {
  const beneficiary =
    r.beneficiary_pool_path === null
      ? null
      : {
          poolId: r.beneficiary_pool_id,
          poolPath: r.beneficiary_pool_path,
          gangId: r.beneficiary_gang_id,
          task:
            r.beneficiary_task_id !== null &&
            r.beneficiary_job_id !== null &&
            r.beneficiary_instance_id !== null
              ? {
                  taskId: r.beneficiary_task_id,
                  jobId: r.beneficiary_job_id,
                  jobName: r.beneficiary_job_name ?? "",
                  instanceId: r.beneficiary_instance_id,
                }
              : null,
          priority: r.beneficiary_priority,
        };
  return {
    id: r.id,
    at: r.at,
    kind: r.kind,
    victim: {
      taskId: r.victim_task_id,
      jobId: r.victim_job_id,
      jobName: r.victim_job_name,
      instanceId: r.victim_instance_id,
      runId: r.victim_run_id,
      priority: r.victim_priority,
      state: r.victim_state,
      stateAfter: r.victim_state_after,
      poolId: r.victim_pool_id,
      poolPath: r.victim_pool_path,
    },
    beneficiary,
    level: r.level,
    reason: r.reason,
    numbers: r.numbers,
    rescheduled:
      r.rescheduled_at !== null && r.rescheduled_run_id !== null
        ? { at: r.rescheduled_at, runId: r.rescheduled_run_id }
        : null,
    taskNow:
      r.task_state !== null && r.task_run_id !== null
        ? { state: r.task_state, runId: r.task_run_id }
        : null,
  };
}

export function preemptionReads(db: DbOrTx) {
  async function list(q: PreemptionListQuery): Promise<Page<PreemptionRecord>> {
    const keyset = q.cursor ? decodeKeyset(q.cursor) : undefined;
    const where = keyset
      ? Prisma.sql`${preemptionWhere(q)} AND ${afterKeyset(keyset)}`
      : preemptionWhere(q);
    const rows = await db.$queryRaw<Row[]>`
      ${SELECT} WHERE ${where} ORDER BY p.at DESC, p.id DESC LIMIT ${q.limit + 1}`;
    const items = rows.slice(0, q.limit).map(toRecord);
    const last = items.at(-1);
    return {
      items,
      nextCursor: rows.length > q.limit && last ? encodeKeyset(last) : null,
    };
  }

  return {
    list,

    async get(id: string): Promise<PreemptionRecord | null> {
      if (!/^\d{1,19}$/.test(id)) return null;
      const rows = await db.$queryRaw<Row[]>`${SELECT} WHERE p.id = ${id}::bigint`;
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /**
     * Every matching row, newest first, in batches of `batchSize`: the CSV
     * export streams these. Each batch is one keyset query, so memory stays
     * flat and the cost per batch does not grow with its position.
     */
    async *exportBatches(
      filters: PreemptionFilters,
      batchSize = 1000,
    ): AsyncGenerator<PreemptionRecord[]> {
      let cursor: string | null = null;
      do {
        const page = await list({ ...filters, limit: batchSize, cursor });
        if (page.items.length > 0) yield page.items;
        cursor = page.nextCursor;
      } while (cursor);
    },

    /** The time of the oldest matching preemption; null when none matches. */
    async earliestAt(filters: PreemptionFilters): Promise<Date | null> {
      const rows = await db.$queryRaw<{ at: Date | null }[]>`
        SELECT min(p.at) AS at FROM preemptions p WHERE ${preemptionWhere(filters)}`;
      return rows[0]?.at ?? null;
    },
  };
}

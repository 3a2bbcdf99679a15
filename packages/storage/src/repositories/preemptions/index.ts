import type { DbOrTx } from "../../tx.ts";
import { preemptionCounts } from "./counts.ts";
import { preemptionReads } from "./read.ts";
import { preemptionWrites } from "./record.ts";

/**
 * Preemption history (issue 7): one row per victim, kept forever. The
 * preemptor writes through `recordMany` inside its transaction; the job
 * manager calls `markRescheduled` when a victim runs again; the API, CLI and
 * console read the rest.
 */
export function preemptionsRepository(db: DbOrTx) {
  return { ...preemptionWrites(db), ...preemptionReads(db), ...preemptionCounts(db) };
}

export type PreemptionsRepository = ReturnType<typeof preemptionsRepository>;

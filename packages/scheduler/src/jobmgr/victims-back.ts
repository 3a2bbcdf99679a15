/**
 * "Did it come back?": when a status update brings a run to RUNNING, the
 * preemptions of that task not yet marked are marked rescheduled, in the
 * transaction that records the RUNNING state (storage decides which: a
 * victim sent back to PENDING counts from its own run, a killed one from a
 * later run). One statement per batch, whatever its size; tasks that were
 * never preempted match nothing.
 */
import type { Repositories, RescheduledRun, TaskChange } from "@peloton/storage";

/** A task writer `alongside` for status updates: `applied` are the changes that were written. */
export async function markVictimsBack(
  tx: Repositories,
  applied: readonly TaskChange[],
): Promise<void> {
  const runs: RescheduledRun[] = [];
  for (const c of applied)
    for (const e of c.events)
      if (e.state === "RUNNING") runs.push({ taskId: c.taskId, runId: e.runId, at: e.at });
  await tx.preemptions.markRescheduledMany(runs);
}

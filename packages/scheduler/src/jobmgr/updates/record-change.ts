/**
 * What goes with every change of an update, in its transaction: the history
 * row, the audit row (a state change), and the announcement that wakes the
 * console's live views and the leader's workflow loop.
 */
import type { UpdateState } from "@peloton/engine";
import type { JobUpdateRecord, Repositories } from "@peloton/storage";
import type { Acting } from "../../common/acting.ts";

/** The scheduler's own steps, as the audit log and the history name them. */
export const WORKFLOW_ACTING: Acting = { login: "system", via: "update-workflow" };

export async function recordUpdateChange(
  tx: Repositories,
  update: JobUpdateRecord,
  change: { before: UpdateState | null; message: string; acting: Acting; action: string },
): Promise<void> {
  await tx.updates.recordEvent({
    updateId: update.id,
    state: update.state,
    message: change.message,
    actor: change.acting.login,
  });
  if (change.before !== update.state)
    await tx.audit.record({
      actor: change.acting.login,
      via: change.acting.via,
      action: change.action,
      targetType: "update",
      targetId: update.id,
      ...(change.before === null ? {} : { before: { state: change.before } }),
      after: {
        state: update.state,
        jobId: update.jobId,
        fromVersion: update.fromConfigVersion,
        toVersion: update.toConfigVersion,
      },
    });
  await tx.changes.announce(
    { topic: "updates", keys: [update.id] },
    { topic: "jobs", keys: [update.jobId] },
  );
}

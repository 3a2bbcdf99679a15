/**
 * Turning an update around (rollbackOnFailure, or a manual rollback): the
 * instances it touched go back to the old config version by the same
 * batching. The job's config is the old version again from now on; the
 * update's instance sets become the rollback's (rollbackSets), its progress
 * starts from zero, and it is ROLLING_BACKWARD — all in the caller's
 * transaction, with the history and audit rows.
 */
import { type JobConfig, rollbackSets } from "@peloton/engine";
import type { JobUpdateRecord, Repositories } from "@peloton/storage";
import type { Acting } from "../../common/acting.ts";
import { recordUpdateChange } from "./record-change.ts";

export async function startRollback(
  tx: Repositories,
  update: JobUpdateRecord,
  acting: Acting,
  why: string,
): Promise<JobUpdateRecord | null> {
  const old = await tx.configVersions.get(update.jobId, update.fromConfigVersion);
  if (old === null) return null;
  const sets = rollbackSets({
    added: update.instancesAdded,
    updated: update.instancesUpdated,
    removed: update.instancesRemoved,
    done: update.instancesDone,
    failed: update.instancesFailed,
    current: update.instancesCurrent,
  });
  const message = `${why}: ${sets.updated.length + sets.added.length + sets.removed.length} instances go back to config version ${update.fromConfigVersion}`;
  const written = await tx.updates.write(update.id, update.version, {
    state: "ROLLING_BACKWARD",
    previousState: update.state,
    instancesAdded: sets.added,
    instancesUpdated: sets.updated,
    instancesRemoved: sets.removed,
    instancesDone: [],
    instancesFailed: [],
    instancesCurrent: [],
    message,
  });
  if (!written) return null;
  // Kept instances the update moved without a restart (their launch did not change) go back the same way.
  const restarted = new Set(update.instancesUpdated);
  const unchanged: number[] = [];
  for (let i = 0; i < Math.min(update.fromInstanceCount, update.toInstanceCount); i++)
    if (!restarted.has(i)) unchanged.push(i);
  await tx.updateInstances.moveWithoutRestart(update.jobId, unchanged, update.fromConfigVersion);
  await tx.jobs.setConfig(update.jobId, {
    version: update.fromConfigVersion,
    configYaml: old.configYaml,
    config: old.config as JobConfig,
  });
  await recordUpdateChange(tx, written, {
    before: update.state,
    message,
    acting,
    action: "update.rollback",
  });
  return written;
}

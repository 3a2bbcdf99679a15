/**
 * One step of one update, in one transaction (Peloton's UpdateRun): its row
 * and the rows of its instances in flight are read, the engine's planner
 * decides, and what it decided is written — instances started, the sets and
 * state moved, the history row (and the audit row on a state change), the
 * job's intent version moved so the job manager drives the started
 * instances, and the announcement. Nothing lives in memory between steps.
 */
import {
  describeUpdateStep,
  isActiveUpdateState,
  type JobConfig,
  planUpdateStep,
  type UpdateInstanceFacts,
} from "@peloton/engine";
import type { JobUpdateRecord, Repositories, StorageGateway } from "@peloton/storage";
import { startInstances } from "./instance-moves.ts";
import { recordUpdateChange, WORKFLOW_ACTING } from "./record-change.ts";
import { startRollback } from "./start-rollback.ts";

export type StepOutcome = "idle" | "progressed" | "finished" | "gone";

export async function stepUpdate(gateway: StorageGateway, updateId: string): Promise<StepOutcome> {
  return gateway.transaction(async (tx) => {
    const update = await tx.updates.get(updateId);
    if (update === null) return "gone";
    return stepIn(tx, update);
  });
}

async function stepIn(tx: Repositories, update: JobUpdateRecord): Promise<StepOutcome> {
  const backward = update.state === "ROLLING_BACKWARD";
  const target = backward ? update.fromConfigVersion : update.toConfigVersion;
  const rows = await tx.updateInstances.rows(update.jobId, update.instancesCurrent);
  const facts = new Map<number, UpdateInstanceFacts>(
    rows.map((r) => [r.instanceId, { ...r, exists: true }]),
  );
  const plan = planUpdateStep({
    state: update.state,
    options: update.options,
    target,
    added: update.instancesAdded,
    updated: update.instancesUpdated,
    removed: update.instancesRemoved,
    done: update.instancesDone,
    failed: update.instancesFailed,
    current: update.instancesCurrent,
    facts,
    instanceCount: Math.max(update.fromInstanceCount, update.toInstanceCount),
  });
  if (!plan.changed) return "idle";
  const total =
    update.instancesAdded.length + update.instancesUpdated.length + update.instancesRemoved.length;
  const started = [...plan.start.added, ...plan.start.updated, ...plan.start.removed];
  const message = describeUpdateStep({
    reason: plan.reason,
    started,
    done: plan.done.length,
    failed: plan.failed.length,
    total,
    maxFailureInstances: update.options.maxFailureInstances,
  });

  if (plan.state === "ROLLING_BACKWARD" && !backward) {
    // The failed sets are kept on the row first, so the rollback's history says what failed.
    const counted = await tx.updates.write(update.id, update.version, {
      instancesDone: plan.done,
      instancesFailed: plan.failed,
      instancesCurrent: plan.current,
    });
    if (!counted) return "idle";
    const rolled = await startRollback(tx, counted, WORKFLOW_ACTING, message);
    if (rolled) await tx.jobs.bumpIntent(update.jobId);
    return rolled ? "progressed" : "idle";
  }

  if (started.length > 0) {
    const version = await tx.configVersions.get(update.jobId, target);
    if (version === null) return "idle";
    await startInstances(
      tx,
      update,
      { version: target, config: version.config as JobConfig },
      plan.start,
    );
  }
  const finished = !isActiveUpdateState(plan.state);
  const written = await tx.updates.write(update.id, update.version, {
    state: plan.state,
    ...(plan.state !== update.state ? { previousState: update.state } : {}),
    instancesDone: plan.done,
    instancesFailed: plan.failed,
    instancesCurrent: plan.current,
    message,
    ...(finished ? { completedAt: new Date() } : {}),
  });
  if (!written) return "idle";
  if (finished && update.kind === "UPDATE") {
    // The job's instance count is the version's it ended on.
    const count = plan.state === "ROLLED_BACK" ? update.fromInstanceCount : update.toInstanceCount;
    const job = await tx.jobs.get(update.jobId);
    if (job && job.instanceCount !== count)
      await tx.jobs.writeIntent(update.jobId, job.version, { instanceCount: count });
  }
  if (started.length > 0) await tx.jobs.bumpIntent(update.jobId);
  // Progress alone (an instance done) is not worth a history row; a new batch or state is.
  if (started.length > 0 || plan.state !== update.state)
    await recordUpdateChange(tx, written, {
      before: update.state,
      message,
      acting: WORKFLOW_ACTING,
      action: `update.${plan.state.toLowerCase()}`,
    });
  else await tx.changes.announce({ topic: "updates", keys: [update.id] });
  if (started.length > 0)
    await tx.changes.announce({
      topic: "tasks",
      keys: started.map((i) => `${update.jobId}/${i}`),
    });
  return finished ? "finished" : "progressed";
}

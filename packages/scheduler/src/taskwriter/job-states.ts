/**
 * A job's state follows its tasks' counts (engine `deriveJobState`): after
 * every write of task changes, the jobs whose counts moved get their state
 * derived again, and written when it changed.
 */
import { deriveJobState, isTerminalJobState } from "@peloton/engine";
import type { JobCountsRecord, JobStateWrite } from "@peloton/storage";

export function jobStateWrites(jobs: readonly JobCountsRecord[], now: Date): JobStateWrite[] {
  const writes: JobStateWrite[] = [];
  for (const job of jobs) {
    const state = deriveJobState(job.type, job.goalState, job.taskStats, job.instanceCount);
    if (state === job.state) continue;
    writes.push({ id: job.id, state, completedAt: isTerminalJobState(state) ? now : null });
  }
  return writes;
}

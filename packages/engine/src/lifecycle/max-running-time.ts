/**
 * A job's `sla.maxRunningTime`: a run on its host longer than this many
 * seconds is killed and not rerun. Peloton's deadline tracker
 * (pkg/jobmgr/task/deadline/tracker.go) sets such a task's goal state to
 * KILLED with the reason "Deadline exceeded" and the termination status
 * reason TERMINATION_STATUS_REASON_DEADLINE_TIMEOUT_EXCEEDED; the goal-state
 * engine then kills it like any stop. Ours does the same, and keeps the
 * reason on the run's end so that it reads as the deadline, not as a stop.
 * The validation allows the setting on BATCH jobs only (rules/sla.ts).
 */

/** The reason stored on the run (its kill and its end), Peloton's termination reason's name. */
export const DEADLINE_EXCEEDED_REASON = "DEADLINE_TIMEOUT_EXCEEDED";

/** When a run started at `startedAt` must be killed; null when the job sets no limit. */
export function runDeadline(startedAt: Date | null, maxRunningTimeSecs: number): Date | null {
  if (startedAt === null || maxRunningTimeSecs <= 0) return null;
  return new Date(startedAt.getTime() + maxRunningTimeSecs * 1000);
}

/** Whether the run has gone past its deadline at `now` (exactly at the deadline counts). */
export function isPastDeadline(
  startedAt: Date | null,
  maxRunningTimeSecs: number,
  now: Date,
): boolean {
  const deadline = runDeadline(startedAt, maxRunningTimeSecs);
  return deadline !== null && deadline.getTime() <= now.getTime();
}

/** The message of the kill's event and of the task while it is killed. */
export function describeDeadlineKill(maxRunningTimeSecs: number): string {
  return `killed: ran longer than the job's sla.maxRunningTime of ${maxRunningTimeSecs} s (deadline exceeded; not retried)`;
}

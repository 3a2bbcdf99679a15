/**
 * Counting failures and spacing restarts: Peloton's job manager
 * (pkg/jobmgr/task/event/update.go `updateFailureCount`,
 * pkg/jobmgr/goalstate/task_fail_restart.go `getBackoff`, `TaskFailRetry`).
 */
import { countsAsFailure, isSystemReason, type RunEnd } from "./run-end.ts";

/**
 * The failure count after a run ends: one more when the task itself is to
 * blame (`runEndCause` says TASK_FAILURE), the same after anything the system
 * caused, a preemption, a kill we asked for, or a success.
 */
export function failureCountAfter(previous: number, end: RunEnd): number {
  return countsAsFailure(end) ? previous + 1 : previous;
}

/** Peloton's `_maxTaskRetries`: `restartPolicy.maxFailures` above it is taken as 100. */
export const MAX_TASK_RETRIES = 100;
/** Peloton's `MaxSystemFailureAttempts`: failures that are not the task's fault get at least 4. */
export const MAX_SYSTEM_FAILURE_ATTEMPTS = 4;

/**
 * Failures that are not wholly the task's fault get at least
 * MAX_SYSTEM_FAILURE_ATTEMPTS tries: Peloton's `IsSystemFailure` (a
 * container that could not launch, an offer that was no longer valid), and
 * the reasons `runEndCause` blames on the system (those do not count at all;
 * the floor matters only for a count the task's own failures built).
 */
export function isSystemFailure(reason: string | undefined): boolean {
  return reason === "REASON_CONTAINER_LAUNCH_FAILED" || isSystemReason(reason);
}

/**
 * How many failures a batch task may have before it stays FAILED: a task is
 * retried while its failure count (this failure included) is below this
 * (Peloton's `TaskFailRetry`: `failureCount >= maxAttempts` gives up). So
 * maxFailures 3 allows 3 runs, and 0 and 1 both allow one, as in Peloton.
 */
export function failureLimit(maxFailures: number, reason?: string): number {
  const limit = Math.min(Math.max(0, maxFailures), MAX_TASK_RETRIES);
  return isSystemFailure(reason) ? Math.max(limit, MAX_SYSTEM_FAILURE_ATTEMPTS) : limit;
}

export interface RestartBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

/**
 * Ours: shorter than Peloton's 30 s and 1 h defaults, so a crash-looping
 * service shows its backoff in the console within a minute.
 */
export const DEFAULT_RESTART_BACKOFF: RestartBackoff = { initialMs: 2_000, maxMs: 120_000 };

/**
 * Peloton's `getBackoff`: no delay before any failure, then
 * min(initial × 2^(failures − 1), max). Pure: the caller adds it to its clock.
 */
export function restartDelayMs(
  failureCount: number,
  backoff: RestartBackoff = DEFAULT_RESTART_BACKOFF,
): number {
  if (failureCount <= 0) return 0;
  const raw = backoff.initialMs * 2 ** (failureCount - 1);
  return Math.min(raw, backoff.maxMs);
}

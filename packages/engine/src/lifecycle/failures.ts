/**
 * Counting failures and spacing restarts: Peloton's job manager
 * (pkg/jobmgr/task/event/update.go `updateFailureCount`,
 * pkg/jobmgr/goalstate/task_fail_restart.go `getBackoff`, `TaskFailRetry`).
 */
import { PREEMPTED_REASON } from "./mesos.ts";
import type { GoalState, TaskState } from "./states.ts";

/**
 * The failure count after a run ends in `ended`. Peloton counts a FAILED run,
 * a run that exited (SUCCEEDED) while it should keep running, and a KILLED run
 * nobody asked to stop. Ours on top: a run killed by a preemption never
 * counts (peloton-semantics.md §4), and a LOST run counts (Peloton leaves it
 * out, so a batch task on a dying agent could retry forever; with it counted
 * the system-failure floor below still gives it its retries).
 */
export function failureCountAfter(
  previous: number,
  ended: TaskState,
  goalState: GoalState,
  reason?: string,
): number {
  if (reason === PREEMPTED_REASON) return previous;
  switch (ended) {
    case "FAILED":
    case "LOST":
      return previous + 1;
    case "SUCCEEDED":
      return goalState === "RUNNING" ? previous + 1 : previous;
    case "KILLED":
      return goalState === "KILLED" || goalState === "DELETED" ? previous : previous + 1;
    default:
      return previous;
  }
}

/** Peloton's `_maxTaskRetries`: `restartPolicy.maxFailures` above it is taken as 100. */
export const MAX_TASK_RETRIES = 100;
/** Peloton's `MaxSystemFailureAttempts`: failures that are not the task's fault get at least 4. */
export const MAX_SYSTEM_FAILURE_ATTEMPTS = 4;

/**
 * Reasons that blame the cluster rather than the task: Peloton's
 * `IsSystemFailure` (a container that could not launch, an offer that was no
 * longer valid) plus, ours, every way of losing the agent, and a task the
 * master no longer knows when we reconcile.
 */
const SYSTEM_FAILURE_REASONS = new Set([
  "REASON_CONTAINER_LAUNCH_FAILED",
  "REASON_INVALID_OFFERS",
  "REASON_AGENT_REMOVED",
  "REASON_AGENT_DISCONNECTED",
  "REASON_AGENT_UNKNOWN",
  "REASON_AGENT_RESTARTED",
  "REASON_AGENT_REMOVED_BY_OPERATOR",
  "TASK_DROPPED",
  "TASK_UNREACHABLE",
  "TASK_GONE",
  "TASK_GONE_BY_OPERATOR",
  "TASK_UNKNOWN",
  "REASON_RECONCILIATION",
]);

export function isSystemFailure(reason: string | undefined): boolean {
  return reason !== undefined && SYSTEM_FAILURE_REASONS.has(reason);
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

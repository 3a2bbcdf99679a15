/**
 * A service instance that keeps failing (Peloton's TerminatedRetryAction
 * with its backoff, task_fail_restart.go): while its next run waits out the
 * backoff, the task says so — that it is failing, how its last run ended
 * (state, reason, the cluster's message: the exit code), how many failures
 * in a row, and when the next run is queued — rather than reading as a
 * task quietly waiting to start.
 */

/** The reason a service's next run waits under: a crash loop's backoff. */
export const CRASH_LOOP_REASON = "CRASH_LOOP_BACKOFF";

export interface CrashLoop {
  /** The run that ended, and how. */
  readonly run: number;
  readonly ended: string;
  readonly reason: string | null;
  readonly message: string | null;
  readonly failureCount: number;
  /** When the next run is queued, and the backoff that makes it so. */
  readonly retryAt: Date;
  readonly delayMs: number;
}

export function describeCrashLoop(c: CrashLoop): string {
  const why = [c.reason, c.message].filter((s) => s !== null && s !== "").join(": ");
  return (
    `failing: run ${c.run} ${c.ended}${why ? ` (${why})` : ""}; ` +
    `${c.failureCount} failure${c.failureCount === 1 ? "" : "s"} so far; ` +
    `run ${c.run + 1} starts after a ${formatSeconds(c.delayMs)} backoff, at ${c.retryAt.toISOString()}`
  );
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

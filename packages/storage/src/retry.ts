/**
 * Runs a transaction again when PostgreSQL aborted it for a serialization
 * failure (40001) or a deadlock (40P01). Both mean "another transaction
 * took these rows first": nothing was written, and the same work a moment
 * later usually succeeds. The wait grows exponentially with full jitter
 * (so two victims of one deadlock do not collide again in step) and the
 * attempts are bounded, after which the last error is thrown.
 *
 * The callback must be safe to run again: it may only act through the
 * transaction it is given (its writes were rolled back), not on memory or
 * the outside world.
 */
import { isTransientConflict } from "./database-errors.ts";

export interface RetryPolicy {
  /** Tries in all, the first included. Default 6. */
  attempts?: number;
  /** Cap of the first wait; doubles each time. Default 20 ms. */
  baseMs?: number;
  /** Largest wait. Default 500 ms. */
  maxMs?: number;
  /** In [0, 1). Injected by tests; default Math.random. */
  random?: () => number;
  /** Injected by tests; default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry (logging). */
  onRetry?: (err: unknown, attempt: number, waitMs: number) => void;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before retry number `retry` (1-based): full jitter under a doubling cap. */
export function retryWaitMs(retry: number, policy: RetryPolicy = {}): number {
  const cap = Math.min(policy.maxMs ?? 500, (policy.baseMs ?? 20) * 2 ** (retry - 1));
  return Math.floor((policy.random ?? Math.random)() * cap);
}

export async function retryTransientConflicts<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = {},
): Promise<T> {
  const attempts = policy.attempts ?? 6;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !isTransientConflict(err)) throw err;
      const waitMs = retryWaitMs(attempt, policy);
      policy.onRetry?.(err, attempt, waitMs);
      await (policy.sleep ?? realSleep)(waitMs);
    }
  }
}

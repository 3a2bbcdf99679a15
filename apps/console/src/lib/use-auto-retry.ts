"use client";
import { useEffect, useRef, useState } from "react";
import { useLive } from "./live";

/** Waits between attempts: 1 s, doubled each time, at most 10 s (as the live stream's reconnects). */
export function autoRetryDelay(attempt: number): number {
  return Math.min(1_000 * 2 ** attempt, 10_000);
}

/**
 * Attempts so far per failing thing, beyond one mount of its error: a list
 * with earlier rows shows them again while it retries, so its error card
 * unmounts and comes back with each failed attempt, and the backoff must
 * survive that. Forgotten once nothing failed for a while.
 */
const memory = new Map<string, { attempt: number; at: number }>();
const FORGET_MS = 30_000;

function recall(key: string): number {
  const m = memory.get(key);
  return m && Date.now() - m.at < FORGET_MS ? m.attempt : 0;
}

function remember(key: string, attempt: number): void {
  memory.set(key, { attempt, at: Date.now() });
}

/**
 * Something failed to load and is shown as an error: try again by itself,
 * with backoff while the failure lasts, and at once when the live stream
 * comes back (the server is reachable again). `retry` may return a promise:
 * the next wait starts when it settles, so a slow attempt is never cut short
 * by the next one. `key` names what failed (the same across the error's
 * remounts). Returns when the next attempt is due (ms since epoch), or null
 * while none is waiting — for "trying again in 4 s".
 */
export function useAutoRetry(
  key: string,
  retry: (() => unknown) | undefined,
  enabled = true,
): number | null {
  const latest = useRef(retry);
  latest.current = retry;
  const attempt = useRef<number | null>(null);
  attempt.current ??= recall(key);
  // Bumped after each attempt settles: schedules the next one.
  const [round, setRound] = useState(0);
  const [dueAt, setDueAt] = useState<number | null>(null);
  const active = enabled && retry !== undefined;

  const { status } = useLive();
  const wasLive = useRef(status === "live");
  useEffect(() => {
    const back = status === "live" && !wasLive.current;
    wasLive.current = status === "live";
    if (back && active) {
      attempt.current = 0;
      remember(key, 0);
      setRound((r) => r + 1);
      void latest.current?.();
    }
  }, [status, active, key]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` re-arms the timer after an attempt.
  useEffect(() => {
    if (!active) {
      setDueAt(null);
      return;
    }
    let cancelled = false;
    const delay = autoRetryDelay(attempt.current ?? 0);
    setDueAt(Date.now() + delay);
    const timer = setTimeout(() => {
      attempt.current = (attempt.current ?? 0) + 1;
      remember(key, attempt.current);
      setDueAt(null);
      void Promise.resolve(latest.current?.())
        .catch(() => undefined)
        .finally(() => {
          if (!cancelled) setRound((r) => r + 1);
        });
    }, delay);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [active, round, key]);

  return active ? dueAt : null;
}

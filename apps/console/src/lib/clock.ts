"use client";
/**
 * One clock for the whole page: a single timer ticks every second while
 * anything shows a time, and every relative time ("12 seconds ago"), run
 * time and countdown reads it — so they move together and never freeze
 * between data refreshes, without one interval per table row.
 */
import { useSyncExternalStore } from "react";

const TICK_MS = 1000;
let now = Date.now();
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/**
 * The shared clock's time, rounded down to `resolutionMs` (a component that
 * reads minutes re-renders once a minute, not every second); null during
 * the server render and hydration, so time-dependent text never differs
 * between the two (a hydration mismatch would re-render the page).
 */
export function useClock(resolutionMs = TICK_MS): number | null {
  const step = Math.max(TICK_MS, resolutionMs);
  return useSyncExternalStore(
    subscribe,
    () => Math.floor(now / step) * step,
    () => null,
  );
}

"use client";
import { useClock } from "./clock";

/**
 * The current time, fresh to `intervalMs`, from the page's one shared clock
 * (lib/clock.ts); null during the server render and the first client
 * render, so time-dependent text never differs between the two.
 */
export function useNow(intervalMs: number): number | null {
  return useClock(intervalMs);
}

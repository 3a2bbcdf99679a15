/**
 * Time as something handed in. The loops that wait (the scheduler's periodic
 * loops, the task writer's settle window, the change listener's coalescing
 * and reconnects) take a `Clock`, so their tests drive time by hand instead
 * of sleeping and hoping the machine was fast enough. It lives in storage,
 * not the engine, because the engine has no clocks at all; the scheduler
 * imports it from here.
 */

declare const timerBrand: unique symbol;
/** A pending callback, as `Clock.setTimeout` hands it out; opaque to callers. */
export type ClockTimer = { readonly [timerBrand]: true };

export interface Clock {
  /** Milliseconds on a monotonic scale: only differences mean anything. */
  now(): number;
  /** Calls `fn` once, `ms` from now. */
  setTimeout(fn: () => void, ms: number): ClockTimer;
  /** Cancels a timer that has not fired; `undefined` or a fired timer is a no-op. */
  clearTimeout(timer: ClockTimer | undefined): void;
}

/** The process's own time: `performance.now()` and the global timers, looked up at each call. */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms) as unknown as ClockTimer,
  clearTimeout: (timer) =>
    globalThis.clearTimeout(timer as unknown as ReturnType<typeof globalThis.setTimeout>),
};

/** Resolves after `ms` on `clock`. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

/**
 * A `Clock` that moves only when the test says so: timers fire in due order
 * inside `advance`, and after each one the promises it set going run before
 * the next, so a loop's async tick finishes "in" the instant it fired. Tests
 * of timing (periods, settle windows, coalescing) then state exact outcomes
 * instead of sleeping and hoping the machine kept up.
 */
import type { Clock, ClockTimer } from "@peloton/storage";

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

export class ManualClock implements Clock {
  private nowMs = 0;
  // From 1: callers may test a timer for truth, as they may a Node timeout.
  private seq = 1;
  private readonly pending = new Map<number, Pending>();

  now(): number {
    return this.nowMs;
  }

  setTimeout(fn: () => void, ms: number): ClockTimer {
    const seq = this.seq++;
    this.pending.set(seq, { at: this.nowMs + Math.max(0, ms), seq, fn });
    return seq as unknown as ClockTimer;
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    if (timer !== undefined) this.pending.delete(timer as unknown as number);
  }

  /** Timers not yet fired. */
  get timers(): number {
    return this.pending.size;
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way
   * (also those set by the callbacks themselves), each at its own instant.
   */
  async advance(ms: number): Promise<void> {
    const until = this.nowMs + ms;
    await settle();
    for (;;) {
      const next = this.nextDue(until);
      if (!next) break;
      this.pending.delete(next.seq);
      this.nowMs = next.at;
      next.fn();
      await settle();
    }
    this.nowMs = until;
  }

  private nextDue(until: number): Pending | undefined {
    let next: Pending | undefined;
    for (const p of this.pending.values())
      if (p.at <= until && (!next || p.at < next.at || (p.at === next.at && p.seq < next.seq)))
        next = p;
    return next;
  }
}

/**
 * Lets every promise chain already started run to its end: a macrotask turn
 * comes after all queued microtasks, a few turns cover chains that hop
 * through other I/O-free callbacks.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
}

/**
 * Gathers change announcements per topic and hands them on in batches: a
 * quiet feed delivers a change after a short gathering window (`leadMs`), a
 * busy one at most once per `coalesceMs`. Keys of one topic merge; past
 * MAX_KEYS_PER_CHANGE, or once any announcement says "everything", the topic
 * is delivered as "refetch all" (`keys: null`).
 */
import { type Clock, type ClockTimer, systemClock } from "../time/clock.ts";
import { type Change, type ChangeTopic, MAX_KEYS_PER_CHANGE } from "./change.ts";

export interface ChangeCoalescerOptions {
  /** At most one delivery per this window while changes keep coming. */
  coalesceMs: number;
  /** After a quiet spell, how long the first change waits for others; at most `coalesceMs`. */
  leadMs: number;
  clock?: Clock;
}

export class ChangeCoalescer {
  private readonly pending = new Map<ChangeTopic, Set<string> | null>();
  private timer: ClockTimer | undefined;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private readonly clock: Clock;
  private readonly leadMs: number;

  constructor(
    private readonly opts: ChangeCoalescerOptions,
    private readonly deliver: (change: Change) => void,
  ) {
    this.clock = opts.clock ?? systemClock;
    this.leadMs = Math.min(opts.leadMs, opts.coalesceMs);
  }

  add(change: Change): void {
    const current = this.pending.get(change.topic);
    if (current === null) {
      // already "refetch all" for this window
    } else if (change.keys === null) {
      this.pending.set(change.topic, null);
    } else {
      const keys = current ?? new Set<string>();
      for (const k of change.keys) keys.add(k);
      this.pending.set(change.topic, keys.size > MAX_KEYS_PER_CHANGE ? null : keys);
    }
    if (this.timer) return;
    const sinceLast = this.clock.now() - this.lastFlushAt;
    this.timer = this.clock.setTimeout(
      () => this.flush(),
      Math.max(this.leadMs, this.opts.coalesceMs - sinceLast),
    );
  }

  /** Drops what is gathered and the delivery pending. */
  stop(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private flush(): void {
    this.timer = undefined;
    this.lastFlushAt = this.clock.now();
    const batch = [...this.pending];
    this.pending.clear();
    for (const [topic, keys] of batch)
      this.deliver({ topic, keys: keys === null ? null : [...keys] });
  }
}

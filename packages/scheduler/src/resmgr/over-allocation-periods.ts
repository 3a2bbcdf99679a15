/**
 * Peloton's sustained over-allocation rule across the preemptor's ticks: a
 * pool must be over its entitlement for `sustainedCount` consecutive
 * *periods* before it gives anything back (peloton-semantics.md §4). The
 * engine counts one period per call; the loop also runs between periods
 * (kicked by a change, for intra-pool preemption to answer a waiting
 * high-priority task at once), so only a tick that starts a period — the
 * first, or one at least `periodMs` after the last counted one, on the
 * injected clock — counts. A tick between periods passes the counts as they
 * are with a count no pool can reach: no pool becomes due, and its counts
 * are not kept. The counts live in memory: a new leader starts from zero,
 * as Peloton's preemptor does after a restart. The entitlement baselines
 * (who took a pool's entitlement, engine takers.ts) are kept the same way:
 * a new leader names no taker until a pool was within its entitlement once.
 */
import type { EntitlementBaselines, EntitlementsAt } from "@peloton/engine";

/** Reached by no pool: a tick between periods makes no pool due. */
const NEVER_DUE = Number.MAX_SAFE_INTEGER;

export interface PeriodStep {
  /** This tick starts a period: its counts are kept. */
  readonly counting: boolean;
  readonly overAllocationCounts: Readonly<Record<string, number>>;
  readonly entitlementBaselines: EntitlementBaselines;
  readonly sustainedCount: number;
}

export class OverAllocationPeriods {
  private counts: Record<string, number> = {};
  private baselines: Record<string, EntitlementsAt> = {};
  private lastCountedAt: number | null = null;

  constructor(
    private readonly periodMs: number,
    private readonly sustainedCount: number,
  ) {}

  /** What the tick at `now` (ms) passes to the engine. */
  step(now: number): PeriodStep {
    const counting = this.lastCountedAt === null || now - this.lastCountedAt >= this.periodMs;
    return {
      counting,
      overAllocationCounts: this.counts,
      entitlementBaselines: this.baselines,
      sustainedCount: counting ? this.sustainedCount : NEVER_DUE,
    };
  }

  /** The engine's counts and baselines after the tick: kept only when it counted. */
  settle(
    step: PeriodStep,
    now: number,
    counts: Readonly<Record<string, number>>,
    baselines: EntitlementBaselines,
  ): void {
    if (!step.counting) return;
    this.counts = { ...counts };
    this.baselines = { ...baselines };
    this.lastCountedAt = now;
  }

  /** Consecutive over-allocated periods so far, per pool (for logs and tests). */
  current(): Readonly<Record<string, number>> {
    return this.counts;
  }
}

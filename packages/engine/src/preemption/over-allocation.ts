/**
 * Which pools are over their entitlement, and for how long (Peloton's
 * preemptor, peloton-semantics.md §4). The count is state the caller keeps
 * between periods: passed in, returned, never read from a clock.
 */
import { isZeroResources, type Resources, subtractResources } from "../resources/resources.ts";
import type { PreemptionPool } from "./input.ts";

/** What the pool holds beyond its entitlement, per kind: non-slack and slack. */
export interface Excess {
  readonly nonSlack: Resources;
  readonly slack: Resources;
}

/** allocation − entitlement per kind, never below 0 (ε-aware subtraction). */
export function excessOf(pool: PreemptionPool): Excess {
  return {
    nonSlack: subtractResources(pool.allocation, pool.nonSlackEntitlement),
    slack: subtractResources(pool.slackAllocation, pool.slackEntitlement),
  };
}

/** Over in any kind, non-slack or slack. */
export function isOverAllocated(e: Excess): boolean {
  return !isZeroResources(e.nonSlack) || !isZeroResources(e.slack);
}

export interface OverAllocationStep {
  /** The counts to pass to the next period. */
  readonly counts: Record<string, number>;
  /** Pools that reached the sustained count this period, in input order, with the count reached. */
  readonly due: readonly { pool: PreemptionPool; count: number; excess: Excess }[];
}

/**
 * One period: an over-allocated pool counts one more, any other restarts at
 * 0; a pool that reaches `sustainedCount` is due and its count restarts
 * (Peloton's `markProcessed`). Pools no longer listed are forgotten.
 */
export function advanceOverAllocation(
  pools: readonly PreemptionPool[],
  previous: Readonly<Record<string, number>>,
  sustainedCount: number,
): OverAllocationStep {
  const counts: Record<string, number> = {};
  const due: { pool: PreemptionPool; count: number; excess: Excess }[] = [];
  for (const pool of pools) {
    const excess = excessOf(pool);
    if (!isOverAllocated(excess)) {
      counts[pool.path] = 0;
      continue;
    }
    const count = (Object.hasOwn(previous, pool.path) ? previous[pool.path]! : 0) + 1;
    if (count >= sustainedCount) {
      due.push({ pool, count, excess });
      counts[pool.path] = 0;
    } else counts[pool.path] = count;
  }
  return { counts, due };
}

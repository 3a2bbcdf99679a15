/**
 * Inter-pool preemption (peloton-semantics.md §4, Peloton's preemptor): a
 * pool over its entitlement for the sustained count of periods gives back
 * the excess. Revocable candidates answer for the slack excess, then
 * non-revocable ones for the non-slack excess, each walked in victim order
 * (`rank.ts`) until covered.
 */
import type { Resources } from "../resources/resources.ts";
import type { ResourceClass } from "../vocabulary/preemption.ts";
import type { AvailabilityBudget } from "./availability.ts";
import {
  type Beneficiary,
  MAX_BENEFICIARIES,
  poolNumbers,
  type WaitingPools,
} from "./beneficiary.ts";
import type { PoolCandidates } from "./candidates.ts";
import { coverExcess } from "./cover.ts";
import type { InterPoolDecision, PoolPreemption } from "./decision.ts";
import type { PreemptionPool } from "./input.ts";
import type { Excess } from "./over-allocation.ts";

export interface DuePool {
  readonly pool: PreemptionPool;
  readonly count: number;
  readonly excess: Excess;
}

export interface InterPoolOutcome {
  readonly decisions: InterPoolDecision[];
  readonly pools: PoolPreemption[];
}

/** The pools whose demand took `pool`'s entitlement (takers.ts); none without a baseline. */
export type TakersOf = (pool: string, excess: Resources, cls: ResourceClass) => Beneficiary[];

const depth = (path: string) => path.split("/").filter((s) => s.length > 0).length;

/** Deepest common ancestor first (stable), each pool once, at most MAX_BENEFICIARIES. */
function closestFirst(all: readonly Beneficiary[]): Beneficiary[] {
  const seen = new Set<string>();
  return all
    .map((b, i) => ({ b, i }))
    .sort((x, y) => depth(y.b.level) - depth(x.b.level) || x.i - y.i)
    .map((x) => x.b)
    .filter((b) => !seen.has(b.pool) && seen.add(b.pool))
    .slice(0, MAX_BENEFICIARIES);
}

export function preemptOverAllocatedPools(
  due: readonly DuePool[],
  candidates: PoolCandidates,
  waiting: (cls: ResourceClass) => WaitingPools,
  budget: AvailabilityBudget,
  takersOf: TakersOf = () => [],
): InterPoolOutcome {
  const decisions: InterPoolDecision[] = [];
  const pools: PoolPreemption[] = [];
  for (const { pool, count, excess } of due) {
    const ranked = candidates.of(pool.path);
    const passes = [
      { cls: "SLACK" as const, list: ranked.revocable, excess: excess.slack },
      { cls: "NON_SLACK" as const, list: ranked.nonRevocable, excess: excess.nonSlack },
    ];
    const uncovered: Record<ResourceClass, Resources> = {
      SLACK: excess.slack,
      NON_SLACK: excess.nonSlack,
    };
    const skippedForSla: string[] = [];
    let victims = 0;
    for (const pass of passes) {
      const cover = coverExcess(pass.list, pass.excess, budget);
      uncovered[pass.cls] = cover.remaining;
      for (const t of cover.skippedForSla) skippedForSla.push(t.taskId);
      if (cover.chosen.length === 0) continue;
      // The pools that wait for the room and those whose demand took the entitlement,
      // the closest relatives first (a waiting pool before a taker at the same level).
      const beneficiaries = closestFirst([
        ...waiting(pass.cls).beneficiariesOf(pool.path, pass.excess),
        ...takersOf(pool.path, pass.excess, pass.cls),
      ]);
      const numbers = { ...poolNumbers(pool, pass.cls), excess: pass.excess };
      for (const step of cover.chosen) {
        victims++;
        decisions.push({
          kind: "INTER_POOL",
          pool: pool.path,
          victim: step.task,
          resourceClass: pass.cls,
          numbers,
          remaining: step.remaining,
          rank: step.rank,
          beneficiaries,
          level: beneficiaries[0]?.level ?? null,
        });
      }
    }
    pools.push({
      pool: pool.path,
      count,
      nonSlackExcess: excess.nonSlack,
      slackExcess: excess.slack,
      nonSlackUncovered: uncovered.NON_SLACK,
      slackUncovered: uncovered.SLACK,
      victims,
      skippedForSla,
    });
  }
  return { decisions, pools };
}

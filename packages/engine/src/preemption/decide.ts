/**
 * One preemption cycle (peloton-semantics.md §4), in order:
 *
 *   pools ─► over-allocation counts (+1 or back to 0) ─► due pools
 *     ─► candidates of the pools concerned, ranked (rank.ts)
 *     ─► inter-pool: each due pool gives back its excess (revocable first)
 *     ─► intra-pool: each waiting gang takes room from lower priorities
 *
 * Pure: the input is read, never changed; choices are simulated on copies
 * (the pools' allocations, the jobs' availability budgets), so later
 * decisions of the cycle see earlier ones.
 */

import type { Resources } from "../resources/resources.ts";
import type { ResourceClass } from "../vocabulary/preemption.ts";
import { AvailabilityBudget } from "./availability.ts";
import { WaitingPools } from "./beneficiary.ts";
import { PoolCandidates } from "./candidates.ts";
import type { PreemptionResult } from "./decision.ts";
import type { PreemptionInput, PreemptionTask } from "./input.ts";
import { preemptOverAllocatedPools } from "./inter-pool.ts";
import { preemptForWaitingGangs } from "./intra-pool.ts";
import { advanceOverAllocation } from "./over-allocation.ts";
import { PoolAllocations } from "./pool-allocations.ts";
import { advanceBaselines, baselineOf, entitlementTakers } from "./takers.ts";
import { validatePreemptionInput } from "./validate.ts";

/** Pools over their entitlement this period: counting, or due (whose count restarted). */
function overAllocatedPools(
  counts: Readonly<Record<string, number>>,
  due: readonly { pool: { path: string } }[],
): Set<string> {
  const over = new Set(due.map((d) => d.pool.path));
  for (const [path, n] of Object.entries(counts)) if (n > 0) over.add(path);
  return over;
}

export function decidePreemptions(input: PreemptionInput): PreemptionResult {
  // 0. Bad input is refused whole, each problem named; nothing is decided.
  //    (Tasks are checked as they are gathered in 2: only those a decision reads.)
  const errors = validatePreemptionInput(input);
  if (errors.length > 0) return { ok: false, errors };
  const pools = new Map(input.pools.map((p) => [p.path, p]));
  const waitingGangs = input.waiting ?? [];

  // 1. One more period: over-allocated pools count up, others restart; those at
  //    the sustained count are due now (and restart too).
  const step = advanceOverAllocation(input.pools, input.overAllocationCounts, input.sustainedCount);

  // 2. The candidates of the pools concerned, gathered in one pass.
  const concerned = new Set<string>(step.due.map((d) => d.pool.path));
  for (const g of waitingGangs) concerned.add(g.pool);
  const candidates = new PoolCandidates(input.tasks, concerned);
  if (candidates.errors.length > 0) return { ok: false, errors: candidates.errors };
  const budget = new AvailabilityBudget(input.jobs);

  // 3. Inter-pool: due pools give back their excess to the pools that wait.
  const waiting = new Map<ResourceClass, WaitingPools>();
  const waitingFor = (cls: ResourceClass) => {
    let w = waiting.get(cls);
    if (!w) {
      w = new WaitingPools(input.pools, cls);
      waiting.set(cls, w);
    }
    return w;
  };
  //    When no pool waits, the pools whose demand took the entitlement since
  //    the pool's baseline are named instead (takers.ts).
  const baselines = input.entitlementBaselines ?? {};
  const takersOf = (pool: string, excess: Resources, cls: ResourceClass) => {
    const before = baselineOf(pool, baselines);
    return before ? entitlementTakers(pool, excess, cls, before, input.pools) : [];
  };
  const inter = preemptOverAllocatedPools(step.due, candidates, waitingFor, budget, takersOf);

  // 4. Intra-pool, on the copy after step 3: waiting gangs, in order, take
  //    room from lower-priority tasks of their pool, or nothing.
  const allocations = new PoolAllocations(pools);
  const chosen = new Set<PreemptionTask>();
  const gangPools = new Set(waitingGangs.map((g) => g.pool));
  for (const d of inter.decisions) {
    if (!gangPools.has(d.pool)) continue;
    chosen.add(d.victim);
    allocations.subtract(d.pool, d.resourceClass, d.victim.resources);
  }
  const intra = preemptForWaitingGangs(
    waitingGangs,
    pools,
    allocations,
    candidates,
    chosen,
    budget,
  );

  return {
    ok: true,
    decisions: [...inter.decisions, ...intra.decisions],
    overAllocationCounts: step.counts,
    entitlementBaselines: advanceBaselines(
      input.pools,
      overAllocatedPools(step.counts, step.due),
      baselines,
    ),
    pools: inter.pools,
    gangs: intra.gangs,
  };
}

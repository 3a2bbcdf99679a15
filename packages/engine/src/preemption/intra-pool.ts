/**
 * Intra-pool preemption (ours, Peloton's priority model;
 * peloton-semantics.md §4): a gang waits in a pool at its entitlement while
 * preemptible tasks of the same pool have a lower priority. The lowest-ranked
 * of them (victim order, `rank.ts`: READY and PLACING ones before RUNNING
 * ones, as they hold allocation too) make room until the gang would fit:
 * allocation − victims + gang ≤ entitlement in every kind (the slack
 * entitlement and revocable candidates for a revocable gang). Never a task of
 * equal or higher priority; never a partial choice (if the lower-priority
 * candidates cannot make room, none is preempted and the pool's later gangs
 * wait behind this one, as in admission).
 */
import { addResources, isZeroResources, subtractResources } from "../resources/resources.ts";
import type { ResourceClass } from "../vocabulary/preemption.ts";
import type { AvailabilityBudget } from "./availability.ts";
import { poolNumbers } from "./beneficiary.ts";
import type { PoolCandidates } from "./candidates.ts";
import { coverExcess } from "./cover.ts";
import type { GangPreemption, IntraPoolDecision } from "./decision.ts";
import type { PendingGang, PreemptionPool, PreemptionTask } from "./input.ts";
import type { PoolAllocations } from "./pool-allocations.ts";

export interface IntraPoolOutcome {
  readonly decisions: IntraPoolDecision[];
  readonly gangs: GangPreemption[];
}

export function preemptForWaitingGangs(
  waiting: readonly PendingGang[],
  pools: ReadonlyMap<string, PreemptionPool>,
  allocations: PoolAllocations,
  candidates: PoolCandidates,
  chosen: Set<PreemptionTask>,
  budget: AvailabilityBudget,
): IntraPoolOutcome {
  const decisions: IntraPoolDecision[] = [];
  const gangs: GangPreemption[] = [];
  const blocked = new Set<string>();
  for (const gang of waiting) {
    const pool = pools.get(gang.pool)!;
    const cls: ResourceClass = gang.revocable ? "SLACK" : "NON_SLACK";
    const { entitlement, demand } = poolNumbers(pool, cls);
    const allocation = allocations.get(pool.path, cls);
    const need = subtractResources(addResources(allocation, gang.resources), entitlement);
    const base = { gangId: gang.gangId, pool: gang.pool, need };
    if (blocked.has(gang.pool)) {
      gangs.push({ ...base, outcome: "BLOCKED", victims: [], skippedForSla: [] });
      continue;
    }
    if (isZeroResources(need)) {
      allocations.add(pool.path, cls, gang.resources);
      gangs.push({ ...base, outcome: "FITS", victims: [], skippedForSla: [] });
      continue;
    }
    const ranked = candidates.of(pool.path);
    const cover = coverExcess(
      gang.revocable ? ranked.revocable : ranked.nonRevocable,
      need,
      budget,
      {
        accept: (t) => t.priority < gang.priority,
        exclude: chosen,
      },
    );
    const skippedForSla = cover.skippedForSla.map((t) => t.taskId);
    if (!isZeroResources(cover.remaining)) {
      for (const step of cover.chosen) budget.release(step.task);
      blocked.add(gang.pool);
      gangs.push({ ...base, outcome: "NOT_ENOUGH_LOWER_PRIORITY", victims: [], skippedForSla });
      continue;
    }
    const numbers = { allocation, entitlement, demand, excess: need };
    for (const step of cover.chosen) {
      chosen.add(step.task);
      allocations.subtract(pool.path, cls, step.task.resources);
      decisions.push({
        kind: "INTRA_POOL",
        pool: pool.path,
        victim: step.task,
        resourceClass: cls,
        numbers,
        remaining: step.remaining,
        rank: step.rank,
        beneficiary: {
          gangId: gang.gangId,
          taskIds: [...gang.taskIds],
          priority: gang.priority,
          resources: { ...gang.resources },
        },
        level: pool.path,
      });
    }
    allocations.add(pool.path, cls, gang.resources);
    gangs.push({
      ...base,
      outcome: "PREEMPTS",
      victims: cover.chosen.map((s) => s.task.taskId),
      skippedForSla,
    });
  }
  return { decisions, gangs };
}

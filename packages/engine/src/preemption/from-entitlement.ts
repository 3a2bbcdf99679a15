/**
 * The leaf pools' preemption numbers straight from an entitlement result:
 * the resource manager recomputes entitlements every period and hands the
 * same result to the preemptor.
 */
import type { EntitlementResult } from "../entitlement/calculate.ts";
import { resourcesAt as read } from "../entitlement/result.ts";
import type { PreemptionPool } from "./input.ts";

/** Leaves in input order (a pool without children; the root is never one). */
export function preemptionPoolsOf(result: EntitlementResult): PreemptionPool[] {
  const { pools, usage } = result;
  const out: PreemptionPool[] = [];
  for (let i = 1; i < pools.size; i++) {
    if (pools.childStart[i] !== pools.childStart[i + 1]) continue;
    out.push({
      path: pools.paths[i]!,
      nonSlackEntitlement: read(result.nonSlackEntitlement, i),
      slackEntitlement: read(result.slackEntitlement, i),
      allocation: read(usage.allocation, i),
      slackAllocation: read(usage.slackAllocation, i),
      demand: read(usage.demand, i),
      slackDemand: read(usage.slackDemand, i),
    });
  }
  return out;
}

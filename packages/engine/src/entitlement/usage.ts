import { KIND_COUNT, RESOURCE_KINDS } from "../resources/kinds.ts";
import type { Resources } from "../resources/resources.ts";
import type { PoolUsageInput } from "../respool/aggregate.ts";
import type { CompiledPools } from "./compile.ts";

/** Demand and allocation of every pool, summed up the tree. */
export interface Usage {
  readonly demand: Float64Array;
  readonly allocation: Float64Array;
  readonly slackDemand: Float64Array;
  readonly slackAllocation: Float64Array;
}

function readInto(into: Float64Array, base: number, r: Partial<Resources> | undefined): void {
  if (!r) return;
  for (let k = 0; k < KIND_COUNT; k++) into[base + k] = r[RESOURCE_KINDS[k]!] ?? 0;
}

/**
 * Leaves' usage from the input (`usage[i]` belongs to input pool `i`), each
 * parent's the sum of its children's in child order, as Peloton's recursive
 * `calculateDemand` adds them (peloton-semantics.md §1). A parent's own usage in
 * the input is ignored, as Peloton overwrites it.
 */
export function loadUsage(
  pools: CompiledPools,
  usage: readonly (PoolUsageInput | undefined)[],
): Usage {
  const n = pools.size * KIND_COUNT;
  const demand = new Float64Array(n);
  const allocation = new Float64Array(n);
  const slackDemand = new Float64Array(n);
  const slackAllocation = new Float64Array(n);
  const { childStart, childList } = pools;
  for (let i = 1; i < pools.size; i++) {
    if (childStart[i] !== childStart[i + 1]) continue;
    const u = usage[i - 1];
    if (!u) continue;
    const base = i * KIND_COUNT;
    readInto(demand, base, u.demand);
    readInto(allocation, base, u.allocation);
    readInto(slackDemand, base, u.slackDemand);
    readInto(slackAllocation, base, u.slackAllocation);
  }
  // Children have larger indices than their parent: going down the indices,
  // every child is complete before its parent adds it.
  for (let p = pools.size - 1; p >= 0; p--) {
    const start = childStart[p]!;
    const end = childStart[p + 1]!;
    if (start === end) continue;
    const base = p * KIND_COUNT;
    for (let k = 0; k < KIND_COUNT; k++) {
      let d = 0;
      let a = 0;
      let sd = 0;
      let sa = 0;
      for (let j = start; j < end; j++) {
        const i = childList[j]! * KIND_COUNT + k;
        d += demand[i]!;
        a += allocation[i]!;
        sd += slackDemand[i]!;
        sa += slackAllocation[i]!;
      }
      demand[base + k] = d;
      allocation[base + k] = a;
      slackDemand[base + k] = sd;
      slackAllocation[base + k] = sa;
    }
  }
  return { demand, allocation, slackDemand, slackAllocation };
}

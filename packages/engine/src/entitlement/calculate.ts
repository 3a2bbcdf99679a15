import { CPU, KIND_COUNT, RESOURCE_KINDS } from "../resources/kinds.ts";
import type { Resources } from "../resources/resources.ts";
import type { PoolUsageInput } from "../respool/aggregate.ts";
import { type CompiledPools, compilePools, type PoolListError } from "./compile.ts";
import { divideEntitlement } from "./divide.ts";
import { ExplanationRecorder } from "./explanation.ts";
import type { EntitlementInput } from "./input.ts";
import { divideSlack } from "./slack.ts";
import { loadUsage, type Usage } from "./usage.ts";
import type { Work } from "./work.ts";

export interface EntitlementOptions {
  /**
   * Record explanation steps: `true` for every pool, or the paths of the pools
   * to explain (the console asks about one pool at a time). Off by default:
   * the periodic calculation needs only the numbers.
   */
  readonly explain?: boolean | readonly string[];
}

/** Numbers per pool and kind at `[index * KIND_COUNT + kind]`, indices as in `pools`. */
export interface EntitlementResult {
  readonly pools: CompiledPools;
  readonly usage: Usage;
  readonly entitlement: Float64Array;
  /** Unset (0) for the root, as in Peloton. */
  readonly nonSlackEntitlement: Float64Array;
  /** The root's is the cluster's slack cpu. */
  readonly slackEntitlement: Float64Array;
  readonly explanations: ExplanationRecorder | null;
}

export interface ClusterCapacity {
  readonly capacity: Partial<Resources>;
  readonly slackCapacity?: Partial<Resources>;
}

/**
 * Hierarchical max-min fairness, Peloton's algorithm (peloton-semantics.md §1):
 * the root gets the cluster capacity; top down, each parent's entitlement is
 * divided among its children (reservations, then shares of the free amount to
 * unmet demand, then what nobody asked for); then the revocable pass, top
 * down again, splits each entitlement into non-slack and slack.
 */
export function computeEntitlement(
  pools: CompiledPools,
  usage: readonly (PoolUsageInput | undefined)[],
  cluster: ClusterCapacity,
  options: EntitlementOptions = {},
): EntitlementResult {
  const n = pools.size * KIND_COUNT;
  const used = loadUsage(pools, usage);
  const w: Work = {
    pools,
    ...needs(pools, used),
    slackDemand: used.slackDemand,
    slackAllocation: used.slackAllocation,
    unmet: new Float64Array(n),
    active: new Int32Array(pools.maxChildren),
    totalShare: new Float64Array(KIND_COUNT),
    kept: new Float64Array(KIND_COUNT),
    slackFree: new Float64Array(KIND_COUNT),
    entitlement: new Float64Array(n),
    nonSlackEntitlement: new Float64Array(n),
    slackEntitlement: new Float64Array(n),
    rec: recorder(pools, options.explain),
  };
  for (let k = 0; k < KIND_COUNT; k++) {
    w.entitlement[k] = cluster.capacity[RESOURCE_KINDS[k]!] ?? 0;
    w.rec?.push(0, k, { step: "capacity", amount: w.entitlement[k]! });
  }
  // The root's slack entitlement is the cluster's revocable cpu only.
  w.slackEntitlement[CPU] = cluster.slackCapacity?.cpu ?? 0;
  for (let p = 0; p < pools.size; p++) divideEntitlement(w, p);
  for (let p = 0; p < pools.size; p++) divideSlack(w, p);
  return {
    pools,
    usage: used,
    entitlement: w.entitlement,
    nonSlackEntitlement: w.nonSlackEntitlement,
    slackEntitlement: w.slackEntitlement,
    explanations: w.rec,
  };
}

/** Validates the pool list, then calculates. */
export function calculateEntitlement(
  input: EntitlementInput,
  options: EntitlementOptions = {},
): { ok: true; result: EntitlementResult } | { ok: false; error: PoolListError } {
  const compiled = compilePools(input.pools);
  if (!compiled.ok) return compiled;
  return { ok: true, result: computeEntitlement(compiled.pools, input.pools, input, options) };
}

/**
 * Per pool and kind, phase 1's inputs: the non-revocable need (allocation +
 * demand), the revocable requirement `min(slack limit, revocable allocation +
 * revocable demand)`, and `want` = their sum capped at the limit (Peloton's
 * `calculateDemandForRespool`, summing in its order).
 */
function needs(pools: CompiledPools, u: Usage) {
  const n = pools.size * KIND_COUNT;
  const want = new Float64Array(n);
  const nonSlackNeed = new Float64Array(n);
  const slackNeed = new Float64Array(n);
  for (let i = KIND_COUNT; i < n; i++) {
    const ns = u.allocation[i]! + u.demand[i]!;
    const s = Math.min(pools.slackLimit[i]!, u.slackAllocation[i]! + u.slackDemand[i]!);
    nonSlackNeed[i] = ns;
    slackNeed[i] = s;
    want[i] = Math.min(ns + s, pools.limit[i]!);
  }
  return { want, nonSlackNeed, slackNeed };
}

function recorder(
  pools: CompiledPools,
  explain: EntitlementOptions["explain"],
): ExplanationRecorder | null {
  if (!explain) return null;
  if (explain === true) return new ExplanationRecorder(pools.size, "all");
  const indices: number[] = [];
  for (const path of explain) {
    const i = pools.indexOf.get(path);
    if (i !== undefined) indices.push(i);
  }
  return new ExplanationRecorder(pools.size, indices);
}

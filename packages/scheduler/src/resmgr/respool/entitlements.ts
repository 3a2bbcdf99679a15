/**
 * Entitlements of a snapshot: the engine's calculator on the stored tree with
 * the cluster capacity (no revocable capacity until slack resources exist).
 */
import {
  CPU,
  calculateEntitlement,
  DISK,
  describePoolListError,
  type EntitlementResult,
  entitlementInputFromTree,
  entitlementOf,
  GPU,
  KIND_COUNT,
  MEMORY,
  type PoolEntitlement,
  type Resources,
  zeroResources,
} from "@peloton/engine";
import type { PoolSnapshot } from "./snapshot.ts";

/** Slack (revocable) cpu the cluster offers: none until revocable resources are offered. */
const SLACK_CAPACITY: Partial<Resources> = { cpu: 0 };

export function calculateSnapshot(
  snapshot: PoolSnapshot,
  opts: { explain?: readonly string[] } = {},
): EntitlementResult {
  const input = entitlementInputFromTree(
    snapshot.tree,
    { capacity: snapshot.capacity, slackCapacity: SLACK_CAPACITY },
    snapshot.usage,
  );
  const calculated = calculateEntitlement(input, opts.explain ? { explain: opts.explain } : {});
  // The tree was built from the same records, so the list is always in order.
  if (!calculated.ok) throw new Error(describePoolListError(calculated.error));
  return calculated.result;
}

/** A pool's entitlements and usage, revocable usage included. */
export interface PoolNumbers extends PoolEntitlement {
  readonly slackAllocation: Resources;
}

const NOTHING: PoolNumbers = {
  entitlement: zeroResources(),
  nonSlackEntitlement: zeroResources(),
  slackEntitlement: zeroResources(),
  demand: zeroResources(),
  allocation: zeroResources(),
  slackAllocation: zeroResources(),
};

/** A pool's numbers (zeros for a path the result does not know). */
export function numbersOf(result: EntitlementResult, path: string): PoolNumbers {
  const entitled = entitlementOf(result, path);
  const i = result.pools.indexOf.get(path);
  if (!entitled || i === undefined) return NOTHING;
  const slack = result.usage.slackAllocation;
  const at = (k: number) => slack[i * KIND_COUNT + k]!;
  return {
    ...entitled,
    slackAllocation: { cpu: at(CPU), gpu: at(GPU), memory: at(MEMORY), disk: at(DISK) },
  };
}

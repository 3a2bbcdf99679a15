/**
 * Each leaf pool's numbers for admission: its non-slack and slack
 * entitlement, its reservation and its controller limit. The pool service's
 * snapshot (stored tree, cluster capacity, every pool's demand and
 * allocation) through the engine's calculator, recomputed on every admission
 * tick, so entitlements follow every change (a job submitted, a task ended,
 * a pool edited, a host gone) and the period.
 */
import {
  type EntitlementResult,
  isLeafPool,
  listPools,
  type PoolNode,
  RESOURCE_KINDS,
  type Resources,
} from "@peloton/engine";
import type { Repositories } from "@peloton/storage";
import { calculateSnapshot, numbersOf } from "./respool/entitlements.ts";
import { loadPoolSnapshot, type PoolSnapshot } from "./respool/snapshot.ts";

export interface LeafPoolNumbers {
  poolId: string;
  path: string;
  nonSlackEntitlement: Resources;
  slackEntitlement: Resources;
  reservation: Resources;
  controllerLimitPercent: number | null;
  /** The lowest limit on its path from the root: its entitlement never goes above it. */
  limit: Resources;
}

/** Leaf pools by pool id. */
export async function leafPoolNumbers(
  repos: Pick<Repositories, "pools" | "hosts" | "tasks">,
): Promise<Map<string, LeafPoolNumbers>> {
  const snapshot = await loadPoolSnapshot(repos);
  return leafPoolNumbersOf(snapshot, calculateSnapshot(snapshot));
}

/** The same from a snapshot and its entitlements (pure). */
export function leafPoolNumbersOf(
  snapshot: PoolSnapshot,
  result: EntitlementResult,
): Map<string, LeafPoolNumbers> {
  const out = new Map<string, LeafPoolNumbers>();
  for (const node of listPools(snapshot.tree)) {
    const r = node.record;
    if (!r || !isLeafPool(node)) continue;
    const numbers = numbersOf(result, r.path);
    out.set(r.id, {
      poolId: r.id,
      path: r.path,
      nonSlackEntitlement: numbers.nonSlackEntitlement,
      slackEntitlement: numbers.slackEntitlement,
      reservation: {
        cpu: r.resources.cpu.reservation,
        gpu: r.resources.gpu.reservation,
        memory: r.resources.memory.reservation,
        disk: r.resources.disk.reservation,
      },
      controllerLimitPercent: r.controllerLimitMaxPercent,
      limit: pathLimit(node),
    });
  }
  return out;
}

/** Per kind, the lowest limit of the pool and its ancestors (the root, a record-less node, has none). */
function pathLimit(node: PoolNode): Resources {
  const limit: Resources = { cpu: Infinity, gpu: Infinity, memory: Infinity, disk: Infinity };
  for (let n: PoolNode | null = node; n?.record; n = n.parent)
    for (const kind of RESOURCE_KINDS)
      limit[kind] = Math.min(limit[kind], n.record.resources[kind].limit);
  return limit;
}

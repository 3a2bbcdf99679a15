import type { Resources } from "../resources/resources.ts";
import type { PoolUsageInput } from "../respool/aggregate.ts";
import { listPools, type PoolRecord, type PoolTree } from "../respool/tree.ts";
import type { EntitlementInput } from "./input.ts";

/**
 * The calculator's input from a built tree: pools in walk order (parents
 * before children, siblings in creation order, whatever order the records
 * came in) with each leaf's usage looked up by path.
 */
export function entitlementInputFromTree<R extends PoolRecord>(
  tree: PoolTree<R>,
  cluster: { readonly capacity: Partial<Resources>; readonly slackCapacity?: Partial<Resources> },
  usageByPath: ReadonlyMap<string, PoolUsageInput>,
): EntitlementInput {
  return {
    capacity: cluster.capacity,
    slackCapacity: cluster.slackCapacity ?? {},
    pools: listPools(tree).map((node) => {
      const r = node.record!;
      return {
        path: r.path,
        resources: r.resources,
        slackLimitMaxPercent: r.slackLimitMaxPercent,
        ...usageByPath.get(r.path),
      };
    }),
  };
}

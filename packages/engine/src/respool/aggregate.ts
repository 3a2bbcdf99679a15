import {
  addResources,
  type Resources,
  toResources,
  zeroResources,
} from "../resources/resources.ts";
import { type PoolNode, type PoolRecord, type PoolTree, walkPools } from "./tree.ts";

/** What a pool asks for and holds, non-revocable and revocable (slack). */
export interface PoolUsage {
  readonly demand: Resources;
  readonly allocation: Resources;
  readonly slackDemand: Resources;
  readonly slackAllocation: Resources;
}

export interface PoolUsageInput {
  readonly demand?: Partial<Resources>;
  readonly allocation?: Partial<Resources>;
  readonly slackDemand?: Partial<Resources>;
  readonly slackAllocation?: Partial<Resources>;
}

/**
 * Sums a per-leaf amount up the tree. A parent's value is the sum of its
 * children's, its own ignored: Peloton's `calculateDemand` and
 * `calculateAllocation` overwrite a non-leaf's value the same way
 * (peloton-semantics.md §1, "A parent's demand and allocation are the sums of
 * its children's"). The result has an entry for every pool and the root.
 */
export function aggregateUp<R extends PoolRecord>(
  tree: PoolTree<R>,
  leafValue: (leaf: PoolNode<R>) => Partial<Resources> | undefined,
): Map<string, Resources> {
  const order: PoolNode<R>[] = [];
  walkPools(tree, (n) => {
    order.push(n);
    return true;
  });
  const out = new Map<string, Resources>();
  // Reverse walk order visits every child before its parent.
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    if (node.children.length === 0) {
      out.set(node.path, toResources(leafValue(node)));
      continue;
    }
    let sum = zeroResources();
    for (const c of node.children) sum = addResources(sum, out.get(c.path)!);
    out.set(node.path, sum);
  }
  return out;
}

/** The four usage amounts of every pool, summed up from the leaves. */
export function aggregateUsage<R extends PoolRecord>(
  tree: PoolTree<R>,
  leafUsage: ReadonlyMap<string, PoolUsageInput>,
): Map<string, PoolUsage> {
  const demand = aggregateUp(tree, (n) => leafUsage.get(n.path)?.demand);
  const allocation = aggregateUp(tree, (n) => leafUsage.get(n.path)?.allocation);
  const slackDemand = aggregateUp(tree, (n) => leafUsage.get(n.path)?.slackDemand);
  const slackAllocation = aggregateUp(tree, (n) => leafUsage.get(n.path)?.slackAllocation);
  const out = new Map<string, PoolUsage>();
  for (const [path, d] of demand) {
    out.set(path, {
      demand: d,
      allocation: allocation.get(path)!,
      slackDemand: slackDemand.get(path)!,
      slackAllocation: slackAllocation.get(path)!,
    });
  }
  return out;
}

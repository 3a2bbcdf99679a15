import { isZeroResources, type Resources, toResources } from "../../../resources/resources.ts";
import type { PoolNode } from "../../tree.ts";
import type { PoolValidationError } from "../errors.ts";

/** What the caller knows about a pool's work when it asks to delete it. */
export interface PoolDeleteFacts {
  readonly jobs?: number;
  readonly allocation?: Partial<Resources>;
  readonly demand?: Partial<Resources>;
}

/** Delete: only a leaf (peloton-semantics.md §2; Peloton's "ResourcePoolIsNotLeaf"). */
export function checkLeaf(node: PoolNode): PoolValidationError[] {
  if (node.children.length === 0) return [];
  return [{ code: "NOT_LEAF", pool: node.path, values: { children: node.children.length } }];
}

/**
 * Delete: no jobs, no allocation and no demand (Peloton's "ResourcePoolIsBusy",
 * which compares allocation and demand with zero using ε slack).
 */
export function checkIdle(node: PoolNode, facts: PoolDeleteFacts): PoolValidationError[] {
  const jobs = facts.jobs ?? 0;
  const allocation = toResources(facts.allocation);
  const demand = toResources(facts.demand);
  if (jobs === 0 && isZeroResources(allocation) && isZeroResources(demand)) return [];
  return [{ code: "BUSY", pool: node.path, values: { jobs, allocation, demand } }];
}

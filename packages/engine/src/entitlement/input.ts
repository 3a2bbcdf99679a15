import type { Resources } from "../resources/resources.ts";
import type { PoolUsageInput } from "../respool/aggregate.ts";
import type { PoolResources } from "../respool/config.ts";

/** A pool's settings as the calculator needs them. A `PoolRecord` fits. */
export interface EntitlementPoolConfig {
  /** `/a/b`; the root `/` is implicit and never listed. */
  readonly path: string;
  readonly resources: PoolResources;
  /** Percent of the reservation revocable tasks may use of memory, disk and gpu (default 20). */
  readonly slackLimitMaxPercent?: number;
}

/**
 * A pool with what it asks for and holds. Only leaves' usage counts: a parent's
 * is the sum of its children's (peloton-semantics.md §1).
 */
export interface EntitlementPoolInput extends EntitlementPoolConfig, PoolUsageInput {}

/** One calculation: the cluster and its pools, parents before children, siblings in order. */
export interface EntitlementInput {
  readonly capacity: Partial<Resources>;
  /** Only `cpu` is revocable; other kinds are ignored. */
  readonly slackCapacity?: Partial<Resources>;
  readonly pools: readonly EntitlementPoolInput[];
}

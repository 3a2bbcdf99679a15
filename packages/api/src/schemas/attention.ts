/**
 * The overview's "needs attention" (`overview.attention`): its input and the
 * pure rule that picks the pools worth a look. Zod-only, safe in the browser.
 */
import { RESOURCE_KINDS, type ResourceKind } from "@peloton/engine";
import { z } from "zod";

/** Runs pending longer than this are "stuck" unless the caller says otherwise. */
export const DEFAULT_STUCK_PENDING_SECONDS = 10 * 60;

export const attentionInput = z
  .object({
    /** A run pending longer than this many seconds counts as stuck (1 min … 1 day). */
    pendingForSeconds: z
      .number()
      .int("pendingForSeconds is a whole number of seconds")
      .min(60, "pendingForSeconds is at least 60 (a minute)")
      .max(86_400, "pendingForSeconds is at most 86,400 (a day)")
      .default(DEFAULT_STUCK_PENDING_SECONDS),
    /** How many items of each sort are listed (1 … 50). */
    limit: z.number().int().min(1).max(50).default(10),
  })
  .default({ pendingForSeconds: DEFAULT_STUCK_PENDING_SECONDS, limit: 10 });
export type AttentionInput = z.input<typeof attentionInput>;

/** One kind of a pool as the rule reads it (the pool tree's numbers). */
export interface PoolKindUsage {
  entitlement: number;
  allocation: number;
  demand: number;
}

export type PoolConcernCode = "OVER_ENTITLEMENT" | "BLOCKED";

export interface PoolConcern {
  code: PoolConcernCode;
  kind: ResourceKind;
  entitlement: number;
  allocation: number;
  demand: number;
}

/** Below this, a difference is the float noise of summed task sizes, not a real excess. */
const EPSILON = 1e-6;

/**
 * Why a pool needs a look, at most one concern per kind: it holds more than
 * its entitlement (its preemptible tasks are the next to be preempted), or
 * work waits in it that its remaining entitlement cannot admit (blocked;
 * only leaf pools hold jobs, so only they are said to be blocked).
 */
export function poolConcerns(
  resources: Readonly<Record<ResourceKind, PoolKindUsage>>,
  isLeaf: boolean,
): PoolConcern[] {
  const out: PoolConcern[] = [];
  for (const kind of RESOURCE_KINDS) {
    const n = resources[kind];
    const numbers = {
      kind,
      entitlement: n.entitlement,
      allocation: n.allocation,
      demand: n.demand,
    };
    if (n.allocation > n.entitlement + EPSILON) out.push({ code: "OVER_ENTITLEMENT", ...numbers });
    else if (isLeaf && n.demand > EPSILON && n.allocation + n.demand > n.entitlement + EPSILON)
      out.push({ code: "BLOCKED", ...numbers });
  }
  return out;
}

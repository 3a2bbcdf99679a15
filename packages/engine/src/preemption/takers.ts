/**
 * Who took an over-allocated pool's entitlement when no pool waits any more
 * (issue #19 item 3). The entitlement calculator divides a parent's
 * entitlement by demand: when /b's demand grows, /b's entitlement grows and
 * /a's shrinks. If /b's tasks are then admitted and placed (the cluster had
 * room elsewhere), /b waits for nothing, yet /a is now over its entitlement
 * and gives back the difference — for /b, whose demand took it.
 *
 * So each pool keeps a **baseline**: every leaf's entitlements at the last
 * period the pool was within its own. When it becomes due, the pools whose
 * entitlement grew since the baseline, in a kind the pool has in excess, and
 * that use that kind (allocation or demand), are the ones the preemption is
 * for. The baselines are state the caller keeps between periods, like the
 * over-allocation counts: passed in, returned, never read from a clock.
 *
 * A pool created since the last period held nothing then, so it was within
 * its entitlement: its baseline is that period's entitlements. Without this
 * a pool created, filled and outgrown by a sibling between two periods (a
 * busy preemptor's periods are seconds apart) never had a baseline, and the
 * sibling whose demand took its entitlement was never named (issue #19
 * item 3). The root keeps the last period's entitlements for it: the root is
 * never over its own (it is the cluster).
 */
import { RESOURCE_KINDS } from "../resources/kinds.ts";
import {
  amountLessOrEqual,
  type Resources,
  subtractResources,
  toResources,
} from "../resources/resources.ts";
import { ROOT_PATH } from "../respool/path.ts";
import type { ResourceClass } from "../vocabulary/preemption.ts";
import {
  type Beneficiary,
  kindBits,
  lowestCommonAncestor,
  MAX_BENEFICIARIES,
  poolNumbers,
} from "./beneficiary.ts";
import type { PreemptionPool } from "./input.ts";

/** One leaf's entitlements at one period. */
export interface PoolEntitlements {
  readonly nonSlack: Resources;
  readonly slack: Resources;
}

/** Every leaf's entitlements at one period, by path. */
export type EntitlementsAt = ReadonlyMap<string, PoolEntitlements>;

/**
 * Per pool: the entitlements of every leaf at the last period it was within
 * its own; under the root's path, the last period's (see `baselineOf`).
 */
export type EntitlementBaselines = Readonly<Record<string, EntitlementsAt>>;

export function entitlementsAt(pools: readonly PreemptionPool[]): EntitlementsAt {
  return new Map(
    pools.map((p) => [p.path, { nonSlack: p.nonSlackEntitlement, slack: p.slackEntitlement }]),
  );
}

/**
 * A pool's baseline: its own; for a pool not listed in the last period (created
 * since), that period's entitlements; none for a pool listed then without one
 * (over since a new leader's first period: when it was within is not known).
 */
export function baselineOf(
  pool: string,
  baselines: EntitlementBaselines,
): EntitlementsAt | undefined {
  if (Object.hasOwn(baselines, pool)) return baselines[pool];
  const last = Object.hasOwn(baselines, ROOT_PATH) ? baselines[ROOT_PATH] : undefined;
  return last && !last.has(pool) ? last : undefined;
}

/**
 * The baselines for the next period: a pool within its entitlement now
 * takes this period's entitlements (one map shared by all of them, and kept
 * under the root's path too); a pool over it keeps the one it had
 * (`baselineOf`). Pools no longer listed are forgotten.
 */
export function advanceBaselines(
  pools: readonly PreemptionPool[],
  overAllocated: ReadonlySet<string>,
  previous: EntitlementBaselines,
): Record<string, EntitlementsAt> {
  const now = entitlementsAt(pools);
  const next: Record<string, EntitlementsAt> = {};
  for (const p of pools) {
    if (!overAllocated.has(p.path)) next[p.path] = now;
    else {
      const before = baselineOf(p.path, previous);
      if (before) next[p.path] = before;
    }
  }
  next[ROOT_PATH] = now;
  return next;
}

const depth = (path: string) => path.split("/").filter((s) => s.length > 0).length;

/**
 * The pools whose entitlement grew since `before` in a kind of `excess`,
 * and that hold or want that kind: the closest relatives of `victimPool`
 * first (deepest common ancestor), then by path; at most
 * `MAX_BENEFICIARIES`. Each carries its entitlement before.
 */
export function entitlementTakers(
  victimPool: string,
  excess: Resources,
  cls: ResourceClass,
  before: EntitlementsAt,
  pools: readonly PreemptionPool[],
): Beneficiary[] {
  const bits = kindBits(excess);
  const takers: Beneficiary[] = [];
  for (const p of pools) {
    if (p.path === victimPool) continue;
    const n = poolNumbers(p, cls);
    const was = before.get(p.path);
    const entitlementBefore = was
      ? cls === "NON_SLACK"
        ? was.nonSlack
        : was.slack
      : toResources({});
    const grew = subtractResources(n.entitlement, entitlementBefore);
    const took = RESOURCE_KINDS.some(
      (k, i) =>
        (bits & (1 << i)) !== 0 &&
        !amountLessOrEqual(grew[k], 0) &&
        !amountLessOrEqual(n.allocation[k] + n.demand[k], 0),
    );
    if (!took) continue;
    takers.push({
      pool: p.path,
      level: lowestCommonAncestor(victimPool, p.path),
      ...n,
      entitlementBefore,
    });
  }
  takers.sort(
    (a, b) => depth(b.level) - depth(a.level) || (a.pool < b.pool ? -1 : a.pool > b.pool ? 1 : 0),
  );
  return takers.slice(0, MAX_BENEFICIARIES);
}

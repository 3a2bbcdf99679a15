/**
 * Who a preemption is for (the console's "who preempted whom, at which
 * level"): the pools whose demand is unmet while their allocation is below
 * their entitlement, or whose admitted tasks wait for a host, in a kind the
 * victim's pool holds too much of. The
 * level is the lowest common ancestor of the two pools: the parent whose
 * division of its entitlement moved resources from one side to the other.
 */
import { RESOURCE_KINDS } from "../resources/kinds.ts";
import {
  addResources,
  amountLessOrEqual,
  type Resources,
  subtractResources,
} from "../resources/resources.ts";
import { parentPath, ROOT_PATH } from "../respool/path.ts";
import type { ResourceClass } from "../vocabulary/preemption.ts";
import type { PreemptionPool } from "./input.ts";

/** A decision names at most this many beneficiaries, the closest relatives first. */
export const MAX_BENEFICIARIES = 5;

export interface Beneficiary {
  readonly pool: string;
  /** Where the fairness decision happened: the lowest common ancestor of both pools. */
  readonly level: string;
  /** What it waits for: admission (PENDING), or a host (admitted, not placed). */
  readonly demand: Resources;
  /** What it holds on hosts (its admitted, unplaced tasks are in `demand`). */
  readonly allocation: Resources;
  readonly entitlement: Resources;
  /**
   * Present when no pool waited and this one is named because its
   * entitlement grew at the victim pool's expense (takers.ts): what it was
   * at the victim pool's last period within its own.
   */
  readonly entitlementBefore?: Resources;
}

/**
 * A waiting pool's numbers as its beneficiary record shows them: what it
 * holds on hosts, and what it waits for — admission (demand) or a host (its
 * admitted, unplaced tasks).
 */
function waitingNumbers(
  p: PreemptionPool,
  cls: ResourceClass,
): { allocation: Resources; entitlement: Resources; demand: Resources } {
  const n = poolNumbers(p, cls);
  const unplaced = unplacedOf(p, cls);
  if (unplaced === undefined) return n;
  return {
    allocation: subtractResources(n.allocation, unplaced),
    entitlement: n.entitlement,
    demand: addResources(n.demand, unplaced),
  };
}

function unplacedOf(p: PreemptionPool, cls: ResourceClass): Resources | undefined {
  return cls === "NON_SLACK" ? p.unplaced : p.slackUnplaced;
}

/** A pool's numbers for one resource class. */
export function poolNumbers(
  p: PreemptionPool,
  cls: ResourceClass,
): { allocation: Resources; entitlement: Resources; demand: Resources } {
  return cls === "NON_SLACK"
    ? { allocation: p.allocation, entitlement: p.nonSlackEntitlement, demand: p.demand }
    : { allocation: p.slackAllocation, entitlement: p.slackEntitlement, demand: p.slackDemand };
}

export function lowestCommonAncestor(a: string, b: string): string {
  const sa = a.split("/").filter((s) => s.length > 0);
  const sb = b.split("/").filter((s) => s.length > 0);
  let i = 0;
  while (i < sa.length && i < sb.length && sa[i] === sb[i]) i++;
  return i === 0 ? ROOT_PATH : `/${sa.slice(0, i).join("/")}`;
}

/** A bit per kind (cpu, gpu, memory, disk) that is above ε. */
export function kindBits(r: Resources): number {
  let bits = 0;
  RESOURCE_KINDS.forEach((k, i) => {
    if (!amountLessOrEqual(r[k], 0)) bits |= 1 << i;
  });
  return bits;
}

interface Waiting {
  readonly pool: PreemptionPool;
  /** Kinds whose demand is unmet below the entitlement. */
  readonly kinds: number;
}

/**
 * The waiting pools of one resource class, listed under each of their
 * ancestors (by path), so a victim's pool finds its closest ones by walking
 * up its own ancestors instead of comparing itself with every pool.
 */
export class WaitingPools {
  private readonly under = new Map<string, Waiting[]>();

  constructor(
    pools: readonly PreemptionPool[],
    private readonly cls: ResourceClass,
  ) {
    const waiting: Waiting[] = [];
    for (const pool of pools) {
      const { allocation, entitlement, demand } = poolNumbers(pool, cls);
      const unplaced = unplacedOf(pool, cls);
      let kinds = 0;
      RESOURCE_KINDS.forEach((k, i) => {
        const wants = !amountLessOrEqual(demand[k], 0);
        const below = !amountLessOrEqual(entitlement[k], allocation[k]);
        // Admitted within its entitlement, but no host free: it waits for the victims' room.
        const placing = unplaced !== undefined && !amountLessOrEqual(unplaced[k], 0);
        if ((wants && below) || placing) kinds |= 1 << i;
      });
      if (kinds !== 0) waiting.push({ pool, kinds });
    }
    waiting.sort((a, b) => (a.pool.path < b.pool.path ? -1 : a.pool.path > b.pool.path ? 1 : 0));
    for (const w of waiting) {
      for (let a = parentPath(w.pool.path); a !== null; a = parentPath(a)) {
        let list = this.under.get(a);
        if (!list) {
          list = [];
          this.under.set(a, list);
        }
        list.push(w);
      }
    }
  }

  /**
   * The waiting pools that want a kind the victim's pool has in excess: the
   * closest relatives first (deepest common ancestor), then by path; at most
   * `MAX_BENEFICIARIES`.
   */
  beneficiariesOf(victimPool: string, excess: Resources): Beneficiary[] {
    const bits = kindBits(excess);
    const out: Beneficiary[] = [];
    const named = new Set<string>();
    for (let a = parentPath(victimPool); a !== null; a = parentPath(a)) {
      for (const w of this.under.get(a) ?? []) {
        if (out.length === MAX_BENEFICIARIES) return out;
        const path = w.pool.path;
        if (path === victimPool || named.has(path) || (w.kinds & bits) === 0) continue;
        named.add(path);
        out.push({ pool: path, level: a, ...waitingNumbers(w.pool, this.cls) });
      }
    }
    return out;
  }
}

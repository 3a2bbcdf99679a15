/**
 * The cycle's copy of each pool's allocations (STYLE.md §5: simulate on a
 * copy): victims chosen give theirs back, a gang that would be admitted takes
 * its share, so the next decision sees the pool as it will be. A pool's
 * numbers are copied on its first change; the input is never written.
 */
import { RESOURCE_KINDS } from "../resources/kinds.ts";
import { type Resources, subtractAmount } from "../resources/resources.ts";
import type { ResourceClass } from "../vocabulary/preemption.ts";
import type { PreemptionPool } from "./input.ts";

export class PoolAllocations {
  private readonly nonSlack = new Map<string, Resources>();
  private readonly slack = new Map<string, Resources>();

  constructor(private readonly pools: ReadonlyMap<string, PreemptionPool>) {}

  /** The pool's allocation now (a snapshot: later changes do not show in it). */
  get(path: string, cls: ResourceClass): Resources {
    return { ...this.own(path, cls) };
  }

  add(path: string, cls: ResourceClass, r: Resources): void {
    const a = this.own(path, cls);
    for (const k of RESOURCE_KINDS) a[k] += r[k];
  }

  /** Never below 0 (ε-aware, as Peloton subtracts). */
  subtract(path: string, cls: ResourceClass, r: Resources): void {
    const a = this.own(path, cls);
    for (const k of RESOURCE_KINDS) a[k] = subtractAmount(a[k], r[k]);
  }

  private own(path: string, cls: ResourceClass): Resources {
    const copies = cls === "NON_SLACK" ? this.nonSlack : this.slack;
    let a = copies.get(path);
    if (!a) {
      const p = this.pools.get(path)!;
      a = { ...(cls === "NON_SLACK" ? p.allocation : p.slackAllocation) };
      copies.set(path, a);
    }
    return a;
  }
}

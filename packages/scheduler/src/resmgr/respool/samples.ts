/**
 * Entitlement samples for the pool page's chart. A sample holds until the next
 * one, so only numbers that changed are stored, plus every pool now and then
 * (`keepAliveMs`) so that a quiet pool's chart still has recent points and
 * retention never removes the value a range starts with.
 */
import { type EntitlementResult, listPools, RESOURCE_KINDS } from "@peloton/engine";
import type { EntitlementSampleRecord } from "@peloton/storage";
import { numbersOf } from "./entitlements.ts";
import type { PoolSnapshot } from "./snapshot.ts";

/** Every pool's (or the listed pools') numbers per kind at `at`. */
export function samplesOf(
  snapshot: PoolSnapshot,
  result: EntitlementResult,
  at: Date,
  only?: ReadonlySet<string>,
): EntitlementSampleRecord[] {
  const samples: EntitlementSampleRecord[] = [];
  for (const node of listPools(snapshot.tree)) {
    const r = node.record!;
    if (only && !only.has(r.path)) continue;
    const n = numbersOf(result, r.path);
    for (const kind of RESOURCE_KINDS) {
      samples.push({
        poolId: r.id,
        kind,
        at,
        entitlement: n.entitlement[kind],
        slackEntitlement: n.slackEntitlement[kind],
        allocation: n.allocation[kind],
        demand: n.demand[kind],
        reservation: r.resources[kind].reservation,
        limit: r.resources[kind].limit,
      });
    }
  }
  return samples;
}

const valuesKey = (s: EntitlementSampleRecord) =>
  `${s.entitlement}|${s.slackEntitlement}|${s.allocation}|${s.demand}|${s.reservation}|${s.limit}`;

/**
 * What this process last stored per pool and kind. It only knows its own
 * writes: whoever else stores samples (a pool change does) must `forget()`,
 * after which the next round stores everything once.
 */
export class SampleMemory {
  private readonly last = new Map<string, { values: string; at: number }>();

  constructor(private readonly keepAliveMs: number) {}

  /** The samples worth storing: changed since last stored, or not stored for `keepAliveMs`. */
  select(samples: readonly EntitlementSampleRecord[]): EntitlementSampleRecord[] {
    return samples.filter((s) => {
      const prev = this.last.get(`${s.poolId}/${s.kind}`);
      return !prev || prev.values !== valuesKey(s) || s.at.getTime() - prev.at >= this.keepAliveMs;
    });
  }

  remember(stored: readonly EntitlementSampleRecord[]): void {
    for (const s of stored)
      this.last.set(`${s.poolId}/${s.kind}`, { values: valuesKey(s), at: s.at.getTime() });
  }

  forget(): void {
    this.last.clear();
  }
}
